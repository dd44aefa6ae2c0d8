// SPDX-License-Identifier: MIT
// Whole coupled DP groups end to end against a simulated cluster in this process (pdsim's SimCluster):
// tests/scale/data/scale-groups.json has four coupled decode groups of two ranks, two of them serving.
// Decode 4 -> 8 starts two whole groups (each one operation: both ranks at once, even with a parallel
// cap of 1), "Restart group" takes one group out, stops, starts and adds it back, and 8 -> 4 removes the
// two least loaded whole groups; every operation succeeds and the proxy's lists follow.
#include "../sim/blockinghttp.h"
#include "audit/auditlog.h"
#include "awaitreply.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/rollingrestart.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace pd;
using json = nlohmann::json;

class TestScaleGroupsEnd2End : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    Profile m_profile;
    QList<EngineRef> m_refs;
    QTemporaryDir m_dir;
    QString m_control;
    QNetworkAccessManager m_network;

    ProxyClient *m_proxy = nullptr;
    MembershipReconciler *m_table = nullptr;
    SimClusterEngineControl *m_engines = nullptr;
    EngineProbe *m_probe = nullptr;
    std::unique_ptr<AuditLog> m_audit;
    ScaleContext m_ctx;
    ScaleRunner *m_runner = nullptr;

    static QString id(int node, int port) { return QStringLiteral("127.0.0.%1:%2").arg(113 + node).arg(port); }
    static QString groupId(int node) { return QStringLiteral("decode@127.0.0.%1:13395").arg(113 + node); }

    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        return pdtest::blockingHttp(m_network, method, url, body, status);
    }
    json clusterState() { return json::parse(http("GET", m_control + QStringLiteral("/cluster")).toStdString(), nullptr, false); }
    QString engineStatus(const QString &engine)
    {
        const json state = clusterState();
        for (const json &e : state["engines"])
            if (e["id"] == engine.toStdString())
                return QString::fromStdString(e["status"].get<std::string>());
        return {};
    }
    bool reconcile() { return test::reconcileNow(m_table); }
    QHash<QString, EngineLoad> loads()
    {
        QList<EngineRef> members;
        for (const EngineRef &e : m_refs)
            if (e.role == Role::Decode && m_table->fact(e.id, Role::Decode) == MembershipFact::Active)
                members << e;
        return test::awaitReply<QHash<QString, EngineLoad>>([&](auto done) {
            m_probe->loads(members, done);
        }).value_or(QHash<QString, EngineLoad>());
    }
    bool waitIdle(int ms) { return test::waitIdle(m_runner, ms); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json"));
        QVERIFY(loaded.profile.has_value());
        m_profile = *loaded.profile;
        m_refs = engineRefs(m_profile);
        QCOMPARE(m_refs.size(), 10);

        sim::ClusterOptions options;
        options.profile = m_profile;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: the group's readiness has something to wait for
        options.waitingRetryInterval = 0.5;
        options.loadMaxInFlight = 4;
        options.jitter = false;
        options.seed = 11;
        m_cluster = std::make_unique<sim::SimCluster>(options);
        QString error;
        if (!m_cluster->start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(QStringLiteral("cannot start the simulated cluster (ports busy?): ") + error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 30000);
        m_control = QStringLiteral("http://127.0.0.111:%1").arg(m_cluster->controlPort());
        // Groups d2 and d3 exist but are stopped, as on a real cluster.
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/engines/stop"),
             QStringLiteral(R"({"engines":["%1","%2","%3","%4"]})").arg(id(2, 9000), id(2, 9001), id(3, 9000), id(3, 9001)).toUtf8(), &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(id(3, 9001)), QStringLiteral("stopped"), 10000);

        m_proxy = new ProxyClient(this);
        m_proxy->setEndpoint({QUrl(QStringLiteral("http://127.0.0.111:8400")), {}, {}, 5000});
        m_table = new MembershipReconciler(m_proxy, this);
        m_table->setListenerTiming(500, m_profile.proxy.maxWaitingRetries, 2000);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : m_refs)
            configured.append({e.id, e.role});
        m_table->setConfigured(configured);
        m_engines = new SimClusterEngineControl(QUrl(m_control), this);
        m_probe = new EngineProbe(this);
        m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        m_ctx.proxy = m_proxy;
        m_ctx.membership = m_table;
        m_ctx.control = m_engines;
        m_ctx.probe = m_probe;
        m_ctx.audit = m_audit.get();
        setScaleContextProfile(m_ctx, m_profile);
        m_ctx.settings.pollMs = 200;
        m_ctx.settings.groupReadyTimeoutMs = 30000;
        m_ctx.settings.idleTimeoutMs = 60000;
        m_ctx.settings.stopTimeoutMs = 10000;
        m_runner = new ScaleRunner(&m_ctx, this);
        m_runner->setParallelCap(1); // a group is one slot: the cap never splits its start
        m_table->start(500);
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);
    }

    void scaleUpStartsWholeGroups()
    {
        const ScalePlan plan = planPoolScale(Role::Decode, 8, m_refs, m_ctx.groups, *m_table, loads(), m_ctx.settings);
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToStart, (QStringList{groupId(2), groupId(3)}));
        const auto ops = m_runner->apply(plan, false);
        QCOMPARE(ops.size(), 2);
        QVERIFY(waitIdle(90000));
        for (const ScaleOperation *op : ops) {
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
            QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).status, StepStatus::Done);
            QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).detail, QStringLiteral("start accepted for all 2 ranks"));
        }
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 8);
        for (int node : {2, 3})
            for (int port : {9000, 9001})
                QCOMPARE(m_table->fact(id(node, port), Role::Decode), MembershipFact::Active);
    }

    void restartGroupBringsTheWholeGroupBack()
    {
        // Client load through the proxy while group 0 restarts: its ranks are drained out first, the other
        // groups keep serving, and no client request fails.
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/load"), R"({"rps": 3})", &status);
        QCOMPARE(status, 200);
        const int failedBefore = clusterState()["load"].value("failed", 0);
        const int sentBefore = clusterState()["load"].value("sent", 0);
        EngineActions actions(&m_ctx, m_runner);
        const EngineActionPlan plan = actions.planRestartGroup(groupId(0));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        const auto ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1);
        QVERIFY(waitIdle(120000));
        const ScaleOperation *op = ops.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        for (int step : {DpGroupOperation::RemoveFromProxy, DpGroupOperation::StopRanks, DpGroupOperation::VerifyStopped,
                         DpGroupOperation::StartRanks, DpGroupOperation::WaitReady, DpGroupOperation::AddToProxy})
            QVERIFY2(op->steps().at(step).status == StepStatus::Done, qPrintable(test::describeOperation(op)));
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 8, 20000);
        QCOMPARE(m_table->fact(id(0, 9000), Role::Decode), MembershipFact::Active);
        QCOMPARE(m_table->fact(id(0, 9001), Role::Decode), MembershipFact::Active);
        http("POST", m_control + QStringLiteral("/cluster/load"), R"({"rps": 0})", &status);
        const json load = clusterState()["load"];
        QVERIFY2(load.value("sent", 0) > sentBefore, load.dump().c_str());
        QCOMPARE(load.value("failed", 0), failedBefore);
    }

    void rollingRestartGoesGroupByGroup()
    {
        QList<EngineRef> members;
        for (const EngineRef &e : m_refs)
            if (e.role == Role::Decode && m_table->fact(e.id, Role::Decode) == MembershipFact::Active)
                members << e;
        QCOMPARE(members.size(), 8);
        RollingRestart rolling(members, 6, &m_ctx, m_runner);
        QCOMPARE(rolling.total(), 4);
        QStringList kinds;
        connect(m_runner, &ScaleRunner::operationAdded, &rolling, [&kinds](ScaleOperation *op) { kinds << op->kind(); });
        rolling.start();
        QTRY_VERIFY_WITH_TIMEOUT(rolling.state() != RollingRestart::State::Running, 240000);
        QVERIFY2(rolling.state() == RollingRestart::State::Finished, qPrintable(rolling.reason()));
        QCOMPARE(rolling.done(), 4);
        QCOMPARE(kinds, QStringList(4, QStringLiteral("group-restart")));
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 8, 20000);

        // The floor counts instances: a group of two leaves 6 of 8, a floor of 7 pauses before any stop.
        RollingRestart tooHigh(members, 7, &m_ctx, m_runner);
        tooHigh.start();
        QTRY_VERIFY_WITH_TIMEOUT(tooHigh.state() == RollingRestart::State::Paused, 10000);
        QVERIFY2(tooHigh.reason().contains(QLatin1String("below the floor of 7")), qPrintable(tooHigh.reason()));
        QCOMPARE(tooHigh.done(), 0);
        tooHigh.cancel();
    }

    void scaleDownRemovesWholeGroups()
    {
        const QHash<QString, EngineLoad> now = loads();
        const ScalePlan plan = planPoolScale(Role::Decode, 4, m_refs, m_ctx.groups, *m_table, now, m_ctx.settings);
        QVERIFY2(plan.canApply(false), qPrintable(plan.describe()));
        QCOMPARE(plan.groupsToRemove.size(), 2);
        QCOMPARE(plan.toRemove.size(), 4);
        const auto ops = m_runner->apply(plan, false);
        QCOMPARE(ops.size(), 2);
        QVERIFY(waitIdle(120000));
        for (const ScaleOperation *op : ops)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        for (const EngineRef &e : plan.toRemove)
            QCOMPARE(engineStatus(e.id), QStringLiteral("stopped"));
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 4, 20000);

        const ScalePlan odd = planPoolScale(Role::Decode, 3, m_refs, m_ctx.groups, *m_table, {}, m_ctx.settings);
        QVERIFY(!odd.canApply(true));
        QVERIFY2(odd.blocked.contains(QLatin1String("decode can be 0, 2, 4, 6 or 8")), qPrintable(odd.blocked));
    }

    void aStoppedGroupStartsAndIsAddedAsOne()
    {
        // After 8 -> 4 with no load, d2 and d3 are stopped (equal load: the later group leaves first).
        QCOMPARE(engineStatus(id(2, 9000)), QStringLiteral("stopped"));
        EngineActions actions(&m_ctx, m_runner);
        const QList<EngineRef> ranks{m_ctx.engines.at(6), m_ctx.engines.at(7)};
        QCOMPARE(ranks.at(0).id, id(2, 9000));
        const auto started = actions.run(actions.plan(EngineAction::Start, ranks), false);
        QCOMPARE(started.size(), 1);
        QVERIFY(waitIdle(60000));
        QVERIFY2(started.first()->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(started.first())));
        QCOMPARE(started.first()->kind(), QStringLiteral("group-start"));
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);

        // Both ranks run and serve: adding the group skips the start and the wait, adds both in one call.
        const auto added = actions.run(actions.plan(EngineAction::AddToProxy, ranks), false);
        QCOMPARE(added.size(), 1);
        QVERIFY(waitIdle(60000));
        const ScaleOperation *op = added.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).status, StepStatus::Skipped);
        QCOMPARE(op->steps().at(DpGroupOperation::AddToProxy).status, StepStatus::Done);
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 6, 20000);
    }

    void cleanupTestCase()
    {
        if (m_table)
            m_table->stop();
        if (m_cluster)
            m_cluster->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestScaleGroupsEnd2End)
#include "tst_scalegroupsend2end.moc"
