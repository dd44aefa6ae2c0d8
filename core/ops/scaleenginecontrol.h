// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/scaletypes.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>

// The seam through which scaling starts and stops engine processes, and the console starts and stops
// the load-balancing proxy's process. Asynchronous: callbacks run on the thread the control lives in
// (the GUI thread). Implementations: SimClusterEngineControl (pdsim cluster's control API, for the
// demo and tests) and RunnerEngineControl (the launcher through each node's SSH or local
// CommandRunner on worker threads).
namespace pd {

struct ControlResult {
    bool ok = false;
    QString error;            // why not, naming the node / host
    QString detail;           // what happened, when known ("stopped by SIGTERM, PID 4242", "already running")
};

struct PreflightReport {
    bool ok = false;
    QStringList passed;       // checks that passed, one line each ("node d0 reachable", ...)
    QString error;            // the first failed check
};

class EngineControl : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(const ControlResult &)>;
    using RunningDone = std::function<void(std::optional<bool> running, const QString &error)>;
    using PreflightDone = std::function<void(const PreflightReport &)>;
    // The running proxy's command line (argv), nullopt + error when it is not running or cannot be read.
    using CommandLineDone = std::function<void(std::optional<QStringList> argv, const QString &error)>;

    explicit EngineControl(QObject *parent = nullptr) : QObject(parent) {}
    ~EngineControl() override = default;

    // Node reachable, NPU health, what the implementation can check before a start.
    virtual void preflight(const EngineRef &engine, PreflightDone done) = 0;
    // Starts the engine's process; returns once the start was accepted (not when it serves).
    virtual void start(const EngineRef &engine, Done done) = 0;
    // Stops the engine's process.
    virtual void stop(const EngineRef &engine, Done done) = 0;
    // Whether the engine's process runs (nullopt + error when that cannot be known now).
    virtual void isRunning(const EngineRef &engine, RunningDone done) = 0;

    // The proxy's process, started with the profile's command line (a running one is not started
    // twice) and stopped. While it is down every request fails, and a restarted proxy knows only its
    // command line's instances: what /instances/add added at runtime is gone.
    virtual void startProxy(Done done) = 0;
    // The same process with other instance lists than the profile's: how a proxy without /instances
    // (v0.9.1-dev, pre-v0.13) changes membership at all (ProxyRestartScale). Order is kept.
    virtual void startProxyWith(const ProxyLists &lists, Done done) = 0;
    virtual void stopProxy(Done done) = 0;
    virtual void isProxyRunning(RunningDone done) = 0;
    // What the running proxy was started with: its --max-waiting-retries and --waiting-retry-interval
    // decide how long an added instance stays WAITING (proxy-api §8.1, §13.3).
    virtual void proxyCommandLine(CommandLineDone done) = 0;

    // "pdsim cluster at 127.0.0.1:40000", "ssh" ...: for the audit log and messages.
    virtual QString describe() const = 0;
};

} // namespace pd
