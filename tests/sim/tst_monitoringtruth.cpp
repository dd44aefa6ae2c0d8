// SPDX-License-Identifier: MIT
// What the dashboards report against the simulator's ground truth for the same window: engines on
// 127.0.0.1 serve real requests, the real poller + extractor + series store watch them, and the
// stored token rate, running requests and KV usage must be what the engines themselves count.
#include "engine/simengine.h"
#include "metrics/metricsextractor.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace pd;
using namespace pd::sim;

class TestMonitoringTruth : public QObject {
    Q_OBJECT

private:
    static bool extract(std::string_view body, EngineMetrics *m, QString *error)
    {
        const auto r = MetricsExtractor::extract(body, *m);
        if (!r.ok())
            *error = QString::fromStdString(r.error.toString());
        return r.ok();
    }

    // Fires a non-streaming completion and forgets it; the engine does the work.
    static void sendCompletion(QObject *owner, quint16 port, int promptWords, int maxTokens)
    {
        auto *socket = new QTcpSocket(owner);
        QByteArray prompt;
        for (int i = 0; i < promptWords; ++i)
            prompt += "word ";
        const QByteArray body = "{\"model\":\"deepseek_r1\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" +
                                QByteArray::number(maxTokens) + ",\"ignore_eos\":true}";
        const QByteArray request = "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                   "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        QObject::connect(socket, &QTcpSocket::connected, socket, [socket, request] { socket->write(request); });
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->connectToHost(QStringLiteral("127.0.0.1"), port);
    }

private Q_SLOTS:
    void dashboardNumbersMatchTheEnginesGroundTruth()
    {
        std::vector<std::unique_ptr<SimEngine>> engines;
        std::vector<Role> roles;
        QList<PollTarget> targets;
        for (int i = 0; i < 3; ++i) {
            EngineOptions o;
            o.role = i == 0 ? EngineRole::Prefill : EngineRole::Decode;
            o.host = QHostAddress(QStringLiteral("127.0.0.1"));
            o.dpRank = i;
            o.timeScale = 10;
            o.timing.jitter = false;
            engines.push_back(std::make_unique<SimEngine>(o));
            QVERIFY(engines.back()->start());
            roles.push_back(i == 0 ? Role::Prefill : Role::Decode);
            targets.append({i, QByteArrayLiteral("127.0.0.1"), engines.back()->port(), false, {} });
        }
        SeriesStore store(roles);
        MetricsPoller poller(&TestMonitoringTruth::extract);
        poller.setInterval(1000);
        connect(&poller, &MetricsPoller::batchReady, &store, [&store](const PollBatch &batch) {
            store.ingest(toPollRound(batch, store.engineCount(), QDateTime::currentMSecsSinceEpoch()));
        });
        poller.setTargets(targets);
        poller.start();
        QSignalSpy rounds(&store, &SeriesStore::roundIngested);
        QTRY_VERIFY_WITH_TIMEOUT(rounds.size() >= 2, 10000); // every engine has a base scrape

        // Steady load: 20 long requests on decode engine 1, none on engine 2.
        for (int r = 0; r < 20; ++r)
            sendCompletion(this, engines[1]->port(), 200, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(engines[1]->state().running, 20, 5000);
        // Let two rounds see the load, then take the ground truth over a window of several rounds.
        const int seen = int(rounds.size());
        QTRY_VERIFY_WITH_TIMEOUT(rounds.size() >= seen + 2, 10000);
        const double tokensA = engines[1]->state().generationTokens;
        const qint64 wallA = QDateTime::currentMSecsSinceEpoch();
        const int mark = int(rounds.size());
        QTRY_VERIFY_WITH_TIMEOUT(rounds.size() >= mark + 4, 15000);
        const double tokensB = engines[1]->state().generationTokens;
        const qint64 wallB = QDateTime::currentMSecsSinceEpoch();
        QCOMPARE(engines[1]->state().running, 20); // still in steady state
        const double truthRate = (tokensB - tokensA) * 1000.0 / double(wallB - wallA);

        // The dashboard's numbers for the slots inside the same window.
        double sum = 0;
        int slots = 0;
        for (qint64 t = wallA + 1000; t <= wallB - 1000; t += 1000) {
            const float rate = store.valueAt(SeriesId::forEngine(1, Metric::GenerationTokensRate), t);
            QVERIFY2(!std::isnan(rate), "a gap inside the window");
            sum += double(rate);
            ++slots;
            QCOMPARE(store.valueAt(SeriesId::forEngine(1, Metric::Running), t), 20.0f);
            QCOMPARE(store.valueAt(SeriesId::forEngine(2, Metric::Running), t), 0.0f);
            QCOMPARE(store.valueAt(SeriesId::forEngine(2, Metric::GenerationTokensRate), t), 0.0f);
            // The decode pool's rate is the sum of its engines'.
            QCOMPARE(store.valueAt(SeriesId::forPool(Pool::Decode, Metric::GenerationTokensRate), t), rate);
            QCOMPARE(store.valueAt(SeriesId::forPool(Pool::Decode, Metric::Running), t), 20.0f);
        }
        QVERIFY(slots >= 2);
        const double storedRate = sum / slots;
        qInfo("engine 1 generated %.0f tokens/s (ground truth), the store shows %.0f tokens/s over %d slots", truthRate,
              storedRate, slots);
        QVERIFY(truthRate > 100);
        QVERIFY2(std::abs(storedRate - truthRate) <= 0.10 * truthRate, "stored token rate differs from the engine's");
        // KV cache usage follows the engine's own figure.
        const float kv = store.latest(SeriesId::forEngine(1, Metric::KvUsage));
        QVERIFY2(std::abs(double(kv) - engines[1]->state().kvUsage) < 0.05, qPrintable(QString::number(kv)));
        QCOMPARE(store.status(1).freshness, Freshness::Fresh);
        poller.stop();
    }
};

QTEST_GUILESS_MAIN(TestMonitoringTruth)
#include "tst_monitoringtruth.moc"
