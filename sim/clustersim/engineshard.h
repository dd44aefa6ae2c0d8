// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineoptions.h"
#include "engine/simengine.h"

#include <QList>
#include <QObject>

// A share of a simulated cluster's engines living in one worker thread, all driven by that thread's
// single EngineScheduler. Thread contract: constructed anywhere, then moved to its thread; every
// public method runs in that thread (callers use QMetaObject::invokeMethod), signals are queued out.
namespace pd::sim {

struct EngineSnapshot {
    int index = 0;                    // the engine's index in the cluster
    SimEngine::Status status = SimEngine::Status::Stopped;
    EngineState state;
};

class EngineShard final : public QObject {
    Q_OBJECT
public:
    EngineShard(const QList<EngineOptions> &options, const QList<int> &indexes);
    ~EngineShard() override;

    void startAll();
    void stopAll();                  // like killed processes
    bool start(int index);
    bool stop(int index);
    bool setFault(int index, FaultKind kind, int ms);
    // A rank of a coupled DP group: a new process (the old one, if any, killed first) that waits in the
    // group's rendezvous; `serial` tags what engineExited() reports about this process.
    bool startGated(int index, quint64 serial);
    bool groupFormed(int index);
    bool setGroupBlocked(int index, bool blocked);
    bool exitJoinTimeout(int index, int timeoutSeconds, int joined, int size, const QString &master);
    bool exitWatchdog(int index, int timeoutSeconds, int deadRank);
    QList<EngineSnapshot> snapshot() const;
    bool owns(int index) const { return m_indexes.contains(index); }

Q_SIGNALS:
    void engineReady(int index);
    void engineFailed(int index, const QString &reason);
    void engineStopped(int index);
    // The process ended on its own (crash fault, a group timeout, could not listen); serial as given
    // to startGated (0 otherwise).
    void engineExited(int index, quint64 serial);

private:
    void ensureEngines();
    SimEngine *engineFor(int index) const;

    QList<EngineOptions> m_options;
    QList<int> m_indexes;
    EngineScheduler *m_scheduler = nullptr;
    QList<SimEngine *> m_engines;
    QList<quint64> m_serials;
};

} // namespace pd::sim
