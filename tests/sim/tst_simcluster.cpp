// SPDX-License-Identifier: MIT
// `pdsim cluster` as a process: the demo profile comes up on 127.0.0.1-9, the proxy routes a background
// load with no failures, the control API stops and faults engines, SIGTERM ends it cleanly; with
// --log-dir every engine and the proxy write their logs where the console's launcher puts them.
// Every rank runs on its own here (--no-dp-coupling): coupled DP groups are tst_simgroups' subject.
#include "blockinghttp.h"
#include "cluster/profileformat.h"
#include "ops/launchspec.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

class TestSimCluster : public QObject {
    Q_OBJECT

private:
    QProcess m_process;
    QString m_control;
    QTemporaryDir m_logs;

    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static QByteArray lastLine(const QByteArray &text)
    {
        const QByteArray t = text.endsWith('\n') ? text.chopped(1) : text;
        return t.mid(t.lastIndexOf('\n') + 1);
    }
    // The profile as the console sees it with run_dir = the log directory.
    pd::Profile logProfile() const
    {
        pd::Profile p = *pd::loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json")).profile;
        p.runDir = m_logs.path();
        return p;
    }
    QString engineLog(const QString &node, int port) const
    {
        const pd::Profile p = logProfile();
        for (const pd::Engine &e : p.engines()) {
            if (p.nodes.at(e.nodeIndex).name == node && e.port == port)
                return pd::engineProcess(p, e).logFile;
        }
        return {};
    }
    QString proxyLog() const { return QDir(m_logs.path()).filePath(QStringLiteral("proxy/proxy-8000.log")); }

    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        return pd::test::blockingHttp(method, url, body, status);
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
                                QStringLiteral("--no-jitter"), QStringLiteral("--log-dir"), m_logs.path(),
                                // Stops and restarts single engines: every rank on its own. The coupled DP
                                // groups of this profile are tst_simgroups' subject.
                                QStringLiteral("--no-dp-coupling")});
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

    void everyEngineAndTheProxyWriteALog()
    {
        const pd::Profile p = logProfile();
        QCOMPARE(p.engines().size(), 72);
        for (const pd::Engine &e : p.engines()) {
            const QString path = pd::engineProcess(p, e).logFile;
            QVERIFY2(path.startsWith(m_logs.path() + QStringLiteral("/engines/")), qPrintable(path));
            QTRY_VERIFY2_WITH_TIMEOUT(readFile(path).contains("INFO:     Application startup complete."), qPrintable(path), 5000);
            const QByteArray url = "Starting vLLM API server on http://" + p.nodes.at(e.nodeIndex).address.toUtf8() + ':'
                + QByteArray::number(e.port);
            QVERIFY(readFile(path).contains(url));
        }
        QTRY_VERIFY_WITH_TIMEOUT(readFile(proxyLog()).contains("INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)"), 5000);
        // Under the background load: uvicorn's access lines in the proxy's log and in the engines' logs.
        QTRY_VERIFY_WITH_TIMEOUT(readFile(proxyLog()).contains("\"POST /v1/completions HTTP/1.1\" 200 OK"), 20000);
        auto decodersWithAccessLines = [&] {
            int n = 0;
            for (const pd::Engine &e : p.engines())
                n += e.role == pd::Role::Decode && readFile(pd::engineProcess(p, e).logFile).contains("\"POST /v1/completions HTTP/1.1\" 200 OK");
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(decodersWithAccessLines() > 0, 20000);
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
        // The stopped process's log (kept as .1 by the restart) ends with its shutdown; the new one starts over.
        const QString log = engineLog(QStringLiteral("d2"), 9004);
        QVERIFY2(lastLine(readFile(log + QStringLiteral(".1"))).startsWith("INFO:     Finished server process ["), qPrintable(log));
        QTRY_VERIFY_WITH_TIMEOUT(readFile(log).contains("INFO:     Application startup complete."), 5000);
        QVERIFY(!readFile(log).contains("Finished server process"));

        http("POST", m_control + QStringLiteral("/cluster/engines/fault"), R"({"node":"d1","kind":"http500"})", &status);
        QCOMPARE(status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(str(engine(clusterState(), "127.0.0.7:9010")["fault"]),
                                  QStringLiteral("http500"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(readFile(engineLog(QStringLiteral("d1"), 9010)).contains("EngineDeadError"), 5000);
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
        // SIGTERM: every process of the cluster says goodbye in its log.
        QVERIFY(lastLine(readFile(proxyLog())).startsWith("INFO:     Finished server process ["));
        QVERIFY(lastLine(readFile(engineLog(QStringLiteral("d3"), 9015))).startsWith("INFO:     Finished server process ["));
    }
};

QTEST_GUILESS_MAIN(TestSimCluster)
#include "tst_simcluster.moc"
