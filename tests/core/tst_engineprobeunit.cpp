// SPDX-License-Identifier: MIT
// EngineProbe over a canned transport (no socket, no simulator): what it asks an engine (/v1/models,
// /health, /metrics; bearer token, https, timeout) and how it classifies each answer: ready or not and
// why, listening or not, a load read or the reason none was, and the pool readings a scale plan takes
// (a load, "not answering", or neither: slow is not dead). tests/scale and tst_httprequest run the same
// probe against pdsim's engines and a listener over real HTTP.
#include "awaitreply.h"
#include "cannedtransport.h"
#include "ops/scaleprobe.h"

#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <optional>

Q_DECLARE_METATYPE(pd::test::CannedReply)

using namespace pd;
using pd::test::CannedReply;
using pd::test::CannedTransport;

namespace {

EngineRef engine(const QString &id = QStringLiteral("127.0.0.139:9001"), const QString &node = QStringLiteral("d0"))
{
    return { id, Role::Decode, node, 0 };
}

// vLLM >= 0.10 with two DP engines behind one API server: the probe adds the engines up.
const QByteArray kMetrics = "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
                            "# TYPE vllm:num_requests_running gauge\n"
                            "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3.0\n"
                            "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 2.0\n"
                            "# TYPE vllm:num_requests_waiting gauge\n"
                            "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 1.0\n"
                            "vllm:num_requests_waiting{engine=\"1\",model_name=\"m\"} 4.0\n"
                            "# TYPE vllm:prompt_tokens_total counter\n"
                            "vllm:prompt_tokens_total{engine=\"0\",model_name=\"m\"} 1000.0\n"
                            "vllm:prompt_tokens_created{engine=\"0\",model_name=\"m\"} 1.7e9\n"
                            "# TYPE vllm:generation_tokens_total counter\n"
                            "vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} 250.0\n";

const QByteArray kModels = R"({"object":"list","data":[{"id":"deepseek_r1","object":"model"}]})";

struct LoadAnswer {
    std::optional<EngineLoad> load;
    QString error;
};

EngineReadiness readiness(EngineProbe &probe, const EngineRef &e)
{
    return pd::test::awaitReply<EngineReadiness>([&](std::function<void(const EngineReadiness &)> done) {
        probe.readiness(e, done);
    }).value_or(EngineReadiness { false, false, false, QStringLiteral("no answer within 10 s") });
}

LoadAnswer load(EngineProbe &probe, const EngineRef &e)
{
    return pd::test::awaitReply<LoadAnswer>([&](std::function<void(const LoadAnswer &)> done) {
        probe.load(e, [done](std::optional<EngineLoad> l, const QString &error) { done(LoadAnswer { l, error }); });
    }).value_or(LoadAnswer { std::nullopt, QStringLiteral("no answer within 10 s") });
}

} // namespace

class TestEngineProbeUnit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void itAsksTheEngineItselfWithTokenTimeoutAndHttps()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::http(200, kModels));
        transport.script("GET", QStringLiteral("/health"), CannedReply::http(200, {}, {}));
        transport.script("GET", QStringLiteral("/metrics"), CannedReply::http(200, kMetrics, "text/plain"));
        EngineProbe probe(&transport);
        probe.setBearerToken("s3cr3t");
        probe.setTimeout(1500);
        QVERIFY(readiness(probe, engine()).ready());
        QVERIFY(load(probe, engine()).load.has_value());
        probe.setTls(true, {});
        QVERIFY(readiness(probe, engine()).ready());

        const auto &sent = transport.requests();
        QCOMPARE(sent.size(), 5);
        const QStringList expected { QStringLiteral("http://127.0.0.139:9001/v1/models"),
            QStringLiteral("http://127.0.0.139:9001/health"), QStringLiteral("http://127.0.0.139:9001/metrics"),
            QStringLiteral("https://127.0.0.139:9001/v1/models"), QStringLiteral("https://127.0.0.139:9001/health") };
        for (int i = 0; i < sent.size(); ++i) {
            QCOMPARE(sent.at(i).method, QByteArray("GET"));
            QCOMPARE(sent.at(i).url.toString(), expected.at(i));
            QCOMPARE(sent.at(i).header("Authorization"), QByteArray("Bearer s3cr3t"));
            QCOMPARE(sent.at(i).request.transferTimeout(), 1500);
            QCOMPARE(sent.at(i).request.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(),
                int(QNetworkRequest::ManualRedirectPolicy));
            QVERIFY(!sent.at(i).hasHeader("Content-Type"));
        }
    }

    void readinessClassifiesEachAnswer_data()
    {
        QTest::addColumn<CannedReply>("models");
        QTest::addColumn<CannedReply>("health");
        QTest::addColumn<bool>("listening");
        QTest::addColumn<bool>("modelsOk");
        QTest::addColumn<bool>("healthOk");
        QTest::addColumn<QStringList>("detail"); // each in the detail, which is empty when none
        const CannedReply ok = CannedReply::http(200, kModels);
        const CannedReply healthy = CannedReply::http(200, {}, {});
        QTest::newRow("serving") << ok << healthy << true << true << true << QStringList();
        QTest::newRow("loading: /v1/models 503")
            << CannedReply::http(503, R"({"error":"loading"})") << healthy << true << false << true
            << QStringList { QStringLiteral("/v1/models HTTP 503") };
        QTest::newRow("dead engine core: /health 500") << ok << CannedReply::http(500, {}, {}) << true << true << false
                                                       << QStringList { QStringLiteral("/health HTTP 500") };
        QTest::newRow("both 404") << CannedReply::http(404, R"({"detail":"Not Found"})")
                                  << CannedReply::http(404, R"({"detail":"Not Found"})") << true << false << false
                                  << QStringList { QStringLiteral("/v1/models HTTP 404"),
                                         QStringLiteral("/health HTTP 404") };
        QTest::newRow("a redirect is an answer, not followed") << CannedReply::http(
            302, {}, {}) << healthy << true << false << true << QStringList { QStringLiteral("/v1/models HTTP 302") };
        QTest::newRow("nothing listens") << CannedReply::refused() << CannedReply::refused() << false << false << false
                                         << QStringList { QStringLiteral(
                                                              "http://127.0.0.139:9001/v1/models: Connection refused"),
                                                QStringLiteral("http://127.0.0.139:9001/health: Connection refused") };
        QTest::newRow("silent") << CannedReply::silence() << CannedReply::silence() << false << false << false
                                << QStringList { QStringLiteral(
                                                     "http://127.0.0.139:9001/v1/models: no answer within 80 ms"),
                                       QStringLiteral("http://127.0.0.139:9001/health: no answer within 80 ms") };
        QTest::newRow("one answer is enough to be listening")
            << CannedReply::silence() << healthy << true << false << true
            << QStringList { QStringLiteral("http://127.0.0.139:9001/v1/models: no answer within 80 ms") };
    }
    void readinessClassifiesEachAnswer()
    {
        QFETCH(CannedReply, models);
        QFETCH(CannedReply, health);
        QFETCH(bool, listening);
        QFETCH(bool, modelsOk);
        QFETCH(bool, healthOk);
        QFETCH(QStringList, detail);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/v1/models"), models);
        transport.script("GET", QStringLiteral("/health"), health);
        EngineProbe probe(&transport);
        probe.setTimeout(80);
        const EngineReadiness r = readiness(probe, engine());
        QCOMPARE(r.listening, listening);
        QCOMPARE(r.models, modelsOk);
        QCOMPARE(r.health, healthOk);
        QCOMPARE(r.ready(), modelsOk && healthOk);
        QCOMPARE(r.detail.isEmpty(), detail.isEmpty());
        for (const QString &part : detail)
            QVERIFY2(r.detail.contains(part), qPrintable(r.detail));
        QCOMPARE(transport.requests().size(), 2); // never a redirect followed, never a retry
        QCOMPARE(transport.inFlight(), 0);
    }

    void loadAddsUpTheEngines()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/metrics"), CannedReply::http(200, kMetrics, "text/plain"));
        EngineProbe probe(&transport);
        const LoadAnswer a = load(probe, engine());
        QVERIFY2(a.load.has_value(), qPrintable(a.error));
        QVERIFY(a.error.isEmpty());
        QCOMPARE(a.load->running, 5.0);
        QCOMPARE(a.load->waiting, 5.0);
        QCOMPARE(a.load->tokens, 1250.0); // the _created sample is not a token count
    }

    void loadSaysWhyItReadNothing_data()
    {
        QTest::addColumn<CannedReply>("answer");
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("prefixOnly");
        QTest::newRow("no running gauge") << CannedReply::http(
            200, "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting 1\n", "text/plain")
                                          << "/metrics has no vllm:num_requests_running" << false;
        QTest::newRow("empty 200") << CannedReply::http(200, {}, "text/plain")
                                   << "/metrics has no vllm:num_requests_running" << false;
        QTest::newRow("not an exposition") << CannedReply::http(200, "vllm:num_requests_running{engine=\"0\" 3\n",
            "text/plain") << "/metrics: " << true;
        QTest::newRow("500") << CannedReply::http(500, "Internal Server Error", "text/plain")
                             << "/metrics answered HTTP 500" << false;
        QTest::newRow("404 (metrics disabled)")
            << CannedReply::http(404, R"({"detail":"Not Found"})") << "/metrics answered HTTP 404" << false;
        QTest::newRow("refused") << CannedReply::refused() << "http://127.0.0.139:9001/metrics: Connection refused"
                                 << false;
        QTest::newRow("silent") << CannedReply::silence() << "http://127.0.0.139:9001/metrics: no answer within 80 ms"
                                << false;
        QTest::newRow("reset before an answer")
            << CannedReply::failure(QNetworkReply::RemoteHostClosedError, QStringLiteral("Connection closed"))
            << "http://127.0.0.139:9001/metrics: Connection closed" << false;
    }
    void loadSaysWhyItReadNothing()
    {
        QFETCH(CannedReply, answer);
        QFETCH(QString, error);
        QFETCH(bool, prefixOnly);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/metrics"), answer);
        EngineProbe probe(&transport);
        probe.setTimeout(80);
        const LoadAnswer a = load(probe, engine());
        QVERIFY(!a.load.has_value());
        if (prefixOnly)
            QVERIFY2(a.error.startsWith(error) && a.error.size() > error.size(), qPrintable(a.error));
        else
            QCOMPARE(a.error, error);
    }

    // A 200 whose body did not arrive whole is no reading: /metrics is text by lines, so a body cut at a
    // line end parses, with the gauges after the cut missing (here: waiting 0 and no tokens).
    void aBodyThatDidNotArriveWholeIsNoReading_data()
    {
        QTest::addColumn<CannedReply>("answer");
        QTest::addColumn<QString>("error");
        const QByteArray head = kMetrics.left(kMetrics.indexOf("# TYPE vllm:num_requests_waiting"));
        QTest::newRow("reset after the running gauge")
            << CannedReply::http(200, head, "text/plain")
                   .thenError(QNetworkReply::RemoteHostClosedError, QStringLiteral("Connection closed"))
            << "http://127.0.0.139:9001/metrics: HTTP 200, then the body broke off (Connection closed)";
        QTest::newRow("silent after the running gauge")
            << CannedReply::http(200, head, "text/plain").stalling()
            << "http://127.0.0.139:9001/metrics: HTTP 200, then the body broke off (nothing for 250 ms)";
        QTest::newRow("larger than 8 MiB") << CannedReply::http(200, QByteArray((8 << 20) + 1, '\n'), "text/plain")
                                           << "http://127.0.0.139:9001/metrics: answer larger than 8388608 bytes";
    }
    void aBodyThatDidNotArriveWholeIsNoReading()
    {
        QFETCH(CannedReply, answer);
        QFETCH(QString, error);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/metrics"), answer);
        EngineProbe probe(&transport);
        probe.setTimeout(250); // the headers come first, on the next turns of the event loop
        const LoadAnswer a = load(probe, engine());
        QVERIFY2(!a.load.has_value(),
            qPrintable(QStringLiteral("read running %1, waiting %2")
                           .arg(a.load ? a.load->running : 0)
                           .arg(a.load ? a.load->waiting : 0)));
        QCOMPARE(a.error, error);
    }

    void poolReadingsTellSlowFromDead()
    {
        const EngineRef busy = engine(QStringLiteral("127.0.0.139:9001"), QStringLiteral("d0"));
        const EngineRef stopped = engine(QStringLiteral("127.0.0.132:9001"), QStringLiteral("d1"));
        const EngineRef slow = engine(QStringLiteral("127.0.0.133:9001"), QStringLiteral("d2"));
        CannedTransport transport;
        transport.script(
            "GET", QStringLiteral("http://127.0.0.139:9001/metrics"), CannedReply::http(200, kMetrics, "text/plain"));
        transport.script("*", QStringLiteral("http://127.0.0.132:9001/metrics"), CannedReply::refused());
        transport.script("*", QStringLiteral("http://127.0.0.132:9001/v1/models"), CannedReply::refused());
        transport.script("*", QStringLiteral("http://127.0.0.132:9001/health"), CannedReply::refused());
        transport.script("GET", QStringLiteral("http://127.0.0.133:9001/metrics"), CannedReply::silence());
        transport.script("GET", QStringLiteral("http://127.0.0.133:9001/v1/models"), CannedReply::http(200, kModels));
        transport.script("GET", QStringLiteral("http://127.0.0.133:9001/health"), CannedReply::silence());
        EngineProbe probe(&transport);
        probe.setTimeout(80);

        const std::optional<PoolReadings> r
            = pd::test::awaitReply<PoolReadings>([&](std::function<void(const PoolReadings &)> done) {
                  probe.poolReadings({ busy, stopped, slow }, done);
              });
        QVERIFY(r.has_value());
        QCOMPARE(r->loads.keys(), QList<QString> { busy.id });
        QCOMPARE(r->loads.value(busy.id).running, 5.0);
        QCOMPARE(r->notAnswering, QSet<QString> { stopped.id });
        // An engine whose load was read is not asked whether it is alive.
        QCOMPARE(transport.requestsTo(QStringLiteral("/v1/models")).size(), 2);
        QVERIFY(transport.unscripted().isEmpty());

        const std::optional<QHash<QString, EngineLoad>> loads = pd::test::awaitReply<QHash<QString, EngineLoad>>(
            [&](std::function<void(const QHash<QString, EngineLoad> &)> done) {
                probe.loads({ busy, stopped, slow }, done);
            });
        QVERIFY(loads.has_value());
        QCOMPARE(loads->keys(), QList<QString> { busy.id });
    }

    void anEmptyPoolIsAnsweredAtOnce()
    {
        CannedTransport transport;
        EngineProbe probe(&transport);
        std::optional<PoolReadings> readings;
        probe.poolReadings({}, [&readings](const PoolReadings &r) { readings = r; });
        QVERIFY(readings.has_value());
        QVERIFY(readings->loads.isEmpty() && readings->notAnswering.isEmpty());
        std::optional<QHash<QString, EngineLoad>> loads;
        probe.loads({}, [&loads](const QHash<QString, EngineLoad> &l) { loads = l; });
        QVERIFY(loads.has_value() && loads->isEmpty());
        QVERIFY(transport.requests().isEmpty());
    }

    // Trust (issue 37): an engine that drip-feeds its answer (a byte every 200 ms, forever) never lets the
    // inactivity timeout fire; the overall deadline ends the probe all the same, saying so.
    void aDripFedAnswerEndsAtItsDeadline()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress(QStringLiteral("127.0.0.139")), 0));
        QList<QPointer<QTcpSocket>> clients;
        QTimer drip;
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                s->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n");
                clients << s;
            }
        });
        connect(&drip, &QTimer::timeout, this, [&] {
            for (QTcpSocket *s : std::as_const(clients))
                if (s)
                    s->write("#");
        });
        drip.start(200);
        EngineProbe probe;
        probe.setTimeout(1000); // inactivity: never reached, a byte comes every 200 ms
        const EngineRef engine { QStringLiteral("127.0.0.139:%1").arg(server.serverPort()), Role::Decode,
            QStringLiteral("d0"), 0 };
        std::optional<std::optional<EngineLoad>> load;
        QString error;
        probe.load(engine, [&](std::optional<EngineLoad> l, const QString &why) {
            load = l;
            error = why;
        });
        QTRY_VERIFY_WITH_TIMEOUT(load.has_value(), 30000);
        QVERIFY(!load->has_value());
        QVERIFY2(error.contains(QLatin1String("no whole answer within 2000 ms")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestEngineProbeUnit)
#include "tst_engineprobeunit.moc"
