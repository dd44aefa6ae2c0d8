// SPDX-License-Identifier: MIT
// The auto-eject policy on snapshots: when a unit is ejected, re-added, and each guardrail (last
// instance of a pool, a WAITING instance, a coupled rank only with its whole group, the rate limit).
#include "watch/ejectionpolicy.h"

#include <QTest>

using namespace pd;

namespace {

// Two prefill engines and four decode engines, all serving and listed.
EjectionInput cluster()
{
    EjectionInput in;
    in.nowMs = 1'000'000;
    for (int i = 0; i < 6; ++i) {
        EjectionEngine e;
        e.role = i < 2 ? Role::Prefill : Role::Decode;
        e.id = QStringLiteral("127.0.0.%1:900%2").arg(i < 2 ? 2 : 3).arg(i);
        e.state = EngineState::Serving;
        e.membership = MembershipFact::Active;
        e.answeredBefore = true;
        in.engines.append(e);
    }
    return in;
}

EjectionSettings enabled()
{
    EjectionSettings s;
    s.enabled = true;
    s.badPolls = 3;
    s.readdPolls = 2;
    s.maxEjections = 2;
    s.windowMs = 60'000;
    return s;
}

QStringList units(const EjectionRound &round, EjectionDecision::Action action)
{
    QStringList out;
    for (const EjectionDecision &d : round.decisions)
        if (d.action == action)
            out << d.unit;
    return out;
}

} // namespace

class TestEjectionPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void offByDefault()
    {
        EjectionPolicy policy;
        EjectionInput in = cluster();
        in.engines[3].state = EngineState::Unreachable;
        for (int i = 0; i < 10; ++i)
            QVERIFY(policy.evaluate(in).decisions.isEmpty());
    }

    void ejectsAfterKBadPollsThenReaddsAfterKGood()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        in.engines[3].state = EngineState::Unreachable;
        in.engines[3].reason = QStringLiteral("connection refused 2 polls in a row");
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        const EjectionRound third = policy.evaluate(in);
        QCOMPARE(units(third, EjectionDecision::Action::Eject), QStringList{QStringLiteral("decode 127.0.0.3:9003")});
        QCOMPARE(third.decisions.first().instances, QStringList{QStringLiteral("127.0.0.3:9003")});
        QCOMPARE(third.decisions.first().role, Role::Decode);
        QVERIFY2(third.decisions.first().reason.contains(QStringLiteral("connection refused")), qPrintable(third.decisions.first().reason));
        QVERIFY(policy.isEjected(QStringLiteral("decode 127.0.0.3:9003")));

        // Removed while busy: draining (tainted) in the proxy, and healthy again there. A busy proxy may never
        // finalise that drain (§8.3), so it is taken back after readdPolls good rounds all the same: the
        // Watchdog re-adds it through an operation that ends the drain, or holds the re-add and says why
        // (then readdFailed: tried again later).
        in.engines[3].membership = MembershipFact::Draining;
        in.engines[3].state = EngineState::Draining;
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        const EjectionRound whileDraining = policy.evaluate(in);
        QCOMPARE(units(whileDraining, EjectionDecision::Action::Readd),
            QStringList { QStringLiteral("decode 127.0.0.3:9003") });
        policy.readdFailed(whileDraining.decisions.first());
        QVERIFY(policy.isEjected(QStringLiteral("decode 127.0.0.3:9003")));
        // Unhealthy while draining: not back.
        in.engines[3].state = EngineState::Unreachable;
        for (int i = 0; i < 5; ++i)
            QVERIFY(policy.evaluate(in).decisions.isEmpty());
        // Out of the lists, answering again: back after readdPolls good rounds.
        in.engines[3].membership = MembershipFact::Gone;
        in.engines[3].state = EngineState::ReadyNotInProxy;
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        const EjectionRound back = policy.evaluate(in);
        QCOMPARE(units(back, EjectionDecision::Action::Readd), QStringList{QStringLiteral("decode 127.0.0.3:9003")});
        QCOMPARE(back.decisions.first().instances, QStringList{QStringLiteral("127.0.0.3:9003")});
        QVERIFY(!policy.isEjected(QStringLiteral("decode 127.0.0.3:9003")));
    }

    // An engine the watch never saw up may be loading its weights (minutes on NPUs): not ejected for
    // refusing connections; one that answers with errors or hangs is.
    void neverAnEngineNeverSeenUp()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        in.engines[2].state = EngineState::Stopped;
        in.engines[2].answeredBefore = false;
        in.engines[3].state = EngineState::Unreachable;
        in.engines[3].answeredBefore = false;
        in.engines[4].state = EngineState::Unhealthy;
        in.engines[4].answeredBefore = false;
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QCOMPARE(units(round, EjectionDecision::Action::Eject), QStringList{QStringLiteral("decode 127.0.0.3:9004")});
        QVERIFY(round.refusals.isEmpty());
    }

    void aRecoveryResetsTheCount()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        for (int round = 0; round < 6; ++round) {
            in.engines[4].state = round % 3 == 2 ? EngineState::Serving : EngineState::Stalled;
            QVERIFY(policy.evaluate(in).decisions.isEmpty());
        }
    }

    void neverTheLastListedInstanceOfAPool()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        in.engines[1].membership = MembershipFact::Gone; // prefill: only engine 0 is listed
        in.engines[1].state = EngineState::ReadyNotInProxy;
        in.engines[0].state = EngineState::Unreachable;
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QVERIFY(round.decisions.isEmpty());
        QCOMPARE(round.refusals.size(), 1);
        QCOMPARE(round.refusals.first().unit, QStringLiteral("prefill 127.0.0.2:9000"));
        QVERIFY2(round.refusals.first().why.contains(QStringLiteral("last listed instance")), qPrintable(round.refusals.first().why));
        // Said once, not every round.
        QVERIFY(policy.evaluate(in).refusals.isEmpty());
        // Three dead decoders of four in the same round: two go, the last listed one stays.
        EjectionSettings many = enabled();
        many.maxEjections = 10;
        EjectionPolicy decode(many);
        EjectionInput d = cluster();
        for (int i = 2; i < 6; ++i)
            d.engines[i].state = EngineState::Unreachable;
        for (int i = 0; i < 2; ++i)
            QVERIFY(decode.evaluate(d).decisions.isEmpty());
        const EjectionRound third = decode.evaluate(d);
        QCOMPARE(units(third, EjectionDecision::Action::Eject).size(), 3);
        QCOMPARE(third.refusals.size(), 1);
    }

    void neverAWaitingInstance()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        EjectionGroup group{QStringLiteral("decode@127.0.0.3:13395"), true, GroupHealth::Broken, {4, 5}};
        in.groups.append(group);
        in.engines[4].state = EngineState::Unreachable;
        in.engines[5].state = EngineState::GroupBroken;
        in.engines[5].membership = MembershipFact::Waiting; // added, not activated yet
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QVERIFY(round.decisions.isEmpty());
        QCOMPARE(round.refusals.size(), 1);
        QVERIFY2(round.refusals.first().why.contains(QStringLiteral("WAITING")), qPrintable(round.refusals.first().why));
        // Once activated, the group goes (whole).
        in.engines[5].membership = MembershipFact::Active;
        const EjectionRound next = policy.evaluate(in);
        QCOMPARE(units(next, EjectionDecision::Action::Eject), QStringList{QStringLiteral("group decode@127.0.0.3:13395")});
    }

    void aCoupledRankGoesOnlyWithItsWholeGroup()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        // Decode engines 2..4 form one coupled group; rank 1 (engine 3) died, the others hang.
        in.groups.append({QStringLiteral("decode@127.0.0.3:13395"), true, GroupHealth::Broken, {2, 3, 4}});
        in.engines[3].state = EngineState::Unreachable;
        in.engines[2].state = EngineState::GroupBroken;
        in.engines[4].state = EngineState::GroupBroken;
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QCOMPARE(round.decisions.size(), 1);
        const EjectionDecision &d = round.decisions.first();
        QCOMPARE(d.unit, QStringLiteral("group decode@127.0.0.3:13395"));
        QCOMPARE(d.instances, (QStringList{QStringLiteral("127.0.0.3:9002"), QStringLiteral("127.0.0.3:9003"),
                                           QStringLiteral("127.0.0.3:9004")}));
        for (const EjectionDecision &other : round.decisions)
            QVERIFY(other.instances.size() == 3); // never one rank alone

        // A coupled group holding the whole pool is the last instance: kept, all of it.
        EjectionPolicy whole(enabled());
        EjectionInput all = cluster();
        all.groups.append({QStringLiteral("decode@127.0.0.3:13395"), true, GroupHealth::Broken, {2, 3, 4, 5}});
        all.engines[3].state = EngineState::Unreachable;
        for (int i = 0; i < 3; ++i)
            round = whole.evaluate(all);
        QVERIFY(round.decisions.isEmpty());
        QCOMPARE(round.refusals.size(), 1);
        QCOMPARE(round.refusals.first().unit, QStringLiteral("group decode@127.0.0.3:13395"));
    }

    void atMostMEjectionsPerWindow()
    {
        EjectionSettings s = enabled();
        s.maxEjections = 1;
        EjectionPolicy policy(s);
        EjectionInput in = cluster();
        in.engines[2].state = EngineState::Unhealthy;
        in.engines[3].state = EngineState::Unhealthy;
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QCOMPARE(units(round, EjectionDecision::Action::Eject), QStringList{QStringLiteral("decode 127.0.0.3:9002")});
        QCOMPARE(round.refusals.size(), 1);
        QVERIFY2(round.refusals.first().why.startsWith(QStringLiteral("rate limit")), qPrintable(round.refusals.first().why));
        in.engines[2].membership = MembershipFact::Gone;
        // Still inside the window: still kept.
        in.nowMs += 30'000;
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        // The window has passed: the second goes.
        in.nowMs += 31'000;
        QCOMPARE(units(policy.evaluate(in), EjectionDecision::Action::Eject), QStringList{QStringLiteral("decode 127.0.0.3:9003")});
    }

    void aFailedRemovalIsTriedAgain()
    {
        EjectionPolicy policy(enabled());
        EjectionInput in = cluster();
        in.engines[5].state = EngineState::Unreachable;
        EjectionRound round;
        for (int i = 0; i < 3; ++i)
            round = policy.evaluate(in);
        QCOMPARE(round.decisions.size(), 1);
        policy.ejectionFailed(round.decisions.first().unit);
        QVERIFY(!policy.isEjected(round.decisions.first().unit));
        for (int i = 0; i < 2; ++i)
            QVERIFY(policy.evaluate(in).decisions.isEmpty());
        QCOMPARE(policy.evaluate(in).decisions.size(), 1);
    }

    void noReaddWhenTurnedOffOrReaddedByHand()
    {
        EjectionSettings s = enabled();
        s.readd = false;
        EjectionPolicy policy(s);
        EjectionInput in = cluster();
        in.engines[2].state = EngineState::Unreachable;
        for (int i = 0; i < 3; ++i)
            policy.evaluate(in);
        QVERIFY(policy.isEjected(QStringLiteral("decode 127.0.0.3:9002")));
        in.engines[2].membership = MembershipFact::Gone;
        in.engines[2].state = EngineState::ReadyNotInProxy;
        for (int i = 0; i < 5; ++i)
            QVERIFY(policy.evaluate(in).decisions.isEmpty());
        // The operator added it back: no longer the watchdog's.
        in.engines[2].membership = MembershipFact::Active;
        in.engines[2].state = EngineState::Serving;
        QVERIFY(policy.evaluate(in).decisions.isEmpty());
        QVERIFY(!policy.isEjected(QStringLiteral("decode 127.0.0.3:9002")));
    }
};

QTEST_GUILESS_MAIN(TestEjectionPolicy)
#include "tst_ejectionpolicy.moc"
