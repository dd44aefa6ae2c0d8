// SPDX-License-Identifier: MIT
// Problems from states: ranking, node grouping, pool emptiness, acknowledgement, notifications.
#include "nodecheck/checksummary.h"
#include "state/statetracker.h"
#include "statetestutil.h"
#include "triage/notificationpolicy.h"
#include "triage/triage.h"

#include <QDateTime>
#include <QSignalSpy>

using namespace pd;
using namespace pd::test;

namespace {

TriageEngine eng(EngineState s, int node, Role role, std::int64_t since = 1000)
{
    TriageEngine e;
    e.state = s;
    e.node = node;
    e.role = role;
    e.sinceMs = since;
    e.membership = MembershipFact::Active;
    e.reason = engineStateName(s);
    e.label = QStringLiteral("engine on node %1").arg(node);
    return e;
}

TriageInput cluster()
{
    TriageInput in;
    const char *const names[] = { "p0", "d0", "d1" };
    for (int n = 0; n < 3; ++n) {
        TriageNode node;
        node.name = QString::fromLatin1(names[n]);
        node.address = QStringLiteral("10.0.0.%1").arg(n + 1);
        in.nodes.append(node);
    }
    for (int i = 0; i < 2; ++i)
        in.engines.append(eng(EngineState::Serving, 0, Role::Prefill));
    for (int n = 1; n <= 2; ++n)
        for (int i = 0; i < 4; ++i)
            in.engines.append(eng(EngineState::Serving, n, Role::Decode));
    in.proxyKnown = true;
    in.proxy.reachable = true;
    in.proxy.prefillInstances = 2;
    in.proxy.decodeInstances = 8;
    in.proxyWhere = QStringLiteral("10.0.0.9:8000");
    return in;
}

QStringList keys(const QList<Problem> &problems)
{
    QStringList k;
    for (const Problem &p : problems)
        k.append(p.key);
    return k;
}

// d0 and d1's eight decode engines (2..9) as one DP group, serving.
TriageGroup decodeGroup(bool coupled)
{
    TriageGroup group;
    group.id = QStringLiteral("decode@10.0.0.2:13395");
    group.role = Role::Decode;
    group.coupled = coupled;
    group.health = GroupHealth::Serving;
    group.nodes = { QStringLiteral("d0"), QStringLiteral("d1") };
    for (int i = 2; i < 10; ++i)
        group.engines.append(i);
    return group;
}

const Problem *find(const QList<Problem> &problems, const QString &key)
{
    for (const Problem &p : problems) {
        if (p.key == key)
            return &p;
    }
    return nullptr;
}
// A pointer into a list that is gone at the end of the statement: refused at compile time.
const Problem *find(QList<Problem> &&problems, const QString &key) = delete;

constexpr std::int64_t kNow = 1'800'000'000'000;

Problem problem(const QString &key, ProblemSeverity s, bool acked = false)
{
    Problem p;
    p.key = key;
    p.severity = s;
    p.what = QStringLiteral("What ") + key;
    p.where = QStringLiteral("where");
    p.detail = QStringLiteral("detail");
    p.acknowledged = acked;
    return p;
}

} // namespace

class TestTriage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void healthyClusterHasNoProblem() { QVERIFY(findProblems(cluster()).isEmpty()); }

    void rankingFollowsTheIssue()
    {
        TriageInput in = cluster();
        in.engines[0].state = EngineState::Unreachable; // prefill pool: one of two left
        in.engines[1].state = EngineState::Stalled; // prefill pool empty now
        in.engines[3].state = EngineState::Unhealthy;
        in.engines[4].state = EngineState::ReadyNotInProxy;
        in.engines[4].membership = MembershipFact::Dropped;
        in.nodes[2].sshKnown = true;
        in.nodes[2].sshUp = false;
        in.nodes[2].sshError = QStringLiteral("connection timed out");
        in.proxy.reachable = false;
        in.proxy.error = QStringLiteral("Connection refused");
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("pool-empty:prefill"), QStringLiteral("proxy-unreachable"),
                QStringLiteral("listed-but-dead:0"), QStringLiteral("engine-stalled:1"),
                QStringLiteral("engine-unhealthy:3"), QStringLiteral("node-ssh-down:2"),
                QStringLiteral("proxy-dropped-add:4") }));
        QCOMPARE(problems.at(0).severity, ProblemSeverity::Critical);
        QCOMPARE(problems.at(0).what, QStringLiteral("Prefill pool empty"));
        QCOMPARE(problems.at(0).detail, QStringLiteral("none of its 2 engines serves"));
        QCOMPARE(problems.at(1).severity, ProblemSeverity::Critical);
        QCOMPARE(problems.at(1).detail, QStringLiteral("Connection refused"));
        QCOMPARE(problems.at(2).severity, ProblemSeverity::Error);
        QCOMPARE(problems.at(2).engine, 0);
        QCOMPARE(problems.at(2).what, QStringLiteral("Proxy routes to a dead engine"));
        QCOMPARE(problems.at(2).evidence.value(0), QStringLiteral("the proxy lists it as an active prefill instance"));
        QCOMPARE(problems.at(5).node, 2);
        QCOMPARE(problems.at(6).severity, ProblemSeverity::Warning);
        for (const Problem &p : problems)
            QVERIFY2(!p.nextStep.isEmpty() && !p.where.isEmpty(), qPrintable(p.key));
    }

    void olderEngineProblemsFirst()
    {
        TriageInput in = cluster();
        in.engines[5].state = EngineState::Unreachable;
        in.engines[5].membership = MembershipFact::Gone; // removed from the proxy already
        in.engines[5].sinceMs = 5000;
        in.engines[7].state = EngineState::Stalled;
        in.engines[7].sinceMs = 2000;
        QCOMPARE(keys(findProblems(in)),
            (QStringList { QStringLiteral("engine-stalled:7"), QStringLiteral("engine-unreachable:5") }));
    }

    // The proxy keeps picking a dead least-loaded instance: its share of every request fails, so a dead
    // engine still listed ranks above every other engine problem, however new it is.
    void listedButDeadIsTheTopEngineError()
    {
        TriageInput in = cluster();
        in.engines[7].state = EngineState::Stalled;
        in.engines[7].sinceMs = 2000;
        in.engines[8].state = EngineState::Unhealthy;
        in.engines[8].sinceMs = 1000;
        in.engines[5].state = EngineState::Unreachable; // Active: the proxy still routes to it
        in.engines[5].sinceMs = 9000;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("listed-but-dead:5"), QStringLiteral("engine-unhealthy:8"),
                QStringLiteral("engine-stalled:7") }));
        QCOMPARE(problems.at(0).kind, ProblemKind::ListedButDead);
        QCOMPARE(problems.at(0).severity, ProblemSeverity::Error);
        QVERIFY2(problems.at(0).nextStep.startsWith(QStringLiteral("Remove it from the proxy")),
            qPrintable(problems.at(0).nextStep));
        // Once removed (Draining, then Gone) it is an unreachable engine like any other.
        in.engines[5].membership = MembershipFact::Draining;
        QCOMPARE(keys(findProblems(in)).value(2), QStringLiteral("engine-unreachable:5"));
        in.engines[5].membership = MembershipFact::Gone;
        QCOMPARE(keys(findProblems(in)).value(2), QStringLiteral("engine-unreachable:5"));
    }

    void aWholeNodeDownIsOneProblem()
    {
        TriageInput in = cluster();
        for (int i = 2; i < 6; ++i)
            in.engines[i].state = EngineState::Unreachable;
        in.engines[8].state = EngineState::Stalled;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("listed-but-dead:node:1"), QStringLiteral("engine-stalled:8") }));
        QCOMPARE(problems.at(0).scope, ProblemScope::Node);
        QCOMPARE(problems.at(0).engineCount, 4);
        QCOMPARE(problems.at(0).where, QStringLiteral("node d0"));
        QCOMPARE(problems.at(0).what, QStringLiteral("Proxy routes to a dead engine (all 4 engines of the node)"));
        QCOMPARE(problems.at(0).engine, 2);
    }

    void severalEnginesOfANodeAreOneProblem()
    {
        TriageInput in = cluster();
        for (int i = 6; i < 9; ++i)
            in.engines[i].state = EngineState::Stalled; // 3 of d1's 4
        in.engines[2].state = EngineState::Unhealthy; // 2 of d0's 4: listed one by one
        in.engines[3].state = EngineState::Unhealthy;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("engine-stalled:node:2"), QStringLiteral("engine-unhealthy:2"),
                QStringLiteral("engine-unhealthy:3") }));
        QCOMPARE(problems.at(0).what, QStringLiteral("Engine stalled (3 of the node's 4 engines)"));
        QCOMPARE(problems.at(0).engineCount, 3);
        QCOMPARE(problems.at(0).engine, 6);
    }

    void stoppedCountsOnlyWhileTheProxyRoutesToIt()
    {
        TriageInput in = cluster();
        in.engines[2].state = EngineState::Stopped;
        in.engines[3].state = EngineState::Stopped;
        in.engines[3].membership = MembershipFact::Gone;
        in.engines[4].state = EngineState::ReadyNotInProxy;
        in.engines[4].membership = MembershipFact::Configured;
        in.engines[9].state = EngineState::Stopped;
        in.engines[9].membership = MembershipFact::Waiting; // added, not routed to yet
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems), (QStringList { QStringLiteral("listed-but-dead:2"), QStringLiteral("engine-unreachable:9") }));
        QCOMPARE(problems.at(0).what, QStringLiteral("Proxy routes to a stopped engine"));
        QCOMPARE(problems.at(1).what, QStringLiteral("Engine not running, yet in the proxy"));
    }

    void stoppedOnPurposeIsNoProblem()
    {
        TriageInput in = cluster();
        // Stopped by the operator while the proxy still lists it (draining until idle, or not yet seen
        // removed): no problem. The same stop with no intent is the listed-but-dead error.
        in.engines[2].state = EngineState::Stopped;
        in.engines[2].membership = MembershipFact::Draining;
        in.engines[2].intent = OperatorIntent::Stop;
        in.engines[3].state = EngineState::Stopped;
        in.engines[3].intent = OperatorIntent::Stop; // still active in the proxy's list
        in.engines[4].state = EngineState::Draining;
        in.engines[4].membership = MembershipFact::Gone;
        in.engines[4].intent = OperatorIntent::Drain;
        in.engines[5].state = EngineState::Stopped; // no intent, listed: a crash SSH saw
        in.engines[6].state = EngineState::Unreachable; // no intent, draining: a crash
        in.engines[6].membership = MembershipFact::Draining;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems), (QStringList { QStringLiteral("listed-but-dead:5"), QStringLiteral("engine-unreachable:6") }));
        for (const Problem &p : problems)
            QCOMPARE(p.severity, ProblemSeverity::Error);
    }

    void aPoolTheOperatorEmptiedIsStillEmpty()
    {
        TriageInput in = cluster();
        for (int i = 0; i < 2; ++i) {
            in.engines[i].state = EngineState::Stopped;
            in.engines[i].membership = MembershipFact::Gone;
            in.engines[i].intent = OperatorIntent::Stop;
        }
        in.proxy.prefillInstances = 0;
        QCOMPARE(keys(findProblems(in)), QStringList { QStringLiteral("pool-empty:prefill") });
    }

    void aBrokenGroupIsOneProblemAboveItsRanks()
    {
        // d0 and d1 hold one coupled decode group of 8; engine 3 (on d0) died, the 7 others hang.
        TriageInput in = cluster();
        TriageGroup group;
        group.id = QStringLiteral("decode@10.0.0.2:13395");
        group.role = Role::Decode;
        group.coupled = true;
        group.health = GroupHealth::Broken;
        group.nodes = { QStringLiteral("d0"), QStringLiteral("d1") };
        for (int i = 2; i < 10; ++i)
            group.engines.append(i);
        group.dead = { GroupDeadRank { 1, EngineState::Unreachable, 4000 } };
        group.sinceMs = 4000;
        in.groups.append(group);
        for (int i = 2; i < 10; ++i)
            in.engines[i].state = EngineState::GroupBroken;
        in.engines[3].state = EngineState::Unreachable;
        in.engines[3].label = QStringLiteral("d0 · 10.0.0.2:9001 (DP 1)");
        in.engines[5].state = EngineState::Stalled; // a survivor's own symptom: folded as well
        in.engines[5].freshness = FreshnessFact::Stale;
        in.engines[0].state = EngineState::Unhealthy; // a prefill engine: its own problem, ranked below
        in.engines[0].sinceMs = 10;
        in.proxy.reachable = false; // the whole cluster's outage stays on top
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("proxy-unreachable"), QStringLiteral("group-broken:decode@10.0.0.2:13395"),
                QStringLiteral("engine-unhealthy:0") }));
        const Problem &p = problems.at(1);
        QCOMPARE(p.kind, ProblemKind::GroupBroken);
        QCOMPARE(p.severity, ProblemSeverity::Critical);
        QCOMPARE(p.scope, ProblemScope::Group);
        QCOMPARE(p.group, group.id);
        QCOMPARE(p.engine, 3);
        QCOMPARE(p.node, 1);
        QCOMPARE(p.engineCount, 8);
        QCOMPARE(p.sinceMs, std::int64_t(4000));
        QCOMPARE(p.folded.size(), 8);
        QCOMPARE(p.what, QStringLiteral("DP group broken: 1 rank dead"));
        QCOMPARE(p.where, QStringLiteral("group decode@10.0.0.2:13395 (8 ranks on d0, d1)"));
        QVERIFY2(p.detail.startsWith(QStringLiteral("d0 · 10.0.0.2:9001 (DP 1) unreachable since ")), qPrintable(p.detail));
        QVERIFY2(p.detail.endsWith(QStringLiteral("the other 7 ranks cannot make progress (they still answer /health 200 "
                                                  "but produce no tokens)")),
            qPrintable(p.detail));
        QVERIFY(p.nextStep.startsWith(QStringLiteral("Restart the group")));
        // The decode pool has no serving engine, but the group says why: no separate pool problem.
        QVERIFY(p.evidence.join(QLatin1Char('\n')).contains(QStringLiteral("no other decode engine serves")));

        // An independent group with a dead rank: only that rank's problem.
        in.groups[0].coupled = false;
        in.groups[0].health = GroupHealth::Degraded;
        for (int i = 2; i < 10; ++i)
            in.engines[i].state = EngineState::Serving;
        in.engines[3].state = EngineState::Unreachable;
        in.engines[5].freshness = FreshnessFact::Fresh;
        in.proxy.reachable = true;
        QCOMPARE(keys(findProblems(in)),
            (QStringList { QStringLiteral("listed-but-dead:3"), QStringLiteral("engine-unhealthy:0") }));
    }

    // A rank of a coupled DP group cannot be restarted alone (it cannot rejoin, and stopping it hangs the
    // others): its engine problems name the group restart. An independent rank keeps "restart it".
    void aCoupledRanksAdviceNamesTheGroupRestart()
    {
        TriageInput in = cluster();
        in.groups.append(decodeGroup(true));
        in.engines[5].state = EngineState::Stalled;
        in.engines[7].state = EngineState::Unhealthy; // its group would be broken; the pure function still advises
        const QString groupWords = QStringLiteral("restart DP group decode@10.0.0.2:13395: its 8 ranks stop and "
                                                  "start together (Problems ▸ Restart group)");
        QList<Problem> problems = findProblems(in);
        QCOMPARE(
            keys(problems), (QStringList { QStringLiteral("engine-stalled:5"), QStringLiteral("engine-unhealthy:7") }));
        for (const Problem &p : problems) {
            QVERIFY2(p.nextStep.contains(groupWords), qPrintable(p.nextStep));
            QVERIFY2(!p.nextStep.contains(QStringLiteral("restart it")), qPrintable(p.nextStep));
            QCOMPARE(p.group, QStringLiteral("decode@10.0.0.2:13395")); // the panel's Restart group acts on it
        }
        QCOMPARE(problems.at(0).nextStep,
            QStringLiteral("Read the engine's log for a hung collective (HCCL) or NPU error, then ") + groupWords
                + QStringLiteral("; a rank alone cannot rejoin its group."));

        // Three ranks of one node: the node's problem names their group too.
        in.engines[2].state = EngineState::Stalled;
        in.engines[3].state = EngineState::Stalled;
        in.engines[4].state = EngineState::Stalled;
        const QList<Problem> onNode = findProblems(in); // kept: find() points into it
        const Problem *node = find(onNode, QStringLiteral("engine-stalled:node:1"));
        QVERIFY(node);
        QVERIFY2(node->nextStep.contains(groupWords), qPrintable(node->nextStep));

        // The same ranks, independent: the per-engine advice.
        for (int i = 2; i < 5; ++i)
            in.engines[i].state = EngineState::Serving;
        in.groups[0] = decodeGroup(false);
        problems = findProblems(in);
        const Problem *stalled = find(problems, QStringLiteral("engine-stalled:5"));
        QVERIFY(stalled);
        QCOMPARE(stalled->nextStep,
            QStringLiteral("Read the engine's log for a hung collective (HCCL) or NPU error; "
                           "remove it from the proxy, then restart it."));
        QVERIFY(stalled->group.isEmpty());
        for (const Problem &p : problems)
            QVERIFY2(!p.nextStep.contains(QStringLiteral("DP group")), qPrintable(p.nextStep));
    }

    // A log diagnosis that names the cause leads the next step, on the engine's problem and on the log's.
    void aKnownCauseLeadsTheNextStep()
    {
        TriageInput in = cluster();
        in.groups.append(decodeGroup(true));
        in.engines[5].state = EngineState::Stalled;
        in.engines[5].diagnosis = QStringLiteral("Mooncake transfer failed"); // logSignature(17)->title
        in.engines[5].diagnosisLine = QStringLiteral("Mooncake transfer failed for request cmpl-7");
        in.engines[0].diagnosis = QStringLiteral("Mooncake transfer failed"); // a prefiller, serving, independent
        in.engines[0].diagnosisLine = in.engines[5].diagnosisLine;
        QList<Problem> problems = findProblems(in);
        const Problem *stalled = find(problems, QStringLiteral("engine-stalled:5"));
        QVERIFY(stalled);
        QVERIFY2(stalled->nextStep.startsWith(QStringLiteral("KV transfer from the prefiller failed (Mooncake): check "
                                                             "the pair's RDMA link with the node checks")),
            qPrintable(stalled->nextStep));
        QVERIFY2(stalled->nextStep.contains(QStringLiteral("then restart DP group decode@10.0.0.2:13395")),
            qPrintable(stalled->nextStep));
        const Problem *decoderLog = find(problems, QStringLiteral("log-error:5"));
        QVERIFY(decoderLog);
        QVERIFY2(decoderLog->nextStep.startsWith(QStringLiteral("KV transfer from the prefiller failed (Mooncake)")),
            qPrintable(decoderLog->nextStep));
        const Problem *prefillerLog = find(problems, QStringLiteral("log-error:0"));
        QVERIFY(prefillerLog);
        QCOMPARE(prefillerLog->nextStep,
            QStringLiteral("KV transfer to the decoder failed (Mooncake): check the pair's RDMA link with the node "
                           "checks on both nodes, then open its log (Show log) for the signature's fix."));

        // A dead engine the proxy routes to: its removal first, then the cause.
        in.engines[1].state = EngineState::Unreachable;
        in.engines[1].diagnosis = QStringLiteral("LLMDataDist link failed");
        const QList<Problem> withDead = findProblems(in); // kept: find() points into it
        const Problem *dead = find(withDead, QStringLiteral("listed-but-dead:1"));
        QVERIFY(dead);
        QCOMPARE(dead->nextStep,
            QStringLiteral("Remove it from the proxy now (the proxy keeps sending it requests that fail). KV transfer "
                           "to the decoder failed (LLMDataDist): check the pair's RDMA link with the node checks on "
                           "both nodes, then restart it."));

        // A collective timeout, and a stall with the KV cache pinned full.
        in = cluster();
        in.groups.append(decodeGroup(true));
        in.engines[5].state = EngineState::Stalled;
        in.engines[5].diagnosis = QStringLiteral("HCCL execution timeout");
        in.engines[9].state = EngineState::Stalled;
        in.engines[9].kvPinned = true;
        problems = findProblems(in);
        QVERIFY2(find(problems, QStringLiteral("engine-stalled:5"))
                     ->nextStep.startsWith(QStringLiteral("A collective hangs (HCCL): a rank of the group died")),
            qPrintable(find(problems, QStringLiteral("engine-stalled:5"))->nextStep));
        QVERIFY2(find(problems, QStringLiteral("engine-stalled:9"))
                     ->nextStep.startsWith(QStringLiteral("The KV cache is pinned full")),
            qPrintable(find(problems, QStringLiteral("engine-stalled:9"))->nextStep));

        // A diagnosis that names no cause (or no known signature) leaves the advice as it was.
        in.engines[5].diagnosis = QStringLiteral("NPU out of memory");
        in.engines[9].kvPinned = false;
        in.groups.clear();
        problems = findProblems(in);
        QCOMPARE(find(problems, QStringLiteral("engine-stalled:5"))->nextStep,
            QStringLiteral("Read the engine's log for a hung collective (HCCL) or NPU error; remove it from the proxy, "
                           "then restart it."));
        QCOMPARE(find(problems, QStringLiteral("log-error:5"))->nextStep,
            QStringLiteral(
                "Open the engine's log (Show log): the diagnosis and the fix of the signature are beside the line."));
    }

    // Healthy engines a busy proxy keeps draining hold NPUs and get no request: one warning per pool once
    // the drain is older than kOutOfTrafficAfterMs, counting those taken out on purpose.
    void healthyRanksHeldOutOfTrafficAreOnePoolProblem()
    {
        TriageInput in = cluster();
        in.nowMs = kNow;
        for (int i = 2; i < 7; ++i) {
            in.engines[i].state = EngineState::Draining;
            in.engines[i].membership = MembershipFact::Draining;
            in.engines[i].membershipSinceMs = kNow - kOutOfTrafficAfterMs + 1000;
            in.engines[i].label = QStringLiteral("d · %1").arg(i);
        }
        in.engines[3].intent = OperatorIntent::Drain; // taken out on purpose, left running
        in.engines[4].intent = OperatorIntent::Stop; // being stopped: no capacity held
        in.engines[6].state = EngineState::Unhealthy; // its own problem, not capacity
        QCOMPARE(keys(findProblems(in)), QStringList { QStringLiteral("engine-unhealthy:6") });

        in.nowMs = kNow + 1000;
        in.engines[5].membershipSinceMs = kNow - 200'000; // the oldest
        in.engines[8].state = EngineState::Serving;
        in.engines[8].freshness = FreshnessFact::Stale;
        in.engines[9].state = EngineState::ReadyNotInProxy;
        in.engines[9].membership = MembershipFact::Dropped;
        QList<Problem> problems = findProblems(in);
        // Beside a healthy engine not in the proxy: after a dropped add, before stale metrics.
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("engine-unhealthy:6"), QStringLiteral("proxy-dropped-add:9"),
                QStringLiteral("out-of-traffic:decode"), QStringLiteral("metrics-stale:8") }));
        const Problem &p = problems.at(2);
        QCOMPARE(p.kind, ProblemKind::OutOfTraffic);
        QCOMPARE(problemKindName(p.kind), QStringLiteral("out-of-traffic"));
        QCOMPARE(p.severity, ProblemSeverity::Warning);
        QCOMPARE(p.scope, ProblemScope::Pool);
        QCOMPARE(p.engineCount, 3); // 2, 3 (on purpose), 5
        QCOMPARE(p.sinceMs, kNow - 200'000);
        const QString at = QDateTime::fromMSecsSinceEpoch(kNow - 200'000).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(p.detail,
            QStringLiteral(
                "decode: 3 healthy rank(s) out of traffic since %1 (draining in a busy proxy; 1 taken out on "
                "purpose and left running)")
                .arg(at));
        QCOMPARE(p.evidence.size(), 3);
        QVERIFY2(p.evidence.at(1).startsWith(QStringLiteral("d · 3: taken out on purpose, draining since ")),
            qPrintable(p.evidence.at(1)));
        QVERIFY2(p.nextStep.startsWith(QStringLiteral("Wait for an idle moment")), qPrintable(p.nextStep));
        QVERIFY(p.nextStep.contains(QStringLiteral("Scale or Add to proxy")));
        QVERIFY(p.nextStep.contains(QStringLiteral("stop them")));

        // The prefill pool too: a second problem, one per pool.
        in.engines[0].membership = MembershipFact::Draining;
        in.engines[0].membershipSinceMs = kNow - 300'000;
        problems = findProblems(in);
        QVERIFY(find(problems, QStringLiteral("out-of-traffic:prefill")));
        QCOMPARE(find(problems, QStringLiteral("out-of-traffic:decode"))->engineCount, 3);
        // Without a clock nothing is judged.
        in.nowMs = 0;
        const QList<Problem> early = findProblems(in);
        QVERIFY(!find(early, QStringLiteral("out-of-traffic:decode")));
    }

    // A failed operation is an error until an operation succeeds on all its engines; the summary's ways
    // out are its next step.
    void aFailedOperationIsAProblemUntilASuccess()
    {
        TriageInput in = cluster();
        TriageOperation restart;
        restart.kind = QStringLiteral("group-restart");
        restart.group = QStringLiteral("decode@10.0.0.2:13395");
        restart.target = restart.group;
        restart.finishedAtMs = 5000;
        restart.failed = true;
        restart.summary
            = QStringLiteral("Add every rank to the proxy failed: the proxy still drains 8 of these instances "
                             "(since 14:02:10; 3 request(s) in flight). Ways out: retry when traffic pauses, "
                             "or allow a proxy restart with its current lists");
        for (int i = 2; i < 10; ++i)
            restart.engines.append(i);
        TriageOperation earlierScaleOut; // succeeded before: clears nothing
        earlierScaleOut.kind = QStringLiteral("scale-out");
        earlierScaleOut.target = QStringLiteral("decode 10.0.0.2:9001");
        earlierScaleOut.finishedAtMs = 4000;
        earlierScaleOut.engines = { 3 };
        in.operations = { restart, earlierScaleOut };
        in.engines[8].state = EngineState::Stalled;
        QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems),
            (QStringList { QStringLiteral("engine-stalled:8"),
                QStringLiteral("operation-failed:group-restart:decode@10.0.0.2:13395:5000") }));
        const Problem &p = problems.at(1);
        QCOMPARE(p.kind, ProblemKind::OperationFailed);
        QCOMPARE(p.severity, ProblemSeverity::Error);
        QCOMPARE(p.scope, ProblemScope::Group);
        QCOMPARE(p.what, QStringLiteral("Operation failed: group-restart decode@10.0.0.2:13395"));
        QCOMPARE(p.detail, restart.summary);
        QCOMPARE(
            p.nextStep, QStringLiteral("Retry when traffic pauses, or allow a proxy restart with its current lists."));
        QCOMPARE(p.engineCount, 8);
        QCOMPARE(p.engine, 2);
        QCOMPARE(p.sinceMs, 5000);

        // Without ways out: where to read more. A second failure of the same operation replaces the first.
        TriageOperation again = restart;
        again.finishedAtMs = 6000;
        again.summary = QStringLiteral("Stop every rank failed: 127.0.0.7:9003 still runs");
        in.operations.append(again);
        problems = findProblems(in);
        QCOMPARE(keys(problems).size(), 2);
        QCOMPARE(problems.at(1).key, QStringLiteral("operation-failed:group-restart:decode@10.0.0.2:13395:6000"));
        QCOMPARE(problems.at(1).nextStep, QStringLiteral("Read the operation's steps in Operations."));

        // A later success on some of its engines: still a problem; on all of them: cleared.
        TriageOperation scaleOut;
        scaleOut.kind = QStringLiteral("group-scale-out");
        scaleOut.target = restart.target;
        scaleOut.group = restart.group;
        scaleOut.finishedAtMs = 7000;
        scaleOut.engines = { 2, 3, 4, 5 };
        in.operations.append(scaleOut);
        QCOMPARE(keys(findProblems(in)).size(), 2);
        scaleOut.engines = { 6, 7, 8, 9 };
        in.operations.append(scaleOut);
        QCOMPARE(keys(findProblems(in)), QStringList { QStringLiteral("engine-stalled:8") });
    }

    // Through the Triage object: the tracker's clock and membership, and the operations' setter.
    void outOfTrafficAndOperationsThroughTheTriage()
    {
        ClusterStore store;
        QVERIFY(loadDemo(&store, DemoCoupling::Independent));
        StateTracker tracker(&store);
        std::int64_t now = kNow;
        tracker.setClock([&now] { return now; });
        Triage triage(&tracker, &store);
        int tick = 1;
        store.applyPollBatch(healthyRound(72, tick));
        tracker.setMembership(20, MembershipFact::Draining);
        tracker.setMembership(21, MembershipFact::Draining);
        auto round = [&](std::int64_t advanceMs) {
            now += advanceMs;
            store.applyPollBatch(healthyRound(72, ++tick));
            tracker.setMembership(20, MembershipFact::Draining); // reconciled again: the drain's start stays
        };
        round(kOutOfTrafficAfterMs - 1000);
        QCOMPARE(triage.count(), 0);
        round(2000);
        QCOMPARE(keys(triage.problems()), QStringList { QStringLiteral("out-of-traffic:decode") });
        QCOMPARE(triage.problems().first().engineCount, 2);
        QCOMPARE(triage.problems().first().sinceMs, kNow);

        TriageOperation failed;
        failed.kind = QStringLiteral("scale-out");
        failed.target = QStringLiteral("decode 127.0.0.7:9000");
        failed.failed = true;
        failed.finishedAtMs = now;
        failed.engines = { 20 };
        triage.setOperations({ failed });
        QCOMPARE(triage.count(), 2);
        QCOMPARE(triage.problems().first().kind, ProblemKind::OperationFailed);
    }

    void poolEmptyByTheProxysCount()
    {
        TriageInput in = cluster();
        in.proxy.decodeInstances = 0;
        QCOMPARE(keys(findProblems(in)), QStringList { QStringLiteral("pool-empty:decode") });
        // Not before every engine of the pool was observed once.
        TriageInput early = cluster();
        for (TriageEngine &e : early.engines)
            e.state = EngineState::Unknown;
        early.engines[0].state = EngineState::Unreachable;
        QCOMPARE(keys(findProblems(early)), QStringList { QStringLiteral("listed-but-dead:0") });
    }

    void clientFailuresSeenByTheCanary()
    {
        // One failure is a blip; two in a row are a problem, ranked under the causes (a dead engine the
        // proxy routes to) and above every per-engine symptom.
        CanaryHistory history;
        CanarySample ok;
        ok.atMs = 1000;
        ok.e2eMs = 120;
        history.append(ok);
        CanarySample empty;
        empty.atMs = 6000;
        empty.outcome = WarmUpOutcome::EmptyOk;
        empty.httpStatus = 200;
        empty.detail = QStringLiteral("HTTP 200 with an empty body");
        history.append(empty);
        TriageInput in = cluster();
        in.canary = history.status(12);
        QVERIFY(findProblems(in).isEmpty());
        empty.atMs = 11000;
        empty.outcome = WarmUpOutcome::NoDone;
        history.append(empty);
        in.canary = history.status(12);
        QCOMPARE(in.canary.consecutiveFailures, 2);
        QCOMPARE(in.canary.failingSinceMs, 6000);
        in.engines[3].state = EngineState::Unreachable; // listed, dead: the cause
        in.engines[5].state = EngineState::Stalled;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems), (QStringList { QStringLiteral("listed-but-dead:3"), QStringLiteral("client-requests-failing"),
                                                QStringLiteral("engine-stalled:5") }));
        const Problem &p = problems.at(1);
        QCOMPARE(p.severity, ProblemSeverity::Error); // one of the window's three answered
        QCOMPARE(p.sinceMs, 6000);
        QVERIFY2(p.detail.contains(QLatin1String("2 of the last 3")), qPrintable(p.detail));
        QVERIFY2(p.detail.contains(QLatin1String("without [DONE]")), qPrintable(p.detail));
        QCOMPARE(p.evidence.size(), 2); // the last failure, and the other kind seen in the window

        // Every request of the window failed: critical. Unsaid while the proxy itself is down.
        CanaryHistory allFailed;
        for (int i = 0; i < 12; ++i) {
            empty.atMs = 1000 * i;
            allFailed.append(empty);
        }
        in = cluster();
        in.canary = allFailed.status(12);
        QCOMPARE(findProblems(in).value(0).severity, ProblemSeverity::Critical);
        in.proxy.reachable = false;
        QCOMPARE(keys(findProblems(in)), QStringList { QStringLiteral("proxy-unreachable") });
        // Off: nothing said.
        in = cluster();
        in.canary = allFailed.status(12);
        in.canary.enabled = false;
        QVERIFY(findProblems(in).isEmpty());
    }

    void nodeCheckResultsAreOneProblemPerNode()
    {
        NodeReport report;
        report.node = QStringLiteral("d0");
        report.reachable = true;
        CheckResult link;
        link.device = 3;
        link.kind = CheckKind::Link;
        link.verdict = Verdict::Fail;
        link.reason = QStringLiteral("link status: DOWN");
        CheckResult conf;
        conf.kind = CheckKind::HccnConf;
        conf.verdict = Verdict::Unknown; // a missing hccn.conf is a note, not a problem
        conf.reason = QStringLiteral("not checked: hccn.conf not readable");
        CheckResult tls;
        tls.device = 1;
        tls.kind = CheckKind::Tls;
        tls.verdict = Verdict::Warning;
        tls.reason = QStringLiteral("TLS switch differs from the other devices");
        report.checks = { link, conf, tls };
        const NodeCheckSummary summary = summarizeNodeChecks(report);
        QCOMPARE(summary.failures, QStringList { QStringLiteral("NPU 3 link: link status: DOWN") });
        QCOMPARE(summary.warnings, QStringList { QStringLiteral("NPU 1 tls: TLS switch differs from the other devices") });

        TriageInput in = cluster();
        in.nodes[1].checkFailures = summary.failures;
        in.nodes[1].checkWarnings = summary.warnings;
        in.nodes[1].checksAtMs = 42;
        in.nodes[2].checkWarnings = summary.warnings;
        const QList<Problem> problems = findProblems(in);
        QCOMPARE(keys(problems), (QStringList { QStringLiteral("node-check:1"), QStringLiteral("node-check:2") }));
        QCOMPARE(problems.at(0).severity, ProblemSeverity::Error);
        QCOMPARE(problems.at(0).detail, QStringLiteral("NPU 3 link: link status: DOWN"));
        QCOMPARE(problems.at(0).evidence.size(), 2);
        QCOMPARE(problems.at(0).node, 1);
        QCOMPARE(problems.at(1).severity, ProblemSeverity::Warning);
        QCOMPARE(problems.at(1).what, QStringLiteral("Node checks warn"));

        // An unreachable node's checks did not run: said as a failure with the transport error.
        NodeReport down;
        down.transportError = QStringLiteral("connection refused");
        QCOMPARE(summarizeNodeChecks(down).failures, QStringList { QStringLiteral("checks did not run: connection refused") });
    }

    void acknowledgementLastsUntilTheProblemClears()
    {
        ClusterStore store;
        QVERIFY(loadDemo(&store));
        StateTracker tracker(&store);
        Triage triage(&tracker, &store);
        QSignalSpy appeared(&triage, &Triage::problemsAppeared);
        int tick = 1;
        store.applyPollBatch(healthyRound(72, tick));
        QCOMPARE(triage.count(), 0);
        auto failRound = [&](int engine) {
            PollBatch b = healthyRound(72, ++tick);
            b.outcomes[engine] = failed(engine, PollStatus::Refused);
            store.applyPollBatch(b);
        };
        failRound(30);
        failRound(30);
        QCOMPARE(triage.count(), 1);
        QCOMPARE(appeared.size(), 1);
        const QString key = triage.problems().at(0).key;
        // Engine 30 is a rank of the demo's coupled decode group: its death is the group's problem.
        QCOMPARE(key, QStringLiteral("group-broken:decode@127.0.0.6:13395"));
        triage.acknowledge(key);
        QVERIFY(triage.problems().at(0).acknowledged);
        failRound(30);
        QVERIFY(triage.isAcknowledged(key));
        QCOMPARE(appeared.size(), 1);
        store.applyPollBatch(healthyRound(72, ++tick)); // clears
        QCOMPARE(triage.count(), 0);
        QVERIFY(!triage.isAcknowledged(key));
        failRound(30);
        failRound(30);
        QCOMPARE(appeared.size(), 2);
        QVERIFY(!triage.problems().at(0).acknowledged);
        // SSH facts come in through the setter.
        triage.setNodeSsh(4, false, QStringLiteral("No route to host"));
        QCOMPARE(triage.problems().last().key, QStringLiteral("node-ssh-down:4"));
        QCOMPARE(triage.problems().last().where, QStringLiteral("node d0 (127.0.0.6)"));
        // A status round's verdict for every node at once is judged once: node 4 answered now, node 5 did not.
        QSignalSpy changed(&triage, &Triage::problemsChanged);
        triage.setNodesSsh({ 4 }, { { 5, QStringLiteral("Connection refused") } });
        QCOMPARE(changed.size(), 1);
        QStringList sshKeys;
        for (const Problem &p : triage.problems())
            if (p.key.startsWith(QStringLiteral("node-ssh-down:")))
                sshKeys << p.key;
        QCOMPARE(sshKeys, QStringList { QStringLiteral("node-ssh-down:5") });
    }

    void aDeliberateScaleInRaisesNothingACrashDoes()
    {
        // The issue's case through the tracker: after a scale-in under load the proxy still lists the
        // stopped engine as draining; a crashed neighbour in the same spot is an error.
        ClusterStore store;
        QVERIFY(loadDemo(&store, DemoCoupling::Independent));
        StateTracker tracker(&store);
        std::int64_t now = 1'800'000'000'000;
        tracker.setClock([&now] { return now; });
        Triage triage(&tracker, &store);
        int tick = 1;
        store.applyPollBatch(healthyRound(72, tick));
        tracker.setIntent(20, OperatorIntent::Drain, QStringLiteral("scale-in"));
        tracker.setMembership(20, MembershipFact::Draining);
        tracker.setMembership(21, MembershipFact::Draining);
        tracker.setIntent(20, OperatorIntent::Stop, QStringLiteral("scale-in"));
        for (int round = 0; round < 3; ++round) {
            now += 1000;
            PollBatch b = healthyRound(72, ++tick);
            b.outcomes[20] = failed(20, PollStatus::Refused);
            b.outcomes[21] = failed(21, PollStatus::Refused);
            store.applyPollBatch(b);
        }
        QCOMPARE(tracker.state(20), EngineState::Stopped);
        QCOMPARE(tracker.state(21), EngineState::Unreachable);
        QCOMPARE(keys(triage.problems()), QStringList { QStringLiteral("engine-unreachable:21") });
        QCOMPARE(triage.problems().first().severity, ProblemSeverity::Error);
    }

    void aLogDiagnosisIsAProblemUntilTheEngineStartsAgain()
    {
        ClusterStore store;
        QVERIFY(loadDemo(&store));
        StateTracker tracker(&store);
        Triage triage(&tracker, &store);
        store.applyPollBatch(healthyRound(72, 1));
        QCOMPARE(triage.count(), 0);
        const QString line = QStringLiteral("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB");
        tracker.recordDiagnosis(12, -1, QStringLiteral("NPU out of memory"), line, 3);
        QCOMPARE(triage.count(), 1);
        const Problem &p = triage.problems().first();
        QCOMPARE(p.key, QStringLiteral("log-error:12"));
        QCOMPARE(p.kind, ProblemKind::LogError);
        QCOMPARE(p.severity, ProblemSeverity::Error);
        QCOMPARE(p.what, QStringLiteral("Log: NPU out of memory"));
        QCOMPARE(p.detail, line);
        QCOMPARE(p.engine, 12);
        // On the timeline too.
        const StateEvent &event = tracker.events().at(tracker.events().size() - 1);
        QCOMPARE(event.kind, StateEvent::Kind::Diagnosis);
        QCOMPARE(event.engine, 12);
        QCOMPARE(event.what, QStringLiteral("NPU out of memory (3 lines)"));
        // Ranked after engine failures, before warnings.
        Problem warning;
        warning.severity = ProblemSeverity::Warning;
        warning.kind = ProblemKind::NotInProxy;
        QVERIFY(problemRanksBefore(p, warning));
        // The engine is started again: the error belonged to the previous run.
        tracker.setProcess(12, ProcessFact::Exited);
        tracker.setProcess(12, ProcessFact::Running);
        triage.recompute();
        QCOMPARE(triage.count(), 0);
    }

    void notifyTopSeveritiesOnce()
    {
        NotificationPolicy policy;
        const Problem a = problem(QStringLiteral("a"), ProblemSeverity::Critical);
        const Problem w = problem(QStringLiteral("w"), ProblemSeverity::Warning);
        auto n = policy.decide({ a, w }, { a, w }, 1000);
        QVERIFY(n);
        QCOMPARE(n->title, QStringLiteral("What a — where"));
        QCOMPARE(n->keys, QStringList { QStringLiteral("a") });
        QVERIFY(!policy.decide({}, { a, w }, 2000));
    }

    void rateLimitedThenSummed()
    {
        NotificationPolicy policy;
        NotificationSettings s;
        s.minIntervalMs = 10000;
        s.maxLines = 2;
        policy.setSettings(s);
        const Problem a = problem(QStringLiteral("a"), ProblemSeverity::Error);
        const Problem b = problem(QStringLiteral("b"), ProblemSeverity::Error);
        const Problem c = problem(QStringLiteral("c"), ProblemSeverity::Critical);
        const Problem d = problem(QStringLiteral("d"), ProblemSeverity::Error);
        const Problem e = problem(QStringLiteral("e"), ProblemSeverity::Error);
        QVERIFY(policy.decide({ a }, { a }, 0));
        QVERIFY(!policy.decide({ b }, { a, b }, 1000));
        QVERIFY(!policy.decide({ c, d, e }, { a, b, c, d, e }, 2000));
        QCOMPARE(policy.heldBack(), 4);
        // b cleared meanwhile: not announced.
        const auto n = policy.decide({}, { a, c, d, e }, 10000);
        QVERIFY(n);
        QCOMPARE(n->title, QStringLiteral("3 new problems"));
        QCOMPARE(n->severity, ProblemSeverity::Critical);
        QCOMPARE(n->body.split(QLatin1Char('\n')).size(), 3);
        QVERIFY(n->body.endsWith(QStringLiteral("and 1 more")));
        QCOMPARE(policy.heldBack(), 0);
    }

    void silentForAcknowledgedAndWhenDisabled()
    {
        NotificationPolicy policy;
        const Problem acked = problem(QStringLiteral("a"), ProblemSeverity::Critical, true);
        QVERIFY(!policy.decide({ acked }, { acked }, 0));
        Problem b = problem(QStringLiteral("b"), ProblemSeverity::Error);
        NotificationSettings s;
        s.minIntervalMs = 5000;
        policy.setSettings(s);
        QVERIFY(policy.decide({ b }, { b }, 0));
        const Problem c = problem(QStringLiteral("c"), ProblemSeverity::Error);
        QVERIFY(!policy.decide({ c }, { b, c }, 100));
        Problem cAcked = c;
        cAcked.acknowledged = true; // acknowledged while held back
        QVERIFY(!policy.decide({}, { b, cAcked }, 6000));
        s.enabled = false;
        policy.setSettings(s);
        const Problem d = problem(QStringLiteral("d"), ProblemSeverity::Critical);
        QVERIFY(!policy.decide({ d }, { d }, 20000));
        s.enabled = true;
        s.minSeverity = ProblemSeverity::Critical;
        policy.setSettings(s);
        const Problem e = problem(QStringLiteral("e"), ProblemSeverity::Error);
        QVERIFY(!policy.decide({ e }, { e }, 30000));
    }
};

QTEST_GUILESS_MAIN(TestTriage)
#include "tst_triage.moc"
