// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scalecontext.h"
#include "ops/scaletypes.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

// Rolling restart of a pool or a selection (after a config or model change): node by node, one
// engine at a time, each engine drained out of the proxy and stopped (ScaleIn), started again,
// waited for and added back (ScaleOut). The ranks of a coupled DP group are one unit instead: the whole
// group restarts at once (DpGroupOperation, "group-restart"), one group at a time. Never takes the pool
// below the operator's floor of active instances (a group counts with all its active ranks); pauses on
// the first failure and says why; resume() retries from where it stopped.
namespace pd {

class ScaleOperation;
class ScaleRunner;

class RollingRestart final : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Finished, Cancelled };

    RollingRestart(
        QList<EngineRef> engines, int floor, ScaleContext *context, ScaleRunner *runner, QObject *parent = nullptr);

    // Before start(): restart the given ranks of coupled groups one by one, as independent engines
    // (the operator's explicit breakGroups override).
    void setBreakGroups(bool breakGroups);

    void start();
    void resume();
    void cancel(); // cancels the running operation; the engine may be left out of the proxy

    State state() const { return m_state; }
    int floor() const { return m_floor; }
    int done() const { return m_index; } // units finished (restarted or skipped)
    int total() const { return int(m_units.size()); } // units: engines, or whole coupled DP groups
    QString reason() const { return m_reason; } // why it paused, or what it skipped
    const QList<EngineRef> &engines() const { return m_engines; }

Q_SIGNALS:
    void progressed(int done, int total, const QString &line);
    void paused(const QString &reason);
    void finished();

private:
    void next();
    void pause(const QString &reason);
    void bringBack(const EngineRef &engine);
    // What next() and restartGroup() do once the membership table answered.
    void afterMembershipRead(const EngineRef &engine, bool listed);
    void afterGroupMembershipRead(const QString &groupId, const QList<EngineRef> &ranks, bool listed);
    void restartGroup(const QString &groupId, const QList<EngineRef> &ranks);
    void buildUnits(bool groups);

    QList<EngineRef> m_engines; // node by node, rank order inside a node
    // What restarts as one: an engine alone, or every rank of its coupled DP group (group id set).
    struct Unit {
        QString groupId;
        QList<EngineRef> engines;
    };
    QList<Unit> m_units;
    int m_floor;
    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
    State m_state = State::Idle;
    int m_index = 0;
    QString m_reason;
    QElapsedTimer m_drainClock; // how long the stopped engine has been waiting for its drain
    bool m_stopped = false; // the current engine was taken out and stopped
    QPointer<ScaleOperation> m_current;
};

} // namespace pd
