// SPDX-License-Identifier: MIT
// `pdsim cluster` couples the ranks of a DP group (dp-groups.md §2-3, docs/pdsim-engine.md "DP groups"):
// on a loopback profile with one coupled decode group of 4 ranks on 2 nodes and an independent prefill
// pair, driven over the real control API and the engines' real HTTP ports. Ground truth comes from the
// cluster's own state (GET /cluster) and the engines' logs. Time runs 200x, so the simulated minutes of
// the join and watchdog timeouts pass in seconds; every wait is for a condition.
#include "blockinghttp.h"
#include "clustersim/simcluster.h"
#include "cluster/profileformat.h"
#include "engine/dpsteppace.h"
#include "logs/logmatcher.h"
#include "ops/launchspec.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using json = nlohmann::json;
using namespace pd::sim;

namespace {

const char *const kGroup = "decode@127.0.0.142:13395";
const char *const kPrefillGroup = "prefill@127.0.0.141:13395";
const QStringList kDecoders = {QStringLiteral("127.0.0.142:9140"), QStringLiteral("127.0.0.142:9141"),
                               QStringLiteral("127.0.0.143:9140"), QStringLiteral("127.0.0.143:9141")};
const QStringList kPrefillers = {QStringLiteral("127.0.0.141:9140"), QStringLiteral("127.0.0.141:9141")};

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString str(const json &v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

QByteArray selection(const QStringList &ids)
{
    json list = json::array();
    for (const QString &id : ids)
        list.push_back(id.toStdString());
    return QByteArray::fromStdString(json{{"engines", list}}.dump());
}

} // namespace

class TestSimGroups : public QObject {
    Q_OBJECT

private:
    QNetworkAccessManager m_network;
    std::unique_ptr<QTemporaryDir> m_logs;
    std::unique_ptr<SimCluster> m_cluster;
    QString m_control;
    QList<QPointer<QNetworkReply>> m_background;
    std::vector<std::unique_ptr<QTcpSocket>> m_raw;

    QByteArray http(const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
    {
        return pd::test::blockingHttp(method, url, body, status);
    }
    int status(const QString &engine, const QString &path)
    {
        int code = 0;
        http("GET", QStringLiteral("http://%1%2").arg(engine, path), {}, &code);
        return code; // 0: connection refused
    }
    int control(const QString &path, const QByteArray &body)
    {
        int code = 0;
        http("POST", m_control + path, body, &code);
        return code;
    }
    json state() { return json::parse(http("GET", m_control + QStringLiteral("/cluster")).toStdString()); }
    json group(const char *id)
    {
        const json s = state();
        for (const json &g : s["groups"])
            if (g["id"] == id)
                return g;
        return json();
    }
    QString groupState(const char *id) { return str(group(id)["state"]); }
    json engine(const QString &id)
    {
        const json s = state();
        for (const json &e : s["engines"])
            if (e["id"] == id.toStdString())
                return e;
        return json();
    }
    QString engineStatus(const QString &id) { return str(engine(id)["status"]); }
    bool allStatus(const QStringList &ids, const QString &wanted)
    {
        for (const QString &id : ids)
            if (engineStatus(id) != wanted)
                return false;
        return true;
    }
    EngineSnapshot snap(const QString &id)
    {
        const int index = indexOf(id);
        for (const EngineSnapshot &s : m_cluster->snapshot())
            if (s.index == index)
                return s;
        return {};
    }
    int indexOf(const QString &id) const
    {
        for (int i = 0; i < m_cluster->engines().size(); ++i)
            if (m_cluster->engines().at(i).listenId == id)
                return i;
        return -1;
    }
    QString logOf(const QString &id) const
    {
        pd::Profile p = profile();
        p.runDir = m_logs->path();
        for (const pd::Engine &e : p.engines())
            if (e.id() == id)
                return pd::engineProcess(p, e).logFile;
        return {};
    }
    static pd::Profile profile()
    {
        return *pd::loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/data/sim/simgroups-loopback.json")).profile;
    }
    // A long generation straight to one engine; its answer is not awaited.
    void sendLongRequest(const QString &engine)
    {
        QNetworkRequest request{QUrl(QStringLiteral("http://%1/v1/completions").arg(engine))};
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        const QByteArray body = R"({"model":"deepseek_r1","prompt":"the coupled ranks of one group","max_tokens":16000,"ignore_eos":true})";
        m_background.append(m_network.post(request, body));
    }
    // Many concurrent generations on one engine (raw connections: QNetworkAccessManager allows 6 per host).
    void flood(const QString &engine, int requests)
    {
        const QByteArray body = R"({"model":"deepseek_r1","prompt":"a busy rank","max_tokens":16000,"ignore_eos":true})";
        const QByteArray head = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                                + QByteArray::number(body.size()) + "\r\n\r\n";
        const qsizetype colon = engine.lastIndexOf(QLatin1Char(':'));
        for (int i = 0; i < requests; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(engine.left(colon), quint16(engine.mid(colon + 1).toUInt()));
            socket->write(head + body);
            m_raw.push_back(std::move(socket));
        }
    }
    // Mean decode step of the engine's requests from its /metrics (TPOT sum and count).
    std::pair<double, double> tpot(const QString &engine)
    {
        const QByteArray text = http("GET", QStringLiteral("http://%1/metrics").arg(engine));
        double sum = 0, count = 0;
        for (const QByteArray &line : text.split('\n')) {
            if (line.startsWith("vllm:time_per_output_token_seconds_sum"))
                sum = line.mid(line.lastIndexOf(' ') + 1).toDouble();
            else if (line.startsWith("vllm:time_per_output_token_seconds_count"))
                count = line.mid(line.lastIndexOf(' ') + 1).toDouble();
        }
        return {sum, count};
    }
    // The mean step over the next `tokens` tokens of a running request.
    double meanStepOver(const QString &engine, double tokens)
    {
        const auto [sum0, count0] = tpot(engine);
        const double start = snap(engine).state.generationTokens;
        [&] { QTRY_VERIFY_WITH_TIMEOUT(snap(engine).state.generationTokens > start + tokens, 10000); }();
        const auto [sum1, count1] = tpot(engine);
        return count1 > count0 ? (sum1 - sum0) / (count1 - count0) : 0.0;
    }
    void startAllDecoders()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), selection(kDecoders)), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("serving"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("ready")), 10000);
    }

private Q_SLOTS:
    void init()
    {
        m_logs = std::make_unique<QTemporaryDir>();
        QVERIFY(m_logs->isValid());
        ClusterOptions o;
        o.profile = profile();
        o.timeScale = 200;
        o.jitter = false;
        o.logDir = m_logs->path();
        o.dpJoinTimeoutSeconds = 1200;    // 6 s of real time
        o.dpWatchdogTimeoutSeconds = 800; // 4 s
        m_cluster = std::make_unique<SimCluster>(o);
        QString error;
        QVERIFY2(m_cluster->start(&error), qPrintable(error));
        m_control = QStringLiteral("http://127.0.0.140:%1").arg(m_cluster->controlPort());
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 10000);
        QCOMPARE(groupState(kGroup), QStringLiteral("serving"));
    }

    void cleanup()
    {
        for (const QPointer<QNetworkReply> &r : std::as_const(m_background)) {
            if (r)
                r->abort();
        }
        m_background.clear();
        m_raw.clear();
        m_cluster.reset();
        m_logs.reset();
    }

    void theGroupsComeFromTheProfile()
    {
        const json decode = group(kGroup);
        QVERIFY(decode["coupled"].get<bool>());
        QCOMPARE(str(decode["role"]), QStringLiteral("decode"));
        QCOMPARE(int(decode["ranks"].size()), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(str(decode["ranks"][i]), kDecoders.at(i));
        const json prefill = group(kPrefillGroup);
        QVERIFY(!prefill["coupled"].get<bool>());
        QCOMPARE(str(prefill["state"]), QStringLiteral("independent"));
        QCOMPARE(str(engine(kDecoders.at(2))["group"]), QString::fromLatin1(kGroup));
        QCOMPARE(str(engine(kDecoders.at(2))["group_state"]), QStringLiteral("member"));
        QCOMPARE(str(engine(kPrefillers.at(0))["group_state"]), QStringLiteral("independent"));
    }

    // (a) A coupled group does not serve until all its ranks started.
    void aGroupServesOnlyOnceEveryRankStarted()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/stop"), R"({"group":"decode@127.0.0.142:13395"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("stopped"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("stopped")), 5000);

        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), selection(kDecoders.mid(0, 3))), 200);
        QCOMPARE(groupState(kGroup), QStringLiteral("joining"));
        QTRY_VERIFY_WITH_TIMEOUT(engine(kDecoders.at(0))["awaiting_group"].get<bool>(), 5000);
        for (const QString &id : kDecoders.mid(0, 3)) {
            QCOMPARE(engineStatus(id), QStringLiteral("starting"));
            QCOMPARE(str(engine(id)["group_state"]), QStringLiteral("joining"));
            QCOMPARE(status(id, QStringLiteral("/v1/models")), 0); // in the rendezvous: the port is not open yet
        }
        QCOMPARE(int(group(kGroup)["joining_ranks"].size()), 3);
        QCOMPARE(int(group(kGroup)["dead_ranks"].size()), 1);

        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), selection({kDecoders.at(3)})), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("serving"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("ready")), 5000);
        for (const QString &id : kDecoders)
            QCOMPARE(status(id, QStringLiteral("/v1/models")), 200);
    }

    // (b) Started ranks of a group that never completes exit after the join timeout.
    void anIncompleteGroupExitsAfterTheJoinTimeout()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/stop"), selection(kDecoders)), 200);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("stopped")), 5000);
        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), selection(kDecoders.mid(0, 2))), 200);
        QCOMPARE(groupState(kGroup), QStringLiteral("joining"));
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("failed"), 30000);
        QCOMPARE(str(group(kGroup)["last_exit"]), QStringLiteral("join-timeout"));
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders.mid(0, 2), QStringLiteral("crashed")), 5000);
        QVERIFY(allStatus(kDecoders.mid(2), QStringLiteral("stopped")));
        const pd::LogMatcher matcher;
        for (const QString &id : kDecoders.mid(0, 2)) {
            const QByteArray log = readFile(logOf(id));
            QVERIFY2(log.contains("DistStoreError: Timed out after 1200 seconds waiting for the data parallel group "
                                  "at 127.0.0.142:13395 to form: 2 of 4 ranks joined"),
                     log.constData());
            bool initFailed = false;
            matcher.scan(log, [&](qint64, qsizetype, qsizetype, const pd::LogLineClass &c) {
                initFailed = initFailed || c.signatureId == 19;
            });
            QVERIFY(initFailed); // the console's log matcher reads it as a failed engine initialisation
            QVERIFY(!log.contains("Application startup complete"));
        }
    }

    // (c) One rank dies: the others make no progress (tokens frozen, requests queue, /health 200), then
    // exit after the watchdog with the HCCL lines.
    void aDeadRankFreezesTheGroupUntilTheWatchdog()
    {
        const QString survivor = kDecoders.at(1);
        const QString victim = kDecoders.at(3);
        sendLongRequest(survivor);
        QTRY_VERIFY_WITH_TIMEOUT(snap(survivor).state.generationTokens > 10, 5000);
        QCOMPARE(snap(survivor).state.running, 1);

        QCOMPARE(control(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.143:9141"],"kind":"crash"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("broken"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(snap(survivor).state.groupBlocked, 5000);
        QCOMPARE(str(group(kGroup)["dead_ranks"][0]), victim);
        QCOMPARE(int(group(kGroup)["frozen_ranks"].size()), 3);
        QCOMPARE(str(engine(survivor)["group_state"]), QStringLiteral("frozen"));

        const EngineSnapshot frozen = snap(survivor);
        QCOMPARE(frozen.state.running, 1);
        QCOMPARE(frozen.status, SimEngine::Status::Ready);
        // Simulated time goes on (20 s: hundreds of decode steps) and not one token comes out.
        QTRY_VERIFY_WITH_TIMEOUT(snap(survivor).state.simTime > frozen.state.simTime + 20, 5000);
        QCOMPARE(snap(survivor).state.generationTokens, frozen.state.generationTokens);
        QCOMPARE(status(survivor, QStringLiteral("/health")), 200);
        sendLongRequest(survivor);
        QTRY_COMPARE_WITH_TIMEOUT(snap(survivor).state.waiting, 1, 5000); // a new request queues
        QCOMPARE(snap(survivor).state.generationTokens, frozen.state.generationTokens);
        QCOMPARE(status(victim, QStringLiteral("/health")), 0);

        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("failed"), 30000);
        QCOMPARE(str(group(kGroup)["last_exit"]), QStringLiteral("watchdog"));
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("crashed")), 5000);
        const pd::LogMatcher matcher;
        for (const QString &id : kDecoders.mid(0, 3)) {
            const QByteArray log = readFile(logOf(id));
            QVERIFY2(log.contains("Getting socket times out. Reason: Remote Rank did not send the data in time. Please "
                                  "check the reason for the rank being stuck (remote DP rank 3"),
                     log.constData());
            QVERIFY(log.contains("Watchdog caught collective operation timeout: WorkHCCL(SeqNum="));
            QVERIFY(log.contains(", OpType=ALLREDUCE, Timeout(ms)=800000) ran for 8"));
            QVERIFY(log.contains(" milliseconds before timing out."));
            QSet<int> ids;
            matcher.scan(log, [&](qint64, qsizetype, qsizetype, const pd::LogLineClass &c) { ids.insert(c.signatureId); });
            QVERIFY(ids.contains(8));  // EI0006
            QVERIFY(ids.contains(14)); // the HCCL watchdog
        }
        QVERIFY(!readFile(logOf(victim)).contains("Watchdog caught"));
    }

    // A control-API stop breaks the group the same way.
    void stoppingOneRankBreaksTheGroup()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/stop"), selection({kDecoders.at(0)})), 200);
        QCOMPARE(groupState(kGroup), QStringLiteral("broken"));
        QTRY_VERIFY_WITH_TIMEOUT(snap(kDecoders.at(2)).state.groupBlocked, 5000);
        QCOMPARE(status(kDecoders.at(2), QStringLiteral("/health")), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("failed"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders.mid(1), QStringLiteral("crashed")), 5000);
        QCOMPARE(engineStatus(kDecoders.at(0)), QStringLiteral("stopped"));
    }

    // (d) Independent ranks keep today's behaviour: one stops, the other serves; it restarts alone.
    void independentRanksAreUnaffected()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/stop"), selection({kPrefillers.at(0)})), 200);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(kPrefillers.at(0)), QStringLiteral("stopped"), 5000);
        QCOMPARE(status(kPrefillers.at(1), QStringLiteral("/v1/models")), 200);
        QCOMPARE(groupState(kPrefillGroup), QStringLiteral("independent"));
        QCOMPARE(groupState(kGroup), QStringLiteral("serving")); // another group: untouched
        const QByteArray answer = http("POST", QStringLiteral("http://%1/v1/completions").arg(kPrefillers.at(1)),
                                       R"({"model":"deepseek_r1","prompt":"still here","max_tokens":3})");
        QVERIFY2(answer.contains("\"completion_tokens\":3"), answer.constData());
        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), selection({kPrefillers.at(0)})), 200);
        QTRY_COMPARE_WITH_TIMEOUT(engineStatus(kPrefillers.at(0)), QStringLiteral("ready"), 5000);

        // A decode rank's crash does not touch the prefill ranks either.
        QCOMPARE(control(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.142:9140"],"kind":"crash"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("broken"), 5000);
        for (const QString &id : kPrefillers) {
            QVERIFY(!snap(id).state.groupBlocked);
            QCOMPARE(status(id, QStringLiteral("/v1/models")), 200);
        }
    }

    // (e) Starting every rank again forms the group again: after it failed, and while it is broken
    // (the frozen survivors are restarted by their start).
    void restartingTheWholeGroupServesAgain()
    {
        QCOMPARE(control(QStringLiteral("/cluster/engines/stop"), selection({kDecoders.at(2)})), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("failed"), 30000);
        startAllDecoders();
        QCOMPARE(int(group(kGroup)["dead_ranks"].size()), 0);

        QCOMPARE(control(QStringLiteral("/cluster/engines/fault"), R"({"engines":["127.0.0.143:9140"],"kind":"crash"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("broken"), 5000);
        QCOMPARE(control(QStringLiteral("/cluster/engines/start"), R"({"group":"decode@127.0.0.142:13395"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(groupState(kGroup), QStringLiteral("serving"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(allStatus(kDecoders, QStringLiteral("ready")), 5000);
        for (const QString &id : kDecoders) {
            QVERIFY(!snap(id).state.groupBlocked);
            const QByteArray answer = http("POST", QStringLiteral("http://%1/v1/completions").arg(id),
                                           R"({"model":"deepseek_r1","prompt":"together again","max_tokens":4})");
            QVERIFY2(answer.contains("\"completion_tokens\":4"), answer.constData());
        }
        // The old watchdog of the broken group does not fire on the new one.
        QTRY_VERIFY_WITH_TIMEOUT(snap(kDecoders.at(0)).state.simTime > 1000, 15000);
        QCOMPARE(groupState(kGroup), QStringLiteral("serving"));
    }

    // While a rank of the group is busy, an almost idle rank steps at the busy rank's pace.
    void aLightRankStepsAtTheBusyRanksPace()
    {
        const QString light = kDecoders.at(0);
        const QString busy = kDecoders.at(3);
        sendLongRequest(light);
        QTRY_VERIFY_WITH_TIMEOUT(snap(light).state.generationTokens > 50, 5000);
        const double alone = meanStepOver(light, 200);
        QVERIFY(alone > 0);
        flood(busy, 28);
        QTRY_VERIFY_WITH_TIMEOUT(snap(busy).state.running >= 24 && snap(busy).state.generationTokens > 100, 10000);
        const double coupled = meanStepOver(light, 200);
        QVERIFY2(coupled > alone * 1.5, qPrintable(QStringLiteral("alone %1 s, coupled %2 s").arg(alone).arg(coupled)));
    }

    void coupledRanksStepAtTheSlowestPace()
    {
        DpStepPace pace(3);
        QCOMPARE(pace.couple(0, 0.05), 0.05);
        QCOMPARE(pace.couple(1, 0.08), 0.08);
        QCOMPARE(pace.couple(0, 0.05), 0.08); // rank 0 waits for rank 1
        pace.idle(1);
        QCOMPARE(pace.couple(0, 0.05), 0.05);
        QCOMPARE(pace.couple(2, 0.0), 0.0);   // an idle rank runs no timed step of its own
    }
};

QTEST_MAIN(TestSimGroups)
#include "tst_simgroups.moc"
