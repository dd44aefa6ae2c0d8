// SPDX-License-Identifier: MIT
// A proxy without /instances (pdsim's proxy run as vllm-ascend v0.9.1-dev) is scaled
// through the one path it has: pdctl reads the running proxy's command line as its membership, waits
// until nothing is in flight, restarts the proxy with the new lists and stops the engines that left.
// Processes only: `pdsim cluster` and `pdctl`, over HTTP on 127.0.0.74-76.
#include "httpcall.h"
#include "pdctlsimtest.h"
#include "pdsimcluster.h"
#include "scaletesthelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestPdctlScaleRestart : public pd::test::PdctlSimTest {
    Q_OBJECT

public:
    TestPdctlScaleRestart()
        : PdctlSimTest(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-v091.json"))
    {
    }

private:
    int pdctl(const QStringList &args, QByteArray *out, int timeoutMs = 120000) { return pd::test::runPdctl(args, out, timeoutMs); }
    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {})
    {
        return pd::test::httpCall(method, url, body).body;
    }
    json get(const QString &url)
    {
        const QByteArray body = http("GET", url);
        return json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    }
    json health() { return get(QStringLiteral("http://127.0.0.74:8410/healthcheck")); }
    json cluster() { return get(QStringLiteral("http://%1/cluster").arg(m_control)); }
    // The decoder ports the running proxy was started with (its command line, as `ps` would show it).
    QStringList decoderPorts()
    {
        const json state = cluster();
        QStringList args;
        if (state.is_object() && state.contains("proxy_arguments"))
            for (const json &a : state["proxy_arguments"])
                args << QString::fromStdString(a.get<std::string>());
        QStringList ports;
        for (qsizetype i = args.indexOf(QStringLiteral("--decoder-ports")) + 1; i > 0 && i < args.size() && !args.at(i).startsWith(QLatin1Char('-')); ++i)
            ports << args.at(i);
        return ports;
    }
    QStringList scaleArgs(int to, const QString &audit)
    {
        return {QStringLiteral("scale"), QStringLiteral("--profile"), m_profile, QStringLiteral("--pool"), QStringLiteral("decode"),
                QStringLiteral("--to"), QString::number(to), QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_control,
                QStringLiteral("--audit"), audit};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        PD_START_PDSIM(m_sim, m_profile, {QStringLiteral("--time-scale"),
                            QStringLiteral("20"), QStringLiteral("--load"), QStringLiteral("0"), QStringLiteral("--no-jitter")});
        m_control = m_sim.control();
        // The engines the proxy does not list are stopped: a scale-out has to start them.
        http("POST", QStringLiteral("http://%1/cluster/engines/stop").arg(m_control),
             R"({"engines":["127.0.0.76:9004","127.0.0.76:9005","127.0.0.76:9006","127.0.0.76:9007"]})");
        QTRY_VERIFY_WITH_TIMEOUT(health().value("decode_instances", -1) == 4, 20000);
        // v0.9.1-dev's /healthcheck: three keys, no request_num; no /instances API.
        QVERIFY2(!health().contains("request_num"), health().dump().c_str());
        QVERIFY(http("POST", QStringLiteral("http://127.0.0.74:8410/instances/add"), R"({"type":"decode"})").contains("Not Found"));
    }

    void cleanupTestCase()
    {
        m_sim.stop();
    }

    // Scale-in: the proxy is idle, so it restarts at once with two decoders; the two that left stop.
    void scaleInRestartsTheProxyWithTheNewLists()
    {
        const QString audit = m_dir.filePath(QStringLiteral("in.jsonl"));
        QByteArray out;
        const int rc = pdctl(scaleArgs(2, audit), &out);
        QVERIFY2(rc == 0, out.constData());
        QVERIFY2(out.contains("(no /instances API): applying RESTARTS it with the decode list ["), out.constData());
        QVERIFY2(out.contains("Wait until no request is in flight: done"), out.constData());
        QVERIFY2(out.contains("the members' running + waiting requests") || out.contains("no request in flight"), out.constData());
        QVERIFY2(out.contains("Stop the engines that left: done"), out.constData());
        QVERIFY2(out.contains("still lists 4 decode instance(s)"), out.constData());
        QCOMPARE(health().value("decode_instances", -1), 2);
        QCOMPARE(decoderPorts().size(), 2);
        int running = 0;
        const json state = cluster();
        for (const json &e : state["engines"])
            running += e.value("role", std::string()) == "decode" && e.value("status", std::string()) != "stopped";
        QCOMPARE(running, 2);

        QCOMPARE(pdctl({QStringLiteral("audit"), QStringLiteral("--file"), audit}, &out), 0);
        QVERIFY2(out.contains("scale-in-restart.restart-proxy") && out.contains("scale-in-restart  decode"), out.constData());
        QVERIFY2(out.contains("succeeded"), out.constData());
    }

    // Scale-out under client load with the override: it does not wait, says how many requests in flight
    // fail, starts the engines first and restarts the proxy with four decoders.
    void scaleOutUnderLoadWithTheOverride()
    {
        QVERIFY(http("POST", QStringLiteral("http://%1/cluster/load").arg(m_control), R"({"rps": 6})").contains("rps"));
        QTRY_VERIFY_WITH_TIMEOUT(cluster()["load"].value("sent", 0) > 0, 20000);
        const QString audit = m_dir.filePath(QStringLiteral("out.jsonl"));
        QByteArray out;
        const int rc = pdctl(scaleArgs(4, audit) << QStringLiteral("--allow-in-flight"), &out);
        QVERIFY2(rc == 0, out.constData());
        QVERIFY2(out.contains("--allow-in-flight: it does not wait"), out.constData());
        QVERIFY2(out.contains("will fail when the proxy stops"), out.constData());
        QVERIFY2(out.indexOf("Start the new engines: done") < out.indexOf("Restart the proxy with the new lists: done"), out.constData());
        QCOMPARE(health().value("decode_instances", -1), 4);
        QCOMPARE(decoderPorts().size(), 4);
        // The proxy serves again through the new membership.
        const qint64 okBefore = cluster()["load"].value("succeeded", 0);
        QTRY_VERIFY_WITH_TIMEOUT(cluster()["load"].value("succeeded", 0) > okBefore + 3, 30000);
        http("POST", QStringLiteral("http://%1/cluster/load").arg(m_control), R"({"rps": 0})");
    }

    // A size the pool already has changes nothing, and the proxy keeps running (same process).
    void noopLeavesTheProxyAlone()
    {
        const QStringList before = decoderPorts();
        QByteArray out;
        QCOMPARE(pdctl(scaleArgs(4, m_dir.filePath(QStringLiteral("noop.jsonl"))), &out), 0);
        QVERIFY2(!out.contains("RESTARTS"), out.constData());
        QCOMPARE(decoderPorts(), before);
    }

    // The seed-001 profile's proxy is v0.9.1-dev: its generated command line has no flag that proxy lacks.
    void seed001ProxyLineHasOnlyItsGenerationsFlags()
    {
        QByteArray out;
        QCOMPARE(pdctl({QStringLiteral("proxy"), QStringLiteral("start"), QStringLiteral("--profile"),
                        QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-v3-2node-a2.json"), QStringLiteral("--print")}, &out), 0);
        for (const char *flag : {"--max-waiting-retries", "--waiting-retry-interval", "--workers", "--log-level"})
            QVERIFY2(!out.contains(flag), out.constData());
        QVERIFY2(out.contains("--decoder-hosts-num 1"), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestPdctlScaleRestart)
#include "tst_pdctlscalerestart.moc"
