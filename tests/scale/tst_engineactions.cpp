// SPDX-License-Identifier: MIT
// Engine actions (start, start-and-add, stop, force stop, restart, add, remove) planned from the
// membership table and run against a simulated cluster in this process (pdsim's SimCluster on
// 127.0.0.91-93): what each action does to an engine in and out of the proxy, a stalled engine forced
// out without a drain, a stop while the proxy is down, a rolling restart of active engines, the
// last-instance override, read-only refusal, and an audit line for what was refused.
#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/rollingrestart.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace pd;

class TestEngineActions : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;
    EngineActions *m_actions = nullptr;

    static QString describe(const ScaleOperation *op) { return test::describeOperation(op); }
    // Runs a plan to the end; every operation it started, restarts' second halves included.
    QList<QPointer<ScaleOperation>> runToEnd(const EngineActionPlan &plan, bool override = false)
    {
        QList<QPointer<ScaleOperation>> all;
        const auto c = connect(m_actions, &EngineActions::operationStarted, this, [&all](ScaleOperation *op) { all << op; });
        m_actions->run(plan, override);
        // A restart's second half is enqueued inside its first half's finished signal, after the runner's
        // own handler: the runner is never idle between the two, so idle means both have run.
        m_sim.waitIdle(60000);
        disconnect(c);
        return all;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_sim.dir().isValid());
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/actions-loopback.json")));
        QCOMPARE(m_sim.refs().size(), 10);

        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: a start has something to wait for
        options.waitingRetryInterval = 0.5;
        options.jitter = false;
        options.seed = 11;
        PD_START_SIM_CLUSTER(m_sim, options);
        // The profile's four extra decode engines exist but are stopped, as on a real cluster.
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/engines/stop"),
                     R"({"engines":["127.0.0.93:9004","127.0.0.93:9005","127.0.0.93:9006","127.0.0.93:9007"]})"),
            200);
        QTRY_COMPARE_WITH_TIMEOUT(
            m_sim.engineStatus(QStringLiteral("127.0.0.93:9007")), QStringLiteral("stopped"), 10000);

        m_sim.setUpScaling(3000);
        ScaleContext &ctx = m_sim.context();
        ctx.settings.pollMs = 200;
        ctx.settings.engineReadyTimeoutMs = 30000;
        ctx.settings.verifyTrafficTimeoutMs = 3000;
        ctx.settings.idleTimeoutMs = 30000;
        ctx.settings.stopTimeoutMs = 10000;
        m_sim.runner()->setParallelCap(3);
        m_actions = m_sim.actions();
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 4);
    }

    void thePlanFollowsMembership()
    {
        QVERIFY(m_sim.reconcile());
        const EngineRef active = m_sim.ref(QStringLiteral("127.0.0.93:9000"));
        const EngineRef outside = m_sim.ref(QStringLiteral("127.0.0.93:9004"));

        const EngineActionPlan stop = m_actions->plan(EngineAction::Stop, {active, outside}, QStringLiteral("2 selected"));
        QCOMPARE(stop.engines.size(), 2);
        QVERIFY(stop.destructive);
        QVERIFY(!stop.needsOverride);
        QVERIFY2(stop.text().contains(QLatin1String("1 engine active in the proxy: taken out, drained")), qPrintable(stop.text()));
        QVERIFY2(stop.text().contains(QLatin1String("1 engine not in the proxy: stopped at once")), qPrintable(stop.text()));
        QVERIFY(stop.title().startsWith(QLatin1String("Stop 2 engines (2 selected)")));

        const EngineActionPlan start = m_actions->plan(EngineAction::Start, {active, outside});
        QCOMPARE(start.engines, QList<EngineRef>{outside});
        QCOMPARE(start.skipped, QList<EngineRef>{active});
        QVERIFY(start.skipReasons.first().contains(QLatin1String("already active")));
        QVERIFY(!start.destructive);

        const EngineActionPlan add = m_actions->plan(EngineAction::AddToProxy, {active, outside});
        QCOMPARE(add.engines, QList<EngineRef>{outside});
        const EngineActionPlan remove = m_actions->plan(EngineAction::RemoveFromProxy, {active, outside});
        QCOMPARE(remove.engines, QList<EngineRef>{active});
        QVERIFY(remove.skipReasons.first().contains(QLatin1String("not active in the proxy (configured)")));
    }

    void readOnlyRefusesAndAudits()
    {
        m_sim.context().settings.readOnly = true;
        const EngineActionPlan plan = m_actions->plan(
            EngineAction::Start, { m_sim.ref(QStringLiteral("127.0.0.93:9004")) }, QStringLiteral("node d0"));
        m_sim.context().settings.readOnly = false;
        QVERIFY(!plan.refusal.isEmpty());
        QVERIFY(!plan.canRun(true));
        QVERIFY(m_actions->run(plan, true).isEmpty());
        const AuditReadResult audit = readAuditLog(m_sim.audit()->path());
        QVERIFY(!audit.entries.isEmpty());
        QCOMPARE(audit.entries.last().action, QStringLiteral("engines.start"));
        QCOMPARE(audit.entries.last().result, QStringLiteral("refused"));
        QCOMPARE(audit.entries.last().target, QStringLiteral("node d0"));
        QCOMPARE(m_sim.engineStatus(QStringLiteral("127.0.0.93:9004")), QStringLiteral("stopped"));
    }

    void startLeavesTheEngineOutsideTheProxy()
    {
        const EngineRef e = m_sim.ref(QStringLiteral("127.0.0.93:9004"));
        const auto ops = runToEnd(m_actions->plan(EngineAction::Start, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY(ops.first());
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("start"));
        QCOMPARE(ops.first()->steps().at(ScaleOut::StartEngine).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleOut::WaitReady).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleOut::AddToProxy).status, StepStatus::Skipped);
        QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("ready")); // pdsim: started and serving
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(e.id, e.role), MembershipFact::Configured);
    }

    void addThenStopDrains()
    {
        const EngineRef e = m_sim.ref(QStringLiteral("127.0.0.93:9004"));
        auto ops = runToEnd(m_actions->plan(EngineAction::AddToProxy, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->steps().at(ScaleOut::StartEngine).status, StepStatus::Skipped); // it ran already
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(e.id, e.role), MembershipFact::Active);

        ops = runToEnd(m_actions->plan(EngineAction::Stop, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("scale-in"));
        QCOMPARE(ops.first()->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleIn::Drain).status, StepStatus::Done);
        QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("stopped"));
    }

    void forceStopTakesAStalledEngineOutWithoutADrain()
    {
        const EngineRef e = m_sim.ref(QStringLiteral("127.0.0.93:9003"));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(e.id, e.role), MembershipFact::Active);
        QCOMPARE(m_sim.postControl(
                     QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.93:9003"],"kind":"stall"})"),
            200);

        const EngineActionPlan plan = m_actions->plan(EngineAction::ForceStop, {e});
        QVERIFY(plan.text().contains(QLatin1String("without a drain")));
        auto ops = runToEnd(plan);
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("stop"));
        QCOMPARE(ops.first()->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleIn::Drain).status, StepStatus::Skipped);
        QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("stopped"));
        QVERIFY(m_sim.reconcile());
        QVERIFY(m_sim.table()->fact(e.id, e.role) != MembershipFact::Active);

        // Back: start (a start clears the simulated fault) and add.
        ops = runToEnd(m_actions->plan(EngineAction::StartAndAdd, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("scale-out"));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(e.id, e.role), MembershipFact::Active);
    }

    void stopWorksWhileTheProxyIsDown()
    {
        const EngineRef e = m_sim.ref(QStringLiteral("127.0.0.93:9005"));
        auto ops = runToEnd(m_actions->plan(EngineAction::Start, {e}));
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/proxy/stop"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_sim.reconcile(), 10000); // the proxy refuses now, not a moment later

        ops = runToEnd(m_actions->plan(EngineAction::Stop, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QVERIFY2(ops.first()->steps().at(ScaleIn::Preflight).detail.contains(QLatin1String("membership not checked")),
                 qPrintable(describe(ops.first())));
        QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("stopped"));

        // A drain-and-stop of an active engine still needs the proxy.
        ops = runToEnd(
            m_actions->plan(EngineAction::RemoveFromProxy, { m_sim.ref(QStringLiteral("127.0.0.93:9000")) }));
        QCOMPARE(ops.size(), 1);
        QCOMPARE(ops.first()->outcome(), OperationOutcome::Failed);
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/proxy/start"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile(), 10000);
    }

    void restartRollsActiveEnginesAndRestartsTheRest()
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 4, 10000);
        const EngineRef a = m_sim.ref(QStringLiteral("127.0.0.93:9000"));
        const EngineRef b = m_sim.ref(QStringLiteral("127.0.0.93:9001"));
        const EngineRef outside = m_sim.ref(QStringLiteral("127.0.0.93:9006"));
        const EngineActionPlan plan = m_actions->plan(EngineAction::Restart, {a, b, outside}, QStringLiteral("3 selected"));
        QCOMPARE(plan.engines.size(), 3);
        int rolling = 0;
        QPointer<RollingRestart> restart;
        const auto started = connect(m_actions, &EngineActions::rollingRestartStarted, this, [&restart, &rolling](RollingRestart *r) {
            restart = r;
            ++rolling;
        });
        QList<QPointer<ScaleOperation>> all;
        const auto c = connect(m_actions, &EngineActions::operationStarted, this, [&all](ScaleOperation *op) { all << op; });
        m_actions->run(plan, false);
        disconnect(started);
        QCOMPARE(rolling, 1);
        QVERIFY(restart);
        QCOMPARE(restart->floor(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!restart, 90000); // deleted when it finished
        QVERIFY(m_sim.waitIdle(30000));
        disconnect(c);
        // a and b: scale-in then scale-out each; outside: stop then start.
        QStringList kinds;
        for (const auto &op : all) {
            QVERIFY(op);
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(describe(op)));
            kinds << op->kind() + QLatin1Char(' ') + op->engine().id;
        }
        kinds.sort();
        QCOMPARE(kinds, QStringList({QStringLiteral("scale-in 127.0.0.93:9000"), QStringLiteral("scale-in 127.0.0.93:9001"),
                                     QStringLiteral("scale-out 127.0.0.93:9000"), QStringLiteral("scale-out 127.0.0.93:9001"),
                                     QStringLiteral("start 127.0.0.93:9006"), QStringLiteral("stop 127.0.0.93:9006")}));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(a.id, a.role), MembershipFact::Active);
        QCOMPARE(m_sim.table()->fact(b.id, b.role), MembershipFact::Active);
        QCOMPARE(m_sim.table()->fact(outside.id, outside.role), MembershipFact::Configured);
        QCOMPARE(m_sim.engineStatus(outside.id), QStringLiteral("ready"));
    }

    // Cancelled while its first membership read is in flight, the rolling restart is
    // deleted (finished -> deleteLater); the read's answer must not reach it (a use-after-free under ASan).
    void cancellingARollingRestartDuringAMembershipReadIsSafe()
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 4, 10000);
        const EngineActionPlan plan
            = m_actions->plan(EngineAction::Restart, { m_sim.ref(QStringLiteral("127.0.0.93:9002")) });
        QPointer<RollingRestart> restart;
        const auto started = connect(m_actions, &EngineActions::rollingRestartStarted, this, [&restart](RollingRestart *r) { restart = r; });
        m_actions->run(plan, false); // its first step asks the table for a reconcile round
        disconnect(started);
        QVERIFY(restart);
        restart->cancel();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(!restart); // gone before the round answers
        QVERIFY(m_sim.reconcile()); // joins the round in flight: its callbacks run now
        QVERIFY(m_sim.waitIdle(10000));
        QCOMPARE(m_sim.table()->fact(QStringLiteral("127.0.0.93:9002"), Role::Decode),
            MembershipFact::Active); // nothing was done
    }

    void theLastInstanceNeedsTheOverride()
    {
        QVERIFY(m_sim.reconcile());
        const QList<EngineRef> prefill { m_sim.ref(QStringLiteral("127.0.0.92:9000")),
            m_sim.ref(QStringLiteral("127.0.0.92:9001")) };
        QCOMPARE(m_sim.table()->activeCount(Role::Prefill), 2);
        const EngineActionPlan plan = m_actions->plan(EngineAction::Stop, prefill, QStringLiteral("prefill pool"));
        QVERIFY(plan.needsOverride);
        QVERIFY(plan.text().contains(QLatin1String("last active instance")));
        QVERIFY(!plan.canRun(false));
        QVERIFY(plan.canRun(true));
        QVERIFY(m_actions->run(plan, false).isEmpty());
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Prefill), 2);
        // One of the two is fine.
        QVERIFY(!m_actions->plan(EngineAction::Stop, {prefill.first()}).needsOverride);
    }

    void cleanupTestCase()
    {
        if (m_sim.runner())
            m_sim.runner()->cancelAll();
        m_sim.stopCluster();
    }
};

QTEST_GUILESS_MAIN(TestEngineActions)
#include "tst_engineactions.moc"
