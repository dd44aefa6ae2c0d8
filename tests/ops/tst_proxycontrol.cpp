// SPDX-License-Identifier: MIT
// The proxy's command line generated from the profile for both generations (checked against the
// spec's worked example, and accepted by pdsim proxy, whose parser mimics each generation's argparse),
// and the proxy started, found and stopped for real through LocalRunner.
#include "cluster/profileformat.h"
#include "ops/enginecontroller.h"

#include "opsfixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <optional>

using namespace std::chrono_literals;

namespace {

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QStringList repeat(const QStringList &items, int times)
{
    QStringList out;
    for (int i = 0; i < times; ++i)
        out += items;
    return out;
}

} // namespace

class TestProxyControl : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<pd::DefaultRunnerFactory> m_runners = std::make_shared<pd::DefaultRunnerFactory>();
    QList<qint64> m_pids;

    std::optional<pd::OperationSummary> wait(pd::EngineController &c, int id)
    {
        const std::optional<pd::OperationSummary> got = pdtest::waitForOperation(c, id, 60000);
        if (got) {
            for (const pd::ProcessOutcome &o : std::as_const(got->outcomes))
                if (o.pid > 0)
                    m_pids << o.pid;
        }
        return got;
    }

    // A loopback cluster whose proxy is `pdsim proxy` of the given generation behind a wrapper script.
    pd::Profile loopbackProfile(pd::ProxyGeneration generation)
    {
        return pdtest::pdsimProxyProfile(QStringLiteral("proxy-test"), m_dir->path(), QStringLiteral("127.0.0.47"),
            QStringLiteral("127.0.0.45"), 2, QStringLiteral("127.0.0.46"), 3, generation);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("PDSIM", PD_BINARY_DIR "/sim/pdsim");
        QVERIFY2(QFile::exists(QStringLiteral(PD_BINARY_DIR "/sim/pdsim")), "build the pdsim target first");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup()
    {
        for (const qint64 pid : std::as_const(m_pids)) {
            pdtest::killSessionLeader(pid);
        }
        m_pids.clear();
    }

    void v091DevUsesNumAndIncAsTheSpecExample()
    {
        const pd::Profile profile = pdtest::seedProfile();
        QCOMPARE(profile.proxy.generation, pd::ProxyGeneration::V091Dev);
        QString error;
        const QStringList args = pd::proxyArguments(profile, pd::ProxyLaunchOptions(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // spec proxy-api §4.1 worked example, then the retry flags v0.9.1-dev knows (no waiting list there).
        const QStringList expected
            = words("--host 0.0.0.0 --port 8000"
                    " --prefiller-hosts 192.0.0.1 192.0.0.2 192.0.0.3 192.0.0.4 --prefiller-hosts-num 2 2 2 2"
                    " --prefiller-ports 9000 9000 9000 9000 --prefiller-ports-inc 2 2 2 2"
                    " --decoder-hosts 192.0.0.5 192.0.0.6 192.0.0.7 192.0.0.8 --decoder-hosts-num 16 16 16 16"
                    " --decoder-ports 9000 9000 9000 9000 --decoder-ports-inc 16 16 16 16"
                    " --max-retries 3 --retry-delay 0.001");
        QCOMPARE(args, expected);
    }

    void mainExpandsEveryInstance()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.proxy.generation = pd::ProxyGeneration::Main;
        QString error;
        const QStringList args = pd::proxyArguments(profile, pd::ProxyLaunchOptions(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList prefillHosts, decodeHosts, decodePorts;
        for (const char *h : { "192.0.0.1", "192.0.0.2", "192.0.0.3", "192.0.0.4" })
            prefillHosts << QString::fromLatin1(h) << QString::fromLatin1(h);
        for (const char *h : { "192.0.0.5", "192.0.0.6", "192.0.0.7", "192.0.0.8" })
            decodeHosts += repeat({ QString::fromLatin1(h) }, 16);
        for (int i = 0; i < 16; ++i)
            decodePorts << QString::number(9000 + i);
        const QStringList expected = words("--host 0.0.0.0 --port 8000 --prefiller-hosts") + prefillHosts
            + words("--prefiller-ports") + repeat(words("9000 9001"), 4) + words("--decoder-hosts") + decodeHosts
            + words("--decoder-ports")
            + repeat(decodePorts, 4)
            // 900 s of loading at a 10 s interval: 91 probes before the proxy gives up on an engine.
            + words("--max-retries 3 --retry-delay 0.001 --max-waiting-retries 91 --waiting-retry-interval 10.0");
        QCOMPARE(args, expected);
        QCOMPARE(pd::proxyWaitingRetries(profile, pd::ProxyLaunchOptions { 0, QStringLiteral("python3") }), 3);
    }

    void explicitListsAreCompressedIntoRuns()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.proxy.prefillInstances = { QStringLiteral("10.0.0.1:7100"), QStringLiteral("10.0.0.1:7101"),
            QStringLiteral("10.0.0.2:7100"), QStringLiteral("10.0.0.1:7102") };
        QString error;
        const QStringList args = pd::proxyArguments(profile, pd::ProxyLaunchOptions(), &error);
        const qsizetype at = args.indexOf(QStringLiteral("--prefiller-hosts"));
        QCOMPARE(args.mid(at, 16),
            words("--prefiller-hosts 10.0.0.1 10.0.0.2 10.0.0.1 --prefiller-hosts-num 2 1 1"
                  " --prefiller-ports 7100 7100 7102 --prefiller-ports-inc 2 1 1"));
        profile.proxy.decodeInstances = { QStringLiteral("10.0.0.9") };
        QVERIFY(pd::proxyArguments(profile, pd::ProxyLaunchOptions(), &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("10.0.0.9")), qPrintable(error));
    }

    void theProcessRunsTheScriptWithPython()
    {
        const pd::Profile profile = pdtest::seedProfile();
        QString error;
        const auto process = pd::proxyProcess(profile, pd::ProxyLaunchOptions(), &error);
        QVERIFY(process);
        QCOMPARE(process->program.mid(0, 2), words("python3 ./load_balance_proxy_server_example.py"));
        QCOMPARE(process->target.node, QStringLiteral("p0")); // the node at the proxy's address
        QCOMPARE(process->logFile, QStringLiteral("/root/pdconsole/proxy/proxy-8000.log"));
        pd::Profile noScript = profile;
        noScript.proxy.scriptPath.clear();
        QVERIFY(!pd::proxyProcess(noScript, pd::ProxyLaunchOptions(), &error));
        QVERIFY2(error.contains(QLatin1String("script_path")), qPrintable(error));
    }

    void startAndStop_data()
    {
        QTest::addColumn<pd::ProxyGeneration>("generation");
        QTest::newRow("main") << pd::ProxyGeneration::Main;
        QTest::newRow("v0.9.1-dev") << pd::ProxyGeneration::V091Dev;
    }

    void startAndStop()
    {
        QFETCH(pd::ProxyGeneration, generation);
        pd::Profile profile = loopbackProfile(generation);
        profile.proxy.apiKeyEnv = QStringLiteral("PDTEST_PROXY_API_KEY");
        qputenv("PDTEST_PROXY_API_KEY", "s3cret key;$(x)");
        pd::EngineController c(profile, m_runners);
        pd::ControlTimings t;
        t.verifyDelay = 1000ms;
        t.stopGrace = 5000ms;
        c.setTimings(t);

        auto started = wait(c, c.startProxy());
        QVERIFY(started);
        QVERIFY2(started->failed() == 0, qPrintable(started->text()));
        const qint64 pid = started->outcomes.first().pid;
        QCOMPARE(c.processFact(QStringLiteral("proxy")), pd::ProcessFact::Running);
        QByteArray body;
        QTRY_COMPARE_WITH_TIMEOUT(
            pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck", &body), 200, 10000);
        const nlohmann::json health = nlohmann::json::parse(body.toStdString());
        QCOMPARE(health["prefill_instances"].get<int>(), 2);
        QCOMPARE(health["decode_instances"].get<int>(), 3);
        // The engines' API key reached the proxy as OPENAI_API_KEY.
        QFile environment(QStringLiteral("/proc/%1/environ").arg(pid));
        QVERIFY(environment.open(QIODevice::ReadOnly));
        QVERIFY(environment.readAll().split('\0').contains("OPENAI_API_KEY=s3cret key;$(x)"));

        auto again = wait(c, c.startProxy());
        QVERIFY(again && again->failed() == 0);
        QCOMPARE(again->outcomes.first().pid, pid); // no second proxy

        auto stopped = wait(c, c.stopProxy());
        QVERIFY(stopped);
        QVERIFY2(stopped->failed() == 0, qPrintable(stopped->text()));
        QVERIFY(pdtest::processGone(pid));
        QCOMPARE(pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck"), 0);
        QCOMPARE(c.processFact(QStringLiteral("proxy")), pd::ProcessFact::Exited);
    }

    void anUnsetApiKeyVariableStopsTheStart()
    {
        pd::Profile profile = loopbackProfile(pd::ProxyGeneration::Main);
        profile.proxy.apiKeyEnv = QStringLiteral("PDTEST_UNSET_API_KEY");
        qunsetenv("PDTEST_UNSET_API_KEY");
        pd::EngineController c(profile, m_runners);
        auto started = wait(c, c.startProxy());
        QVERIFY(started);
        QCOMPARE(started->failed(), 1);
        QVERIFY2(
            started->outcomes.first().error.contains(QLatin1String("PDTEST_UNSET_API_KEY is not set or empty")),
            qPrintable(started->outcomes.first().error));
        QCOMPARE(pdtest::httpStatus(profile.proxy.address, profile.proxy.port, "/healthcheck"), 0);
    }
};

QTEST_GUILESS_MAIN(TestProxyControl)
#include "tst_proxycontrol.moc"
