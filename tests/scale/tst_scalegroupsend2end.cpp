// SPDX-License-Identifier: MIT
// Whole coupled DP groups end to end against a simulated cluster in this process (pdsim's SimCluster):
// tests/scale/data/scale-groups.json has four coupled decode groups of two ranks, two of them serving.
// Decode 4 -> 8 starts two whole groups (each one operation: both ranks at once, even with a parallel
// cap of 1), "Restart group" takes one group out, stops, starts and adds it back, and 8 -> 4 removes the
// two least loaded whole groups; every operation succeeds and the proxy's lists follow.
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/rollingrestart.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using json = nlohmann::json;

class TestScaleGroupsEnd2End : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;

    static QString id(int node, int port) { return QStringLiteral("127.0.0.%1:%2").arg(113 + node).arg(port); }
    static QString groupId(int node) { return QStringLiteral("decode@127.0.0.%1:13395").arg(113 + node); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_sim.dir().isValid());
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json")));
        QCOMPARE(m_sim.refs().size(), 10);

        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: the group's readiness has something to wait for
        options.waitingRetryInterval = 0.5;
        options.loadMaxInFlight = 4;
        options.jitter = false;
        options.seed = 11;
        PD_START_SIM_CLUSTER(m_sim, options);
        // Groups d2 and d3 exist but are stopped, as on a real cluster.
        int status = 0;
        m_sim.callControl("POST", QStringLiteral("/cluster/engines/stop"),
            QStringLiteral(R"({"engines":["%1","%2","%3","%4"]})")
                .arg(id(2, 9000), id(2, 9001), id(3, 9000), id(3, 9001))
                .toUtf8(),
            &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_sim.engineStatus(id(3, 9001)), QStringLiteral("stopped"), 10000);

        m_sim.setUpScaling(5000);
        ScaleContext &ctx = m_sim.context();
        setScaleContextProfile(ctx, m_sim.profile());
        ctx.settings.pollMs = 200;
        ctx.settings.groupReadyTimeoutMs = 30000;
        ctx.settings.idleTimeoutMs = 60000;
        ctx.settings.stopTimeoutMs = 10000;
        m_sim.runner()->setParallelCap(1); // a group is one slot: the cap never splits its start
        m_sim.table()->start(500);
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 4);
    }

    void scaleUpStartsWholeGroups()
    {
        const ScalePlan plan = planPoolScale(Role::Decode, 8, m_sim.refs(), m_sim.context().groups, *m_sim.table(),
            m_sim.loads(Role::Decode), m_sim.context().settings);
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToStart, (QStringList{groupId(2), groupId(3)}));
        const auto ops = m_sim.runner()->apply(plan, false);
        QCOMPARE(ops.size(), 2);
        QVERIFY(m_sim.waitIdle(90000));
        for (const ScaleOperation *op : ops) {
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
            QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).status, StepStatus::Done);
            QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).detail, QStringLiteral("start accepted for all 2 ranks"));
        }
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 8);
        for (int node : {2, 3})
            for (int port : {9000, 9001})
                QCOMPARE(m_sim.table()->fact(id(node, port), Role::Decode), MembershipFact::Active);
    }

    void restartGroupBringsTheWholeGroupBack()
    {
        // Client load through the proxy while group 0 restarts: its ranks are drained out first, the other
        // groups keep serving, and no client request fails.
        int status = 0;
        m_sim.callControl("POST", QStringLiteral("/cluster/load"), R"({"rps": 3})", &status);
        QCOMPARE(status, 200);
        const int failedBefore = m_sim.clusterState()["load"].value("failed", 0);
        const int sentBefore = m_sim.clusterState()["load"].value("sent", 0);
        EngineActions actions(&m_sim.context(), m_sim.runner());
        const EngineActionPlan plan = actions.planRestartGroup(groupId(0));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        const auto ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1);
        QVERIFY(m_sim.waitIdle(120000));
        const ScaleOperation *op = ops.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        for (int step : {DpGroupOperation::RemoveFromProxy, DpGroupOperation::StopRanks, DpGroupOperation::VerifyStopped,
                         DpGroupOperation::StartRanks, DpGroupOperation::WaitReady, DpGroupOperation::AddToProxy})
            QVERIFY2(op->steps().at(step).status == StepStatus::Done, qPrintable(test::describeOperation(op)));
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 8, 20000);
        QCOMPARE(m_sim.table()->fact(id(0, 9000), Role::Decode), MembershipFact::Active);
        QCOMPARE(m_sim.table()->fact(id(0, 9001), Role::Decode), MembershipFact::Active);
        m_sim.callControl("POST", QStringLiteral("/cluster/load"), R"({"rps": 0})", &status);
        const json load = m_sim.clusterState()["load"];
        QVERIFY2(load.value("sent", 0) > sentBefore, load.dump().c_str());
        QCOMPARE(load.value("failed", 0), failedBefore);
    }

    void rollingRestartGoesGroupByGroup()
    {
        const QList<EngineRef> members = m_sim.activeMembers(Role::Decode);
        QCOMPARE(members.size(), 8);
        RollingRestart rolling(members, 6, &m_sim.context(), m_sim.runner());
        QCOMPARE(rolling.total(), 4);
        QStringList kinds;
        connect(m_sim.runner(), &ScaleRunner::operationAdded, &rolling,
            [&kinds](ScaleOperation *op) { kinds << op->kind(); });
        rolling.start();
        QTRY_VERIFY_WITH_TIMEOUT(rolling.state() != RollingRestart::State::Running, 240000);
        QVERIFY2(rolling.state() == RollingRestart::State::Finished, qPrintable(rolling.reason()));
        QCOMPARE(rolling.done(), 4);
        QCOMPARE(kinds, QStringList(4, QStringLiteral("group-restart")));
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 8, 20000);

        // The floor counts instances: a group of two leaves 6 of 8, a floor of 7 pauses before any stop.
        RollingRestart tooHigh(members, 7, &m_sim.context(), m_sim.runner());
        tooHigh.start();
        QTRY_VERIFY_WITH_TIMEOUT(tooHigh.state() == RollingRestart::State::Paused, 10000);
        QVERIFY2(tooHigh.reason().contains(QLatin1String("below the floor of 7")), qPrintable(tooHigh.reason()));
        QCOMPARE(tooHigh.done(), 0);
        tooHigh.cancel();
    }

    void scaleDownRemovesWholeGroups()
    {
        const QHash<QString, EngineLoad> now = m_sim.loads(Role::Decode);
        const ScalePlan plan = planPoolScale(
            Role::Decode, 4, m_sim.refs(), m_sim.context().groups, *m_sim.table(), now, m_sim.context().settings);
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToRemove.size(), 2);
        QCOMPARE(plan.toRemove.size(), 4);
        const auto ops = m_sim.runner()->apply(plan, false);
        QCOMPARE(ops.size(), 2);
        QVERIFY(m_sim.waitIdle(120000));
        for (const ScaleOperation *op : ops)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        for (const EngineRef &e : plan.toRemove)
            QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("stopped"));
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 4, 20000);

        const ScalePlan odd = planPoolScale(
            Role::Decode, 3, m_sim.refs(), m_sim.context().groups, *m_sim.table(), {}, m_sim.context().settings);
        QVERIFY(!odd.canApply(true));
        QVERIFY2(odd.blocked.contains(QLatin1String("decode can be 0, 2, 4, 6 or 8")), qPrintable(odd.blocked));
    }

    void aStoppedGroupStartsAndIsAddedAsOne()
    {
        // After 8 -> 4 with no load, d2 and d3 are stopped (equal load: the later group leaves first).
        QCOMPARE(m_sim.engineStatus(id(2, 9000)), QStringLiteral("stopped"));
        EngineActions actions(&m_sim.context(), m_sim.runner());
        const QList<EngineRef> ranks { m_sim.context().engines.at(6), m_sim.context().engines.at(7) };
        QCOMPARE(ranks.at(0).id, id(2, 9000));
        const auto started = actions.run(actions.plan(EngineAction::Start, ranks), false);
        QCOMPARE(started.size(), 1);
        QVERIFY(m_sim.waitIdle(60000));
        QVERIFY2(started.first()->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(started.first())));
        QCOMPARE(started.first()->kind(), QStringLiteral("group-start"));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 4);

        // Both ranks run and serve: adding the group skips the start and the wait, adds both in one call.
        const auto added = actions.run(actions.plan(EngineAction::AddToProxy, ranks), false);
        QCOMPARE(added.size(), 1);
        QVERIFY(m_sim.waitIdle(60000));
        const ScaleOperation *op = added.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).status, StepStatus::Skipped);
        QCOMPARE(op->steps().at(DpGroupOperation::AddToProxy).status, StepStatus::Done);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 6, 20000);
    }

    void cleanupTestCase()
    {
        if (m_sim.table())
            m_sim.table()->stop();
        if (m_sim.cluster())
            m_sim.cluster()->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestScaleGroupsEnd2End)
#include "tst_scalegroupsend2end.moc"
