// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/dpgroups.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>

// The lifecycle of the coupled DP groups of a simulated cluster (docs/pdsim-engine.md "DP groups",
// dp-groups.md §2-3). A coupled group's ranks wait in a rendezvous until every rank has started, then
// serve; when one of its ranks dies the others block (frozen) and, after the watchdog timeout, exit.
// Ranks of independent groups are not managed here.
//
// Thread contract: the coordinator lives in the thread of the SimCluster (control API, timers); the
// ranks live on the shards' threads. Everything reaches it in its own thread (control API calls, the
// shards' queued signals), and it reaches the ranks only through RankActions, which post to the shard
// threads. Events about a rank's process carry the serial of the start that made it, so a stale event
// (a crash reported after the rank was started again) cannot break a newer group.
namespace pd::sim {

class DpGroupCoordinator final : public QObject {
    Q_OBJECT
public:
    enum class RankState { Down, Joining, Member, Frozen };
    enum class GroupState { Independent, Stopped, Joining, Serving, Broken, Failed };

    struct Timing {
        double joinTimeoutSeconds = 1800;       // simulated
        double watchdogTimeoutSeconds = 1800;   // simulated; the group's HCCL_EXEC_TIMEOUT
    };
    // What the coordinator asks of the ranks (engine indexes of the cluster); each posts to the rank's thread.
    struct RankActions {
        std::function<void(int index, quint64 serial)> startGated;
        std::function<void(int index)> stop;
        std::function<void(int index)> formed;
        std::function<void(int index, bool blocked)> block;
        std::function<void(int index, int timeoutSeconds, int joined, int size, const QString &master)> exitJoinTimeout;
        std::function<void(int index, int timeoutSeconds, int deadRank)> exitWatchdog;
    };
    struct GroupView {
        const pd::DpGroup *group = nullptr;
        GroupState state = GroupState::Independent;
        QList<RankState> ranks;   // same order as group->engines
        qint64 sinceMs = 0;       // wall clock (ms since the epoch) of the last state change
        QString lastExit;         // "join-timeout" / "watchdog" after the group's ranks exited so
    };

    // timing: one per group of `groups`, same order; timeScale: simulated seconds per real second.
    DpGroupCoordinator(const pd::DpGroups &groups, QList<Timing> timing, double timeScale, RankActions actions,
        QObject *parent = nullptr);
    ~DpGroupCoordinator() override;

    // True for a rank of a coupled group (start/stop must go through the coordinator).
    bool manages(int engineIndex) const;
    // The control API's start of a rank: a down or frozen rank (re)starts and joins; others: nothing.
    void start(int engineIndex);
    // The control API's stop: the process is killed; a serving group breaks.
    void stop(int engineIndex);
    // A rank's process ended by itself (crash, could not listen); serial from its start.
    void rankExited(int engineIndex, quint64 serial);

    QList<GroupView> groups() const;
    // The group index (into groups()) of an engine, -1 if none; the engine's state in a coupled group.
    int groupOf(int engineIndex) const;
    RankState rankState(int engineIndex) const;

    static QString groupStateName(GroupState state);
    static QString rankStateName(RankState state);

Q_SIGNALS:
    void groupChanged(const QString &groupId, const QString &state);

private:
    struct Group;
    Group *groupFor(int engineIndex, int *position) const;
    void rankDown(Group &g, int position);
    void form(Group &g);
    void joinTimedOut(Group &g);
    void watchdogFired(Group &g);
    void update(Group &g);
    int realMs(double simulatedSeconds) const;

    pd::DpGroups m_dpGroups;
    std::vector<std::unique_ptr<Group>> m_groups;
    QList<int> m_groupOfEngine; // engine index -> group index
    double m_timeScale = 1;
    RankActions m_actions;
};

} // namespace pd::sim
