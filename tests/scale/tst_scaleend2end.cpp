// SPDX-License-Identifier: MIT
// Scaling end to end against a simulated cluster in this process (pdsim's SimCluster: engines, the
// proxy with its §8 defects, the control API): decode 4 -> 6 -> 3 under a bounded client load with no
// failed request and no §8.1 trigger, the last-instance guard, a dropped add, the listener-dead
// diagnosis, a proxy restart and the restore of membership, and an audit line for every step.
#include "../sim/blockinghttp.h"
#include "audit/auditlog.h"
#include "awaitreply.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
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
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace pd;
using json = nlohmann::json;

class TestScaleEnd2End : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    Profile m_profile;
    QList<EngineRef> m_refs;
    QTemporaryDir m_dir;
    QString m_control;
    QNetworkAccessManager m_network;
    QStringList m_crashLines;

    ProxyClient *m_proxy = nullptr;
    MembershipReconciler *m_table = nullptr;
    SimClusterEngineControl *m_engines = nullptr;
    EngineProbe *m_probe = nullptr;
    std::unique_ptr<AuditLog> m_audit;
    ScaleContext m_ctx;
    ScaleRunner *m_runner = nullptr;

    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        return pdtest::blockingHttp(m_network, method, url, body, status);
    }
    json clusterState() { return json::parse(http("GET", m_control + QStringLiteral("/cluster")).toStdString(), nullptr, false); }
    QString engineStatus(const QString &id)
    {
        const json state = clusterState();
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
        return {};
    }
    bool reconcile() { return test::reconcileNow(m_table); }
    QSet<QString> listed(Role role)
    {
        QSet<QString> out;
        if (m_table->lists())
            for (const QString &id : m_table->lists()->of(role))
                out.insert(proxyInstanceKey(id));
        return out;
    }
    QHash<QString, EngineLoad> loads(Role role)
    {
        QList<EngineRef> members;
        for (const EngineRef &e : m_refs)
            if (e.role == role && m_table->fact(e.id, role) == MembershipFact::Active)
                members << e;
        return test::awaitReply<QHash<QString, EngineLoad>>([&](auto done) {
            m_probe->loads(members, done);
        }).value_or(QHash<QString, EngineLoad>());
    }
    bool waitIdle(int ms) { return test::waitIdle(m_runner, ms); }
    static QString describe(const ScaleOperation *op) { return test::describeOperation(op); }
    void stopEngineNow(const QString &id)
    {
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/engines/stop"), QByteArray(R"({"engines":[")") + id.toUtf8() + "\"]}", &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(id), QStringLiteral("stopped"), 10000);
    }
    void setLoad(double rps)
    {
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/load"), QByteArray("{\"rps\":") + QByteArray::number(rps) + "}", &status);
        QCOMPARE(status, 200);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        m_profile = *loaded.profile;
        m_refs = engineRefs(m_profile);
        QCOMPARE(m_refs.size(), 10);

        sim::ClusterOptions options;
        options.profile = m_profile;
        options.timeScale = 20;
        options.startupSeconds = 20; // ~1 s real: WaitReady has something to wait for
        options.waitingRetryInterval = 0.5;
        options.loadMaxInFlight = 12;
        options.jitter = false;
        options.seed = 7;
        m_cluster = std::make_unique<sim::SimCluster>(options);
        connect(m_cluster.get(), &sim::SimCluster::message, this, [this](const QString &line) {
            if (line.contains(QLatin1String("KeyError")) || line.contains(QLatin1String("Exception in thread")))
                m_crashLines << line;
        });
        QString error;
        if (!m_cluster->start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(QStringLiteral("cannot start the simulated cluster (ports busy?): ") + error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 30000);
        m_control = QStringLiteral("http://127.0.0.61:%1").arg(m_cluster->controlPort());
        // The profile's four extra decode engines exist but are stopped, as on a real cluster.
        for (int port = 9004; port < 9008; ++port)
            stopEngineNow(QStringLiteral("127.0.0.63:%1").arg(port));

        m_proxy = new ProxyClient(this);
        m_proxy->setEndpoint({QUrl(QStringLiteral("http://127.0.0.61:8400")), {}, {}, 5000});
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
        setScaleContextProfile(m_ctx, m_profile); // independent ranks: scaling goes rank by rank
        m_ctx.settings.pollMs = 200;
        m_ctx.settings.engineReadyTimeoutMs = 30000;
        m_ctx.settings.verifyTrafficTimeoutMs = 8000;
        m_ctx.settings.idleTimeoutMs = 60000;
        m_ctx.settings.stopTimeoutMs = 10000;
        m_runner = new ScaleRunner(&m_ctx, this);
        m_runner->setParallelCap(3);
        m_table->start(500);
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);
        QCOMPARE(m_table->fact(QStringLiteral("127.0.0.63:9005"), Role::Decode), MembershipFact::Configured);
    }

    void scaleDecode4To6To3UnderLoad()
    {
        setLoad(3);
        QTRY_VERIFY_WITH_TIMEOUT(clusterState()["load"]["succeeded"].get<int>() >= 2, 30000);

        const ScalePlan out = planPoolScale(Role::Decode, 6, m_refs, m_ctx.groups, *m_table, loads(Role::Decode), m_ctx.settings);
        QVERIFY2(out.canApply(false), qPrintable(out.describe()));
        QCOMPARE(out.current, 4);
        QCOMPARE(out.toStart.size(), 2);
        QCOMPARE(out.toStart.at(0).id, QStringLiteral("127.0.0.63:9004")); // rank order
        QCOMPARE(out.toStart.at(1).id, QStringLiteral("127.0.0.63:9005"));
        QElapsedTimer clock;
        clock.start();
        const auto outOps = m_runner->apply(out, false);
        QCOMPARE(outOps.size(), 2);
        QVERIFY(waitIdle(90000));
        qInfo("scale-out 4 -> 6: %lld ms", clock.elapsed());
        for (const ScaleOperation *op : outOps)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(describe(op)));
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 6);
        int verified = 0;
        for (const ScaleOperation *op : outOps)
            verified += static_cast<const ScaleOut *>(op)->trafficVerified();
        QVERIFY2(verified >= 1, "no new decode engine received a request under load");

        const QHash<QString, EngineLoad> now = loads(Role::Decode);
        QCOMPARE(now.size(), 6);
        const ScalePlan in = planPoolScale(Role::Decode, 3, m_refs, m_ctx.groups, *m_table, now, m_ctx.settings);
        QVERIFY2(in.canApply(false), qPrintable(in.describe()));
        QCOMPARE(in.toRemove.size(), 3);
        for (int i = 1; i < in.toRemove.size(); ++i) { // least loaded first
            const EngineLoad a = now.value(in.toRemove.at(i - 1).id), b = now.value(in.toRemove.at(i).id);
            QVERIFY(a.running + a.waiting <= b.running + b.waiting);
        }
        QSet<QString> expected = listed(Role::Decode);
        for (const EngineRef &e : in.toRemove)
            expected.remove(proxyInstanceKey(e.id));
        clock.restart();
        const auto inOps = m_runner->apply(in, false);
        QVERIFY(waitIdle(120000));
        qInfo("scale-in 6 -> 3 (%g requests running on the leaving engines): %lld ms", in.affectedRequests, clock.elapsed());
        for (const ScaleOperation *op : inOps)
            qInfo("%s", qPrintable(describe(op)));
        for (const ScaleOperation *op : inOps)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(describe(op)));
        for (const EngineRef &e : in.toRemove)
            QCOMPARE(engineStatus(e.id), QStringLiteral("stopped"));

        // The load ends; the proxy finalises drains once idle (§8.3): the lists are exactly the plan.
        setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(clusterState()["load"]["in_flight"].get<int>(), 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && listed(Role::Decode) == expected, 20000);
        for (const EngineRef &e : in.toRemove)
            QCOMPARE(m_table->fact(e.id, Role::Decode), MembershipFact::Gone);

        const json load = clusterState()["load"];
        qInfo("client load: %d sent, %d succeeded, %d failed, %d empty 200",
              load["sent"].get<int>(), load["succeeded"].get<int>(), load["failed"].get<int>(), load["empty_ok"].get<int>());
        QVERIFY(load["succeeded"].get<int>() > 0);
        QCOMPARE(load["failed"].get<int>(), 0);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
        QVERIFY2(m_crashLines.isEmpty(), qPrintable(m_crashLines.join(QLatin1Char('\n'))));

        // Every step that ran left an audit line (action kind.step, target with the engine).
        const AuditReadResult audit = readAuditLog(m_audit->path());
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
        QVERIFY(m_runner->markers().size() >= 2 * (outOps.size() + inOps.size()));
    }

    void theLastInstanceNeedsAnOverride()
    {
        QVERIFY(reconcile());
        const ScalePlan empty = planPoolScale(Role::Prefill, 0, m_refs, m_ctx.groups, *m_table, {}, m_ctx.settings);
        QVERIFY(empty.needsOverride);
        QVERIFY(!empty.canApply(false));
        QVERIFY(m_runner->apply(empty, false).isEmpty());

        auto *first = new ScaleIn(ref(QStringLiteral("127.0.0.62:9001")), &m_ctx, false);
        first->setStopEngine(false);
        m_runner->enqueue(first);
        QVERIFY(waitIdle(30000));
        QVERIFY2(first->outcome() == OperationOutcome::Succeeded, qPrintable(describe(first)));
        auto *last = new ScaleIn(ref(QStringLiteral("127.0.0.62:9000")), &m_ctx, false);
        m_runner->enqueue(last);
        QVERIFY(waitIdle(30000));
        QCOMPARE(last->outcome(), OperationOutcome::Failed);
        QVERIFY2(last->summary().contains(QLatin1String("last active instance")), qPrintable(last->summary()));
        QCOMPARE(last->steps().at(ScaleIn::RemoveFromProxy).status, StepStatus::Pending);
        QVERIFY(reconcile());
        QCOMPARE(m_table->fact(QStringLiteral("127.0.0.62:9000"), Role::Prefill), MembershipFact::Active);

        // Back to two: the engine still runs, so the scale-out skips the start.
        auto *back = new ScaleOut(ref(QStringLiteral("127.0.0.62:9001")), &m_ctx);
        m_runner->enqueue(back);
        QVERIFY(waitIdle(30000));
        QVERIFY2(back->outcome() == OperationOutcome::Succeeded, qPrintable(describe(back)));
        QCOMPARE(back->steps().at(ScaleOut::StartEngine).status, StepStatus::Skipped);
    }

    void aRollingRestartKeepsTheFloor()
    {
        QVERIFY(reconcile());
        QList<EngineRef> members;
        for (const EngineRef &e : m_refs)
            if (e.role == Role::Decode && m_table->fact(e.id, Role::Decode) == MembershipFact::Active)
                members << e;
        const int n = int(members.size());
        QVERIFY(n >= 2);

        RollingRestart tooHigh(members, n, &m_ctx, m_runner);
        QSignalSpy paused(&tooHigh, &RollingRestart::paused);
        tooHigh.start();
        QTRY_COMPARE_WITH_TIMEOUT(paused.count(), 1, 10000);
        QCOMPARE(tooHigh.state(), RollingRestart::State::Paused);
        QVERIFY2(tooHigh.reason().contains(QLatin1String("below the floor")), qPrintable(tooHigh.reason()));
        QCOMPARE(tooHigh.done(), 0);

        const int failedBefore = clusterState()["load"]["failed"].get<int>();
        // A light load: the proxy finalises a drain only in a moment with no request in flight (§8.3),
        // and a restarted engine can only be added back after that (§8.12).
        setLoad(1);
        RollingRestart rolling(members.mid(0, 2), n - 1, &m_ctx, m_runner);
        QSignalSpy finished(&rolling, &RollingRestart::finished);
        rolling.start();
        QSignalSpy rollingPaused(&rolling, &RollingRestart::paused);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 || rollingPaused.count() == 1, 240000);
        QVERIFY2(rolling.state() == RollingRestart::State::Finished, qPrintable(rolling.reason()));
        QCOMPARE(rolling.done(), 2);
        setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(clusterState()["load"]["in_flight"].get<int>(), 0, 120000);
        QTRY_VERIFY_WITH_TIMEOUT(reconcile() && m_table->activeCount(Role::Decode) == n, 20000);
        const json load = clusterState()["load"];
        QCOMPARE(load["failed"].get<int>(), failedBefore);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
    }

    void aDroppedAddIsReported()
    {
        // The engine serves when the console checks, and dies right before the add: the proxy's
        // listener never gets an answer and silently drops it (§2.2).
        const QString id = QStringLiteral("127.0.0.63:9007");
        auto *op = new ScaleOut(ref(id), &m_ctx);
        connect(op, &ScaleOperation::stepChanged, this, [this, op, id](int step) {
            if (step == ScaleOut::AddToProxy && op->steps().at(step).status == StepStatus::Running)
                stopEngineNow(id);
        });
        m_runner->enqueue(op);
        QVERIFY(waitIdle(60000));
        QCOMPARE(op->outcome(), OperationOutcome::Failed);
        QCOMPARE(op->addFailure(), ScaleOut::AddFailure::Dropped);
        QVERIFY2(op->summary().contains(QLatin1String("DROPPED")), qPrintable(describe(op)));
        QCOMPARE(m_table->fact(id, Role::Decode), MembershipFact::Dropped);
        QVERIFY(m_crashLines.isEmpty());
    }

    void aDeadListenerIsDiagnosedAndARestartIsRestored()
    {
        QVERIFY(reconcile());
        const ProxyLists before = *m_table->lists();
        // Someone else (not this console) removes a still-waiting instance under load: §8.1.
        const QString victim = QStringLiteral("127.0.0.63:9006");
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/engines/start"), R"({"engines":["127.0.0.63:9006"]})", &status);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(victim), QStringLiteral("ready"), 20000);
        // The victim answers the listener's /v1/models probe 2 s late: the remove below always lands
        // while it is still waiting (with a fast probe, a listener round could activate it first).
        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.63:9006"],"kind":"slow","ms":2000})", &status);
        QCOMPARE(status, 200);
        setLoad(4);
        QTRY_VERIFY_WITH_TIMEOUT(clusterState()["load"]["in_flight"].get<int>() > 0, 30000);
        ProxyClient raw;
        raw.setEndpoint(m_proxy->endpoint());
        // The add and the remove must both land before the listener activates the victim; the slow
        // probe makes that certain, the retry stays for a loaded machine.
        for (int attempt = 0; attempt < 5 && m_crashLines.isEmpty(); ++attempt) {
            QTRY_VERIFY_WITH_TIMEOUT(clusterState()["load"]["in_flight"].get<int>() > 0, 30000);
            std::optional<ProxyReply> removed;
            raw.addInstances(Role::Decode, {victim}, [&](const ProxyReply &) {
                raw.removeInstances(Role::Decode, {victim}, [&](const ProxyReply &r2) { removed = r2; });
            });
            QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 10000);
            QVERIFY2(removed->ok, qPrintable(removed->error));
            static_cast<void>(QTest::qWaitFor(
                [this] { return !m_crashLines.isEmpty(); }, 8000)); // the caller checks what it waited for
            if (m_crashLines.isEmpty())
                qInfo("attempt %d: a listener round fell between add and remove (%s); again", attempt + 1, qPrintable(removed->message));
        }
        QVERIFY(!m_crashLines.isEmpty());
        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.63:9006"],"kind":"none"})", &status);
        setLoad(0);
        QTRY_COMPARE_WITH_TIMEOUT(clusterState()["load"]["in_flight"].get<int>(), 0, 120000);

        // The console's scale-out of a serving engine is never activated: "listener dead". Which
        // decode engines the proxy still lists depends on the first test's least-loaded scale-in
        // choice, so the target is any engine it does not list (not the victim, not 9007).
        QVERIFY(reconcile());
        const QSet<QString> stillListed = listed(Role::Decode);
        QString target;
        for (const EngineRef &e : m_refs)
            if (target.isEmpty() && e.role == Role::Decode && e.id != victim && e.id != QLatin1String("127.0.0.63:9007")
                && !stillListed.contains(proxyInstanceKey(e.id)))
                target = e.id;
        QVERIFY2(!target.isEmpty(), "every decode engine is listed: nothing to scale out");
        auto *op = new ScaleOut(ref(target), &m_ctx);
        m_runner->enqueue(op);
        QVERIFY(waitIdle(60000));
        QVERIFY2(op->outcome() == OperationOutcome::Failed, qPrintable(describe(op)));
        QVERIFY2(op->addFailure() == ScaleOut::AddFailure::ListenerDead, qPrintable(describe(op)));
        QVERIFY2(op->summary().contains(QStringLiteral("proxy listener dead — restart the proxy")), qPrintable(describe(op)));

        // Restart: the proxy comes back with its command-line instances only; the table notices.
        QSignalSpy restarted(m_table, &MembershipReconciler::restartDetected);
        http("POST", m_control + QStringLiteral("/cluster/proxy/stop"), {}, &status);
        QCOMPARE(status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!m_table->lastError().isEmpty(), 10000);
        http("POST", m_control + QStringLiteral("/cluster/proxy/start"), {}, &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 10000);
        const ProxyLists previous = restarted.at(0).at(0).value<ProxyLists>();
        const ProxyLists now = restarted.at(0).at(1).value<ProxyLists>();
        QCOMPARE(QSet<QString>(previous.decode.begin(), previous.decode.end()), QSet<QString>(before.decode.begin(), before.decode.end()));

        const auto ops = m_runner->restore(previous, now, m_refs);
        QVERIFY(!ops.isEmpty());
        QVERIFY(waitIdle(60000));
        for (const ScaleOperation *r : ops)
            QVERIFY2(r->outcome() == OperationOutcome::Succeeded, qPrintable(describe(r)));
        QVERIFY(reconcile());
        auto keys = [](const QStringList &l) {
            QSet<QString> s;
            for (const QString &i : l)
                s.insert(proxyInstanceKey(i));
            return s;
        };
        QCOMPARE(keys(m_table->lists()->decode), keys(before.decode));
        QCOMPARE(keys(m_table->lists()->prefill), keys(before.prefill));
    }

    void readOnlyRefusesEverything()
    {
        m_ctx.settings.readOnly = true;
        const ScalePlan plan = planPoolScale(Role::Decode, 5, m_refs, m_ctx.groups, *m_table, {}, m_ctx.settings);
        QVERIFY(!plan.canApply(true));
        auto *op = new ScaleOut(ref(QStringLiteral("127.0.0.63:9007")), &m_ctx);
        m_runner->enqueue(op);
        QVERIFY(waitIdle(10000));
        QCOMPARE(op->outcome(), OperationOutcome::Failed);
        QVERIFY(op->summary().contains(QLatin1String("read-only")));
        m_ctx.settings.readOnly = false;
    }

    void cleanupTestCase()
    {
        if (m_table)
            m_table->stop();
        if (m_cluster)
            m_cluster->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestScaleEnd2End)
#include "tst_scaleend2end.moc"
