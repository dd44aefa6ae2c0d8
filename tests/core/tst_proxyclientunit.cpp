// SPDX-License-Identifier: MIT
// ProxyClient over a canned transport (no socket, no simulator): what it sends for add, remove, list and
// the health check (body, bearer token, body type, timeout), and what it makes of every kind of answer
// of spec proxy-api §2.1-§2.4 and §10: the documented shape, wrong shapes, HTTP errors, text that is not
// JSON, a refused connection, silence until the timeout, an answer too large; the generation probe;
// abortAll on a transport shared with another client. tests/scale/tst_proxyclient.cpp runs the same
// client against pdsim's proxy over real HTTP.
#include "awaitreply.h"
#include "cannedtransport.h"
#include "net/proxyclient.h"

#include <QTest>

#include <optional>

Q_DECLARE_METATYPE(pd::test::CannedReply)

using namespace pd;
using pd::test::CannedReply;
using pd::test::CannedTransport;

namespace {

const QUrl kProxy(QStringLiteral("http://127.0.0.121:8000"));

ProxyEndpoint endpoint(int timeoutMs = 5000, const QByteArray &token = {})
{
    return { kProxy, token, {}, timeoutMs, std::nullopt };
}

// The answer of the v0.21+ proxy to an add (spec §2.2, observed).
const QByteArray kAddAnswer = R"({"message":"Instances ['127.0.0.1:9202'] are waiting to be added.",)"
                              R"("current_prefill_instances":["127.0.0.1:9100","127.0.0.1:9101"],)"
                              R"("current_decode_instances":["127.0.0.1:9200","127.0.0.1:9201"]})";
const QByteArray kHealth = R"({"status":"ok","prefill_instances":2,"decode_instances":2,"request_num":0})";
const QByteArray kOldHealth = R"({"status":"ok","prefill_instances":2,"decode_instances":2})";

template<typename T, typename Call> T await(Call call)
{
    std::optional<T> out = pd::test::awaitReply<T>(call);
    if (!out)
        qWarning("no answer within 10 s");
    return out.value_or(T());
}

ProxyReply add(ProxyClient &client, Role role, const QStringList &instances)
{
    return await<ProxyReply>([&](ProxyClient::ReplyCallback done) { client.addInstances(role, instances, done); });
}

ProxyHealth health(ProxyClient &client)
{
    return await<ProxyHealth>([&](ProxyClient::HealthCallback done) { client.healthcheck(done); });
}

} // namespace

class TestProxyClientUnit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addRemoveAndListSendTheDocumentedBody_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<int>("role");
        QTest::addColumn<QStringList>("instances");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("add decode") << "add" << int(Role::Decode) << QStringList { QStringLiteral("127.0.0.1:9202") }
                                    << "/instances/add"
                                    << QByteArray(R"({"type":"decode","instances":["127.0.0.1:9202"]})");
        QTest::newRow("add two prefill") << "add" << int(Role::Prefill)
                                         << QStringList { QStringLiteral("10.0.0.1:9100"),
                                                QStringLiteral("10.0.0.2:9100") }
                                         << "/instances/add"
                                         << QByteArray(
                                                R"({"type":"prefill","instances":["10.0.0.1:9100","10.0.0.2:9100"]})");
        QTest::newRow("remove decode") << "remove" << int(Role::Decode)
                                       << QStringList { QStringLiteral("127.0.0.1:9201") } << "/instances/remove"
                                       << QByteArray(R"({"type":"decode","instances":["127.0.0.1:9201"]})");
        QTest::newRow("remove prefill") << "remove" << int(Role::Prefill) << QStringList { QStringLiteral("h:1") }
                                        << "/instances/remove"
                                        << QByteArray(R"({"type":"prefill","instances":["h:1"]})");
        // §2.4: the harmless list call is an add with an empty list, never a remove.
        QTest::newRow("list") << "list" << int(Role::Decode) << QStringList() << "/instances/add"
                              << QByteArray(R"({"type":"decode","instances":[]})");
    }
    void addRemoveAndListSendTheDocumentedBody()
    {
        QFETCH(QString, call);
        QFETCH(int, role);
        QFETCH(QStringList, instances);
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        CannedTransport transport;
        transport.script("POST", path, CannedReply::http(200, kAddAnswer));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint(2500, "s3cr3t"));
        const ProxyReply reply = await<ProxyReply>([&](ProxyClient::ReplyCallback done) {
            if (call == QLatin1String("add"))
                client.addInstances(Role(role), instances, done);
            else if (call == QLatin1String("remove"))
                client.removeInstances(Role(role), instances, done);
            else
                client.listInstances(done);
        });
        QVERIFY2(reply.ok, qPrintable(reply.error));
        QCOMPARE(transport.requests().size(), 1);
        const auto &sent = transport.requests().first();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.url, QUrl(QStringLiteral("http://127.0.0.121:8000") + path));
        QCOMPARE(sent.body, body);
        QCOMPARE(sent.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(sent.header("Authorization"), QByteArray("Bearer s3cr3t"));
        QCOMPARE(sent.request.transferTimeout(), 2500);
        QCOMPARE(sent.request.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(),
            int(QNetworkRequest::ManualRedirectPolicy));
    }

    void theHealthCheckIsAPlainGetAndNoTokenMeansNoAuthorization()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, kHealth));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyHealth h = health(client);
        QVERIFY2(h.reachable, qPrintable(h.error));
        QCOMPARE(transport.requests().size(), 1);
        const auto &sent = transport.requests().first();
        QCOMPARE(sent.method, QByteArray("GET"));
        QCOMPARE(sent.url, QUrl(QStringLiteral("http://127.0.0.121:8000/healthcheck")));
        QVERIFY(!sent.hasHeader("Authorization"));
        QVERIFY(!sent.hasHeader("Content-Type"));
        QVERIFY(sent.body.isEmpty());
    }

    void theDocumentedAnswerIsOkWithItsLists()
    {
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, kAddAnswer));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyReply r = add(client, Role::Decode, { QStringLiteral("127.0.0.1:9202") });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.httpStatus, 200);
        QVERIFY(r.error.isEmpty());
        QCOMPARE(r.message, QStringLiteral("Instances ['127.0.0.1:9202'] are waiting to be added."));
        QVERIFY(r.lists.has_value());
        QCOMPARE(r.lists->prefill, QStringList({ QStringLiteral("127.0.0.1:9100"), QStringLiteral("127.0.0.1:9101") }));
        QCOMPARE(r.lists->decode, QStringList({ QStringLiteral("127.0.0.1:9200"), QStringLiteral("127.0.0.1:9201") }));
        QCOMPARE(r.lists->of(Role::Prefill), r.lists->prefill);
    }

    void a200WithTheWrongShapeIsNotOk_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        QTest::newRow("error object (bad type)") << QByteArray(
            R"({"error":"Instance type 'decoder' is not supported. Only 'prefill' and 'decode' are allowed."})")
                                                 << "/instances/add: the proxy refused: Instance type 'decoder' is not "
                                                    "supported. Only 'prefill' and 'decode' are allowed.";
        QTest::newRow("error not a string")
            << QByteArray(R"({"error":{"code":7}})") << R"(/instances/add: the proxy refused: {"code":7})";
        QTest::newRow("no message") << QByteArray(R"({"current_prefill_instances":[],"current_decode_instances":[]})")
                                    << R"(/instances/add: "message" is missing or not a string)";
        QTest::newRow("message a number")
            << QByteArray(R"({"message":5,"current_prefill_instances":[],"current_decode_instances":[]})")
            << R"(/instances/add: "message" is missing or not a string)";
        QTest::newRow("no decode list")
            << QByteArray(R"({"message":"m","current_prefill_instances":[]})")
            << R"(/instances/add: "current_decode_instances" is missing or not a list of "host:port" strings)";
        QTest::newRow("prefill list of numbers")
            << QByteArray(R"({"message":"m","current_prefill_instances":[1],"current_decode_instances":[]})")
            << R"(/instances/add: "current_prefill_instances" is missing or not a list of "host:port" strings)";
        QTest::newRow("decode list a string")
            << QByteArray(R"({"message":"m","current_prefill_instances":[],"current_decode_instances":"a:1"})")
            << R"(/instances/add: "current_decode_instances" is missing or not a list of "host:port" strings)";
        QTest::newRow("an array") << QByteArray("[1,2]") << "/instances/add: answer is not a JSON object";
        QTest::newRow("a string") << QByteArray(R"("ok")") << "/instances/add: answer is not a JSON object";
    }
    void a200WithTheWrongShapeIsNotOk()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, body));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyReply r = add(client, Role::Decode, { QStringLiteral("127.0.0.1:9202") });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(r.error, error);
        QVERIFY(!r.lists.has_value());
    }

    void anHttpErrorIsNamedWithItsStatus_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        QTest::newRow("401")
            << 401 << QByteArray(R"({"detail":"Unauthorized"})")
            << "/instances/remove answered HTTP 401: the proxy (or a gateway in front of it) refused the bearer token";
        QTest::newRow("403")
            << 403 << QByteArray()
            << "/instances/remove answered HTTP 403: the proxy (or a gateway in front of it) refused the bearer token";
        QTest::newRow("404") << 404 << QByteArray(R"({"detail":"Not Found"})")
                             << "/instances/remove answered HTTP 404: this proxy has no such endpoint";
        QTest::newRow("500 of a malformed instance") << 500 << QByteArray("Internal Server Error")
                                                     << "/instances/remove answered HTTP 500: Internal Server Error "
                                                        "(the proxy rejects instances without a port, "
                                                        "IPv6 literals and non-JSON bodies)";
        QTest::newRow("502 with a message")
            << 502 << QByteArray("upstream\n  went away") << "/instances/remove answered HTTP 502: upstream went away";
        QTest::newRow("503 long body") << 503 << QByteArray(300, 'x')
                                       << QStringLiteral("/instances/remove answered HTTP 503: ")
                + QString(200, QLatin1Char('x')) + QStringLiteral("...");
        // Redirects are answers, never followed (httprequest.h).
        QTest::newRow("302") << 302 << QByteArray() << "/instances/remove answered HTTP 302: ";
    }
    void anHttpErrorIsNamedWithItsStatus()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        CannedTransport transport;
        CannedReply answer = CannedReply::http(status, body, "text/plain");
        if (status == 302)
            answer.withHeader("Location", "http://127.0.0.9:1/instances/remove");
        transport.script("POST", QStringLiteral("/instances/remove"), answer);
        ProxyClient client(&transport);
        client.setEndpoint(endpoint(5000, "s3cr3t"));
        const ProxyReply r = await<ProxyReply>([&](ProxyClient::ReplyCallback done) {
            client.removeInstances(Role::Decode, { QStringLiteral("127.0.0.1:9201") }, done);
        });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, status);
        QCOMPARE(r.error, error);
        QVERIFY(!r.lists.has_value());
        QCOMPARE(transport.requests().size(), 1);
    }

    void textThatIsNotJsonIsNamed()
    {
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, R"({"message":)"));
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, "<html>ok</html>", "text/html"));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyReply r = add(client, Role::Prefill, { QStringLiteral("127.0.0.1:9100") });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 200);
        QVERIFY2(r.error.startsWith(QStringLiteral("/instances/add: answer is not JSON (1:")), qPrintable(r.error));
        const ProxyHealth h = health(client);
        QVERIFY(!h.reachable);
        QVERIFY2(h.error.startsWith(QStringLiteral("/healthcheck is not JSON (1:")), qPrintable(h.error));
    }

    void healthShapes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("reachable");
        QTest::addColumn<int>("requestNum"); // -1: absent
        QTest::addColumn<QString>("error");
        QTest::newRow("v0.21+") << 200
                                << QByteArray(
                                       R"({"status":"ok","prefill_instances":2,"decode_instances":3,"request_num":7})")
                                << true << 7 << QString();
        QTest::newRow("before v0.21") << 200 << kOldHealth << true << -1 << QString();
        QTest::newRow("no decode count") << 200 << QByteArray(R"({"status":"ok","prefill_instances":2})") << false << -1
                                         << R"(/healthcheck: "decode_instances" is missing or not a count)";
        QTest::newRow("negative request_num")
            << 200 << QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":2,"request_num":-1})")
            << false << -1 << R"(/healthcheck: "request_num" is not a count)";
        QTest::newRow("an array") << 200 << QByteArray("[]") << false << -1
                                  << "/healthcheck answered a JSON value that is not an object";
        QTest::newRow("503") << 503 << QByteArray("Service Unavailable") << false << -1
                             << "/healthcheck answered HTTP 503: Service Unavailable";
        QTest::newRow("401")
            << 401 << QByteArray() << false << -1
            << "/healthcheck answered HTTP 401: the proxy (or a gateway in front of it) refused the bearer token";
    }
    void healthShapes()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, reachable);
        QFETCH(int, requestNum);
        QFETCH(QString, error);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(status, body));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyHealth h = health(client);
        QCOMPARE(h.reachable, reachable);
        QCOMPARE(h.error, error);
        QCOMPARE(h.requestNum.value_or(-1), requestNum);
        QVERIFY(h.when.isValid());
        if (reachable) {
            QCOMPARE(h.prefillInstances, 2);
            QVERIFY(h.decodeInstances >= 2);
        }
    }

    void aRefusedConnectionIsNamed()
    {
        CannedTransport transport;
        transport.script("*", QStringLiteral("/instances/add"), CannedReply::refused());
        transport.script("*", QStringLiteral("/healthcheck"), CannedReply::refused());
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyReply r = add(client, Role::Decode, { QStringLiteral("127.0.0.1:9202") });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 0);
        QCOMPARE(r.error, QStringLiteral("/instances/add: Connection refused"));
        const ProxyHealth h = health(client);
        QVERIFY(!h.reachable);
        QCOMPARE(h.error, QStringLiteral("/healthcheck: Connection refused"));
    }

    void silenceEndsAtTheTimeout_data()
    {
        QTest::addColumn<bool>("headersFirst");
        QTest::newRow("not a byte") << false;
        QTest::newRow("200 and half a body, then nothing") << true;
    }
    void silenceEndsAtTheTimeout()
    {
        QFETCH(bool, headersFirst);
        CannedTransport transport;
        // Not a raw string: moc 6.4 mis-reads R"({"message":"Instances)" and loses every slot after it.
        const CannedReply quiet
            = headersFirst ? CannedReply::http(200, "{\"message\":\"Instances").stalling() : CannedReply::silence();
        transport.script("*", QStringLiteral("/instances/add"), quiet);
        transport.script("*", QStringLiteral("/healthcheck"), quiet);
        ProxyClient client(&transport);
        client.setEndpoint(endpoint(60));
        const ProxyReply r = add(client, Role::Decode, { QStringLiteral("127.0.0.1:9202") });
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 0);
        QCOMPARE(r.error, QStringLiteral("/instances/add: no answer within 60 ms"));
        const ProxyHealth h = health(client);
        QVERIFY(!h.reachable);
        QCOMPARE(h.error, QStringLiteral("/healthcheck: no answer within 60 ms"));
        QCOMPARE(transport.inFlight(), 0);
    }

    void anAnswerLargerThanFourMebibytesIsRefused()
    {
        CannedTransport transport;
        transport.script(
            "POST", QStringLiteral("/instances/add"), CannedReply::http(200, QByteArray((4 << 20) + 1, ' ')));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        const ProxyReply r = add(client, Role::Decode, {});
        QVERIFY(!r.ok);
        QCOMPARE(r.httpStatus, 0);
        QCOMPARE(r.error, QStringLiteral("/instances/add: answer larger than 4194304 bytes"));
    }

    void capabilitiesNameTheGeneration_data()
    {
        QTest::addColumn<CannedReply>("healthAnswer");
        QTest::addColumn<CannedReply>("addAnswer");
        QTest::addColumn<CannedReply>("modelsAnswer");
        QTest::addColumn<bool>("reachable");
        QTest::addColumn<bool>("requestNum");
        QTest::addColumn<bool>("instancesApi");
        QTest::addColumn<bool>("models");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("error");
        const CannedReply health = CannedReply::http(200, kHealth);
        const CannedReply oldHealth = CannedReply::http(200, kOldHealth);
        const CannedReply added = CannedReply::http(200, kAddAnswer);
        const CannedReply models = CannedReply::http(200, R"({"object":"list","data":[{"id":"deepseek_r1"}]})");
        const CannedReply noBackend = CannedReply::http(503, R"({"error":"no backend answered"})");
        const CannedReply notFound = CannedReply::http(404, R"({"detail":"Not Found"})");
        QTest::newRow("main, /v1/models 200")
            << health << added << models << true << true << true << true << "main (with /v1/models)" << QString();
        QTest::newRow("main, /v1/models 503")
            << health << added << noBackend << true << true << true << true << "main (with /v1/models)" << QString();
        QTest::newRow("v0.21-v0.26") << health << added << notFound << true << true << true << false
                                     << "v0.21-v0.26 (no /v1/models)" << QString();
        QTest::newRow("v0.13-v0.20") << oldHealth << added << notFound << true << false << true << false
                                     << "v0.13-v0.20 (synchronous add)" << QString();
        QTest::newRow("no /instances API") << oldHealth << notFound << notFound << true << false << false << false
                                           << "pre-v0.13 or layerwise (no /instances API)" << QString();
        // A 500, three times over, decides nothing about the API: the profile's generation (main, the
        // default) stands in, and the error says so. A refused connection is not asked again.
        QTest::newRow("/instances/add fails oddly")
            << health << CannedReply::http(500, "Internal Server Error", "text/plain") << models << true << true << true
            << true << "main (with /v1/models)"
            << "/instances/add answered HTTP 500: Internal Server Error (the proxy rejects instances without a port, "
               "IPv6 literals and non-JSON bodies) (3 attempts; its /instances API is taken from the profile's "
               "generation, main)";
        QTest::newRow("refused") << CannedReply::refused() << CannedReply::refused() << CannedReply::refused() << false
                                 << false << true << false << "unreachable"
                                 << "/healthcheck: Connection refused";
    }
    void capabilitiesNameTheGeneration()
    {
        QFETCH(CannedReply, healthAnswer);
        QFETCH(CannedReply, addAnswer);
        QFETCH(CannedReply, modelsAnswer);
        QFETCH(bool, reachable);
        QFETCH(bool, requestNum);
        QFETCH(bool, instancesApi);
        QFETCH(bool, models);
        QFETCH(QString, label);
        QFETCH(QString, error);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), healthAnswer);
        transport.script("POST", QStringLiteral("/instances/add"), addAnswer);
        transport.script("GET", QStringLiteral("/v1/models"), modelsAnswer);
        ProxyClient client(&transport);
        client.setEndpoint(endpoint(5000, "s3cr3t"));
        const ProxyCapabilities caps = await<ProxyCapabilities>(
            [&](ProxyClient::CapabilitiesCallback done) { client.detectCapabilities(done); });
        QCOMPARE(caps.reachable, reachable);
        QCOMPARE(caps.hasRequestNum, requestNum);
        QCOMPARE(caps.hasInstancesApi, instancesApi);
        QCOMPARE(caps.hasModels, models);
        QCOMPARE(caps.generationLabel(), label);
        QCOMPARE(caps.error, error);
        QVERIFY(client.capabilities().has_value());
        QCOMPARE(client.capabilities()->generationLabel(), label);
        // Three probes, the list call the harmless add of §2.4 (asked three times while it fails oddly),
        // every one with the token.
        const int listCalls = QByteArray(QTest::currentDataTag()) == "/instances/add fails oddly" ? 3 : 1;
        QCOMPARE(transport.requests().size(), 2 + listCalls);
        QCOMPARE(transport.requestsTo(QStringLiteral("/healthcheck")).size(), 1);
        QCOMPARE(transport.requestsTo(QStringLiteral("/v1/models")).size(), 1);
        const auto list = transport.requestsTo(QStringLiteral("/instances/add"));
        QCOMPARE(list.size(), listCalls);
        QCOMPARE(list.first().body, QByteArray(R"({"type":"decode","instances":[]})"));
        for (const auto &r : transport.requests())
            QCOMPARE(r.header("Authorization"), QByteArray("Bearer s3cr3t"));
        QVERIFY(transport.requestsTo(QStringLiteral("/instances/remove")).isEmpty());
    }

    void keptCapabilitiesServeUntilTheProxyWasFoundDown()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::refused());
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, kHealth));
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::refused());
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, kAddAnswer));
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::refused());
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::http(503, "{}"));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        auto current = [&client] {
            return await<ProxyCapabilities>(
                [&](ProxyClient::CapabilitiesCallback done) { client.currentCapabilities(done); });
        };
        QVERIFY(!current().reachable); // detected: down
        QCOMPARE(transport.requests().size(), 3);
        const ProxyCapabilities up = current(); // a proxy found down is asked again
        QVERIFY(up.reachable);
        QCOMPARE(up.generationLabel(), QStringLiteral("main (with /v1/models)"));
        QCOMPARE(transport.requests().size(), 6);
        QVERIFY(current().reachable); // kept: nothing asked
        QCOMPARE(transport.requests().size(), 6);
        client.setEndpoint(endpoint()); // a new endpoint forgets them
        QVERIFY(!client.capabilities().has_value());
    }

    void abortAllDropsTheCallbacks()
    {
        CannedTransport transport;
        transport.script("*", QStringLiteral("/instances/add"), CannedReply::silence());
        transport.script("*", QStringLiteral("/healthcheck"), CannedReply::http(200, kHealth));
        ProxyClient client(&transport);
        client.setEndpoint(endpoint());
        int called = 0;
        client.addInstances(
            Role::Decode, { QStringLiteral("127.0.0.1:9202") }, [&called](const ProxyReply &) { ++called; });
        QCOMPARE(transport.inFlight(), 1);
        client.abortAll();
        QCOMPARE(transport.inFlight(), 0); // aborted at once
        QVERIFY(health(client).reachable); // later requests still answer
        QCOMPARE(called, 0);

        client.addInstances(
            Role::Decode, { QStringLiteral("127.0.0.1:9202") }, [&called](const ProxyReply &) { ++called; });
        client.setEndpoint(endpoint()); // a new endpoint drops the old one's requests too
        QCOMPARE(transport.inFlight(), 0);
        QVERIFY(health(client).reachable);
        QCOMPARE(called, 0);
    }

    void abortAllSparesAnotherClientOnASharedTransport()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("http://127.0.0.121:8000/healthcheck"), CannedReply::silence());
        transport.script("GET", QStringLiteral("http://127.0.0.122:8000/healthcheck"), CannedReply::http(200, kHealth));
        ProxyClient mine(&transport);
        mine.setEndpoint(endpoint());
        ProxyClient other(&transport);
        other.setEndpoint({ QUrl(QStringLiteral("http://127.0.0.122:8000")), {}, {}, 5000, std::nullopt });
        std::optional<ProxyHealth> theirs;
        other.healthcheck([&theirs](const ProxyHealth &h) { theirs = h; });
        mine.healthcheck([](const ProxyHealth &) { QFAIL("an aborted request answered"); });
        QCOMPARE(transport.inFlight(), 2);
        mine.abortAll();
        QCOMPARE(transport.inFlight(), 1);
        QTRY_VERIFY(theirs.has_value());
        QVERIFY2(theirs->reachable, qPrintable(theirs->error));
    }

    // Capabilities from evidence (issue 37): a failed list call is a failed call, never "no /instances API".
    void aFailedListCallIsAskedAgainAndDecidesNothing()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, kHealth));
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::http(200, R"({"data":[]})"));
        transport.script(
            "POST", QStringLiteral("/instances/add"), CannedReply::http(500, "Internal Server Error", "text/plain"));
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, kAddAnswer));
        ProxyClient client(&transport);
        ProxyEndpoint e = endpoint();
        e.declaredGeneration = ProxyGeneration::Main;
        client.setEndpoint(e);
        const ProxyCapabilities caps = await<ProxyCapabilities>(
            [&](ProxyClient::CapabilitiesCallback done) { client.detectCapabilities(done); });
        QVERIFY(caps.hasInstancesApi && caps.instancesApiDecided && !caps.scalesByRestart());
        QCOMPARE(transport.requestsTo(QStringLiteral("/instances/add")).size(), 2);
    }

    void aListCallThatKeepsFailingLeavesTheProfilesGenerationAndIsAskedNextTime()
    {
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, kHealth));
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::http(200, R"({"data":[]})"));
        for (int i = 0; i < 3; ++i)
            transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(503, "busy", "text/plain"));
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(200, kAddAnswer));
        ProxyClient client(&transport);
        ProxyEndpoint e = endpoint();
        e.declaredGeneration = ProxyGeneration::Main;
        client.setEndpoint(e);
        ProxyCapabilities caps = await<ProxyCapabilities>(
            [&](ProxyClient::CapabilitiesCallback done) { client.detectCapabilities(done); });
        QVERIFY(caps.reachable && caps.hasInstancesApi && !caps.instancesApiDecided);
        QVERIFY(!caps.scalesByRestart()); // never a restart on a hiccup
        QVERIFY2(
            caps.error.contains(QLatin1String("3 attempts")) && caps.error.contains(QLatin1String("generation, main")),
            qPrintable(caps.error));
        // Undecided: asked again, and now decided.
        caps = await<ProxyCapabilities>(
            [&](ProxyClient::CapabilitiesCallback done) { client.currentCapabilities(done); });
        QVERIFY(caps.hasInstancesApi && caps.instancesApiDecided);
        QCOMPARE(transport.requestsTo(QStringLiteral("/instances/add")).size(), 4);
    }

    void aProxyWithoutTheApiScalesByRestartOnlyWhenTheProfileSaysSo_data()
    {
        QTest::addColumn<int>("declared");
        QTest::addColumn<bool>("byRestart");
        QTest::addColumn<bool>("mismatch");
        QTest::newRow("profile says main") << int(ProxyGeneration::Main) << false << true;
        QTest::newRow("profile says v0.9.1-dev") << int(ProxyGeneration::V091Dev) << true << false;
    }

    void aProxyWithoutTheApiScalesByRestartOnlyWhenTheProfileSaysSo()
    {
        QFETCH(int, declared);
        QFETCH(bool, byRestart);
        QFETCH(bool, mismatch);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/healthcheck"), CannedReply::http(200, kOldHealth));
        transport.script("GET", QStringLiteral("/v1/models"), CannedReply::http(404, R"({"detail":"Not Found"})"));
        transport.script("POST", QStringLiteral("/instances/add"), CannedReply::http(404, R"({"detail":"Not Found"})"));
        ProxyClient client(&transport);
        ProxyEndpoint e = endpoint();
        e.declaredGeneration = ProxyGeneration(declared);
        client.setEndpoint(e);
        const ProxyCapabilities caps = await<ProxyCapabilities>(
            [&](ProxyClient::CapabilitiesCallback done) { client.detectCapabilities(done); });
        QVERIFY(!caps.hasInstancesApi && caps.instancesApiDecided);
        QCOMPARE(caps.scalesByRestart(), byRestart);
        QCOMPARE(!caps.generationMismatch().isEmpty(), mismatch);
        QCOMPARE(transport.requestsTo(QStringLiteral("/instances/add")).size(), 1); // a 404 is evidence: asked once
    }
};

QTEST_GUILESS_MAIN(TestProxyClientUnit)
#include "tst_proxyclientunit.moc"
