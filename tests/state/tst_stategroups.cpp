// SPDX-License-Identifier: MIT
// A rank of the demo's coupled decode group (64 ranks on d0-d3) dies while the group serves: the
// survivors keep answering /health 200 with their token counters frozen (docs/specs/dp-groups.md §3). The
// tracker must show every live rank as GroupBroken and triage must list one group problem within 3 polls.
#include "state/statetracker.h"
#include "statetestutil.h"
#include "triage/triage.h"

#include <QSignalSpy>

using namespace pd;
using namespace pd::test;

namespace {

constexpr int kEngines = 72; // 8 prefill (0-7), then the decode group (8-71)
constexpr int kFirstDecode = 8;
const QString kDecodeGroup = QStringLiteral("decode@127.0.0.6:13395");

} // namespace

class TestStateGroups : public QObject {
    Q_OBJECT

private:
    ClusterStore *m_store = nullptr;
    StateTracker *m_tracker = nullptr;
    Triage *m_triage = nullptr;
    std::int64_t m_now = 1'800'000'000'000;
    int m_tick = 0;

    // One poll round: every engine advances, except the decode ranks when `decodeFrozen` (running
    // requests, counters still) and the engines listed as refused.
    void round(bool decodeFrozen, const QList<int> &refused = {})
    {
        ++m_tick;
        m_now += 1000;
        PollBatch b = healthyRound(kEngines, m_tick);
        if (decodeFrozen) {
            for (int e = kFirstDecode; e < kEngines; ++e)
                b.outcomes[e] = ok(e, 100.0 * m_frozenAt, 50.0 * m_frozenAt, m_frozenAt, 3);
        }
        for (int e : refused)
            b.outcomes[e] = failed(e, PollStatus::Refused);
        m_store->applyPollBatch(b);
    }
    int m_frozenAt = 0;

    int decodeGroupIndex() const
    {
        for (int g = 0; g < m_tracker->groupCount(); ++g) {
            if (m_tracker->groups().groups().at(g).id == kDecodeGroup)
                return g;
        }
        return -1;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(trackDemo(this, &m_store, &m_tracker, [this] { return m_now; }));
        m_triage = new Triage(m_tracker, m_store, this);
        m_tick = 0;
    }
    void cleanup()
    {
        delete m_triage;
        delete m_tracker;
        delete m_store;
    }

    void theDemoHasItsGroups()
    {
        QCOMPARE(m_tracker->groupCount(), 5); // 4 prefill groups of 2, one decode group of 64
        const int g = decodeGroupIndex();
        QVERIFY(g >= 0);
        QVERIFY(m_tracker->groups().groups().at(g).coupled);
        QCOMPARE(m_tracker->groups().groups().at(g).size(), 64);
        QCOMPARE(m_tracker->groupOf(kFirstDecode), g);
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Unknown);
        round(false);
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Serving);
        QCOMPARE(m_triage->count(), 0);
    }

    void aCrashedRankBreaksTheGroupWithinThreePolls()
    {
        for (int i = 0; i < 3; ++i)
            round(false);
        const int g = decodeGroupIndex();
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Serving);
        const int dead = kFirstDecode + 19; // d1's fourth rank (DP 19)
        QSignalSpy appeared(m_triage, &Triage::problemsAppeared);
        // The crash: rank 19 refuses, and progress stops on all the others.
        m_frozenAt = m_tick;
        const std::int64_t crashAt = m_now + 1000;
        int polls = 0;
        while (polls < 3 && m_triage->indexOf(QStringLiteral("group-broken:") + kDecodeGroup) < 0) {
            round(true, { dead });
            ++polls;
        }
        const int at = m_triage->indexOf(QStringLiteral("group-broken:") + kDecodeGroup);
        QVERIFY2(at >= 0, "no group problem within 3 polls of progress stopping");
        QCOMPARE(at, 0); // ranked above everything else

        // Every rank leaves Serving: the dead one is unreachable, the 63 others show "group broken".
        for (int e = kFirstDecode; e < kEngines; ++e) {
            const EngineState expected = e == dead ? EngineState::Unreachable : EngineState::GroupBroken;
            QCOMPARE(m_tracker->state(e), expected);
        }
        QCOMPARE(m_tracker->ownState(kFirstDecode), EngineState::Serving); // what its own facts still say
        QCOMPARE(m_tracker->stateCounts()[int(EngineState::GroupBroken)], 63);
        QCOMPARE(engineStateLabel(EngineState::GroupBroken), QStringLiteral("Group broken"));
        // The prefill groups are untouched.
        for (int e = 0; e < kFirstDecode; ++e)
            QCOMPARE(m_tracker->state(e), EngineState::Serving);

        const GroupState &state = m_tracker->groupState(g);
        QCOMPARE(state.health, GroupHealth::Broken);
        QCOMPARE(state.dead.size(), 1);
        QCOMPARE(m_tracker->groups().groups().at(g).engineIds.at(state.dead.first().rank), QStringLiteral("127.0.0.7:9003"));
        QCOMPARE(state.dead.first().sinceMs, crashAt); // the first failed poll

        // One problem for the group; the dead rank's own problem is folded under it, as is the empty pool.
        const Problem &p = m_triage->problems().at(0);
        QCOMPARE(p.kind, ProblemKind::GroupBroken);
        QCOMPARE(p.severity, ProblemSeverity::Critical);
        QCOMPARE(p.group, kDecodeGroup);
        QCOMPARE(p.engine, dead);
        QCOMPARE(p.engineCount, 64);
        QCOMPARE(p.sinceMs, crashAt);
        QVERIFY2(p.where.contains(kDecodeGroup), qPrintable(p.where));
        QVERIFY2(p.detail.contains(QStringLiteral("127.0.0.7:9003 (DP 19)")), qPrintable(p.detail));
        QVERIFY2(p.detail.contains(QStringLiteral("unreachable")), qPrintable(p.detail));
        QVERIFY2(p.detail.contains(QStringLiteral("the other 63 ranks cannot make progress")), qPrintable(p.detail));
        QVERIFY2(p.nextStep.startsWith(QStringLiteral("Restart the group")), qPrintable(p.nextStep));
        QCOMPARE(m_triage->indexOf(QStringLiteral("engine-unreachable:%1").arg(dead)), -1);
        QCOMPARE(m_triage->indexOf(QStringLiteral("pool-empty:decode")), -1);
        QCOMPARE(m_triage->count(), 1);
        QCOMPARE(appeared.size(), 1);

        // The survivors' reason names the group and the dead rank.
        const DerivedState survivor = m_tracker->derived(kFirstDecode);
        QCOMPARE(survivor.state, EngineState::GroupBroken);
        QVERIFY2(survivor.reason.contains(kDecodeGroup) && survivor.reason.contains(QStringLiteral("127.0.0.7:9003")),
            qPrintable(survivor.reason));
    }

    void anOldExitFactDoesNotDateTheDeath()
    {
        // The console saw no process at start (an adopted cluster it cannot see into), then the rank served.
        m_tracker->setProcess(kFirstDecode + 7, ProcessFact::Exited, QStringLiteral("no process found"));
        round(false);
        round(false);
        QCOMPARE(m_tracker->state(kFirstDecode + 7), EngineState::Serving);
        const std::int64_t crashAt = m_now + 1000;
        round(false, { kFirstDecode + 7 });
        round(false, { kFirstDecode + 7 });
        const GroupState &state = m_tracker->groupState(decodeGroupIndex());
        QCOMPARE(state.health, GroupHealth::Broken);
        QCOMPARE(state.dead.size(), 1);
        QCOMPARE(state.dead.first().sinceMs, crashAt); // the first failed poll, not the old exit fact
    }

    void theGroupHealsWhenEveryRankServesAgain()
    {
        round(false);
        round(false);
        const int dead = kFirstDecode + 40;
        round(false, { dead });
        round(false, { dead });
        QCOMPARE(m_tracker->state(kFirstDecode), EngineState::GroupBroken);
        QCOMPARE(m_tracker->state(dead), EngineState::Unreachable);
        round(false);
        QCOMPARE(m_tracker->groupState(decodeGroupIndex()).health, GroupHealth::Serving);
        for (int e = kFirstDecode; e < kEngines; ++e)
            QCOMPARE(m_tracker->state(e), EngineState::Serving);
        QCOMPARE(m_triage->count(), 0);
    }

    void aStoppedGroupIsNotBroken()
    {
        round(false);
        // The operator stops the whole group: every rank's process exits.
        for (int e = kFirstDecode; e < kEngines; ++e)
            m_tracker->setProcess(e, ProcessFact::Exited, QStringLiteral("stopped"));
        const int g = decodeGroupIndex();
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Stopped);
        for (int e = kFirstDecode; e < kEngines; ++e)
            QCOMPARE(m_tracker->state(e), EngineState::Stopped);
        QCOMPARE(m_triage->indexOf(QStringLiteral("group-broken:") + kDecodeGroup), -1);
    }

    void aGroupStoppedOnPurposeRankByRankIsNoProblem()
    {
        // The console (or pdctl, through the audit log) stops the whole decode group: every rank is
        // declared stopped first, then the processes exit one by one; the ranks still up hang meanwhile.
        round(false);
        for (int e = kFirstDecode; e < kEngines; ++e)
            m_tracker->setIntent(e, OperatorIntent::Stop, QStringLiteral("group-scale-in"));
        const int g = decodeGroupIndex();
        m_tracker->setProcess(kFirstDecode, ProcessFact::Exited, QStringLiteral("stopped"));
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Broken); // what the group is, said as is
        QCOMPARE(m_triage->indexOf(QStringLiteral("group-broken:") + kDecodeGroup), -1); // but no page
        // The demo has one decode group: stopping it empties the pool, which is said (on purpose or not,
        // every decode request fails); nothing else is.
        for (const Problem &p : m_triage->problems())
            QVERIFY2(p.kind == ProblemKind::PoolEmpty || p.kind == ProblemKind::LogError, qPrintable(p.key));
        for (int e = kFirstDecode + 1; e < kEngines; ++e)
            m_tracker->setProcess(e, ProcessFact::Exited, QStringLiteral("stopped"));
        QCOMPARE(m_tracker->groupState(g).health, GroupHealth::Stopped);
        for (const Problem &p : m_triage->problems())
            QVERIFY2(p.kind == ProblemKind::PoolEmpty, qPrintable(p.key));

        // A rank the operator did not stop, in a group nobody is stopping: broken, and said so.
        m_tracker->setProcess(1, ProcessFact::Exited, QStringLiteral("exit status 137"));
        QVERIFY(m_triage->indexOf(QStringLiteral("group-broken:prefill@127.0.0.2:13395")) >= 0);
    }

    void stoppingOneRankOfAServingGroupBreaksIt()
    {
        round(false);
        m_tracker->setProcess(kFirstDecode + 5, ProcessFact::Exited, QStringLiteral("exit status 137"));
        QCOMPARE(m_tracker->groupState(decodeGroupIndex()).health, GroupHealth::Broken);
        QCOMPARE(m_tracker->state(kFirstDecode + 5), EngineState::Stopped);
        QCOMPARE(m_tracker->state(kFirstDecode + 6), EngineState::GroupBroken);
        // One prefill group of 2 is a group too: stopping one of its ranks breaks only that group.
        m_tracker->setProcess(1, ProcessFact::Exited, QStringLiteral("exit status 1"));
        QCOMPARE(m_tracker->state(0), EngineState::GroupBroken);
        QCOMPARE(m_tracker->state(2), EngineState::Serving);
        QVERIFY(m_triage->indexOf(QStringLiteral("group-broken:prefill@127.0.0.2:13395")) >= 0);
    }
};

QTEST_GUILESS_MAIN(TestStateGroups)
#include "tst_stategroups.moc"
