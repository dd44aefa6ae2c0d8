// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleenginecontrol.h"

#include <QHash>

// Scaling's EngineControl over the EngineController: engines start and stop exactly as the launcher
// would, through the node's CommandRunner (SSH for remote nodes, local for this machine). Used by the
// console and pdctl on real clusters; the demo and tests may use SimClusterEngineControl instead.
// Preflight proves the node answers through its runner and reads the engine's process state. The
// proxy is started and stopped the same way, on the node at its address (pdctl proxy start|stop).
namespace pd {

class EngineController;
struct OperationSummary;

class RunnerEngineControl final : public EngineControl {
    Q_OBJECT
public:
    explicit RunnerEngineControl(EngineController *controller, QObject *parent = nullptr);

    void preflight(const EngineRef &engine, PreflightDone done) override;
    void start(const EngineRef &engine, Done done) override;
    void stop(const EngineRef &engine, Done done) override;
    void isRunning(const EngineRef &engine, RunningDone done) override;
    void startProxy(Done done) override;
    void startProxyWith(const ProxyLists &lists, Done done) override;
    void stopProxy(Done done) override;
    void isProxyRunning(RunningDone done) override;
    void proxyCommandLine(CommandLineDone done) override;
    QString describe() const override;

private:
    using Finished = std::function<void(const OperationSummary &)>;
    // Runs `launch` for the one engine; `finished` gets the operation's summary.
    void run(const EngineRef &engine, const std::function<int(const QList<Engine> &)> &launch, Finished finished,
        const std::function<void(const QString &)> &unknown);
    void onFinished(const OperationSummary &summary);
    // The operation `id` (a proxy call on the controller) ends in `finished`.
    void expect(int id, Finished finished) { m_pending.insert(id, std::move(finished)); }

    EngineController *m_controller;
    QHash<int, Finished> m_pending;
};

} // namespace pd
