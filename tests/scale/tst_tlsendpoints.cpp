// SPDX-License-Identifier: MIT
// https towards the proxy and the engines, verified, against a real TLS server on
// 127.0.0.121 (tests/scale/data/https_files.py, Python's http.server behind its ssl module) serving the
// proxy's /healthcheck and an engine's /v1/models, /health and /metrics as files, with a certificate
// signed by a CA made here with the openssl command. The profile's tls section
// reaches every client: the proxy endpoint (ProxyClient), the engine probe, the metrics poller
// (libcurl). Without the CA the certificate is refused, never accepted unverified; a ca_file that is
// not a CA file is a validation error naming the field.
#include "cluster/profilevalidator.h"
#include "net/metricspoller.h"
#include "../sim/runningparser.h"
#include "net/profileproxyendpoint.h"
#include "net/proxyclient.h"
#include "net/tlstrust.h"
#include "ops/scaleprobe.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <optional>

using namespace pd;

namespace {

const QString kHost = QStringLiteral("127.0.0.121");

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

using pd::test::findRunning;

} // namespace

class TestTlsEndpoints : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_server;
    quint16 m_port = 0;
    QString m_ca;

    bool openssl(const QStringList &args)
    {
        QProcess p;
        p.setWorkingDirectory(m_dir.path());
        p.start(QStringLiteral("openssl"), args);
        return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }
    Profile profile(bool withCa) const
    {
        Profile p;
        p.proxy.address = kHost;
        p.proxy.port = m_port;
        p.tls.proxy = true;
        p.tls.engines = true;
        if (withCa)
            p.tls.caFile = m_ca;
        return p;
    }
    static std::optional<ProxyHealth> health(const ProxyEndpoint &endpoint)
    {
        ProxyClient client;
        client.setEndpoint(endpoint);
        std::optional<ProxyHealth> got;
        client.healthcheck([&got](const ProxyHealth &h) { got = h; });
        if (!QTest::qWaitFor([&got] { return got.has_value(); }, 15000))
            return std::nullopt;
        return got;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            QSKIP("openssl is not installed (scripts/setup installs it)");
        QVERIFY(m_dir.isValid());
        m_ca = m_dir.filePath(QStringLiteral("ca.pem"));
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                         QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"),
                         QStringLiteral("-keyout"), QStringLiteral("ca.key"), QStringLiteral("-out"), QStringLiteral("ca.pem"),
                         QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=pdconsole test CA")}));
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                         QStringLiteral("server.key"), QStringLiteral("-out"), QStringLiteral("server.csr"), QStringLiteral("-subj"),
                         QStringLiteral("/CN=") + kHost}));
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("san.cnf")), "subjectAltName=IP:" + kHost.toLatin1() + "\n"));
        QVERIFY(openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), QStringLiteral("server.csr"),
                         QStringLiteral("-CA"), QStringLiteral("ca.pem"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                         QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), QStringLiteral("server.pem"), QStringLiteral("-days"),
                         QStringLiteral("2"), QStringLiteral("-extfile"), QStringLiteral("san.cnf")}));

        // What the proxy and an engine answer.
        const QString www = m_dir.filePath(QStringLiteral("www"));
        QVERIFY(writeFile(www + QStringLiteral("/healthcheck"), R"({"status": "ok", "prefill_instances": 1, "decode_instances": 2})"));
        QVERIFY(writeFile(www + QStringLiteral("/v1/models"), R"({"object": "list", "data": [{"id": "deepseek_r1", "object": "model"}]})"));
        QVERIFY(writeFile(www + QStringLiteral("/health"), ""));
        QVERIFY(writeFile(www + QStringLiteral("/metrics"),
                          "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"deepseek_r1\"} 3.0\n"
                          "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name=\"deepseek_r1\"} 0.0\n"));

        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress(kHost), 0));
        m_port = probe.serverPort();
        probe.close();
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral("python3"), {QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/https_files.py"), kHost,
                                                   QString::number(m_port), m_dir.filePath(QStringLiteral("server.pem")),
                                                   m_dir.filePath(QStringLiteral("server.key")), www});
        QVERIFY(m_server.waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                QTcpSocket s;
                s.connectToHost(kHost, m_port);
                return s.waitForConnected(200);
            }(),
            10000);
    }

    void theProxyIsReachedOverHttpsWithTheProfilesCa()
    {
        const ProxyEndpoint endpoint = profileProxyEndpoint(profile(true));
        QCOMPARE(endpoint.base.scheme(), QStringLiteral("https"));
        QCOMPARE(endpoint.extraCaCertificates.size(), 1);
        const auto h = health(endpoint);
        QVERIFY(h);
        QVERIFY2(h->reachable, qPrintable(h->error));
        QCOMPARE(h->decodeInstances, 2);
    }

    void anUnknownCertificateIsRefused()
    {
        const auto h = health(profileProxyEndpoint(profile(false)));
        QVERIFY(h);
        QVERIFY(!h->reachable);
        QVERIFY2(h->error.contains(QLatin1String("certificate"), Qt::CaseInsensitive), qPrintable(h->error));
    }

    void theEngineProbeVerifiesToo()
    {
        const EngineRef engine{QStringLiteral("%1:%2").arg(kHost).arg(m_port), Role::Decode, QStringLiteral("d0"), 0};
        for (const bool withCa : {true, false}) {
            EngineProbe probe;
            probe.setTls(true, withCa ? loadCaFile(m_ca).certificates : QList<QSslCertificate>());
            std::optional<EngineReadiness> ready;
            probe.readiness(engine, [&ready](const EngineReadiness &r) { ready = r; });
            QTRY_VERIFY_WITH_TIMEOUT(ready.has_value(), 15000);
            QCOMPARE(ready->ready(), withCa);
        }
    }

    void thePollerFetchesMetricsOverHttps()
    {
        for (const bool withCa : {true, false}) {
            MetricsPoller poller(findRunning);
            poller.setInterval(200);
            poller.setTimeout(3000);
            poller.setTargets({PollTarget{0, kHost.toLatin1(), m_port, true, withCa ? QFile::encodeName(m_ca) : QByteArray()}});
            // A batch goes out every interval with the polls finished in it; the first ones may hold
            // none while the TLS handshake is still running (slow under ASan on a loaded machine), so
            // wait for the first outcome, not for the first batch.
            std::optional<PollOutcome> first;
            connect(&poller, &MetricsPoller::batchReady, this, [&first](const PollBatch &batch) {
                if (!first && !batch.outcomes.isEmpty())
                    first = batch.outcomes.first();
            });
            poller.start();
            QTRY_VERIFY_WITH_TIMEOUT(first.has_value(), 15000);
            const PollOutcome &o = *first;
            QCOMPARE(o.engine, 0);
            if (withCa) {
                QVERIFY2(o.status == PollStatus::Ok, qPrintable(o.error));
                QVERIFY(o.metrics.has_value());
                QCOMPARE(o.metrics->running, 3.0);
            } else {
                QVERIFY(o.status != PollStatus::Ok);
                QVERIFY2(o.error.contains(QLatin1String("certificate"), Qt::CaseInsensitive) || o.error.contains(QLatin1String("SSL")),
                         qPrintable(o.error));
            }
            poller.stop();
        }
    }

    void aCaFileThatIsNotOneIsAValidationError()
    {
        Profile p = profile(true);
        const QString notCa = m_dir.filePath(QStringLiteral("san.cnf"));
        p.tls.caFile = notCa;
        const CaFile ca = loadCaFile(notCa);
        QVERIFY2(ca.error.contains(QLatin1String("no PEM certificate")), qPrintable(ca.error));
        bool named = false;
        for (const ValidationIssue &issue : validateProfile(p))
            named |= issue.pointer == QLatin1String("/tls/ca_file") && issue.message.contains(QLatin1String("no PEM certificate"));
        QVERIFY(named);
    }

    // Trust (issue 37): a profile naming a FIFO or a device as its CA file neither blocks nor exhausts
    // whoever validates it (the console on open, pdctl profile validate): refused with the reason at once.
    void aCaFileThatIsAFifoOrADeviceIsRefusedAtOnce_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        const QString fifo = m_dir.filePath(QStringLiteral("ca.fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QTest::newRow("a FIFO nobody writes") << fifo << QStringLiteral("not a regular file (a FIFO)");
        QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero")
                                   << QStringLiteral("not a regular file (a character device)");
        QTest::newRow("a directory") << m_dir.path() << QStringLiteral("not a regular file (a directory)");
    }

    void aCaFileThatIsAFifoOrADeviceIsRefusedAtOnce()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        // A blocking open would never return: the test's own timeout is the check, no clock.
        Profile p = profile(true);
        p.tls.caFile = path;
        bool named = false;
        for (const ValidationIssue &issue : validateProfile(p))
            named |= issue.pointer == QLatin1String("/tls/ca_file") && issue.message.contains(reason);
        QVERIFY(named);
        QVERIFY2(loadCaFile(path).error == path + QStringLiteral(": ") + reason, qPrintable(loadCaFile(path).error));
    }

    void cleanupTestCase()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.kill();
            m_server.waitForFinished(5000);
        }
    }
};

QTEST_MAIN(TestTlsEndpoints)
#include "tst_tlsendpoints.moc"
