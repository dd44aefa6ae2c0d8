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
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/engineactions.h"
#include "ops/listenertimingsync.h"
#include "ops/restoreplan.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QSignalSpy>
#include <QTest>

#include <optional>

using namespace pd;

namespace {

const QString kSilent = QStringLiteral("127.0.0.93:9004");   // stopped: an add of it never activates
const QString kRuntime = QStringLiteral("127.0.0.93:9005");  // started and added at runtime

} // namespace

class TestWaitingWindow : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;
    Profile m_console; // the profile as the console has it
    QString m_journalPath;

    // A context around `table` the way the console builds one for the profile.
    void fillContext(ScaleContext &ctx, MembershipReconciler *table)
    {
        m_sim.wire(ctx, table);
        ctx.settings.pollMs = 200;
        ctx.settings.engineReadyTimeoutMs = 30000;
        ctx.settings.verifyTrafficTimeoutMs = 3000;
        ctx.settings.listedMarginMs = 200;
        ProxyLaunchOptions launch;
        launch.engineLoadSeconds = 0; // the plan is the profile's values: the window the console used to judge by
        setScaleContextProfile(ctx, m_console, launch);
        table->setListenerTiming(ctx.plannedListenerTiming, ctx.settings.listedMarginMs);
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
        QVERIFY(m_sim.dir().isValid());
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/actions-loopback.json")));
        m_console = m_sim.profile();
        m_console.proxy.waitingRetryInterval = 0.1;

        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 20;
        options.waitingRetryInterval = 1.5; // what the proxy really runs with
        options.jitter = false;
        options.seed = 5;
        PD_START_SIM_CLUSTER(m_sim, options);
        m_sim.setUpScaling(3000, test::SimScaleFixture::ListenerTiming::FromTest);
        QVERIFY(control([this](EngineControl::Done d) { m_sim.control()->stop(m_sim.ref(kSilent), std::move(d)); }));
        QVERIFY(control([this](EngineControl::Done d) { m_sim.control()->stop(m_sim.ref(kRuntime), std::move(d)); }));

        fillContext(m_sim.context(), m_sim.table());
        m_journalPath = MembershipJournal::pathFor(m_sim.proxy()->endpoint().base.toString(), m_sim.dir().path());
        QVERIFY(test::reconcileNow(m_sim.table()));
    }

    void theWindowComesFromTheRunningProxy()
    {
        QCOMPARE(m_sim.table()->waitingDeadlineMs(), qint64(100 * 4 + 200)); // the profile's, before reading the proxy
        const QString why = sync(m_sim.context());
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(m_sim.table()->listenerTiming().source, ProxyListenerTiming::Source::RunningProxy);
        QCOMPARE(m_sim.table()->listenerTiming().intervalMs, 1500);
        QCOMPARE(m_sim.table()->listenerTiming().maxRetries, m_console.proxy.maxWaitingRetries);
        QCOMPARE(m_sim.table()->waitingDeadlineMs(), qint64(1500 * (m_console.proxy.maxWaitingRetries + 1) + 200));
    }

    void aWaitingAddOutlivesTheProfilesWindow()
    {
        std::optional<ProxyReply> added;
        m_sim.proxy()->addInstances(Role::Decode, { kSilent }, [&added](const ProxyReply &r) { added = r; });
        QTRY_VERIFY_WITH_TIMEOUT(added.has_value(), 10000);
        QVERIFY2(added->ok, qPrintable(added->error));
        m_sim.table()->noteAddSent(kSilent, Role::Decode, *added);
        QCOMPARE(m_sim.table()->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        const QDateTime sent = m_sim.table()->record(kSilent, Role::Decode)->addSentAt;
        // Past the window the profile names (0.6 s with the margin) and still inside the proxy's (6.2 s).
        QTRY_VERIFY_WITH_TIMEOUT(sent.msecsTo(QDateTime::currentDateTimeUtc()) > 1000, 5000);
        QVERIFY(test::reconcileNow(m_sim.table()));
        QCOMPARE(m_sim.table()->fact(kSilent, Role::Decode), MembershipFact::Waiting);

        // Every removal path plans through EngineActions: the WAITING instance is skipped with §8.1.
        const EngineActionPlan remove = m_sim.actions()->plan(
            EngineAction::RemoveFromProxy, { m_sim.ref(kSilent) }, QStringLiteral("dead instances"));
        QVERIFY(remove.engines.isEmpty());
        QCOMPARE(remove.skipped.size(), 1);
        QVERIFY2(remove.skipReasons.first().contains(QLatin1String("WAITING")), qPrintable(remove.skipReasons.first()));
        const EngineActionPlan force = m_sim.actions()->plan(EngineAction::ForceStop, { m_sim.ref(kSilent) });
        QVERIFY(force.engines.isEmpty());
    }

    void aRestartedConsoleStillKnowsItWaits()
    {
        QCOMPARE(m_sim.table()->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        MembershipJournal journal(m_journalPath, m_sim.proxy()->endpoint().base.toString());
        QString error;
        QVERIFY2(journal.attach(m_sim.table(), &error), qPrintable(error));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));

        // The console starts again: a new table, the same journal, the profile's timing at first.
        MembershipReconciler *again = m_sim.newTable(this);
        ScaleContext ctx;
        fillContext(ctx, again);
        MembershipJournal reread(m_journalPath, m_sim.proxy()->endpoint().base.toString());
        QVERIFY2(reread.attach(again, &error), qPrintable(error));
        QCOMPARE(again->fact(kSilent, Role::Decode), MembershipFact::Waiting);
        QCOMPARE(
            again->record(kSilent, Role::Decode)->addSentAt, m_sim.table()->record(kSilent, Role::Decode)->addSentAt);
        QCOMPARE(again->listenerTiming().source, ProxyListenerTiming::Source::RunningProxy);
        QCOMPARE(again->listenerTiming().intervalMs, 1500);
        QVERIFY(test::reconcileNow(again));
        QCOMPARE(again->fact(kSilent, Role::Decode), MembershipFact::Waiting);

        // The proxy drops it after its own window; both tables see it.
        QTRY_VERIFY_WITH_TIMEOUT((test::reconcileNow(again), again->fact(kSilent, Role::Decode) == MembershipFact::Dropped), 30000);
        QVERIFY(test::reconcileNow(m_sim.table()));
        QCOMPARE(m_sim.table()->fact(kSilent, Role::Decode), MembershipFact::Dropped);
        QVERIFY(!m_sim.table()->isListed(kSilent, Role::Decode));
        delete again;
    }

    void aRestartedConsoleOffersToRestoreARestartedProxy()
    {
        // A runtime add that the console saw active.
        QVERIFY(control([this](EngineControl::Done d) { m_sim.control()->start(m_sim.ref(kRuntime), std::move(d)); }));
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                std::optional<EngineReadiness> r;
                m_sim.context().probe->readiness(m_sim.ref(kRuntime), [&r](const EngineReadiness &x) { r = x; });
                return QTest::qWaitFor([&r] { return r.has_value(); }, 5000) && r->ready();
            }(),
            30000);
        std::optional<ProxyReply> added;
        m_sim.proxy()->addInstances(Role::Decode, { kRuntime }, [&added](const ProxyReply &r) { added = r; });
        QTRY_VERIFY_WITH_TIMEOUT(added.has_value(), 10000);
        m_sim.table()->noteAddSent(kRuntime, Role::Decode, *added);
        QTRY_VERIFY_WITH_TIMEOUT(
            (test::reconcileNow(m_sim.table()), m_sim.table()->fact(kRuntime, Role::Decode) == MembershipFact::Active),
            20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            (test::reconcileNow(m_sim.table()),
                m_sim.table()->lastKnownGood() && m_sim.table()->lastKnownGood()->decode.contains(kRuntime)),
            10000);
        const QString path = MembershipJournal::pathFor(
            m_sim.proxy()->endpoint().base.toString(), m_sim.dir().filePath(QStringLiteral("second")));
        MembershipJournal journal(path, m_sim.proxy()->endpoint().base.toString());
        QString error;
        QVERIFY2(journal.attach(m_sim.table(), &error), qPrintable(error));
        QVERIFY2(journal.flush(), qPrintable(journal.lastError()));

        // While no console runs, the proxy restarts and forgets the runtime add.
        QVERIFY(control([this](EngineControl::Done d) { m_sim.control()->stopProxy(std::move(d)); }));
        QVERIFY(control([this](EngineControl::Done d) { m_sim.control()->startProxy(std::move(d)); }));

        MembershipReconciler *again = m_sim.newTable(this);
        ScaleContext ctx;
        fillContext(ctx, again);
        ctx.probe = m_sim.context().probe;
        MembershipJournal reread(path, m_sim.proxy()->endpoint().base.toString());
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
        const QList<ScaleOperation *> ops = runner.restore(planRestore(previous, now, ctx));
        QVERIFY(!ops.isEmpty());
        QVERIFY(test::waitIdle(&runner, 60000));
        for (const ScaleOperation *op : ops)
            QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QVERIFY(test::reconcileNow(again));
        QCOMPARE(again->fact(kRuntime, Role::Decode), MembershipFact::Active);
        delete again;
    }

    void cleanupTestCase() { m_sim.stopCluster(); }
};

QTEST_MAIN(TestWaitingWindow)
#include "tst_waitingwindow.moc"
