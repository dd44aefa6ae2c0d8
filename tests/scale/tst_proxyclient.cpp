// SPDX-License-Identifier: MIT
// ProxyClient against every response shape: the simulated proxy (real add/list/remove answers, the
// error object, 500 text, both generations) and a scripted HTTP server (non-JSON /healthcheck, wrong
// shapes, a hang for the timeout, 401 unless the bearer token matches).
#include "awaitreply.h"
#include "http/httpserver.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "proxy/simproxy.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <memory>

using namespace pd;
using pd::sim::HttpRequest;
using pd::sim::HttpResponderPtr;
using pd::sim::HttpServer;

class TestProxyClient : public QObject {
    Q_OBJECT

    // A scripted server: path -> (status, content type, body); "hang" never answers.
    struct Scripted {
        int status = 200;
        QByteArray type = "application/json";
        QByteArray body;
        bool hang = false;
    };
    HttpServer m_fake;
    QHash<QByteArray, Scripted> m_script;
    QList<HttpRequest> m_seen;
    QList<HttpResponderPtr> m_hung;
    QByteArray m_requiredToken;

    // Runs one asynchronous call to its answer (bounded: 10 s).
    template<typename T, typename Call> static T wait(Call call) { return pd::test::awaitReply<T>(call).value_or(T()); }

    ProxyClient *fakeClient(int timeoutMs = 3000, QByteArray token = {})
    {
        auto *client = new ProxyClient(this);
        client->setEndpoint({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_fake.port())), token, {}, timeoutMs});
        return client;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_fake.setHandler([this](const HttpRequest &r, const HttpResponderPtr &w) {
            m_seen << r;
            if (!m_requiredToken.isEmpty() && r.header("authorization") != "Bearer " + m_requiredToken) {
                w->respond(401, "application/json", R"({"detail":"Unauthorized"})");
                return;
            }
            const Scripted s = m_script.value(r.path, Scripted{404, "application/json", R"({"detail":"Not Found"})", false});
            if (s.hang) {
                m_hung << w;
                return;
            }
            w->respond(s.status, s.type, s.body);
        });
        QVERIFY(m_fake.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
    }

    void init()
    {
        m_script.clear();
        m_seen.clear();
        m_requiredToken.clear();
    }

    void instanceKeyNormalisesLikeThePythonProxy()
    {
        QCOMPARE(proxyInstanceKey(QStringLiteral("localhost:9202")), QStringLiteral("0.0.0.0:9202"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("127.0.0.1:9202")), QStringLiteral("0.0.0.0:9202"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("127.0.0.10:9202")), QStringLiteral("0.0.0.00:9202"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("10.0.0.1:9202")), QStringLiteral("10.0.0.1:9202"));
        // Every occurrence, left to right, as str.replace; white space around dropped; host and port apart.
        QCOMPARE(proxyInstanceKey(QStringLiteral(" 127.0.0.1:9202\n")), QStringLiteral("0.0.0.0:9202"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("localhost.127.0.0.1.localhost:1")),
            QStringLiteral("0.0.0.0.0.0.0.0.0.0.0.0:1"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("127.0.0.1127.0.0.1:1")), QStringLiteral("0.0.0.00.0.0.0:1"));
        QCOMPARE(proxyInstanceKey(QStringLiteral("127.0.0.153"), 9001), QStringLiteral("0.0.0.053:9001"));
        QCOMPARE(proxyInstanceKey(QString()), QString());
    }

    void parsesEveryInstancesAnswerShape_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("errorContains");
        QTest::addColumn<int>("decodeCount");
        QTest::newRow("waiting") << 200 << QByteArray(R"({"message":"Instances ['127.0.0.1:9202'] are waiting to be added.","current_prefill_instances":["127.0.0.1:9100"],"current_decode_instances":["127.0.0.1:9200","127.0.0.1:9201"]})")
                                 << true << QString() << 2;
        QTest::newRow("noop-looks-like-success") << 200 << QByteArray(R"({"message":"add decode instances: [].","current_prefill_instances":[],"current_decode_instances":[]})")
                                                 << true << QString() << 0;
        QTest::newRow("isolated") << 200 << QByteArray(R"({"message":"Instances ['127.0.0.1:9201'] are isolated and waiting to be removed.","current_prefill_instances":["a:1"],"current_decode_instances":["127.0.0.1:9200","127.0.0.1:9201"]})")
                                  << true << QString() << 2;
        QTest::newRow("bad-type") << 200 << QByteArray(R"({"error":"Instance type 'decoder' is not supported. Only 'prefill' and 'decode' are allowed."})")
                                  << false << QStringLiteral("not supported") << -1;
        QTest::newRow("500-text") << 500 << QByteArray("Internal Server Error") << false << QStringLiteral("without a port") << -1;
        QTest::newRow("not-json") << 200 << QByteArray("<html>gateway</html>") << false << QStringLiteral("not JSON") << -1;
        QTest::newRow("array") << 200 << QByteArray("[1,2]") << false << QStringLiteral("not a JSON object") << -1;
        QTest::newRow("no-message") << 200 << QByteArray(R"({"current_prefill_instances":[],"current_decode_instances":[]})")
                                    << false << QStringLiteral("\"message\"") << -1;
        QTest::newRow("list-not-strings") << 200 << QByteArray(R"({"message":"x","current_prefill_instances":[1],"current_decode_instances":[]})")
                                          << false << QStringLiteral("current_prefill_instances") << -1;
        QTest::newRow("missing-decode") << 200 << QByteArray(R"({"message":"x","current_prefill_instances":[]})")
                                        << false << QStringLiteral("current_decode_instances") << -1;
        QTest::newRow("duplicate-key") << 200 << QByteArray(R"({"message":"x","message":"y","current_prefill_instances":[],"current_decode_instances":[]})")
                                       << false << QStringLiteral("/message") << -1;
        QTest::newRow("401") << 401 << QByteArray(R"({"detail":"Unauthorized"})") << false << QStringLiteral("bearer token") << -1;
        QTest::newRow("404") << 404 << QByteArray(R"({"detail":"Not Found"})") << false << QStringLiteral("no such endpoint") << -1;
    }

    void parsesEveryInstancesAnswerShape()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, ok);
        QFETCH(QString, errorContains);
        QFETCH(int, decodeCount);
        const ProxyReply r = parseInstancesReply(status, body, QStringLiteral("/instances/add"));
        QCOMPARE(r.ok, ok);
        QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
        if (ok) {
            QVERIFY(r.lists.has_value());
            QCOMPARE(int(r.lists->decode.size()), decodeCount);
            QVERIFY(!r.message.isEmpty());
        } else {
            QVERIFY(!r.lists.has_value());
        }
    }

    void healthcheckShapes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("reachable");
        QTest::addColumn<QString>("errorContains");
        QTest::newRow("main") << 200 << QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":3,"request_num":5})") << true << QString();
        QTest::newRow("pre-v0.21") << 200 << QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":3})") << true << QString();
        QTest::newRow("non-json") << 200 << QByteArray("OK") << false << QStringLiteral("not JSON");
        QTest::newRow("html-500") << 500 << QByteArray("<h1>bad gateway</h1>") << false << QStringLiteral("HTTP 500");
        QTest::newRow("negative-count") << 200 << QByteArray(R"({"status":"ok","prefill_instances":-1,"decode_instances":3})") << false << QStringLiteral("prefill_instances");
    }

    void healthcheckShapes()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, reachable);
        QFETCH(QString, errorContains);
        m_script.insert("/healthcheck", {status, "application/json", body, false});
        ProxyClient *client = fakeClient();
        const ProxyHealth h = wait<ProxyHealth>([client](auto cb) { client->healthcheck(cb); });
        QCOMPARE(h.reachable, reachable);
        QVERIFY2(h.error.contains(errorContains), qPrintable(h.error));
        if (reachable) {
            QCOMPARE(h.decodeInstances, 3);
            QCOMPARE(h.requestNum.has_value(), body.contains("request_num"));
        }
        delete client;
    }

    void aHangingProxyTimesOut()
    {
        m_script.insert("/healthcheck", {200, "application/json", {}, true});
        m_script.insert("/instances/add", {200, "application/json", {}, true});
        ProxyClient *client = fakeClient(300);
        const ProxyHealth h = wait<ProxyHealth>([client](auto cb) { client->healthcheck(cb); });
        QVERIFY(!h.reachable);
        QVERIFY2(h.error.contains(QStringLiteral("no answer within 300 ms")), qPrintable(h.error));
        const ProxyReply r = wait<ProxyReply>([client](auto cb) { client->listInstances(cb); });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 0);
        QVERIFY2(r.error.contains(QStringLiteral("/instances/add: no answer within 300 ms")), qPrintable(r.error));
        delete client;
        m_hung.clear();
    }

    void theBearerTokenIsSentAnd401IsExplained()
    {
        m_requiredToken = "s3cret";
        m_script.insert("/instances/add", {200, "application/json",
                                           R"({"message":"add decode instances: [].","current_prefill_instances":["p:1"],"current_decode_instances":["d:1"]})", false});
        ProxyClient *wrong = fakeClient(3000, "nope");
        const ProxyReply refused = wait<ProxyReply>([wrong](auto cb) { wrong->listInstances(cb); });
        QCOMPARE(refused.httpStatus, 401);
        QVERIFY2(refused.error.contains(QStringLiteral("bearer token")), qPrintable(refused.error));
        ProxyClient *right = fakeClient(3000, "s3cret");
        const ProxyReply r = wait<ProxyReply>([right](auto cb) { right->listInstances(cb); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.lists->decode, QStringList{QStringLiteral("d:1")});
        QCOMPARE(m_seen.last().header("authorization"), QByteArray("Bearer s3cret"));
        QCOMPARE(m_seen.last().header("content-type"), QByteArray("application/json"));
        QCOMPARE(m_seen.last().body, QByteArray(R"({"type":"decode","instances":[]})"));
        delete wrong;
        delete right;
    }

    void aRefusedConnectionIsNamed()
    {
        ProxyClient client;
        client.setEndpoint({QUrl(QStringLiteral("http://127.0.0.1:1")), {}, {}, 2000});
        const ProxyReply r = wait<ProxyReply>([&client](auto cb) { client.listInstances(cb); });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 0);
        QVERIFY2(r.error.startsWith(QStringLiteral("/instances/add: ")), qPrintable(r.error));
    }

    void httpsVerifiesTheCertificate()
    {
        // A plain-HTTP server answering a TLS handshake: the client must fail, never fall back.
        ProxyClient *client = new ProxyClient(this);
        client->setEndpoint({QUrl(QStringLiteral("https://127.0.0.1:%1").arg(m_fake.port())), {}, {}, 3000});
        const ProxyHealth h = wait<ProxyHealth>([client](auto cb) { client->healthcheck(cb); });
        QVERIFY(!h.reachable);
        QVERIFY(!h.error.isEmpty());
        delete client;
    }

    void detectsEveryGeneration_data()
    {
        QTest::addColumn<bool>("requestNum");
        QTest::addColumn<bool>("models");
        QTest::addColumn<bool>("instances");
        QTest::addColumn<QString>("label");
        QTest::newRow("main") << true << true << true << QStringLiteral("main (with /v1/models)");
        QTest::newRow("v0.26") << true << false << true << QStringLiteral("v0.21-v0.26 (no /v1/models)");
        QTest::newRow("v0.13") << false << false << true << QStringLiteral("v0.13-v0.20 (synchronous add)");
        QTest::newRow("v0.9.1") << false << false << false << QStringLiteral("pre-v0.13 or layerwise (no /instances API)");
    }

    void detectsEveryGeneration()
    {
        QFETCH(bool, requestNum);
        QFETCH(bool, models);
        QFETCH(bool, instances);
        QFETCH(QString, label);
        m_script.insert("/healthcheck", {200, "application/json",
                                         requestNum ? R"({"status":"ok","prefill_instances":1,"decode_instances":1,"request_num":0})"
                                                    : R"({"status":"ok","prefill_instances":1,"decode_instances":1})", false});
        if (models) // empty pools answer 503 on main: the endpoint exists
            m_script.insert("/v1/models", {503, "application/json", R"({"error":"No available backend instances"})", false});
        if (instances)
            m_script.insert("/instances/add", {200, "application/json",
                                               R"({"message":"add decode instances: [].","current_prefill_instances":[],"current_decode_instances":[]})", false});
        ProxyClient *client = fakeClient();
        const ProxyCapabilities caps = wait<ProxyCapabilities>([client](auto cb) { client->detectCapabilities(cb); });
        QVERIFY(caps.reachable);
        QCOMPARE(caps.hasRequestNum, requestNum);
        QCOMPARE(caps.hasModels, models);
        QCOMPARE(caps.hasInstancesApi, instances);
        QCOMPARE(caps.generationLabel(), label);
        QVERIFY(client->capabilities().has_value());
        delete client;
    }

    // An operation asks currentCapabilities(): a proxy once found down is asked again (it used to be
    // cached as down for good: every later Force stop skipped the removal, every scale-out failed).
    void aProxyFoundDownIsAskedAgain()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
        const quint16 port = probe.serverPort();
        probe.close();
        ProxyClient client;
        client.setEndpoint({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), {}, {}, 2000});
        const ProxyCapabilities down = wait<ProxyCapabilities>([&client](auto cb) { client.currentCapabilities(cb); });
        QVERIFY(!down.reachable);

        HttpServer proxy;
        int healthchecks = 0;
        proxy.setHandler([&healthchecks](const HttpRequest &r, const HttpResponderPtr &w) {
            if (r.path == "/healthcheck") {
                ++healthchecks;
                w->respond(200, "application/json", R"({"status":"ok","prefill_instances":1,"decode_instances":1,"request_num":0})");
            } else if (r.path == "/instances/add") {
                w->respond(200, "application/json", R"({"message":"","current_prefill_instances":[],"current_decode_instances":[]})");
            } else {
                w->respond(404, "application/json", R"({"detail":"Not Found"})");
            }
        });
        QVERIFY(proxy.listen(QHostAddress(QStringLiteral("127.0.0.1")), port));
        const ProxyCapabilities up = wait<ProxyCapabilities>([&client](auto cb) { client.currentCapabilities(cb); });
        QVERIFY2(up.reachable, qPrintable(up.error));
        QVERIFY(up.hasInstancesApi);
        QCOMPARE(healthchecks, 1);
        // Found up, it is not probed again for every operation.
        const ProxyCapabilities kept = wait<ProxyCapabilities>([&client](auto cb) { client.currentCapabilities(cb); });
        QVERIFY(kept.reachable);
        QCOMPARE(healthchecks, 1);
    }

    void realAnswersOfTheSimulatedProxy()
    {
        // A decode engine that is not running: the add is queued, then dropped by the listener.
        pd::sim::ProxyOptions o;
        o.host = QStringLiteral("127.0.0.1");
        o.port = 0;
        o.prefillers = {{QStringLiteral("127.0.0.1"), 1}};
        o.decoders = {{QStringLiteral("127.0.0.1"), 2}};
        o.waitingRetryInterval = 0.1;
        o.maxWaitingRetries = 2;
        pd::sim::SimProxy proxy(o);
        QString error;
        QVERIFY2(proxy.listen(&error), qPrintable(error));
        ProxyClient client;
        client.setEndpoint({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(proxy.port())), {}, {}, 3000});

        const ProxyCapabilities caps = wait<ProxyCapabilities>([&client](auto cb) { client.detectCapabilities(cb); });
        QCOMPARE(caps.generationLabel(), QStringLiteral("main (with /v1/models)"));

        const ProxyReply list = wait<ProxyReply>([&client](auto cb) { client.listInstances(cb); });
        QVERIFY2(list.ok, qPrintable(list.error));
        QCOMPARE(list.lists->decode, QStringList{QStringLiteral("127.0.0.1:2")});
        QCOMPARE(list.message, QStringLiteral("add decode instances: []."));

        MembershipReconciler table(&client);
        table.setListenerTiming(100, 2, 300);
        table.setConfigured({{QStringLiteral("127.0.0.1:2"), Role::Decode}, {QStringLiteral("127.0.0.1:3"), Role::Decode}});
        QSignalSpy dropped(&table, &MembershipReconciler::dropped);
        bool ok = false;
        table.reconcileNow([&ok](bool listed) { ok = listed; });
        QTRY_VERIFY(ok);
        QCOMPARE(table.fact(QStringLiteral("localhost:2"), Role::Decode), MembershipFact::Active);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:3"), Role::Decode), MembershipFact::Configured);

        const ProxyReply add = wait<ProxyReply>([&client](auto cb) { client.addInstances(Role::Decode, {QStringLiteral("127.0.0.1:3")}, cb); });
        QVERIFY2(add.ok, qPrintable(add.error));
        QCOMPARE(add.message, QStringLiteral("Instances ['127.0.0.1:3'] are waiting to be added."));
        table.noteAddSent(QStringLiteral("127.0.0.1:3"), Role::Decode, add);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:3"), Role::Decode), MembershipFact::Waiting);
        table.start(100);
        QTRY_COMPARE_WITH_TIMEOUT(dropped.count(), 1, 10000);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:3"), Role::Decode), MembershipFact::Dropped);

        const ProxyReply bad = wait<ProxyReply>([&client](auto cb) { client.addInstances(Role::Decode, {QStringLiteral("127.0.0.1")}, cb); });
        QCOMPARE(bad.httpStatus, 500);
        QVERIFY(!bad.ok);

        // Idle remove: out of the list at once; the table says Gone.
        const ProxyReply removed = wait<ProxyReply>([&client](auto cb) { client.removeInstances(Role::Decode, {QStringLiteral("127.0.0.1:2")}, cb); });
        QVERIFY2(removed.ok, qPrintable(removed.error));
        QVERIFY(removed.lists->decode.isEmpty());
        table.noteRemoveSent(QStringLiteral("127.0.0.1:2"), Role::Decode, removed);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:2"), Role::Decode), MembershipFact::Gone);
        table.stop();
    }

    void cleanupTestCase()
    {
        m_hung.clear();
        m_fake.close();
    }
};

QTEST_GUILESS_MAIN(TestProxyClient)
#include "tst_proxyclient.moc"
