// SPDX-License-Identifier: MIT
// `pdsim cluster` as a process: the demo profile comes up on 127.0.0.1-9, the proxy routes a background
// load with no failures, the control API stops and faults engines, SIGTERM ends it cleanly.
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestSimCluster : public QObject {
    Q_OBJECT

private:
    QProcess m_process;
    QString m_control;
    QNetworkAccessManager m_network;

    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        QNetworkRequest request{QUrl(url)};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        request.setTransferTimeout(5000);
        QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
        QEventLoop loop;
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (status)
            *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray data = reply->readAll();
        reply->deleteLater();
        return data;
    }

    json clusterState() { return json::parse(http("GET", m_control + QStringLiteral("/cluster")).toStdString()); }

    static QString str(const json &v) { return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString(); }

    static json engine(const json &state, const std::string &id)
    {
        for (const json &e : state["engines"])
            if (e["id"] == id)
                return e;
        return json();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_process.setProgram(QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
        m_process.setArguments({QStringLiteral("cluster"), QStringLiteral("--profile"),
                                QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"),
                                QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--load"),
                                QStringLiteral("4"), QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.5"),
                                QStringLiteral("--no-jitter")});
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start();
        QVERIFY(m_process.waitForStarted(5000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += m_process.readAllStandardOutput()).contains('\n'), 20000);
        const QRegularExpression ready(QStringLiteral("^ready proxy=127\\.0\\.0\\.1:8000 engines=72 control=([0-9.]+:[0-9]+)"));
        const auto match = ready.match(QString::fromLatin1(out));
        QVERIFY2(match.hasMatch(), out.constData());
        m_control = QStringLiteral("http://") + match.captured(1);
    }

    void everyEngineListensWhereTheProfileSays()
    {
        const json state = clusterState();
        QCOMPARE(int(state["engines"].size()), 72);
        QCOMPARE(str(engine(state, "127.0.0.2:9000")["role"]), QStringLiteral("prefill"));
        QCOMPARE(engine(state, "127.0.0.9:9015")["dp_rank"].get<int>(), 63);
        QCOMPARE(str(engine(state, "127.0.0.9:9015")["node"]), QStringLiteral("d3"));
        for (const json &e : state["engines"])
            QCOMPARE(str(e["status"]), QStringLiteral("ready"));
        int status = 0;
        http("GET", QStringLiteral("http://127.0.0.7:9003/health"), {}, &status);
        QCOMPARE(status, 200);
        const QByteArray health = http("GET", QStringLiteral("http://127.0.0.1:8000/healthcheck"));
        QVERIFY2(health.startsWith(R"({"status":"ok","prefill_instances":8,"decode_instances":64,"request_num":)"), health.constData());
    }

    void theBackgroundLoadFlowsWithoutFailures()
    {
        QTRY_VERIFY_WITH_TIMEOUT(clusterState()["load"]["succeeded"].get<int>() >= 3, 30000);
        const json load = clusterState()["load"];
        QCOMPARE(load["failed"].get<int>(), 0);
        QCOMPARE(load["empty_ok"].get<int>(), 0);
        // Requests reached engines: some decode engine generated tokens.
        auto tokens = [this] {
            double sum = 0;
            const json state = clusterState(); // a named object: range-for over a temporary's member dangles
            for (const json &e : state["engines"])
                sum += str(e["role"]) == QLatin1String("decode") ? e["generation_tokens"].get<double>() : 0.0;
            return sum;
        };
        QTRY_VERIFY_WITH_TIMEOUT(tokens() > 0, 10000);
    }

    void controlApiStopsAndFaultsEngines()
    {
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/engines/stop"), R"({"engines":["127.0.0.8:9004"]})", &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(str(engine(clusterState(), "127.0.0.8:9004")["status"]),
                                  QStringLiteral("stopped"), 5000);
        http("GET", QStringLiteral("http://127.0.0.8:9004/health"), {}, &status);
        QCOMPARE(status, 0); // connection refused
        http("POST", m_control + QStringLiteral("/cluster/engines/start"), R"({"engines":["192.0.0.7:9004"]})", &status);
        QCOMPARE(status, 400); // no such engine in this profile (it uses 127.0.0.x addresses)
        http("POST", m_control + QStringLiteral("/cluster/engines/start"), R"({"engines":["127.0.0.8:9004"]})", &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(str(engine(clusterState(), "127.0.0.8:9004")["status"]),
                                  QStringLiteral("ready"), 5000);

        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"node":"d1","kind":"http500"})", &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(str(engine(clusterState(), "127.0.0.7:9010")["fault"]),
                                  QStringLiteral("http500"), 5000);
        http("GET", QStringLiteral("http://127.0.0.7:9010/health"), {}, &status);
        QCOMPARE(status, 500);
        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"node":"d1","kind":"none"})", &status);
        QCOMPARE(status, 200);
        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"node":"d1","kind":"explode"})", &status);
        QCOMPARE(status, 400);
    }

    void theProxyCanBeStoppedAndRestarted()
    {
        int status = 0;
        http("POST", m_control + QStringLiteral("/cluster/load"), R"({"rps":0})", &status);
        QCOMPARE(status, 200);
        http("POST", m_control + QStringLiteral("/cluster/proxy/stop"), {}, &status);
        QCOMPARE(status, 200);
        http("GET", QStringLiteral("http://127.0.0.1:8000/healthcheck"), {}, &status);
        QCOMPARE(status, 0);
        http("POST", m_control + QStringLiteral("/cluster/proxy/start"), {}, &status);
        QCOMPARE(status, 200);
        const QByteArray health = http("GET", QStringLiteral("http://127.0.0.1:8000/healthcheck"), {}, &status);
        QCOMPARE(status, 200);
        QVERIFY(health.contains(R"("decode_instances":64)"));
    }

    void cleanupTestCase()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        QVERIFY(m_process.waitForFinished(10000));
        QCOMPARE(m_process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_process.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSimCluster)
#include "tst_simcluster.moc"
