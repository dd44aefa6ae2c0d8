// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "exec/runnerfactory.h"
#include "net/proxyclient.h"
#include "ops/launchspec.h"
#include "ops/operationsummary.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>

#include <memory>

// Starts, stops, restarts and finds the engines and the proxy of a profile through the node's
// CommandRunner (RunnerFactory: local for this machine, SSH for the others).
//
// Threads: lives on the GUI thread; every command runs on its own bounded QThreadPool (at most
// maxParallel() at once, so a 64-engine pool never means 64 threads); results come back to this
// thread as queued calls and leave as signals. Never blocks the caller, the destructor included:
// commands queued but not started are dropped, and a pool with commands still running (a stop waiting
// out its grace on a slow node) is handed to the application and deleted once they return (bounded
// by ControlTimings), so reloading or quitting never waits on a node from the GUI thread.
//
// Each call returns an operation id; progress() follows it, processFinished() reports each engine as
// soon as it is done, operationFinished() the summary with what failed and why. Every outcome of an
// engine also updates the recorded process fact and PID (engineProcessChanged()).
namespace pd {

class EngineController final : public QObject {
    Q_OBJECT

public:
    EngineController(const Profile &profile, std::shared_ptr<RunnerFactory> runners, QObject *parent = nullptr);
    ~EngineController() override;

    // Pools of destroyed controllers whose commands still run (see above); 0 once they all returned.
    static int retiredPoolsRunning();

    void setProfile(const Profile &profile); // forgets recorded PIDs
    const Profile &profile() const { return m_profile; }
    void setTimings(const ControlTimings &timings) { m_timings = timings; }
    const ControlTimings &timings() const { return m_timings; }
    void setMaxParallel(int count);
    int maxParallel() const;
    void setProxyLaunchOptions(const ProxyLaunchOptions &options) { m_proxyOptions = options; }

    // Selections, in the profile's engine order.
    QList<Engine> allEngines() const { return m_profile.engines(); }
    QList<Engine> enginesOfNode(const QString &nodeName) const;
    QList<Engine> enginesOfPool(Role role) const { return m_profile.engines(role); }
    // Engines by id ("host:port" or "node:port"); unknown ids are listed in *unknown.
    QList<Engine> enginesById(const QStringList &ids, QStringList *unknown) const;

    int startEngines(const QList<Engine> &engines);
    int stopEngines(const QList<Engine> &engines);
    int restartEngines(const QList<Engine> &engines);
    // Process state of the engines: one command per node, from pid files and ps.
    int refreshEngines(const QList<Engine> &engines);
    // On connect: refresh every engine of the profile, and note pid files of engines it does not name.
    int rediscover();

    int startProxy();
    // The proxy with these instance lists instead of the profile's (a membership change by restart).
    int startProxyWith(const ProxyLists &lists);
    int stopProxy();
    int refreshProxy();

    // Recorded facts; the proxy's id is "proxy".
    ProcessFact processFact(const QString &engineId) const;
    qint64 pid(const QString &engineId) const; // 0 when not known to run
    bool isBusy() const { return !m_operations.isEmpty(); }

Q_SIGNALS:
    void progress(int operationId, int done, int total);
    void processFinished(int operationId, const pd::ProcessOutcome &outcome);
    void engineProcessChanged(const QString &engineId, pd::ProcessFact fact, qint64 pid);
    void operationFinished(const pd::OperationSummary &summary);

private:
    struct Job {
        QStringList ids; // engine ids or "proxy", one per process
        QList<DetachedProcess> processes; // one, or a node's worth for status
        QStringList knownPidFiles; // with listPidFiles: the pid files the profile names
        bool listPidFiles = false;
    };
    struct Operation {
        OperationSummary summary;
        int total = 0;
        int done = 0;
        QHash<QString, int> slot; // outcome id -> index in summary.outcomes
    };

    int launch(ProcessAction action, const QList<Job> &jobs);
    int launchEngines(ProcessAction action, const QList<Engine> &engines);
    int launchStatus(const QList<Engine> &engines, bool listPidFiles);
    int proxyOperation(ProcessAction action, const Profile &profile);
    void jobDone(int operationId, const QList<ProcessOutcome> &outcomes, const QStringList &notes);
    void record(const ProcessOutcome &outcome);
    int finishImmediately(ProcessAction action, const QList<ProcessOutcome> &outcomes);

    Profile m_profile;
    std::shared_ptr<RunnerFactory> m_runners;
    ControlTimings m_timings;
    ProxyLaunchOptions m_proxyOptions;
    QHash<QString, QPair<ProcessFact, qint64>> m_facts;
    QHash<int, Operation> m_operations;
    int m_nextId = 1;
    QThreadPool *m_pool; // owned; retired to the application on destruction while commands run
};

} // namespace pd
