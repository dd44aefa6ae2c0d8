// SPDX-License-Identifier: MIT
// Healing under steady traffic (issue 29), against a simulated cluster in this process whose proxy never
// goes idle: closed-loop client streams (pdsim's /cluster/load {"streams": N}) keep a request in flight at
// every listener tick, so a drain is never finalised (proxy-api §8.3) and a re-add of a draining instance
// is ignored (§8.12). tests/scale/data/scale-groups.json: four coupled decode groups of two ranks, d0 and
// d1 serving, d2 and d3 stopped.
//   - a crashed rank's group: "Restart group" does not wait on the frozen survivors, and the group ends
//     routed again through the confirmed way out (the proxy restarted with its current lists), the
//     requests that failed counted;
//   - a scale-in undone (4 -> 2 -> 4): without the way out it stops and names both ways out; with it,
//     the group comes back and all four ranks are routed;
//   - Restore after a proxy restart brings back exactly what was routed before, whole groups, and takes
//     out the group the operator had stopped (the restarted proxy's command line lists it again);
//   - a proxy restarted by someone else with the lists it had ends the drains in the table too (nothing
//     listened meanwhile: a new process), and offers no restore;
//   - after each, the membership table reads what the proxy lists (no rank left Draining).
#include "audit/auditlog.h"
#include "cluster/instancekey.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/restoreplan.h"
#include "ops/scalein.h"
#include "ops/scaleplan.h"
#include "ops/scalerunner.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using json = nlohmann::json;

class TestHealUnderTraffic : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;

    static QString id(int node, int port) { return QStringLiteral("127.0.0.%1:%2").arg(113 + node).arg(port); }
    static QString groupId(int node) { return QStringLiteral("decode@127.0.0.%1:13395").arg(113 + node); }

    json load() { return m_sim.clusterState()["load"]; }
    int failed() { return load().value("failed", 0) + load().value("empty_ok", 0); }

    // Every decode rank the proxy lists reads Active in the table, and no decode rank reads Draining.
    void verifyTableMatchesProxy(int expectedDecode)
    {
        QTRY_VERIFY_WITH_TIMEOUT(
            m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == expectedDecode, 20000);
        QCOMPARE(m_sim.listed(Role::Decode).size(), expectedDecode);
        for (const InstanceRecord &r : m_sim.table()->records())
            QVERIFY2(r.fact != MembershipFact::Draining, qPrintable(r.id + QStringLiteral(": ") + r.note));
    }

    // The proxy stays busy: its request_num is above 0 in every one of `reads` readings.
    bool proxyStaysBusy(int reads)
    {
        for (int i = 0; i < reads; ++i) {
            if (!m_sim.reconcile())
                return false;
            const ProxyHealth &h = m_sim.table()->health();
            if (!h.requestNum || *h.requestNum == 0)
                return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_sim.dir().isValid());
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json")));
        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real
        options.waitingRetryInterval = 0.5;
        options.jitter = false;
        options.seed = 29;
        PD_START_SIM_CLUSTER(m_sim, options);
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
        // The wait for an idle moment: its default, three of the proxy's listener ticks (0.5 s here).
        ctx.settings.restartProxyForDrains = true;
        m_sim.table()->start(500);
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 4);

        // Steady concurrent streams: the proxy is never idle from here on.
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/load"), R"({"streams": 6})"), 200);
        QVERIFY(proxyStaysBusy(5));
    }

    void brokenGroupRestartsWithoutDrainingAndIsRoutedAgain()
    {
        const int failedBefore = failed();
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/engines/fault"),
                     QStringLiteral(R"({"engines":["%1"],"kind":"crash"})").arg(id(0, 9001)).toUtf8()),
            200);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.engineStatus(id(0, 9001)) != QStringLiteral("ready"), 10000);

        QElapsedTimer clock;
        clock.start();
        EngineActions actions(&m_sim.context(), m_sim.runner());
        const EngineActionPlan plan = actions.planRestartGroup(groupId(0));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        QVERIFY2(plan.text().contains(QLatin1String("the proxy is restarted with its current lists")),
            qPrintable(plan.text()));
        const auto ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1);
        QVERIFY(m_sim.waitIdle(90000));
        const ScaleOperation *op = ops.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        // Found broken in its preflight (one rank not running): the survivors were not drained.
        const OperationStep &drain = op->steps().at(DpGroupOperation::Drain);
        QVERIFY2(drain.status == StepStatus::Skipped && drain.detail.contains(QLatin1String("broken")),
            qPrintable(test::describeOperation(op)));
        // The busy proxy never finalised the drain: the group came back through the restart with its lists.
        const OperationStep &add = op->steps().at(DpGroupOperation::AddToProxy);
        QVERIFY2(add.detail.contains(QLatin1String("restarted proxy")), qPrintable(test::describeOperation(op)));
        const qint64 healedMs = clock.elapsed();
        verifyTableMatchesProxy(4);
        QVERIFY(m_sim.listed(Role::Decode).contains(proxyInstanceKey(id(0, 9001))));

        // The restart's cost is in the audit log, counted.
        const AuditReadResult audit = readAuditLog(m_sim.audit()->path());
        bool counted = false;
        for (const AuditEntry &e : audit.entries)
            if (e.action == QLatin1String("proxy.restart-for-drains") && e.result == QLatin1String("ok")) {
                counted = e.params.contains("failed_in_flight") && e.params["failed_in_flight"].get<int>() >= 0;
            }
        QVERIFY(counted);

        // Routed again: new requests keep succeeding, and none fails from here on.
        const int failedAfterHeal = failed();
        const int succeeded = load().value("succeeded", 0);
        QTRY_VERIFY_WITH_TIMEOUT(load().value("succeeded", 0) >= succeeded + 12, 60000);
        QCOMPARE(failed(), failedAfterHeal);
        qInfo("broken group healed under %d streams in %lld ms real (time scale 20: %.0f s simulated); "
              "%d client request(s) failed between the crash and the heal",
            6, healedMs, healedMs * 20 / 1000.0, failedAfterHeal - failedBefore);
    }

    void aScaleInIsUndoneUnderTraffic()
    {
        QVERIFY(proxyStaysBusy(3));
        ScaleContext &ctx = m_sim.context();
        // 4 -> 2: a whole group leaves, drained by its own requests; the busy proxy keeps it listed.
        const ScalePlan in = planPoolScale(
            Role::Decode, 2, m_sim.refs(), ctx.groups, *m_sim.table(), m_sim.loads(Role::Decode), ctx.settings);
        QVERIFY2(in.canApply(false), qPrintable(in.describe()));
        QCOMPARE(in.groupsToRemove.size(), 1);
        const QString leaving = in.groupsToRemove.first();
        const auto ins = m_sim.runner()->apply(in, false);
        QVERIFY(m_sim.waitIdle(90000));
        QVERIFY2(
            ins.first()->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(ins.first())));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 2);
        QStringList drainingRanks;
        for (const EngineRef &e : m_sim.refs())
            if (m_sim.table()->fact(e.id, Role::Decode) == MembershipFact::Draining)
                drainingRanks << e.id;
        QCOMPARE(drainingRanks.size(), 2); // stopped, but still listed: the proxy was never idle

        // 2 -> 4: a group wholly out of the proxy comes first, so no drain stands in the way.
        const ScalePlan back = planPoolScale(
            Role::Decode, 4, m_sim.refs(), ctx.groups, *m_sim.table(), m_sim.loads(Role::Decode), ctx.settings);
        QVERIFY2(back.canApply(false), qPrintable(back.describe()));
        QCOMPARE(back.groupsToStart.size(), 1);
        QVERIFY(back.groupsToStart.first() != leaving);
        QVERIFY(back.returningDrains.isEmpty());
        const auto backs = m_sim.runner()->apply(back, false);
        QVERIFY(m_sim.waitIdle(90000));
        QVERIFY2(backs.first()->outcome() == OperationOutcome::Succeeded,
            qPrintable(test::describeOperation(backs.first())));
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 4, 20000);

        // 4 -> 8 needs the draining group too: the plan takes it back and says what it costs.
        ScalePlan all = planPoolScale(
            Role::Decode, 8, m_sim.refs(), ctx.groups, *m_sim.table(), m_sim.loads(Role::Decode), ctx.settings);
        QVERIFY2(all.canApply(false), qPrintable(all.describe()));
        QVERIFY(all.groupsToStart.contains(leaving));
        QCOMPARE(all.returningDrains.size(), 2);
        QVERIFY2(all.describe().contains(QLatin1String("still draining")), qPrintable(all.describe()));

        // Without the way out the returning group's operation stops at the add and names both ways out;
        // the other group comes in.
        ctx.settings.restartProxyForDrains = false;
        ctx.settings.drainFinaliseWaitMs = 1500; // three listener ticks, not the idle timeout waiting alone would take
        const auto refused = m_sim.runner()->apply(all, false);
        QVERIFY(m_sim.waitIdle(90000));
        int failedOps = 0;
        for (const ScaleOperation *op : refused) {
            const auto *group = qobject_cast<const DpGroupOperation *>(op);
            QVERIFY(group);
            if (group->groupId() != leaving) {
                QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
                continue;
            }
            ++failedOps;
            QVERIFY2(op->outcome() == OperationOutcome::Failed, qPrintable(test::describeOperation(op)));
            QVERIFY2(op->summary().contains(QLatin1String("Ways out")), qPrintable(op->summary()));
        }
        QCOMPARE(failedOps, 1);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 6, 20000);
        for (const QString &rank : std::as_const(drainingRanks)) // a no-op re-add is never reported as done
            QCOMPARE(m_sim.table()->fact(rank, Role::Decode), MembershipFact::Draining);

        // With it: the group (running now) is brought back by the restart with the current lists.
        ctx.settings.restartProxyForDrains = true;
        ctx.settings.drainFinaliseWaitMs = -1;
        all = planPoolScale(
            Role::Decode, 8, m_sim.refs(), ctx.groups, *m_sim.table(), m_sim.loads(Role::Decode), ctx.settings);
        QVERIFY2(all.canApply(false), qPrintable(all.describe()));
        QCOMPARE(all.groupsToStart, QStringList { leaving });
        const auto outs = m_sim.runner()->apply(all, false);
        QVERIFY(m_sim.waitIdle(90000));
        QVERIFY2(
            outs.first()->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(outs.first())));
        verifyTableMatchesProxy(8);
    }

    void restoreBringsBackWhatWasRoutedAndNotWhatWasScaledIn()
    {
        QVERIFY(proxyStaysBusy(3));
        ScaleContext &ctx = m_sim.context();
        // The operator's intents, as the console's state tracker keeps them from the operations.
        QHash<QString, OperatorIntent> intents;
        const QMetaObject::Connection feed = connect(m_sim.runner(), &ScaleRunner::intentDeclared, this,
            [&intents](const EngineRef &e, OperatorIntent intent, const QString &) { intents[e.id] = intent; });
        ctx.intentOf = [&intents](const QString &id) { return intents.value(id, OperatorIntent::None); };
        const auto forget = qScopeGuard([&ctx, feed] { // `intents` ends with this function
            ctx.intentOf = nullptr;
            QObject::disconnect(feed);
        });

        // Group d1 (on the proxy's command line) is stopped on purpose: out of the proxy, drained, stopped;
        // the busy proxy keeps it listed, draining.
        EngineActions actions(&ctx, m_sim.runner());
        const QList<EngineRef> d1 { m_sim.ref(id(1, 9000)), m_sim.ref(id(1, 9001)) };
        const auto stopped = actions.run(actions.plan(EngineAction::Stop, d1), false);
        QCOMPARE(stopped.size(), 1);
        QVERIFY(m_sim.waitIdle(90000));
        QVERIFY2(stopped.first()->outcome() == OperationOutcome::Succeeded,
            qPrintable(test::describeOperation(stopped.first())));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->activeCount(Role::Decode), 6);
        QSet<QString> routedBefore;
        for (const EngineRef &e : m_sim.refs())
            if (e.role == Role::Decode && m_sim.table()->fact(e.id, Role::Decode) == MembershipFact::Active)
                routedBefore.insert(proxyInstanceKey(e.id));

        // The proxy restarts with its command line (d0 and d1): it forgets d2 and d3, and lists d1 again.
        QSignalSpy restarted(m_sim.table(), &MembershipReconciler::restartDetected);
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/proxy/stop"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_sim.table()->lastError().isEmpty(), 10000);
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/proxy/start"), "{}"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 15000);
        const ProxyLists previous = restarted.at(0).at(0).value<ProxyLists>();
        const ProxyLists now = restarted.at(0).at(1).value<ProxyLists>();
        QCOMPARE(previous.decode.size(), 6); // what was routed: d1, draining out, is not part of it
        QVERIFY(m_sim.reconcile());
        // One truth: the new process drains nothing, so d1 reads what the proxy does with it (listed, routed).
        QCOMPARE(m_sim.table()->fact(id(1, 9000), Role::Decode), MembershipFact::Active);

        const RestorePlan plan = planRestore(previous, now, ctx, ctx.intentOf);
        QCOMPARE(plan.addedInstances(), 4); // d2 and d3, each a whole group
        for (const RestoreUnit &u : plan.toAdd)
            QVERIFY2(!u.groupId.isEmpty() && u.ranks.size() == 2, qPrintable(plan.describe()));
        QCOMPARE(plan.toRemove.size(), 2); // d1: listed by the command line, scaled in on purpose
        const auto ops = m_sim.runner()->restore(plan);
        QVERIFY(m_sim.waitIdle(90000));
        for (const ScaleOperation *op : ops)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->activeCount(Role::Decode) == 6, 20000);
        QSet<QString> routedAfter;
        for (const EngineRef &e : m_sim.refs())
            if (e.role == Role::Decode && m_sim.table()->fact(e.id, Role::Decode) == MembershipFact::Active)
                routedAfter.insert(proxyInstanceKey(e.id));
        QCOMPARE(routedAfter, routedBefore);
        QCOMPARE(m_sim.engineStatus(id(1, 9000)), QStringLiteral("stopped"));
    }

    // Someone else restarts the proxy with the lists it had: nothing tells the table by the lists, but
    // nothing listened meanwhile, so the process is new and its drains are over. The ranks that read
    // draining read what the new proxy does with them: listed and routed. No restore is offered.
    void aRestartBySomeoneElseWithTheSameListsEndsTheDrains()
    {
        // An idle moment first, so that d1 (stopped on purpose above) leaves the lists for good.
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/load"), R"({"streams": 0})"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_sim.listed(Role::Decode).contains(proxyInstanceKey(id(1, 9000))), 30000);
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/load"), R"({"streams": 6})"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(proxyStaysBusy(3), 20000);
        ScaleContext &ctx = m_sim.context();
        QList<ScaleOperation *> outs; // d2's ranks out of the proxy, left running: listed, draining
        for (int port : { 9000, 9001 }) {
            auto *in = new ScaleIn(m_sim.ref(id(2, port)), &ctx, false);
            in->setStopEngine(false);
            outs << m_sim.runner()->enqueue(in);
        }
        QVERIFY(m_sim.waitIdle(90000));
        for (const ScaleOperation *op : std::as_const(outs))
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QVERIFY(m_sim.reconcile());
        QCOMPARE(m_sim.table()->fact(id(2, 9000), Role::Decode), MembershipFact::Draining);
        const ProxyLists lists = *m_sim.table()->lists();

        QSignalSpy restarted(m_sim.table(), &MembershipReconciler::restartDetected);
        QCOMPARE(m_sim.postControl(QStringLiteral("/cluster/proxy/stop"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_sim.table()->lastError().isEmpty(), 10000);
        json body = json::object();
        body["prefill_instances"] = json::array();
        body["decode_instances"] = json::array();
        for (const QString &i : lists.prefill)
            body["prefill_instances"].push_back(i.toStdString());
        for (const QString &i : lists.decode)
            body["decode_instances"].push_back(i.toStdString());
        QCOMPARE(
            m_sim.postControl(QStringLiteral("/cluster/proxy/start"), QByteArray::fromStdString(body.dump())), 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_sim.reconcile() && m_sim.table()->lastError().isEmpty(), 15000);
        QCOMPARE(m_sim.table()->fact(id(2, 9000), Role::Decode), MembershipFact::Active);
        QCOMPARE(m_sim.table()->fact(id(2, 9001), Role::Decode), MembershipFact::Active);
        QCOMPARE(restarted.count(), 0);
        verifyTableMatchesProxy(int(lists.decode.size()));
    }

    void cleanupTestCase()
    {
        if (m_sim.cluster())
            m_sim.postControl(QStringLiteral("/cluster/load"), R"({"streams": 0, "rps": 0})");
        if (m_sim.table())
            m_sim.table()->stop();
        if (m_sim.cluster())
            m_sim.cluster()->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestHealUnderTraffic)
#include "tst_healundertraffic.moc"
