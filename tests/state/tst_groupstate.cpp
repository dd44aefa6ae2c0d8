// SPDX-License-Identifier: MIT
// deriveGroupState: a DP group's state from its ranks' own states (docs/specs/dp-groups.md §2-3).
#include "state/groupstate.h"

#include <QTest>

using namespace pd;

namespace {

GroupRankInput rank(EngineState state, std::int64_t since = 1000, bool ranBefore = true, std::int64_t diedAt = 0)
{
    GroupRankInput r;
    r.state = state;
    r.sinceMs = since;
    r.ranBefore = ranBefore;
    r.diedAtMs = diedAt;
    return r;
}

QList<GroupRankInput> all(int n, EngineState state)
{
    QList<GroupRankInput> ranks;
    for (int i = 0; i < n; ++i)
        ranks.append(rank(state));
    return ranks;
}

} // namespace

class TestGroupState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void allRunningServes()
    {
        QList<GroupRankInput> ranks = all(4, EngineState::Serving);
        ranks[2].state = EngineState::ReadyNotInProxy; // routing around a rank is harmless
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Serving);
        QVERIFY(g.dead.isEmpty());
        QCOMPARE(g.live, 4);
        QCOMPARE(rankStateInGroup(EngineState::Serving, true, g.health), EngineState::Serving);
    }

    void oneCrashedRankBreaksTheCoupledGroup_data()
    {
        QTest::addColumn<EngineState>("dead");
        QTest::newRow("unreachable") << EngineState::Unreachable;
        QTest::newRow("unhealthy") << EngineState::Unhealthy;
        QTest::newRow("stopped") << EngineState::Stopped;
    }
    void oneCrashedRankBreaksTheCoupledGroup()
    {
        QFETCH(EngineState, dead);
        QList<GroupRankInput> ranks = all(4, EngineState::Serving);
        ranks[1] = rank(dead, 5000, true, 4200);
        ranks[3].state = EngineState::Stalled; // hung already
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Broken);
        QCOMPARE(g.dead.size(), 1);
        QCOMPARE(g.dead.first().rank, 1);
        QCOMPARE(g.dead.first().state, dead);
        QCOMPARE(g.dead.first().sinceMs, std::int64_t(4200)); // the first failed poll, not the verdict
        QCOMPARE(g.brokenSinceMs, std::int64_t(4200));
        QCOMPARE(g.live, 3);
        // The survivors show GroupBroken, the dead rank keeps its own state.
        for (EngineState survivor : { EngineState::Serving, EngineState::Stalled, EngineState::Starting,
                 EngineState::Draining, EngineState::ReadyNotInProxy })
            QCOMPARE(rankStateInGroup(survivor, true, g.health), EngineState::GroupBroken);
        QCOMPARE(rankStateInGroup(dead, true, g.health), dead);
        QCOMPARE(groupHealthName(g.health), QStringLiteral("broken"));
    }

    void allStoppedIsStoppedNotBroken()
    {
        QList<GroupRankInput> ranks = all(4, EngineState::Stopped);
        ranks[0].diedAtMs = 9000; // stopped at different times: still a stopped group
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Stopped);
        QVERIFY(g.dead.isEmpty());
        QCOMPARE(groupHealthName(g.health), QStringLiteral("stopped"));
    }

    void partiallyStartedIsStarting()
    {
        // Some ranks answer already, others still load weights: nothing is dead.
        QList<GroupRankInput> ranks = all(4, EngineState::Starting);
        ranks[0].state = EngineState::Serving;
        ranks[1].state = EngineState::ReadyNotInProxy;
        QCOMPARE(deriveGroupState(true, ranks).health, GroupHealth::Starting);
        QCOMPARE(rankStateInGroup(EngineState::Starting, true, GroupHealth::Starting), EngineState::Starting);
        // A rank not launched yet (never ran, stopped before the start began) while the others load.
        QList<GroupRankInput> launching = all(4, EngineState::Starting);
        for (GroupRankInput &r : launching)
            r.sinceMs = 10'000;
        launching[3] = rank(EngineState::Stopped, 2000, false);
        QCOMPARE(deriveGroupState(true, launching).health, GroupHealth::Starting);
        // Not observed yet counts as starting, not as dead.
        launching[3] = rank(EngineState::Unknown);
        QCOMPARE(deriveGroupState(true, launching).health, GroupHealth::Starting);
    }

    void aRankCrashingDuringStartUpBreaksTheGroup()
    {
        QList<GroupRankInput> ranks = all(4, EngineState::Starting);
        for (GroupRankInput &r : ranks)
            r.sinceMs = 10'000;
        ranks[2] = rank(EngineState::Stopped, 12'000, true, 11'500); // its process exited after the start
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Broken);
        QCOMPARE(g.dead.size(), 1);
        QCOMPARE(g.dead.first().rank, 2);
        QCOMPARE(rankStateInGroup(EngineState::Starting, true, g.health), EngineState::GroupBroken);
    }

    void aStoppedRankBesideServingRanksIsDead()
    {
        // Stopping one rank's process while the others serve breaks the group (routing around it does not).
        QList<GroupRankInput> ranks = all(3, EngineState::Serving);
        ranks[0] = rank(EngineState::Stopped, 3000, false);
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Broken);
        QCOMPARE(g.dead.first().rank, 0);
    }

    void independentGroupOnlyAffectsTheDeadRank()
    {
        QList<GroupRankInput> ranks = all(4, EngineState::Serving);
        ranks[1] = rank(EngineState::Unreachable, 5000);
        const GroupState g = deriveGroupState(false, ranks);
        QCOMPARE(g.health, GroupHealth::Degraded);
        QCOMPARE(g.dead.size(), 1);
        QCOMPARE(g.dead.first().rank, 1);
        QCOMPARE(rankStateInGroup(EngineState::Serving, false, g.health), EngineState::Serving);
        // A stopped independent rank is a choice, not a death.
        ranks[1] = rank(EngineState::Stopped, 5000);
        const GroupState spare = deriveGroupState(false, ranks);
        QCOMPARE(spare.health, GroupHealth::Serving);
        QVERIFY(spare.dead.isEmpty());
        // Every independent rank dead: nothing runs, and still no overlay.
        const GroupState gone = deriveGroupState(false, all(2, EngineState::Unreachable));
        QCOMPARE(gone.health, GroupHealth::Stopped);
        QCOMPARE(rankStateInGroup(EngineState::Unreachable, false, gone.health), EngineState::Unreachable);
    }

    void everyRankDownIsStoppedWithTheFailedRanksNamed()
    {
        // No survivor hangs: the group is not running; the ranks that failed (not stopped cleanly) are named.
        QList<GroupRankInput> ranks = all(4, EngineState::Stopped);
        ranks[2] = rank(EngineState::Unreachable, 7000);
        const GroupState g = deriveGroupState(true, ranks);
        QCOMPARE(g.health, GroupHealth::Stopped);
        QCOMPARE(g.live, 0);
        QCOMPARE(g.dead.size(), 1);
        QCOMPARE(g.dead.first().rank, 2);
    }

    void nothingObservedIsUnknown()
    {
        QCOMPARE(deriveGroupState(true, all(4, EngineState::Unknown)).health, GroupHealth::Unknown);
        QCOMPARE(deriveGroupState(true, {}).health, GroupHealth::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestGroupState)
#include "tst_groupstate.moc"
