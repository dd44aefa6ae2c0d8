// SPDX-License-Identifier: MIT
// The Prometheus API client and the source's error paths against a small local HTTP server that
// answers like Prometheus would, or worse: the bearer token and the form on the wire, not JSON,
// status error, a wrong resultType, 401, no answer at all; the source names each and retries.
#include "http/httpserver.h"
#include "net/prometheusclient.h"
#include "net/prometheussource.h"

#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

#include <functional>

using namespace pd;
using namespace pd::sim;

namespace {

struct Seen {
    HttpRequest request;
    QString query; // the form's "query"
};

} // namespace

class TestPrometheusClient final : public QObject {
    Q_OBJECT

private:
    HttpServer m_server;
    std::function<void(const HttpRequest &, const HttpResponderPtr &)> m_answer;
    QList<Seen> m_seen;

    PrometheusEndpoint endpoint(int timeoutMs = 3000) const
    {
        PrometheusEndpoint e;
        e.base = QUrl(QStringLiteral("http://127.0.0.1:%1/prom/").arg(m_server.port()));
        e.bearerToken = "s3cret";
        e.timeoutMs = timeoutMs;
        return e;
    }

    PromApiAnswer ask(PrometheusClient &client)
    {
        PromApiAnswer got;
        bool done = false;
        client.query("up", [&](const PromApiAnswer &a, qint64) {
            got = a;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            got.error = QStringLiteral("(no callback)");
        return got;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_server.setHandler([this](const HttpRequest &req, const HttpResponderPtr &res) {
            Seen s { req,
                QUrlQuery(QString::fromUtf8(req.body)).queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded) };
            m_seen.append(s);
            if (m_answer)
                m_answer(req, res);
        });
        QVERIFY(m_server.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
    }

    void init() { m_seen.clear(); }

    void sendsTheFormAndTheToken()
    {
        m_answer = [](const HttpRequest &, const HttpResponderPtr &res) {
            res->respond(200, "application/json",
                R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"up"},"value":[1,"1"]}]}})");
        };
        PrometheusClient client;
        client.setEndpoint(endpoint());
        const PromApiAnswer a = ask(client);
        QVERIFY2(a.ok(), qPrintable(a.error));
        QCOMPARE(a.series.size(), std::size_t(1));
        QCOMPARE(m_seen.size(), 1);
        QCOMPARE(m_seen[0].request.method, QByteArray("POST"));
        QCOMPARE(m_seen[0].request.path, QByteArray("/prom/api/v1/query")); // the URL's path prefix kept
        QCOMPARE(m_seen[0].request.header("Authorization"), QByteArray("Bearer s3cret"));
        QCOMPARE(m_seen[0].query, QStringLiteral("up"));
    }

    void rangeQueryForm()
    {
        m_answer = [](const HttpRequest &, const HttpResponderPtr &res) {
            res->respond(200, "application/json",
                R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[10,"1"],[20,"2"]]}]}})");
        };
        PrometheusClient client;
        client.setEndpoint(endpoint());
        PromApiAnswer got;
        bool done = false;
        client.queryRange("up", 10'000, 20'500, 10'000, [&](const PromApiAnswer &a, qint64) {
            got = a;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
        QVERIFY2(got.ok(), qPrintable(got.error));
        QCOMPARE(got.series.at(0).points.size(), std::size_t(2));
        QCOMPARE(m_seen.size(), 1);
        QCOMPARE(m_seen[0].request.path, QByteArray("/prom/api/v1/query_range"));
        const QUrlQuery form(QString::fromUtf8(m_seen[0].request.body));
        QCOMPARE(form.queryItemValue(QStringLiteral("start")), QStringLiteral("10.000"));
        QCOMPARE(form.queryItemValue(QStringLiteral("end")), QStringLiteral("20.500"));
        QCOMPARE(form.queryItemValue(QStringLiteral("step")), QStringLiteral("10.000"));
    }

    void answersThatAreWrong_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not JSON") << 200 << QByteArray("<html>sign in</html>") << QStringLiteral("not JSON at byte 1");
        QTest::newRow("status error")
            << 400
            << QByteArray(
                   R"({"status":"error","errorType":"bad_data","error":"1:3: parse error: unexpected end of input"})")
            << QStringLiteral("bad_data: 1:3: parse error");
        QTest::newRow("unauthorized") << 401 << QByteArray("Unauthorized\n")
                                      << QStringLiteral("check the bearer token");
        QTest::newRow("wrong shape")
            << 200
            << QByteArray(
                   R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"value":[1,"1"]}]}})")
            << QStringLiteral("data.result[0]: a \"value\" in a matrix");
    }

    void answersThatAreWrong()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, mentions);
        m_answer = [status, body](const HttpRequest &, const HttpResponderPtr &res) {
            res->respond(status, "application/json", body);
        };
        PrometheusClient client;
        client.setEndpoint(endpoint());
        const PromApiAnswer a = ask(client);
        QVERIFY(!a.ok());
        QVERIFY2(a.error.contains(mentions), qPrintable(a.error));
        QVERIFY2(a.error.contains(QLatin1String("/api/v1/query")), qPrintable(a.error)); // names the endpoint
    }

    void noAnswerTimesOut()
    {
        m_answer = [](const HttpRequest &, const HttpResponderPtr &) {}; // never answers
        PrometheusClient client;
        client.setEndpoint(endpoint(300));
        const PromApiAnswer a = ask(client);
        QVERIFY(!a.ok());
        QVERIFY2(a.error.contains(QLatin1String("no answer within 300 ms")), qPrintable(a.error));
    }

    // The source on a server whose generation probe answers a matrix: it fails naming why, and retries.
    void sourceReportsAWrongResultTypeAndRetries()
    {
        m_answer = [](const HttpRequest &req, const HttpResponderPtr &res) {
            if (req.path.endsWith("/api/v1/targets")) {
                res->respond(
                    200, "application/json", R"({"status":"success","data":{"activeTargets":[],"droppedTargets":[]}})");
                return;
            }
            res->respond(200, "application/json", R"({"status":"success","data":{"resultType":"matrix","result":[]}})");
        };
        PrometheusSourceConfig config;
        config.endpoint = endpoint();
        config.retryMs = 200;
        PrometheusSource source(config);
        QList<PrometheusStatus> statuses;
        connect(&source, &PrometheusSource::statusChanged, this,
            [&statuses](const PrometheusStatus &s) { statuses.append(s); });
        source.setEngines({ "127.0.0.1:9000" });
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            !statuses.isEmpty() && statuses.last().phase == PrometheusStatus::Phase::Failed, 10000);
        QVERIFY2(statuses.last().error.contains(QLatin1String("not a vector")), qPrintable(statuses.last().error));
        const int probes = int(std::count_if(m_seen.begin(), m_seen.end(),
            [](const Seen &s) { return s.query.startsWith(QLatin1String("max by (__name__")); }));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::count_if(m_seen.begin(), m_seen.end(),
                [](const Seen &s) { return s.query.startsWith(QLatin1String("max by (__name__")); })
                > probes,
            10000); // it tried again
    }

    // A server that knows none of the profile's engines: the failure lists what it does have.
    void sourceReportsNoMatchingTargets()
    {
        m_answer = [](const HttpRequest &req, const HttpResponderPtr &res) {
            if (req.path.endsWith("/api/v1/targets")) {
                res->respond(200, "application/json", R"({"status":"success","data":{"activeTargets":[]}})");
                return;
            }
            res->respond(200, "application/json",
                R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"up","instance":"10.0.0.9:8000"},"value":[1,"1"]},)"
                R"({"metric":{"__name__":"vllm:num_requests_running","instance":"10.0.0.9:8000"},"value":[1,"1"]},)"
                R"({"metric":{"__name__":"up","instance":"10.0.0.7:9100"},"value":[1,"1"]}]}})");
        };
        PrometheusSourceConfig config;
        config.endpoint = endpoint();
        config.retryMs = 60000;
        PrometheusSource source(config);
        PrometheusStatus last;
        connect(&source, &PrometheusSource::statusChanged, this, [&last](const PrometheusStatus &s) { last = s; });
        source.setEngines({ "127.0.0.1:9000", "127.0.0.1:9001" });
        source.start();
        QTRY_VERIFY_WITH_TIMEOUT(last.phase == PrometheusStatus::Phase::Failed, 10000);
        QVERIFY2(last.error.contains(QLatin1String("none of the profile's 2 engine(s)")), qPrintable(last.error));
        QVERIFY2(last.error.contains(QLatin1String("10.0.0.9:8000")), qPrintable(last.error)); // a vLLM target
        QVERIFY2(!last.error.contains(QLatin1String("10.0.0.7:9100")), qPrintable(last.error)); // a node exporter
    }
};

QTEST_GUILESS_MAIN(TestPrometheusClient)
#include "tst_prometheusclient.moc"
