// SPDX-License-Identifier: MIT
// Scaling end to end against a simulated cluster in this process (pdsim's SimCluster: engines, the
// proxy with its §8 defects, the control API): decode 4 -> 6 -> 3 under a bounded client load with no
// failed request and no §8.1 trigger, the last-instance guard, a dropped add, the listener-dead
// diagnosis, a proxy restart and the restore of membership, and an audit line for every step.
#include "audit/auditlog.h"
#include "cluster/instancekey.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/restoreplan.h"
#include "ops/rollingrestart.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using json = nlohmann::json;

class TestScaleEnd2End : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;

    static QString describe(const ScaleOperation *op) { return test::describeOperation(op); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_sim.dir().isValid());
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-loopback.json")));
        QCOMPARE(m_sim.refs().size(), 10);

        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: WaitReady has something to wait for
        options.waitingRetryInterval = 0.5;
        options.loadMaxInFlight = 12;
        options.jitter = false;
        options.seed = 7;
        PD_START_SIM_CLUSTER(m_sim, options);
        // The profile's four extra decode engines exist but are stopped, as on a real cluster.
        for (int port = 9004; port < 9008; ++port)
            m_sim.stopEngineNow(QStringLiteral("127.0.0.63:%1").arg(port));

        m_sim.setUpScaling(5000);
        ScaleContext &ctx = m_sim.context();
        setScaleContextProfile(ctx, m_sim.profile()); // independent ranks: scaling goes rank by rank
        ctx.settings.pollMs = 200;
        ctx.settings.engineReadyTimeoutMs = 30000;
        ctx.settings.verifyTrafficTimeoutMs = 8000;
        ctx.settings.idleTimeoutMs = 60000;
        ctx.settings.stopTimeoutMs = 10000;
        m_sim.runner()->setParallelCap(3);
        m_sim.table()->start(500);
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 4);
        QCOMPARE(m_sim.table()->fact(QStringLiteral("127.0.0.63:9005"), Role::Decode), MembershipFact::Configured);
    }

    void scaleDecode4To6To3UnderLoad()
    {
        m_sim.setLoad(3);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.clusterState()["load"]["succeeded"].get<int>() >= 2, 30000);

        const ScalePlan out = planPoolScale(Role::Decode, 6, m_sim.refs(), m_sim.context().groups, *m_sim.table(),
            m_sim.loads(Role::Decode), m_sim.context().settings);
        QVERIFY2(out.canApply(false), qPrintable(out.describe()));
        QCOMPARE(out.current, 4);
        QCOMPARE(out.toStart.size(), 2);
        QCOMPARE(out.toStart.at(0).id, QStringLiteral("127.0.0.63:9004")); // rank order
        QCOMPARE(out.toStart.at(1).id, QStringLiteral("127.0.0.63:9005"));
        QElapsedTimer clock;
        clock.start();
        const auto outOps = m_sim.runner()->apply(out, false);
        QCOMPARE(outOps.size(), 2);
        QVERIFY(m_sim.waitIdle(90000));
        qInfo("scale-out 4 -> 6: %lld ms", clock.elapsed());
        for (const ScaleOperation *op : outOps)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(describe(op)));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 6);
        int verified = 0;
        for (const ScaleOperation *op : outOps)
            verified += static_cast<const ScaleOut *>(op)->trafficVerified();
        QVERIFY2(verified >= 1, "no new decode engine received a request under load");

        const QHash<QString, EngineLoad> now = m_sim.loads(Role::Decode);
        QCOMPARE(now.size(), 6);
        const ScalePlan in = planPoolScale(
            Role::Decode, 3, m_sim.refs(), m_sim.context().groups, *m_sim.table(), now, m_sim.context().settings);
        QVERIFY2(in.canApply(false), qPrintable(in.describe()));
        QCOMPARE(in.toRemove.size(), 3);
        for (int i = 1; i < in.toRemove.size(); ++i) { // least loaded first
            const EngineLoad a = now.value(in.toRemove.at(i - 1).id), b = now.value(in.toRemove.at(i).id);
            QVERIFY(a.running + a.waiting <= b.running + b.waiting);
        }
        QSet<QString> expected = m_sim.listed(Role::Decode);
        for (const EngineRef &e : in.toRemove)
            expected.remove(proxyInstanceKey(e.id));
        clock.restart();
        const auto inOps = m_sim.runner()->apply(in, false);
        QVERIFY(m_sim.waitIdle(120000));
        qInfo("scale-in 6 -> 3 (%g requests running on the leaving engines): %lld ms", in.affectedRequests, clock.elapsed());
        for (const ScaleOperation *op : inOps)
            qInfo("%s", qPrintable(describe(op)));
        for (const ScaleOperation *op : inOps)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(describe(op)));
        for (const EngineRef &e : in.toRemove)
            QCOMPARE(m_sim.engineStatus(e.id), QStringLiteral("stopped"));

        // The load ends; the proxy finalises drains once idle (§8.3): the lists are exactly the plan.
        m_sim.setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(m_sim.clusterState()["load"]["in_flight"].get<int>(), 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.listed(Role::Decode) == expected, 20000);
        for (const EngineRef &e : in.toRemove)
            QCOMPARE(m_sim.table()->fact(e.id, Role::Decode), MembershipFact::Gone);

        const json load = m_sim.clusterState()["load"];
        qInfo("client load: %d sent, %d succeeded, %d failed, %d empty 200",
              load["sent"].get<int>(), load["succeeded"].get<int>(), load["failed"].get<int>(), load["empty_ok"].get<int>());
        QVERIFY(load["succeeded"].get<int>() > 0);
        QCOMPARE(load["failed"].get<int>(), 0);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
        QVERIFY2(m_sim.crashLines().isEmpty(), qPrintable(m_sim.crashLines().join(QLatin1Char('\n'))));

        // Every step that ran left an audit line (action kind.step, target with the engine).
        const AuditReadResult audit = readAuditLog(m_sim.audit()->path());
        QVERIFY(audit.problems.isEmpty());
        for (const ScaleOperation *op : outOps + inOps) {
            for (const OperationStep &step : op->steps()) {
                if (step.status == StepStatus::Skipped || step.status == StepStatus::Pending)
                    continue;
                const QString action = op->kind() + QLatin1Char('.') + step.id;
                bool found = false;
                for (const AuditEntry &e : audit.entries)
                    found = found || (e.action == action && e.target.contains(op->engine().id) && e.result == stepStatusName(step.status));
                QVERIFY2(found, qPrintable(action + QLatin1Char(' ') + op->engine().id));
            }
        }
        QVERIFY(m_sim.runner()->markers().size() >= 2 * (outOps.size() + inOps.size()));
    }

    void theLastInstanceNeedsAnOverride()
    {
        QVERIFY(m_sim.reconcile());
        const ScalePlan empty = planPoolScale(
            Role::Prefill, 0, m_sim.refs(), m_sim.context().groups, *m_sim.table(), {}, m_sim.context().settings);
        QVERIFY(empty.needsOverride);
        QVERIFY(!empty.canApply(false));
        QVERIFY(m_sim.runner()->apply(empty, false).isEmpty());

        auto *first = new ScaleIn(m_sim.ref(QStringLiteral("127.0.0.62:9001")), &m_sim.context(), false);
        first->setStopEngine(false);
        m_sim.runner()->enqueue(first);
        QVERIFY(m_sim.waitIdle(30000));
        QVERIFY2(first->outcome() == OperationOutcome::Succeeded, qPrintable(describe(first)));
        auto *last = new ScaleIn(m_sim.ref(QStringLiteral("127.0.0.62:9000")), &m_sim.context(), false);
        m_sim.runner()->enqueue(last);
        QVERIFY(m_sim.waitIdle(30000));
        QCOMPARE(last->outcome(), OperationOutcome::Failed);
        QVERIFY2(last->summary().contains(QLatin1String("last active instance")), qPrintable(last->summary()));
        QCOMPARE(last->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Pending);
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(QStringLiteral("127.0.0.62:9000"), Role::Prefill), MembershipFact::Active);

        // Back to two: the engine still runs, so the scale-out skips the start.
        auto *back = new ScaleOut(m_sim.ref(QStringLiteral("127.0.0.62:9001")), &m_sim.context());
        m_sim.runner()->enqueue(back);
        QVERIFY(m_sim.waitIdle(30000));
        QVERIFY2(back->outcome() == OperationOutcome::Succeeded, qPrintable(describe(back)));
        QCOMPARE(back->steps().at(ScaleOut::StartEngine).status, StepStatus::Skipped);
    }

    void aRollingRestartKeepsTheFloor()
    {
        QVERIFY(m_sim.reconcile());
        const QList<EngineRef> members = m_sim.activeMembers(Role::Decode);
        const int n = int(members.size());
        QVERIFY(n >= 2);

        RollingRestart tooHigh(members, n, &m_sim.context(), m_sim.runner());
        QSignalSpy paused(&tooHigh, &RollingRestart::paused);
        tooHigh.start();
        QTRY_COMPARE_WITH_TIMEOUT(paused.count(), 1, 10000);
        QCOMPARE(tooHigh.state(), RollingRestart::State::Paused);
        QVERIFY2(tooHigh.reason().contains(QLatin1String("below the floor")), qPrintable(tooHigh.reason()));
        QCOMPARE(tooHigh.done(), 0);

        const int failedBefore = m_sim.clusterState()["load"]["failed"].get<int>();
        // A light load: the proxy finalises a drain only in a moment with no request in flight (§8.3),
        // and a restarted engine can only be added back after that (§8.12).
        m_sim.setLoad(1);
        RollingRestart rolling(members.mid(0, 2), n - 1, &m_sim.context(), m_sim.runner());
        QSignalSpy finished(&rolling, &RollingRestart::finished);
        rolling.start();
        QSignalSpy rollingPaused(&rolling, &RollingRestart::paused);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 || rollingPaused.count() == 1, 240000);
        QVERIFY2(rolling.state() == RollingRestart::State::Finished, qPrintable(rolling.reason()));
        QCOMPARE(rolling.done(), 2);
        m_sim.setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(m_sim.clusterState()["load"]["in_flight"].get<int>(), 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == n, 20000);
        const json load = m_sim.clusterState()["load"];
        QCOMPARE(load["failed"].get<int>(), failedBefore);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
    }

    void aDroppedAddIsReported()
    {
        // The engine serves when the console checks, and dies right before the add: the proxy's
        // listener never gets an answer and silently drops it (§2.2).
        const QString id = QStringLiteral("127.0.0.63:9007");
        auto *op = new ScaleOut(m_sim.ref(id), &m_sim.context());
        connect(op, &ScaleOperation::stepChanged, this, [this, op, id](int step) {
            if (step == ScaleOut::AddToProxy && op->steps().at(step).status == StepStatus::Running)
                m_sim.stopEngineNow(id);
        });
        m_sim.runner()->enqueue(op);
        QVERIFY(m_sim.waitIdle(60000));
        QCOMPARE(op->outcome(), OperationOutcome::Failed);
        QCOMPARE(op->addFailure(), ScaleOut::AddFailure::Dropped);
        QVERIFY2(op->summary().contains(QLatin1String("DROPPED")), qPrintable(describe(op)));
        QCOMPARE(m_sim.table()->fact(id, Role::Decode), MembershipFact::Dropped);
        QVERIFY(m_sim.crashLines().isEmpty());
    }

    void aDeadListenerIsDiagnosedAndARestartIsRestored()
    {
        QVERIFY(m_sim.reconcile());
        const ProxyLists before = *m_sim.table()->lists();
        // Someone else (not this console) removes a still-waiting instance under load: §8.1.
        const QString victim = QStringLiteral("127.0.0.63:9006");
        int status = 0;
        m_sim.callControl(
            "POST", QStringLiteral("/cluster/engines/start"), R"({"engines":["127.0.0.63:9006"]})", &status);
        QTRY_COMPARE_WITH_TIMEOUT(m_sim.engineStatus(victim), QStringLiteral("ready"), 20000);
        // The victim answers the listener's /v1/models probe 2 s late: the remove below always lands
        // while it is still waiting (with a fast probe, a listener round could activate it first).
        m_sim.callControl("POST", QStringLiteral("/cluster/engines/fault"),
            R"({"engines":["127.0.0.63:9006"],"kind":"slow","ms":2000})", &status);
        QCOMPARE(status, 200);
        m_sim.setLoad(4);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.clusterState()["load"]["in_flight"].get<int>() > 0, 30000);
        ProxyClient raw;
        raw.setEndpoint(m_sim.proxy()->endpoint());
        // The add and the remove must both land before the listener activates the victim; the slow
        // probe makes that certain, the retry stays for a loaded machine.
        for (int attempt = 0; attempt < 5 && m_sim.crashLines().isEmpty(); ++attempt) {
            QTRY_VERIFY_WITH_TIMEOUT(m_sim.clusterState()["load"]["in_flight"].get<int>() > 0, 30000);
            std::optional<ProxyReply> removed;
            raw.addInstances(Role::Decode, {victim}, [&](const ProxyReply &) {
                raw.removeInstances(Role::Decode, {victim}, [&](const ProxyReply &r2) { removed = r2; });
            });
            QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 10000);
            QVERIFY2(removed->ok, qPrintable(removed->error));
            static_cast<void>(QTest::qWaitFor(
                [this] { return !m_sim.crashLines().isEmpty(); }, 8000)); // the caller checks what it waited for
            if (m_sim.crashLines().isEmpty())
                qInfo("attempt %d: a listener round fell between add and remove (%s); again", attempt + 1, qPrintable(removed->message));
        }
        QVERIFY(!m_sim.crashLines().isEmpty());
        m_sim.callControl("POST", QStringLiteral("/cluster/engines/fault"),
            R"({"engines":["127.0.0.63:9006"],"kind":"none"})", &status);
        m_sim.setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(m_sim.clusterState()["load"]["in_flight"].get<int>(), 0, 120000);

        // The console's scale-out of a serving engine is never activated: "listener dead". Which
        // decode engines the proxy still lists depends on the first test's least-loaded scale-in
        // choice, so the target is any engine it does not list (not the victim, not 9007).
        QVERIFY(m_sim.reconcile());
        const QSet<QString> stillListed = m_sim.listed(Role::Decode);
        QString target;
        for (const EngineRef &e : m_sim.refs())
            if (target.isEmpty() && e.role == Role::Decode && e.id != victim && e.id != QLatin1String("127.0.0.63:9007")
                && !stillListed.contains(proxyInstanceKey(e.id)))
                target = e.id;
        QVERIFY2(!target.isEmpty(), "every decode engine is listed: nothing to scale out");
        auto *op = new ScaleOut(m_sim.ref(target), &m_sim.context());
        m_sim.runner()->enqueue(op);
        QVERIFY(m_sim.waitIdle(60000));
        QVERIFY2(op->outcome() == OperationOutcome::Failed, qPrintable(describe(op)));
        QVERIFY2(op->addFailure() == ScaleOut::AddFailure::ListenerDead, qPrintable(describe(op)));
        QVERIFY2(op->summary().contains(QStringLiteral("proxy listener dead — restart the proxy")), qPrintable(describe(op)));

        // Restart: the proxy comes back with its command-line instances only; the table notices.
        QSignalSpy restarted(m_sim.table(), &MembershipReconciler::restartDetected);
        m_sim.callControl("POST", QStringLiteral("/cluster/proxy/stop"), {}, &status);
        QCOMPARE(status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_sim.table()->lastError().isEmpty(), 10000);
        m_sim.callControl("POST", QStringLiteral("/cluster/proxy/start"), {}, &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 10000);
        const ProxyLists previous = restarted.at(0).at(0).value<ProxyLists>();
        const ProxyLists now = restarted.at(0).at(1).value<ProxyLists>();
        QCOMPARE(QSet<QString>(previous.decode.begin(), previous.decode.end()), QSet<QString>(before.decode.begin(), before.decode.end()));

        const auto ops = m_sim.runner()->restore(planRestore(previous, now, m_sim.context()));
        QVERIFY(!ops.isEmpty());
        QVERIFY(m_sim.waitIdle(60000));
        for (const ScaleOperation *r : ops)
            QVERIFY2(r->outcome() == OperationOutcome::Succeeded, qPrintable(describe(r)));
        QVERIFY(m_sim.reconcile());
        auto keys = [](const QStringList &l) {
            QSet<QString> s;
            for (const QString &i : l)
                s.insert(proxyInstanceKey(i));
            return s;
        };
        QCOMPARE(keys(m_sim.table()->lists()->decode), keys(before.decode));
        QCOMPARE(keys(m_sim.table()->lists()->prefill), keys(before.prefill));
    }

    void readOnlyRefusesEverything()
    {
        m_sim.context().settings.readOnly = true;
        const ScalePlan plan = planPoolScale(
            Role::Decode, 5, m_sim.refs(), m_sim.context().groups, *m_sim.table(), {}, m_sim.context().settings);
        QVERIFY(!plan.canApply(true));
        auto *op = new ScaleOut(m_sim.ref(QStringLiteral("127.0.0.63:9007")), &m_sim.context());
        m_sim.runner()->enqueue(op);
        QVERIFY(m_sim.waitIdle(10000));
        QCOMPARE(op->outcome(), OperationOutcome::Failed);
        QVERIFY(op->summary().contains(QLatin1String("read-only")));
        m_sim.context().settings.readOnly = false;
    }

    void cleanupTestCase()
    {
        if (m_sim.table())
            m_sim.table()->stop();
        if (m_sim.cluster())
            m_sim.cluster()->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestScaleEnd2End)
#include "tst_scaleend2end.moc"
