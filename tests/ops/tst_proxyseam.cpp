// SPDX-License-Identifier: MIT
// EngineControl's proxy operations, both implementations, against real processes on 127.0.140.x:
// SimClusterEngineControl stops and starts the proxy of a `pdsim cluster` process (its /healthcheck
// fails, then answers with the command line's instances again), and RunnerEngineControl starts and
// stops a `pdsim proxy` through the LocalRunner as `pdctl proxy start|stop` would. ProxyActions over
// the simulated cluster: a restart is audited as a stop and a start, waits for /healthcheck, and the
// membership table notices that the proxy forgot a runtime change (restartDetected); read-only refuses
// and audits the refusal.
#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "net/proxylistenertiming.h"
#include "ops/enginecontroller.h"
#include "ops/launchspec.h"
#include "ops/proxyactions.h"
#include "ops/runnerenginecontrol.h"
#include "ops/scalecontext.h"
#include "ops/simclusterenginecontrol.h"

#include "awaitreply.h"
#include "opsfixture.h"
#include "pdsimcluster.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <optional>

using namespace std::chrono_literals;

namespace {

// The profile's proxy (tests/data/ops/proxyctl-loopback.json).
const QString kSimProxyHost = QStringLiteral("127.0.140.1");
constexpr int kSimProxyPort = 8400;

struct Running {
    std::optional<bool> running;
    QString error;
};

// Bounded waits for a control's callbacks (they come back through the event loop).
std::optional<pd::ControlResult> waitFor(const std::function<void(pd::EngineControl::Done)> &call, int ms = 60000)
{
    return pd::test::awaitReply<pd::ControlResult>(call, ms);
}

// One reconcile round, bounded: whether the lists were read.
bool reconcile(pd::MembershipReconciler &table)
{
    return pd::test::awaitReply<bool>([&table](auto done) { table.reconcileNow(done); }).value_or(false);
}

struct CommandLine {
    std::optional<QStringList> argv;
    QString error;
};

// A control's answer in two parts (a value and an error) as one T, waited for at most ms.
template<typename T, typename Ask> std::optional<T> awaitAnswer(Ask ask, int ms)
{
    const auto call = [&ask](auto done) {
        ask([done](auto value, const QString &error) { done(T { value, error }); });
    };
    return pd::test::awaitReply<T>(call, ms);
}

std::optional<CommandLine> readCommandLine(pd::EngineControl &control, int ms = 30000)
{
    return awaitAnswer<CommandLine>([&control](auto answer) { control.proxyCommandLine(answer); }, ms);
}

std::optional<Running> waitForRunning(pd::EngineControl &control, int ms = 30000)
{
    return awaitAnswer<Running>([&control](auto answer) { control.isProxyRunning(answer); }, ms);
}

} // namespace

class TestProxySeam : public QObject {
    Q_OBJECT

    pd::test::PdsimCluster m_sim;
    QString m_control;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<pd::DefaultRunnerFactory> m_runners = std::make_shared<pd::DefaultRunnerFactory>();
    QList<qint64> m_pids; // proxies this test started through the LocalRunner

    // A proxy on 127.0.140.11 that is `pdsim proxy` behind a wrapper script (the demo's stand-in for
    // load_balance_proxy_server_example.py), engines on .12 and .13 that never run.
    pd::Profile runnerProfile()
    {
        return pdtest::pdsimProxyProfile(QStringLiteral("proxy-seam"), m_dir->path(), QStringLiteral("127.0.140.11"),
            QStringLiteral("127.0.140.12"), 1, QStringLiteral("127.0.140.13"), 2, pd::ProxyGeneration::Main);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(QStringLiteral(PD_BINARY_DIR "/sim/pdsim")), "build the pdsim target first");
        qputenv("PDSIM", PD_BINARY_DIR "/sim/pdsim");
        PD_START_PDSIM(m_sim, QStringLiteral(PD_SOURCE_DIR "/tests/data/ops/proxyctl-loopback.json"),
                       {QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--no-jitter")});
        m_control = m_sim.control();
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup()
    {
        for (const qint64 pid : std::as_const(m_pids))
            pdtest::killSessionLeader(pid);
        m_pids.clear();
    }

    void simClusterStopsAndStartsItsProxy()
    {
        pd::SimClusterEngineControl control(QUrl(QStringLiteral("http://%1").arg(m_control)));
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200, 10000);
        auto running = waitForRunning(control);
        QVERIFY(running && running->error.isEmpty());
        QCOMPARE(running->running, std::optional<bool>(true));

        auto stopped = waitFor([&control](pd::EngineControl::Done done) { control.stopProxy(std::move(done)); });
        QVERIFY(stopped);
        QVERIFY2(stopped->ok, qPrintable(stopped->error));
        QCOMPARE(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 0); // nothing listens
        running = waitForRunning(control);
        QVERIFY(running && running->error.isEmpty());
        QCOMPARE(running->running, std::optional<bool>(false));

        auto started = waitFor([&control](pd::EngineControl::Done done) { control.startProxy(std::move(done)); });
        QVERIFY(started);
        QVERIFY2(started->ok, qPrintable(started->error));
        QByteArray body;
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck", &body), 200, 10000);
        const nlohmann::json health = nlohmann::json::parse(body.toStdString(), nullptr, false);
        QCOMPARE(health.value("prefill_instances", -1), 1); // the command line's instances again
        QCOMPARE(health.value("decode_instances", -1), 2);
        running = waitForRunning(control);
        QVERIFY(running && running->running == std::optional<bool>(true));
        // The simulated proxy's command line as a real one would read: the waiting flags included.
        const auto argv = readCommandLine(control);
        QVERIFY(argv);
        QVERIFY2(argv->argv, qPrintable(argv->error));
        const auto timing = pd::listenerTimingFromArguments(*argv->argv);
        QVERIFY(timing);
        QVERIFY2(argv->argv->contains(QStringLiteral("--waiting-retry-interval")), qPrintable(argv->argv->join(QLatin1Char(' '))));

        // A second start of a running proxy changes nothing.
        started = waitFor([&control](pd::EngineControl::Done done) { control.startProxy(std::move(done)); });
        QVERIFY(started && started->ok);
        QCOMPARE(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200);
    }

    void aRestartIsAuditedAndTheForgottenMembershipNoticed()
    {
        pd::SimClusterEngineControl control(QUrl(QStringLiteral("http://%1").arg(m_control)));
        pd::ProxyClient proxy;
        proxy.setEndpoint({QUrl(QStringLiteral("http://%1:%2").arg(kSimProxyHost).arg(kSimProxyPort)), {}, {}, 3000});
        pd::MembershipReconciler table(&proxy);
        table.setListenerTiming(500, 3, 2000);
        table.setConfigured({{QStringLiteral("127.0.140.2:9000"), pd::Role::Prefill},
                             {QStringLiteral("127.0.140.3:9000"), pd::Role::Decode},
                             {QStringLiteral("127.0.140.3:9001"), pd::Role::Decode}});
        pd::AuditLog audit(m_dir->filePath(QStringLiteral("audit.jsonl")));
        pd::ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &table;
        ctx.control = &control;
        ctx.audit = &audit;
        ctx.settings.pollMs = 100;
        pd::ProxyActions actions(&ctx);
        actions.setHealthTimeout(20000);

        // A runtime change the restarted proxy forgets: one decode instance out.
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200, 10000);
        std::optional<pd::ProxyReply> removed;
        proxy.removeInstances(pd::Role::Decode, {QStringLiteral("127.0.140.3:9001")}, [&removed](const pd::ProxyReply &r) { removed = r; });
        QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 10000);
        QVERIFY2(removed->ok, qPrintable(removed->error));
        // Reconciled while healthy: this membership is the one to restore.
        QElapsedTimer clock;
        clock.start();
        while (!(table.lastKnownGood() && table.lastKnownGood()->decode.size() == 1) && clock.elapsed() < 15000)
            reconcile(table);
        QVERIFY(table.lastKnownGood() && table.lastKnownGood()->decode.size() == 1);

        QSignalSpy restarted(&table, &pd::MembershipReconciler::restartDetected);
        QSignalSpy finished(&actions, &pd::ProxyActions::finished);
        QVERIFY(actions.run(pd::ProxyAction::Restart));
        QVERIFY(actions.isBusy());
        QString why;
        QVERIFY(!actions.run(pd::ProxyAction::Stop, &why)); // one at a time
        QVERIFY2(why.contains(QLatin1String("still running")), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(finished.first().at(0).value<pd::ProxyAction>(), pd::ProxyAction::Restart);
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
        QVERIFY2(finished.first().at(2).toString().contains(QLatin1String("/healthcheck answers: 1 prefill, 2 decode")),
                 qPrintable(finished.first().at(2).toString()));
        QVERIFY(!actions.isBusy());
        QCOMPARE(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200);
        // The table saw the outage and the command line's lists: the restore can be offered.
        QTRY_COMPARE_WITH_TIMEOUT(restarted.size(), 1, 15000);
        QCOMPARE(restarted.first().at(0).value<pd::ProxyLists>().decode.size(), 1);
        QCOMPARE(restarted.first().at(1).value<pd::ProxyLists>().decode.size(), 2);

        // Read-only refuses, and says so in the audit log.
        ctx.settings.readOnly = true;
        QVERIFY(!actions.run(pd::ProxyAction::Stop, &why));
        QVERIFY2(why.contains(QLatin1String("read-only")), qPrintable(why));
        QCOMPARE(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200);

        const pd::AuditReadResult read = pd::readAuditLog(audit.path());
        QVERIFY(read.problems.isEmpty());
        QStringList lines;
        for (const pd::AuditEntry &e : read.entries)
            lines << QStringLiteral("%1 %2 %3 restart=%4").arg(e.action, e.target, e.result).arg(e.params.value("restart", false));
        QCOMPARE(lines, (QStringList{QStringLiteral("proxy.stop proxy 127.0.140.1:8400 ok restart=1"),
                                     QStringLiteral("proxy.start proxy 127.0.140.1:8400 ok restart=1"),
                                     QStringLiteral("proxy.stop proxy 127.0.140.1:8400 refused restart=0")}));
        QVERIFY2(read.entries.at(1).detail.contains(QLatin1String("/healthcheck answers")), qPrintable(read.entries.at(1).detail));
    }

    void anUnreachableControlApiIsAnError()
    {
        pd::SimClusterEngineControl control(QUrl(QStringLiteral("http://127.0.140.1:1")));
        control.setTimeout(3000);
        const auto stopped = waitFor([&control](pd::EngineControl::Done done) { control.stopProxy(std::move(done)); });
        QVERIFY(stopped);
        QVERIFY(!stopped->ok);
        QVERIFY2(stopped->error.contains(QLatin1String("127.0.140.1:1")), qPrintable(stopped->error));
        const auto running = waitForRunning(control);
        QVERIFY(running && !running->running);
        QVERIFY(!running->error.isEmpty());
        // The simulated cluster's proxy was not touched.
        QCOMPARE(pdtest::httpStatus(kSimProxyHost, kSimProxyPort, "/healthcheck"), 200);
    }

    void runnerStartsAndStopsTheProxyThroughTheLocalRunner()
    {
        const pd::Profile profile = runnerProfile();
        pd::EngineController controller(profile, m_runners);
        pd::ControlTimings t;
        t.verifyDelay = 1000ms;
        t.stopGrace = 5000ms;
        controller.setTimings(t);
        pd::RunnerEngineControl control(&controller);

        auto running = waitForRunning(control);
        QVERIFY(running);
        QVERIFY2(running->error.isEmpty(), qPrintable(running->error));
        QCOMPARE(running->running, std::optional<bool>(false));

        auto started = waitFor([&control](pd::EngineControl::Done done) { control.startProxy(std::move(done)); });
        if (controller.pid(QStringLiteral("proxy")) > 0)
            m_pids << controller.pid(QStringLiteral("proxy"));
        QVERIFY(started);
        QVERIFY2(started->ok, qPrintable(started->error));
        QByteArray body;
        QTRY_COMPARE_WITH_TIMEOUT(pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck", &body), 200, 10000);
        const nlohmann::json health = nlohmann::json::parse(body.toStdString(), nullptr, false);
        QCOMPARE(health.value("prefill_instances", -1), 1);
        QCOMPARE(health.value("decode_instances", -1), 2);
        running = waitForRunning(control);
        QVERIFY(running && running->running == std::optional<bool>(true));
        const qint64 pid = controller.pid(QStringLiteral("proxy"));
        QVERIFY(pid > 0);
        // Its command line, read from the node (/proc/PID/cmdline): what judges WAITING (§8.1).
        const auto argv = readCommandLine(control);
        QVERIFY(argv);
        QVERIFY2(argv->argv, qPrintable(argv->error));
        const auto timing = pd::listenerTimingFromArguments(*argv->argv);
        QVERIFY2(timing, qPrintable(argv->argv->join(QLatin1Char(' '))));
        const QStringList planned = pd::proxyArguments(profile, {}, nullptr);
        QCOMPARE(timing->maxRetries, pd::listenerTimingFromArguments(planned)->maxRetries);
        QCOMPARE(timing->intervalMs, int(profile.proxy.waitingRetryInterval * 1000));
        QVERIFY2(argv->argv->contains(QStringLiteral("--max-waiting-retries")), qPrintable(argv->argv->join(QLatin1Char(' '))));

        auto stopped = waitFor([&control](pd::EngineControl::Done done) { control.stopProxy(std::move(done)); });
        QVERIFY(stopped);
        QVERIFY2(stopped->ok, qPrintable(stopped->error));
        QVERIFY2(stopped->detail.contains(QLatin1String("SIGTERM")), qPrintable(stopped->detail));
        QVERIFY(pdtest::processGone(pid));
        QCOMPARE(pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck"), 0);
        running = waitForRunning(control);
        QVERIFY(running && running->running == std::optional<bool>(false));
        const auto none = readCommandLine(control);
        QVERIFY(none && !none->argv);
        QVERIFY2(none->error.contains(QLatin1String("not running")), qPrintable(none->error));

        // Stopping a proxy that does not run is not a failure.
        stopped = waitFor([&control](pd::EngineControl::Done done) { control.stopProxy(std::move(done)); });
        QVERIFY(stopped && stopped->ok);
        QCOMPARE(stopped->detail, QStringLiteral("was not running"));
    }

    void aProfileWithoutAProxyScriptFailsTheStart()
    {
        pd::Profile profile = runnerProfile();
        profile.proxy.scriptPath.clear();
        pd::EngineController controller(profile, m_runners);
        pd::RunnerEngineControl control(&controller);
        const auto started = waitFor([&control](pd::EngineControl::Done done) { control.startProxy(std::move(done)); }, 10000);
        QVERIFY(started);
        QVERIFY(!started->ok);
        QVERIFY2(started->error.contains(QLatin1String("script_path")), qPrintable(started->error));
        QCOMPARE(pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck"), 0);
    }

    void cleanupTestCase()
    {
        m_sim.stop();
    }
};

QTEST_GUILESS_MAIN(TestProxySeam)
#include "tst_proxyseam.moc"
