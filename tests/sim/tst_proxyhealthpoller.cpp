// SPDX-License-Identifier: MIT
// The /healthcheck poller against a real HTTP server on 127.0.0.1 answering well, badly, or not at all.
#include "http/httpserver.h"
#include "net/proxyhealthpoller.h"

#include <QSignalSpy>
#include <QTest>

using namespace pd;
using namespace pd::sim;

class TestProxyHealthPoller : public QObject {
    Q_OBJECT

private:
    struct Fake {
        HttpServer server;
        int status = 200;
        QByteArray body;
        bool hang = false;
        int requests = 0;
        Fake()
        {
            server.setHandler([this](const HttpRequest &request, const HttpResponderPtr &responder) {
                ++requests;
                if (hang)
                    return; // keeps the connection open, never answers
                if (request.path != "/healthcheck") {
                    responder->respond(404, "application/json", R"({"detail":"Not Found"})");
                    return;
                }
                responder->respond(status, "application/json", body);
            });
        }
        bool listen() { return server.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0); }
        QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server.port())); }
    };

    // A poller on `target` every 100 ms (a per-request timeout when timeoutMs is not 0), started, and
    // what it reported.
    struct Polling {
        ProxyHealthPoller poller;
        QSignalSpy spy { &poller, &ProxyHealthPoller::updated };
        explicit Polling(const QUrl &target, int timeoutMs = 0)
        {
            poller.setInterval(100);
            if (timeoutMs > 0)
                poller.setTimeout(timeoutMs);
            poller.setTarget(target);
            poller.start();
        }
        ProxyHealth last() const { return spy.last().at(0).value<ProxyHealth>(); }
    };

private Q_SLOTS:
    void parsesBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("decode");
        QTest::addColumn<int>("requests");
        QTest::addColumn<QString>("errorPart");
        QTest::newRow("main") << QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":3,"request_num":7})") << true << 3 << 7 << QString();
        QTest::newRow("pre-v0.21 without request_num") << QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":2})") << true << 2 << -1 << QString();
        QTest::newRow("html") << QByteArray("<html>bad gateway</html>") << false << 0 << 0 << QStringLiteral("not JSON (1:1");
        QTest::newRow("truncated") << QByteArray(R"({"status":"ok","prefill_instances":2,)") << false << 0 << 0 << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << false << 0 << 0 << QStringLiteral("not an object");
        QTest::newRow("count as string") << QByteArray(R"({"prefill_instances":"2","decode_instances":2})") << false << 0 << 0 << QStringLiteral("prefill_instances");
        QTest::newRow("negative count") << QByteArray(R"({"prefill_instances":2,"decode_instances":-1})") << false << 0 << 0 << QStringLiteral("decode_instances");
        QTest::newRow("request_num float") << QByteArray(R"({"prefill_instances":2,"decode_instances":1,"request_num":1.5})") << false << 0 << 0 << QStringLiteral("request_num");
        QTest::newRow("duplicate key") << QByteArray(R"({"prefill_instances":2,"prefill_instances":3,"decode_instances":1})") << false << 0 << 0 << QStringLiteral("duplicate");
    }

    void parsesBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, ok);
        QFETCH(int, decode);
        QFETCH(int, requests);
        QFETCH(QString, errorPart);
        QString error;
        const auto health = parseProxyHealth(body, &error);
        QCOMPARE(health.has_value(), ok);
        if (ok) {
            QCOMPARE(health->decodeInstances, decode);
            QCOMPARE(health->requestNum.value_or(-1), requests);
        } else {
            QVERIFY2(error.contains(errorPart), qPrintable(error));
        }
    }

    void pollsAndReportsCounts()
    {
        Fake fake;
        QVERIFY(fake.listen());
        fake.body = R"({"status":"ok","prefill_instances":8,"decode_instances":64,"request_num":5})";
        Polling polling(fake.url());
        ProxyHealthPoller &poller = polling.poller;
        QSignalSpy &spy = polling.spy;
        QVERIFY(spy.wait(10000));
        auto health = polling.last();
        QVERIFY(health.reachable);
        QCOMPARE(health.decodeInstances, 64);
        QCOMPARE(health.requestNum.value_or(-1), 5);
        // The timer re-arms after each reply: more polls follow, one at a time.
        QTRY_VERIFY_WITH_TIMEOUT(fake.requests >= 3, 3000);
        poller.stop();
    }

    void reportsBadAnswersAndBacksOff()
    {
        Fake fake;
        QVERIFY(fake.listen());
        fake.body = "Internal Server Error";
        fake.status = 500;
        Polling polling(fake.url());
        ProxyHealthPoller &poller = polling.poller;
        QSignalSpy &spy = polling.spy;
        QVERIFY(spy.wait(10000));
        auto health = polling.last();
        QVERIFY(!health.reachable);
        QVERIFY2(health.error.contains(QStringLiteral("HTTP 500")), qPrintable(health.error));
        QCOMPARE(poller.currentDelayMs(), 200);
        fake.status = 200;
        fake.body = "not json";
        QVERIFY(spy.wait(10000));
        health = spy.last().at(0).value<ProxyHealth>();
        QVERIFY2(health.error.contains(QStringLiteral("not JSON")), qPrintable(health.error));
        QCOMPARE(poller.currentDelayMs(), 400);
        fake.body = R"({"status":"ok","prefill_instances":1,"decode_instances":1,"request_num":0})";
        QVERIFY(spy.wait(10000));
        QVERIFY(spy.last().at(0).value<ProxyHealth>().reachable);
        QCOMPARE(poller.currentDelayMs(), 100);
    }

    void aHungProxyTimesOut()
    {
        Fake fake;
        QVERIFY(fake.listen());
        fake.hang = true;
        Polling polling(fake.url(), 300);
        QVERIFY(polling.spy.wait(10000));
        const auto health = polling.last();
        QVERIFY(!health.reachable);
        QVERIFY2(health.error.contains(QStringLiteral("no answer within 300 ms")), qPrintable(health.error));
    }

    void anUnreachableProxyIsReported()
    {
        quint16 freePort = 0;
        {
            HttpServer probe;
            QVERIFY(probe.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
            freePort = probe.port();
        } // closed again: connections are refused
        Polling polling(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(freePort)));
        QVERIFY(polling.spy.wait(10000));
        const auto health = polling.last();
        QVERIFY(!health.reachable);
        QVERIFY2(health.error.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(health.error));
    }
};

QTEST_GUILESS_MAIN(TestProxyHealthPoller)
#include "tst_proxyhealthpoller.moc"
