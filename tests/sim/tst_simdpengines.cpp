// SPDX-License-Identifier: MIT
// A coupled DP group of separate `pdsim engine` processes (docs/pdsim-engine.md "DP groups"): four ranks
// on 127.0.0.145-146 meet at their DP master 127.0.0.145:13495 over TCP. No rank listens before all
// four started; a killed rank freezes the others (/health 200, no tokens) until the watchdog ends them
// with the HCCL lines; ranks started without the rest exit after the join timeout. The launcher's
// stand-in template passes the group from its seven arguments. Time runs 200x; waits are for conditions.
#include "blockinghttp.h"
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using json = nlohmann::json;

namespace {

struct Rank {
    QString host;
    int port = 0;
    int dpRank = 0;
    QString id() const { return QStringLiteral("%1:%2").arg(host).arg(port); }
};

const QList<Rank> kRanks = {{QStringLiteral("127.0.0.145"), 9145, 0}, {QStringLiteral("127.0.0.145"), 9146, 1},
                            {QStringLiteral("127.0.0.146"), 9145, 2}, {QStringLiteral("127.0.0.146"), 9146, 3}};
const QString kMaster = QStringLiteral("127.0.0.145:13495");

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestSimDpEngines : public QObject {
    Q_OBJECT

private:
    QNetworkAccessManager m_network;
    QTemporaryDir m_logs;
    std::vector<std::unique_ptr<QProcess>> m_processes{4};
    QList<QNetworkReply *> m_background;

    QString logOf(int rank) const { return m_logs.filePath(QStringLiteral("rank-%1.log").arg(rank)); }

    void startRank(int rank)
    {
        // A fresh log: waits on its lines must not see the previous process's.
        QFile::remove(logOf(rank));
        QFile::remove(logOf(rank) + QStringLiteral(".1"));
        auto p = std::make_unique<QProcess>();
        p->setProgram(QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
        const Rank &r = kRanks.at(rank);
        p->setArguments({QStringLiteral("engine"), QStringLiteral("--host"), r.host, QStringLiteral("--port"),
                         QString::number(r.port), QStringLiteral("--dp-rank"), QString::number(r.dpRank),
                         QStringLiteral("--dp-size"), QStringLiteral("4"), QStringLiteral("--dp-master"), kMaster,
                         QStringLiteral("--time-scale"), QStringLiteral("200"), QStringLiteral("--no-jitter"),
                         QStringLiteral("--dp-join-timeout"), QStringLiteral("1200"),
                         QStringLiteral("--dp-watchdog-timeout"), QStringLiteral("800"), QStringLiteral("--log"),
                         logOf(rank)});
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start();
        QVERIFY(p->waitForStarted(5000));
        m_processes[std::size_t(rank)] = std::move(p);
    }
    bool running(int rank) const
    {
        const auto &p = m_processes.at(std::size_t(rank));
        return p && p->state() == QProcess::Running;
    }
    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        return pd::test::blockingHttp(method, url, body, status);
    }
    int status(int rank, const QString &path)
    {
        int code = 0;
        http("GET", QStringLiteral("http://%1%2").arg(kRanks.at(rank).id(), path), {}, &code);
        return code;
    }
    json state(int rank)
    {
        const QByteArray body = http("GET", QStringLiteral("http://%1/sim/state").arg(kRanks.at(rank).id()));
        return json::parse(body.toStdString(), nullptr, false);
    }
    void stopAll()
    {
        for (auto &p : m_processes) {
            if (p && p->state() == QProcess::Running) {
                p->kill();
                p->waitForFinished(5000);
            }
            p.reset();
        }
    }

private Q_SLOTS:
    void cleanup()
    {
        for (QNetworkReply *r : std::as_const(m_background))
            r->abort();
        m_background.clear();
        stopAll();
    }

    void theGroupServesOnceEveryRankStartedAndFreezesWhenOneDies()
    {
        for (int rank = 0; rank < 3; ++rank)
            startRank(rank);
        // Three of four ranks: they wait in the rendezvous with nothing listening (and stay alive).
        QTRY_VERIFY_WITH_TIMEOUT(readFile(logOf(2)).contains("vLLM API server version"), 5000);
        for (int rank = 0; rank < 3; ++rank) {
            QCOMPARE(status(rank, QStringLiteral("/v1/models")), 0);
            QVERIFY(running(rank));
        }
        startRank(3);
        for (int rank = 0; rank < 4; ++rank)
            QTRY_COMPARE_WITH_TIMEOUT(status(rank, QStringLiteral("/v1/models")), 200, 10000);

        // A long request on rank 1, then rank 3 is killed.
        QNetworkRequest request{QUrl(QStringLiteral("http://%1/v1/completions").arg(kRanks.at(1).id()))};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        m_background.append(m_network.post(
            request, R"({"model":"deepseek_r1","prompt":"coupled processes","max_tokens":16000,"ignore_eos":true})"));
        QTRY_VERIFY_WITH_TIMEOUT(state(1).value("generation_tokens", 0.0) > 10, 5000);
        m_processes[3]->kill();
        QVERIFY(m_processes[3]->waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(state(1).value("group_blocked", false), 5000);
        for (int rank = 0; rank < 3; ++rank)
            QTRY_VERIFY_WITH_TIMEOUT(state(rank).value("group_blocked", false), 5000);
        const json frozen = state(1);
        QCOMPARE(frozen["running"].get<int>(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(state(1)["sim_time"].get<double>() > frozen["sim_time"].get<double>() + 20, 5000);
        QCOMPARE(state(1)["generation_tokens"].get<double>(), frozen["generation_tokens"].get<double>());
        QCOMPARE(status(1, QStringLiteral("/health")), 200);

        // The watchdog takes the survivors down, each writing the HCCL lines.
        for (int rank = 0; rank < 3; ++rank) {
            QTRY_VERIFY_WITH_TIMEOUT(!running(rank), 30000);
            QCOMPARE(m_processes[std::size_t(rank)]->exitCode(), 1);
            const QByteArray log = readFile(logOf(rank));
            QVERIFY2(log.contains("Getting socket times out. Reason: Remote Rank did not send the data in time. "
                                  "Please check the reason for the rank being stuck (remote DP rank 3"),
                     log.constData());
            QVERIFY(log.contains("Watchdog caught collective operation timeout: WorkHCCL(SeqNum="));
            QVERIFY(log.contains("OpType=ALLREDUCE, Timeout(ms)=800000) ran for "));
        }

        // Starting all four again forms the group again.
        for (int rank = 0; rank < 4; ++rank)
            startRank(rank);
        for (int rank = 0; rank < 4; ++rank)
            QTRY_COMPARE_WITH_TIMEOUT(status(rank, QStringLiteral("/v1/models")), 200, 10000);
        const QByteArray answer = http("POST", QStringLiteral("http://%1/v1/completions").arg(kRanks.at(2).id()),
                                       R"({"model":"deepseek_r1","prompt":"again","max_tokens":3})");
        QVERIFY2(answer.contains("\"completion_tokens\":3"), answer.constData());
    }

    void ranksWithoutTheirGroupExitAfterTheJoinTimeout()
    {
        // Rank 0 first, so that its deadline ends first and both saw the same two ranks.
        startRank(0);
        QTRY_VERIFY_WITH_TIMEOUT(readFile(logOf(0)).contains("vLLM API server version"), 5000);
        startRank(2);
        for (const int rank : {0, 2}) {
            QTRY_VERIFY_WITH_TIMEOUT(!running(rank), 30000);
            QCOMPARE(m_processes[std::size_t(rank)]->exitCode(), 1);
            const QByteArray log = readFile(logOf(rank));
            const qsizetype at = log.indexOf("DistStoreError");
            QVERIFY2(log.contains("DistStoreError: Timed out after 1200 seconds waiting for the data parallel group at "
                                  "127.0.0.145:13495 to form: 2 of 4 ranks joined"),
                     qPrintable(QStringLiteral("rank %1: %2").arg(rank).arg(QString::fromUtf8(log.mid(at, 160)))));
            QVERIFY(!log.contains("Application startup complete"));
        }
    }

    void theTemplatePassesTheGroup()
    {
        // run_dp_template.sh's seven v0.9.1 arguments for a group of two on one node.
        QList<std::shared_ptr<QProcess>> ranks;
        for (int rank = 0; rank < 2; ++rank) {
            auto p = std::make_shared<QProcess>();
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("PDSIM"), QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
            env.insert(QStringLiteral("PDCONSOLE_NODE_ADDRESS"), QStringLiteral("127.0.0.147"));
            env.insert(QStringLiteral("PDSIM_DP_COUPLING"), QStringLiteral("coupled"));
            env.insert(QStringLiteral("PDSIM_ENGINE_ARGS"), QStringLiteral("--time-scale 200 --dp-join-timeout 1200"));
            p->setProcessEnvironment(env);
            p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            p->start(QStringLiteral("bash"), {QStringLiteral(PD_SOURCE_DIR "/resources/sim/run_dp_template.sh"),
                                              QStringLiteral("2"), QStringLiteral("127.0.0.147"),
                                              QStringLiteral("13497"), QString::number(rank), QString::number(rank),
                                              QString::number(9147 + rank), QStringLiteral("2")});
            QVERIFY(p->waitForStarted(5000));
            ranks.append(p);
            if (rank == 0) {
                // The template made it a rank of a group of two (its own line says so).
                QByteArray out;
                QTRY_VERIFY2_WITH_TIMEOUT((out += p->readAllStandardOutput()).contains("group of 2 at 127.0.0.147:13497"),
                                          out.constData(), 5000);
                int code = -1;
                http("GET", QStringLiteral("http://127.0.0.147:9147/health"), {}, &code);
                QCOMPARE(code, 0);
            }
        }
        for (int rank = 0; rank < 2; ++rank) {
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    int code = 0;
                    http("GET", QStringLiteral("http://127.0.0.147:%1/v1/models").arg(9147 + rank), {}, &code);
                    return code == 200;
                }(),
                10000);
        }
        // They are one group: rank 1 killed, rank 0 blocks.
        ranks.at(1)->kill();
        QVERIFY(ranks.at(1)->waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(
            json::parse(http("GET", QStringLiteral("http://127.0.0.147:9147/sim/state")).toStdString(), nullptr, false)
                .value("group_blocked", false),
            5000);
        for (const auto &p : ranks) {
            p->kill();
            p->waitForFinished(5000);
        }
    }
};

QTEST_MAIN(TestSimDpEngines)
#include "tst_simdpengines.moc"
