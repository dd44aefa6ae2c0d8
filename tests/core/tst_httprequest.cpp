// SPDX-License-Identifier: MIT
// The one way the console's HTTP clients build a request (core/net/httprequest.h): timeout, redirects,
// bearer token, body type and TLS trust; and, against two listeners on 127.0.0.131-132, that the engine
// probe no longer follows an engine's redirect (it did, with the bearer token along).
#include "../support/cannedanswerserver.h"
#include "net/httprequest.h"
#include "ops/scaleprobe.h"

#include <QSslConfiguration>
#include <QTest>

#include <optional>

using namespace pd;

namespace {

// A CA certificate to trust (any PEM certificate will do: it is only carried, never used here).
QList<QSslCertificate> someCertificate()
{
    const QList<QSslCertificate> system = QSslConfiguration::systemCaCertificates();
    return system.isEmpty() ? QList<QSslCertificate>() : QList<QSslCertificate> { system.first() };
}

} // namespace

class TestHttpRequest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aPlainRequestHasItsTimeoutAndNeverFollowsARedirect()
    {
        const QNetworkRequest r = makeHttpRequest(
            HttpRequestSpec(QUrl(QStringLiteral("http://127.0.0.1:8000/healthcheck"))).withTimeout(2500));
        QCOMPARE(r.url(), QUrl(QStringLiteral("http://127.0.0.1:8000/healthcheck")));
        QCOMPARE(r.transferTimeout(), 2500);
        QCOMPARE(
            r.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(), int(QNetworkRequest::ManualRedirectPolicy));
        QVERIFY(!r.hasRawHeader("Authorization"));
        QVERIFY(!r.hasRawHeader("Content-Type"));
    }

    void tokenBodyTypeAndSafeRedirectsWhenAsked()
    {
        const QNetworkRequest r
            = makeHttpRequest(HttpRequestSpec(QUrl(QStringLiteral("http://127.0.0.1:8000/instances/add")))
                                  .withBearerToken("s3cr3t")
                                  .withContentType("application/json"));
        QCOMPARE(r.rawHeader("Authorization"), QByteArray("Bearer s3cr3t"));
        QCOMPARE(r.rawHeader("Content-Type"), QByteArray("application/json"));
        QCOMPARE(r.transferTimeout(), 0);

        const QNetworkRequest hook = makeHttpRequest(
            HttpRequestSpec(QUrl(QStringLiteral("https://hooks.example/x"))).followingSafeRedirects());
        QCOMPARE(hook.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(),
            int(QNetworkRequest::NoLessSafeRedirectPolicy));
    }

    void httpsVerifiesThePeerWithTheProfilesAuthorities()
    {
        const QList<QSslCertificate> extra = someCertificate();
        const QNetworkRequest r = makeHttpRequest(
            HttpRequestSpec(QUrl(QStringLiteral("https://127.0.0.1:8443/healthcheck"))).withExtraCas(extra));
        QCOMPARE(r.sslConfiguration().peerVerifyMode(), QSslSocket::VerifyPeer);
        for (const QSslCertificate &c : extra)
            QVERIFY(r.sslConfiguration().caCertificates().contains(c));
    }

    void theEngineProbeReportsARedirectInsteadOfFollowingIt()
    {
        pd::test::CannedAnswerServer elsewhere("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        if (!elsewhere.listen(QStringLiteral("127.0.0.132")))
            QSKIP("127.0.0.132 not available");
        pd::test::CannedAnswerServer engine;
        QVERIFY(engine.listen(QStringLiteral("127.0.0.131")));
        engine.setAnswer("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.132:" + QByteArray::number(elsewhere.port())
            + "/v1/models\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

        EngineProbe probe;
        probe.setBearerToken("s3cr3t");
        probe.setTimeout(5000);
        const EngineRef ref { QStringLiteral("127.0.0.131:%1").arg(engine.port()), Role::Decode, QStringLiteral("d0"),
            0 };
        std::optional<EngineReadiness> readiness;
        probe.readiness(ref, [&readiness](const EngineReadiness &r) { readiness = r; });
        QTRY_VERIFY_WITH_TIMEOUT(readiness.has_value(), 10000);
        QVERIFY(readiness->listening);
        QVERIFY(!readiness->models);
        QVERIFY2(readiness->detail.contains(QStringLiteral("/v1/models HTTP 302")), qPrintable(readiness->detail));
        QCOMPARE(elsewhere.connections(), 0);
    }
};

QTEST_GUILESS_MAIN(TestHttpRequest)
#include "tst_httprequest.moc"
