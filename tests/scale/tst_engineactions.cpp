// SPDX-License-Identifier: MIT
// Engine actions (start, start-and-add, stop, force stop, restart, add, remove) planned from the
// membership table and run against a simulated cluster in this process (pdsim's SimCluster on
// 127.0.0.91-93): what each action does to an engine in and out of the proxy, a stalled engine forced
// out without a drain, a stop while the proxy is down, a rolling restart of active engines, the
// last-instance override, read-only refusal, and an audit line for what was refused.
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
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

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace pd;
using json = nlohmann::json;

class TestEngineActions : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    Profile m_profile;
    QList<EngineRef> m_refs;
    QTemporaryDir m_dir;
    QString m_control;
    QNetworkAccessManager m_network;

    ProxyClient *m_proxy = nullptr;
    MembershipReconciler *m_table = nullptr;
    std::unique_ptr<AuditLog> m_audit;
    ScaleContext m_ctx;
    ScaleRunner *m_runner = nullptr;
    EngineActions *m_actions = nullptr;

    int post(const QString &path, const QByteArray &body)
    {
        QNetworkRequest request{QUrl(m_control + path)};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        request.setTransferTimeout(5000);
        QNetworkReply *reply = m_network.post(request, body);
        QEventLoop loop;
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        return status;
    }
    QString engineStatus(const QString &id)
    {
        QNetworkRequest request{QUrl(m_control + QStringLiteral("/cluster"))};
        request.setTransferTimeout(5000);
        QNetworkReply *reply = m_network.get(request);
        QEventLoop loop;
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const json state = json::parse(reply->readAll().toStdString(), nullptr, false);
        reply->deleteLater();
        if (state.is_object() && state.contains("engines"))
            for (const json &e : state["engines"])
                if (e["id"] == id.toStdString())
                    return QString::fromStdString(e["status"].get<std::string>());
        return {};
    }
    EngineRef ref(const QString &id) const
    {
        for (const EngineRef &e : m_refs)
            if (e.id == id)
                return e;
        qFatal("no engine %s in the test profile", qPrintable(id));
    }
    bool reconcile() { return test::reconcileNow(m_table); }
    bool waitIdle(int ms) { return test::waitIdle(m_runner, ms); }
    static QString describe(const ScaleOperation *op) { return test::describeOperation(op); }
    // Runs a plan to the end; every operation it started, restarts' second halves included.
    QList<QPointer<ScaleOperation>> runToEnd(const EngineActionPlan &plan, bool override = false)
    {
        QList<QPointer<ScaleOperation>> all;
        const auto c = connect(m_actions, &EngineActions::operationStarted, this, [&all](ScaleOperation *op) { all << op; });
        m_actions->run(plan, override);
        // A restart's second half is enqueued inside its first half's finished signal, after the runner's
        // own handler: the runner is never idle between the two, so idle means both have run.
        waitIdle(60000);
        disconnect(c);
        return all;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/actions-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        m_profile = *loaded.profile;
        m_refs = engineRefs(m_profile);
        QCOMPARE(m_refs.size(), 10);

        sim::ClusterOptions options;
        options.profile = m_profile;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: a start has something to wait for
        options.waitingRetryInterval = 0.5;
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
        m_control = QStringLiteral("http://127.0.0.91:%1").arg(m_cluster->controlPort());
        // The profile's four extra decode engines exist but are stopped, as on a real cluster.
        QCOMPARE(post(QStringLiteral("/cluster/engines/stop"),
                      R"({"engines":["127.0.0.93:9004","127.0.0.93:9005","127.0.0.93:9006","127.0.0.93:9007"]})"),
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(QStringLiteral("127.0.0.93:9007")), QStringLiteral("stopped"), 10000);

        m_proxy = new ProxyClient(this);
        m_proxy->setEndpoint({QUrl(QStringLiteral("http://127.0.0.91:8400")), {}, {}, 3000});
        m_table = new MembershipReconciler(m_proxy, this);
        m_table->setListenerTiming(500, m_profile.proxy.maxWaitingRetries, 2000);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : m_refs)
            configured.append({e.id, e.role});
        m_table->setConfigured(configured);
        m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        m_ctx.proxy = m_proxy;
        m_ctx.membership = m_table;
        m_ctx.control = new SimClusterEngineControl(QUrl(m_control), this);
        m_ctx.probe = new EngineProbe(this);
        m_ctx.audit = m_audit.get();
        m_ctx.settings.pollMs = 200;
        m_ctx.settings.engineReadyTimeoutMs = 30000;
        m_ctx.settings.verifyTrafficTimeoutMs = 3000;
        m_ctx.settings.idleTimeoutMs = 30000;
        m_ctx.settings.stopTimeoutMs = 10000;
        m_runner = new ScaleRunner(&m_ctx, this);
        m_runner->setParallelCap(3);
        m_actions = new EngineActions(&m_ctx, m_runner, this);
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);
    }

    void thePlanFollowsMembership()
    {
        QVERIFY(reconcile());
        const EngineRef active = ref(QStringLiteral("127.0.0.93:9000"));
        const EngineRef outside = ref(QStringLiteral("127.0.0.93:9004"));

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
        m_ctx.settings.readOnly = true;
        const EngineActionPlan plan = m_actions->plan(EngineAction::Start, {ref(QStringLiteral("127.0.0.93:9004"))}, QStringLiteral("node d0"));
        m_ctx.settings.readOnly = false;
        QVERIFY(!plan.refusal.isEmpty());
        QVERIFY(!plan.canRun(true));
        QVERIFY(m_actions->run(plan, true).isEmpty());
        const AuditReadResult audit = readAuditLog(m_audit->path());
        QVERIFY(!audit.entries.isEmpty());
        QCOMPARE(audit.entries.last().action, QStringLiteral("engines.start"));
        QCOMPARE(audit.entries.last().result, QStringLiteral("refused"));
        QCOMPARE(audit.entries.last().target, QStringLiteral("node d0"));
        QCOMPARE(engineStatus(QStringLiteral("127.0.0.93:9004")), QStringLiteral("stopped"));
    }

    void startLeavesTheEngineOutsideTheProxy()
    {
        const EngineRef e = ref(QStringLiteral("127.0.0.93:9004"));
        const auto ops = runToEnd(m_actions->plan(EngineAction::Start, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY(ops.first());
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("start"));
        QCOMPARE(ops.first()->steps().at(ScaleOut::StartEngine).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleOut::WaitReady).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleOut::AddToProxy).status, StepStatus::Skipped);
        QCOMPARE(engineStatus(e.id), QStringLiteral("ready")); // pdsim: started and serving
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(e.id, e.role), MembershipFact::Configured);
    }

    void addThenStopDrains()
    {
        const EngineRef e = ref(QStringLiteral("127.0.0.93:9004"));
        auto ops = runToEnd(m_actions->plan(EngineAction::AddToProxy, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->steps().at(ScaleOut::StartEngine).status, StepStatus::Skipped); // it ran already
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(e.id, e.role), MembershipFact::Active);

        ops = runToEnd(m_actions->plan(EngineAction::Stop, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("scale-in"));
        QCOMPARE(ops.first()->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleIn::Drain).status, StepStatus::Done);
        QCOMPARE(engineStatus(e.id), QStringLiteral("stopped"));
    }

    void forceStopTakesAStalledEngineOutWithoutADrain()
    {
        const EngineRef e = ref(QStringLiteral("127.0.0.93:9003"));
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(e.id, e.role), MembershipFact::Active);
        QCOMPARE(post(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.93:9003"],"kind":"stall"})"), 200);

        const EngineActionPlan plan = m_actions->plan(EngineAction::ForceStop, {e});
        QVERIFY(plan.text().contains(QLatin1String("without a drain")));
        auto ops = runToEnd(plan);
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("stop"));
        QCOMPARE(ops.first()->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Done);
        QCOMPARE(ops.first()->steps().at(ScaleIn::Drain).status, StepStatus::Skipped);
        QCOMPARE(engineStatus(e.id), QStringLiteral("stopped"));
        QVERIFY(reconcile());
        QVERIFY(m_table->fact(e.id, e.role) != MembershipFact::Active);

        // Back: start (a start clears the simulated fault) and add.
        ops = runToEnd(m_actions->plan(EngineAction::StartAndAdd, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(ops.first()->kind(), QStringLiteral("scale-out"));
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(e.id, e.role), MembershipFact::Active);
    }

    void stopWorksWhileTheProxyIsDown()
    {
        const EngineRef e = ref(QStringLiteral("127.0.0.93:9005"));
        auto ops = runToEnd(m_actions->plan(EngineAction::Start, {e}));
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QCOMPARE(post(QStringLiteral("/cluster/proxy/stop"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(!reconcile(), 10000); // the proxy refuses now, not a moment later

        ops = runToEnd(m_actions->plan(EngineAction::Stop, {e}));
        QCOMPARE(ops.size(), 1);
        QVERIFY2(ops.first()->outcome() == OperationOutcome::Succeeded, qPrintable(describe(ops.first())));
        QVERIFY2(ops.first()->steps().at(ScaleIn::Preflight).detail.contains(QLatin1String("membership not checked")),
                 qPrintable(describe(ops.first())));
        QCOMPARE(engineStatus(e.id), QStringLiteral("stopped"));

        // A drain-and-stop of an active engine still needs the proxy.
        ops = runToEnd(m_actions->plan(EngineAction::RemoveFromProxy, {ref(QStringLiteral("127.0.0.93:9000"))}));
        QCOMPARE(ops.size(), 1);
        QCOMPARE(ops.first()->outcome(), OperationOutcome::Failed);
        QCOMPARE(post(QStringLiteral("/cluster/proxy/start"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(reconcile(), 10000);
    }

    void restartRollsActiveEnginesAndRestartsTheRest()
    {
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 4, 10000);
        const EngineRef a = ref(QStringLiteral("127.0.0.93:9000"));
        const EngineRef b = ref(QStringLiteral("127.0.0.93:9001"));
        const EngineRef outside = ref(QStringLiteral("127.0.0.93:9006"));
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
        QVERIFY(waitIdle(30000));
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
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(a.id, a.role), MembershipFact::Active);
        QCOMPARE(m_table->fact(b.id, b.role), MembershipFact::Active);
        QCOMPARE(m_table->fact(outside.id, outside.role), MembershipFact::Configured);
        QCOMPARE(engineStatus(outside.id), QStringLiteral("ready"));
    }

    // Cancelled while its first membership read is in flight, the rolling restart is
    // deleted (finished -> deleteLater); the read's answer must not reach it (a use-after-free under ASan).
    void cancellingARollingRestartDuringAMembershipReadIsSafe()
    {
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == 4, 10000);
        const EngineActionPlan plan = m_actions->plan(EngineAction::Restart, {ref(QStringLiteral("127.0.0.93:9002"))});
        QPointer<RollingRestart> restart;
        const auto started = connect(m_actions, &EngineActions::rollingRestartStarted, this, [&restart](RollingRestart *r) { restart = r; });
        m_actions->run(plan, false); // its first step asks the table for a reconcile round
        disconnect(started);
        QVERIFY(restart);
        restart->cancel();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QVERIFY(!restart); // gone before the round answers
        QVERIFY(reconcile()); // joins the round in flight: its callbacks run now
        QVERIFY(waitIdle(10000));
        QCOMPARE(m_table->fact(QStringLiteral("127.0.0.93:9002"), Role::Decode), MembershipFact::Active); // nothing was done
    }

    void theLastInstanceNeedsTheOverride()
    {
        QVERIFY(reconcile());
        const QList<EngineRef> prefill{ref(QStringLiteral("127.0.0.92:9000")), ref(QStringLiteral("127.0.0.92:9001"))};
        QCOMPARE(m_table->activeCount(Role::Prefill), 2);
        const EngineActionPlan plan = m_actions->plan(EngineAction::Stop, prefill, QStringLiteral("prefill pool"));
        QVERIFY(plan.needsOverride);
        QVERIFY(plan.text().contains(QLatin1String("last active instance")));
        QVERIFY(!plan.canRun(false));
        QVERIFY(plan.canRun(true));
        QVERIFY(m_actions->run(plan, false).isEmpty());
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Prefill), 2);
        // One of the two is fine.
        QVERIFY(!m_actions->plan(EngineAction::Stop, {prefill.first()}).needsOverride);
    }

    void cleanupTestCase()
    {
        if (m_runner)
            m_runner->cancelAll();
        m_cluster.reset();
    }
};

QTEST_GUILESS_MAIN(TestEngineActions)
#include "tst_engineactions.moc"
