// SPDX-License-Identifier: MIT
// The proxy's WAITING window (proxy-api §8.1, §13.3) judged by the running proxy, not the profile, and
// remembered across a console restart, against a simulated cluster in this process (127.0.0.91-93).
// The console's profile says the proxy probes every 0.1 s (a 0.4 s window); the proxy really runs with
// 1.5 s (a 6 s window), as happens when the proxy was started with other values than the profile's:
//  - the table's window comes from the proxy's own command line (pdsim reports it like /proc would);
//  - an add of an engine that never answers stays WAITING past the profile's window, so neither the
//    engine menu's nor the Problems panel's "Remove from proxy" can remove it (both use the same plan);
//  - a console started again reads the WAITING add, its send time and the timing back from the
//    membership journal, and the add ends DROPPED only when the proxy's own window has passed;
//  - a console started again after the proxy restarted meanwhile (and forgot a runtime add) is offered
//    the membership it last saw, and restoring it brings the instance back.
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/listenertimingsync.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

using namespace pd;

namespace {

const QString kSilent = QStringLiteral("127.0.0.93:9004");   // stopped: an add of it never activates
const QString kRuntime = QStringLiteral("127.0.0.93:9005");  // started and added at runtime

} // namespace

class TestWaitingWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    Profile m_console; // the profile as the console has it
    QList<EngineRef> m_refs;
    QTemporaryDir m_dir;
    QString m_journalPath;

    ProxyClient *m_proxy = nullptr;
    MembershipReconciler *m_table = nullptr;
    SimClusterEngineControl *m_control = nullptr;
    std::unique_ptr<AuditLog> m_audit;
    ScaleContext m_ctx;
    ScaleRunner *m_runner = nullptr;
    EngineActions *m_actions = nullptr;

    EngineRef ref(const QString &id) const
    {
        for (const EngineRef &e : m_refs)
            if (e.id == id)
                return e;
        qFatal("no engine %s in the test profile", qPrintable(id));
    }
    // A context around `table` the way the console builds one for the profile.
    void fillContext(ScaleContext &ctx, MembershipReconciler *table)
    {
        ctx.proxy = m_proxy;
        ctx.membership = table;
        ctx.control = m_control;
        ctx.audit = m_audit.get();
        ctx.settings.pollMs = 200;
        ctx.settings.engineReadyTimeoutMs = 30000;
        ctx.settings.verifyTrafficTimeoutMs = 3000;
        ctx.settings.listedMarginMs = 200;
        ProxyLaunchOptions launch;
        launch.engineLoadSeconds = 0; // the plan is the profile's values: the window the console used to judge by
        setScaleContextProfile(ctx, m_console, launch);
        table->setListenerTiming(ctx.plannedListenerTiming, ctx.settings.listedMarginMs);
    }
    MembershipReconciler *newTable()
    {
        auto *table = new MembershipReconciler(m_proxy, this);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : m_refs)
            configured.append({e.id, e.role});
        table->setConfigured(configured);
        return table;
    }
    static QString sync(ScaleContext &ctx)
    {
        std::optional<QString> why;
        syncListenerTiming(ctx, [&why](const QString &w) { why = w; });
        if (!QTest::qWaitFor([&why] { return why.has_value(); }, 10000))
            return QStringLiteral("no answer");
        return *why;
    }
    bool control(const std::function<void(EngineControl::Done)> &call)
    {
        std::optional<ControlResult> r;
        call([&r](const ControlResult &result) { r = result; });
        return QTest::qWaitFor([&r] { return r.has_value(); }, 15000) && r->ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/actions-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        m_console = *loaded.profile;
        m_console.proxy.waitingRetryInterval = 0.1;
        m_refs = engineRefs(m_console);

        sim::ClusterOptions options;
        options.profile = *loaded.profile;
        options.timeScale = 20;
        options.startupSeconds = 20;
        options.waitingRetryInterval = 1.5; // what the proxy really runs with
        options.jitter = false;
        options.seed = 5;
        m_cluster = std::make_unique<sim::SimCluster>(options);
        QString error;
        if (!m_cluster->start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(QStringLiteral("cannot start the simulated cluster (ports busy?): ") + error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 30000);
        m_control = new SimClusterEngineControl(QUrl(QStringLiteral("http://127.0.0.91:%1").arg(m_cluster->controlPort())), this);
        QVERIFY(control([this](EngineControl::Done d) { m_control->stop(ref(kSilent), std::move(d)); }));
        QVERIFY(control([this](EngineControl::Done d) { m_control->stop(ref(kRuntime), std::move(d)); }));

        m_proxy = new ProxyClient(this);
        m_proxy->setEndpoint({QUrl(QStringLiteral("http://127.0.0.91:8400")), {}, {}, 3000});
        m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        m_table = newTable();
        fillContext(m_ctx, m_table);
        m_ctx.probe = new EngineProbe(this);
        m_runner = new ScaleRunner(&m_ctx, this);
        m_actions = new EngineActions(&m_ctx, m_runner, this);
        m_journalPath = MembershipJournal::pathFor(m_proxy->endpoint().base.toString(), m_dir.path());
        QVERIFY(test::reconcileNow(m_table));
    }

    void theWindowComesFromTheRunningProxy()
    {
        QCOMPARE(m_table->waitingDeadlineMs(), qint64(100 * 4 + 200)); // the profile's, before reading the proxy
        const QString why = sync(m_ctx);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(m_table->listenerTiming().source, ProxyListenerTiming::Source::RunningProxy);
        QCOMPARE(m_table->listenerTiming().intervalMs, 1500);
        QCOMPARE(m_table->listenerTiming().maxRetries, m_console.proxy.maxWaitingRetries);
        QCOMPARE(m_table->waitingDeadlineMs(), qint64(1500 * (m_console.proxy.maxWaitingRetries + 1) + 200));
    }

    void aWaitingAddOutlivesTheProfilesWindow()
    {
        std::optional<ProxyReply> added;
        m_proxy->addInstances(Role::Decode, {kSilent}, [&added](const ProxyReply &r) { added = r; });
        QTRY_VERIFY_WITH_TIMEOUT(added.has_value(), 10000);
        QVERIFY2(added->ok, qPrintable(added->error));
        m_table->noteAddSent(kSilent, Role::Decode, *added);
        QCOMPARE(m_table->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        const QDateTime sent = m_table->record(kSilent, Role::Decode)->addSentAt;
        // Past the window the profile names (0.6 s with the margin) and still inside the proxy's (6.2 s).
        QTRY_VERIFY_WITH_TIMEOUT(sent.msecsTo(QDateTime::currentDateTimeUtc()) > 1000, 5000);
        QVERIFY(test::reconcileNow(m_table));
        QCOMPARE(m_table->fact(kSilent, Role::Decode), MembershipFact::Waiting);

        // Every removal path plans through EngineActions: the WAITING instance is skipped with §8.1.
        const EngineActionPlan remove = m_actions->plan(EngineAction::RemoveFromProxy, {ref(kSilent)}, QStringLiteral("dead instances"));
        QVERIFY(remove.engines.isEmpty());
        QCOMPARE(remove.skipped.size(), 1);
        QVERIFY2(remove.skipReasons.first().contains(QLatin1String("WAITING")), qPrintable(remove.skipReasons.first()));
        const EngineActionPlan force = m_actions->plan(EngineAction::ForceStop, {ref(kSilent)});
        QVERIFY(force.engines.isEmpty());
    }

    void aRestartedConsoleStillKnowsItWaits()
    {
        QCOMPARE(m_table->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        MembershipJournal journal(m_journalPath, m_proxy->endpoint().base.toString());
        QString error;
        QVERIFY2(journal.attach(m_table, &error), qPrintable(error));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));

        // The console starts again: a new table, the same journal, the profile's timing at first.
        MembershipReconciler *again = newTable();
        ScaleContext ctx;
        fillContext(ctx, again);
        MembershipJournal reread(m_journalPath, m_proxy->endpoint().base.toString());
        QVERIFY2(reread.attach(again, &error), qPrintable(error));
        QCOMPARE(again->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        QCOMPARE(again->record(kSilent, Role::Decode)->addSentAt, m_table->record(kSilent, Role::Decode)->addSentAt);
        QCOMPARE(again->listenerTiming().source, ProxyListenerTiming::Source::RunningProxy);
        QCOMPARE(again->listenerTiming().intervalMs, 1500);
        QVERIFY(test::reconcileNow(again));
        QCOMPARE(again->fact(kSilent, Role::Decode), MembershipFact::Waiting);

        // The proxy drops it after its own window; both tables see it.
        QTRY_VERIFY_WITH_TIMEOUT((test::reconcileNow(again), again->fact(kSilent, Role::Decode) == MembershipFact::Dropped), 30000);
        QVERIFY(test::reconcileNow(m_table));
        QCOMPARE(m_table->fact(kSilent, Role::Decode), MembershipFact::Dropped);
        QVERIFY(!m_table->isListed(kSilent, Role::Decode));
        delete again;
    }

    void aRestartedConsoleOffersToRestoreARestartedProxy()
    {
        // A runtime add that the console saw active.
        QVERIFY(control([this](EngineControl::Done d) { m_control->start(ref(kRuntime), std::move(d)); }));
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                std::optional<EngineReadiness> r;
                m_ctx.probe->readiness(ref(kRuntime), [&r](const EngineReadiness &x) { r = x; });
                return QTest::qWaitFor([&r] { return r.has_value(); }, 5000) && r->ready();
            }(),
            30000);
        std::optional<ProxyReply> added;
        m_proxy->addInstances(Role::Decode, {kRuntime}, [&added](const ProxyReply &r) { added = r; });
        QTRY_VERIFY_WITH_TIMEOUT(added.has_value(), 10000);
        m_table->noteAddSent(kRuntime, Role::Decode, *added);
        QTRY_VERIFY_WITH_TIMEOUT((test::reconcileNow(m_table), m_table->fact(kRuntime, Role::Decode) == MembershipFact::Active), 20000);
        QTRY_VERIFY_WITH_TIMEOUT((test::reconcileNow(m_table), m_table->lastKnownGood()
                                                                   && m_table->lastKnownGood()->decode.contains(kRuntime)),
                                 10000);
        const QString path = MembershipJournal::pathFor(m_proxy->endpoint().base.toString(), m_dir.filePath(QStringLiteral("second")));
        MembershipJournal journal(path, m_proxy->endpoint().base.toString());
        QString error;
        QVERIFY2(journal.attach(m_table, &error), qPrintable(error));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));

        // While no console runs, the proxy restarts and forgets the runtime add.
        QVERIFY(control([this](EngineControl::Done d) { m_control->stopProxy(std::move(d)); }));
        QVERIFY(control([this](EngineControl::Done d) { m_control->startProxy(std::move(d)); }));

        MembershipReconciler *again = newTable();
        ScaleContext ctx;
        fillContext(ctx, again);
        ctx.probe = m_ctx.probe;
        MembershipJournal reread(path, m_proxy->endpoint().base.toString());
        QVERIFY2(reread.attach(again, &error), qPrintable(error));
        QSignalSpy offered(again, &MembershipReconciler::restartDetected);
        QTRY_VERIFY_WITH_TIMEOUT(test::reconcileNow(again), 15000);
        QCOMPARE(offered.count(), 1);
        const auto previous = offered.first().at(0).value<ProxyLists>();
        const auto now = offered.first().at(1).value<ProxyLists>();
        QVERIFY(previous.decode.contains(kRuntime));
        QVERIFY(!now.decode.contains(kRuntime));

        // Restoring brings it back.
        ScaleRunner runner(&ctx);
        const QList<ScaleOperation *> ops = runner.restore(previous, now, m_refs);
        QVERIFY(!ops.isEmpty());
        QVERIFY(test::waitIdle(&runner, 60000));
        for (const ScaleOperation *op : ops)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QVERIFY(test::reconcileNow(again));
        QCOMPARE(again->fact(kRuntime, Role::Decode), MembershipFact::Active);
        delete again;
    }

    void cleanupTestCase()
    {
        m_cluster.reset();
    }
};

QTEST_MAIN(TestWaitingWindow)
#include "tst_waitingwindow.moc"
