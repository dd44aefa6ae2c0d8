// SPDX-License-Identifier: MIT
// The libcurl engine poller against simulated engines on 127.0.0.1: healthy, refused, hung, failing.
#include "engine/simengine.h"
#include "net/metricspoller.h"
#include "runningparser.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace pd;
using namespace pd::sim;

namespace {

using pd::test::findRunning;

} // namespace

class TestMetricsPoller : public QObject {
    Q_OBJECT

private:
    std::vector<std::unique_ptr<SimEngine>> m_engines;

    SimEngine *startEngine()
    {
        EngineOptions o;
        o.host = QHostAddress(QStringLiteral("127.0.0.1"));
        o.port = 0;
        auto engine = std::make_unique<SimEngine>(o);
        if (!engine->start())
            return nullptr;
        m_engines.push_back(std::move(engine));
        return m_engines.back().get();
    }

    static PollTarget target(int engine, quint16 port) { return {engine, QByteArrayLiteral("127.0.0.1"), port, false, {} }; }

    // Collects outcomes per engine until every listed engine has one, or the time runs out.
    static QHash<int, PollOutcome> collect(MetricsPoller &poller, const QList<int> &engines, int timeoutMs)
    {
        QHash<int, PollOutcome> seen;
        QSignalSpy spy(&poller, &MetricsPoller::batchReady);
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            if (spy.isEmpty() && !spy.wait(200))
                continue;
            while (!spy.isEmpty()) {
                const auto batch = spy.takeFirst().at(0).value<PollBatch>();
                for (const PollOutcome &o : batch.outcomes)
                    seen.insert(o.engine, o);
            }
            bool all = true;
            for (int e : engines)
                all = all && seen.contains(e);
            if (all)
                break;
        }
        return seen;
    }

private Q_SLOTS:
    void cleanup() { m_engines.clear(); }

    void pollsHealthyEnginesInBatches()
    {
        QList<PollTarget> targets;
        for (int i = 0; i < 3; ++i) {
            SimEngine *e = startEngine();
            QVERIFY(e);
            targets.append(target(i, e->port()));
        }
        MetricsPoller poller(findRunning);
        poller.setInterval(100);
        poller.setTargets(targets);
        poller.start();
        const auto seen = collect(poller, {0, 1, 2}, 5000);
        QCOMPARE(seen.size(), 3);
        for (const PollOutcome &o : seen) {
            QCOMPARE(o.status, PollStatus::Ok);
            QCOMPARE(o.httpStatus, 200);
            QCOMPARE(o.healthStatus, 200);
            QVERIFY(o.metrics.has_value());
            QCOMPARE(o.metrics->running, 0.0);
            QVERIFY(o.bodyBytes > 10000);
        }
        // Each target is re-armed after its reply: polls keep coming, one at a time per engine.
        QTRY_VERIFY_WITH_TIMEOUT(poller.completedPolls() >= 12, 5000);
        QVERIFY(poller.cpuSeconds() > 0);
    }

    // setHealthEvery(0) (benchmarks timing /metrics alone): a healthy engine is never asked for /health,
    // so its outcomes carry no /health status; the console's default asks every second poll.
    void healthEveryZeroLeavesHealthUnasked()
    {
        SimEngine *e = startEngine();
        QVERIFY(e);
        MetricsPoller poller(findRunning);
        poller.setInterval(50);
        poller.setHealthEvery(0);
        poller.setTargets({ target(0, e->port()) });
        QSignalSpy spy(&poller, &MetricsPoller::batchReady);
        poller.start();
        int outcomes = 0;
        QString unexpected; // the first outcome that was not a plain /metrics answer
        auto drain = [&] {
            while (!spy.isEmpty())
                for (const PollOutcome &o : spy.takeFirst().at(0).value<PollBatch>().outcomes) {
                    ++outcomes;
                    if (unexpected.isEmpty() && (o.status != PollStatus::Ok || o.healthStatus != 0))
                        unexpected = QStringLiteral("poll %1: status %2, /health %3")
                                         .arg(outcomes)
                                         .arg(int(o.status))
                                         .arg(o.healthStatus);
                }
            return !unexpected.isEmpty() || outcomes >= 6;
        };
        QTRY_VERIFY_WITH_TIMEOUT(drain(), 10000);
        QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected));
        QVERIFY(poller.completedPolls() >= 6);
    }

    void reportsRefusedHungAndFailingEngines()
    {
        SimEngine *healthy = startEngine();
        SimEngine *stopped = startEngine();
        SimEngine *hung = startEngine();
        SimEngine *failing = startEngine();
        QVERIFY(healthy && stopped && hung && failing);
        const quint16 stoppedPort = stopped->port();
        stopped->stop();
        hung->setFault(FaultKind::Hang);
        failing->setFault(FaultKind::Http500);
        MetricsPoller poller(findRunning);
        poller.setInterval(100);
        poller.setTimeout(400);
        poller.setTargets({target(0, healthy->port()), target(1, stoppedPort), target(2, hung->port()),
                           target(3, failing->port())});
        poller.start();
        const auto seen = collect(poller, {0, 1, 2, 3}, 8000);
        QCOMPARE(seen.value(0).status, PollStatus::Ok);
        QCOMPARE(seen.value(1).status, PollStatus::Refused);
        QVERIFY2(seen.value(1).error.contains(QStringLiteral("onnect")), qPrintable(seen.value(1).error));
        QCOMPARE(seen.value(2).status, PollStatus::Timeout);
        QVERIFY2(seen.value(2).error.contains(QStringLiteral("imeout")) || seen.value(2).error.contains(QStringLiteral("timed out")),
                 qPrintable(seen.value(2).error));
        QVERIFY(seen.value(2).latencyMs >= 350);
        const PollOutcome failed = seen.value(3);
        QVERIFY2(failed.status == PollStatus::HttpError || failed.healthStatus == 500,
                 qPrintable(pollStatusName(failed.status) + QLatin1Char(' ') + failed.error));
        QCOMPARE(failed.healthStatus, 500);
    }

    // A label-cardinality runaway (pdsim's big-metrics fault, ~6 MiB) fails the poll at the 4 MiB cap with a
    // reason that says so; once the exposition is back to normal the next polls are good again.
    void anOversizedExpositionFailsAtTheCapAndRecovers()
    {
        SimEngine *engine = startEngine();
        QVERIFY(engine);
        engine->setFault(FaultKind::BigMetrics);
        MetricsPoller poller(findRunning);
        poller.setInterval(100);
        poller.setTimeout(3000);
        poller.setTargets({ target(0, engine->port()) });
        poller.start();
        const PollOutcome big = collect(poller, { 0 }, 10000).value(0);
        QVERIFY2(big.status == PollStatus::Failed || big.status == PollStatus::Malformed,
            qPrintable(pollStatusName(big.status) + QLatin1Char(' ') + big.error));
        QVERIFY2(big.error.contains(QLatin1String("4 MiB")), qPrintable(big.error));
        engine->setFault(FaultKind::None);
        QSignalSpy spy(&poller, &MetricsPoller::batchReady);
        bool good = false;
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
            while (!spy.isEmpty())
                for (const PollOutcome &o : spy.takeFirst().at(0).value<PollBatch>().outcomes)
                    good = good || (o.status == PollStatus::Ok && o.metrics.has_value());
            return good;
        }()),
            15000);
    }

    void aNewTargetListDropsTheOldRounds()
    {
        SimEngine *a = startEngine();
        SimEngine *b = startEngine();
        QVERIFY(a && b);
        MetricsPoller poller(findRunning);
        poller.setInterval(100);
        poller.setTargets({target(7, a->port())});
        poller.start();
        QVERIFY(collect(poller, {7}, 5000).contains(7));
        poller.setTargets({target(8, b->port())});
        QSignalSpy spy(&poller, &MetricsPoller::batchReady);
        QTRY_VERIFY_WITH_TIMEOUT(spy.size() >= 3, 5000);
        for (const auto &args : std::as_const(spy))
            for (const PollOutcome &o : args.at(0).value<PollBatch>().outcomes)
                QCOMPARE(o.engine, 8);
    }

    void automaticLoopCountFollowsFleetAndCores()
    {
        QCOMPARE(MetricsPoller::automaticLoops(0, 2), 1);
        QCOMPARE(MetricsPoller::automaticLoops(72, 2), 1);
        QCOMPARE(MetricsPoller::automaticLoops(256, 8), 1);
        QCOMPARE(MetricsPoller::automaticLoops(257, 8), 2);
        QCOMPARE(MetricsPoller::automaticLoops(1024, 2), 2);  // never more loops than cores
        QCOMPARE(MetricsPoller::automaticLoops(1024, 1), 1);
        QCOMPARE(MetricsPoller::automaticLoops(1024, 0), 1);  // hardware_concurrency() unknown
        QCOMPARE(MetricsPoller::automaticLoops(5000, 64), MetricsPoller::kMaxLoops);
    }

    // Three loops share five engines: the store still gets one batch per round with every engine once,
    // all outcomes on one clock.
    void severalLoopsMergeIntoOneBatchPerRound()
    {
        QList<PollTarget> targets;
        for (int i = 0; i < 5; ++i) {
            SimEngine *e = startEngine();
            QVERIFY(e);
            targets.append(target(10 + i, e->port()));
        }
        MetricsPoller poller(findRunning);
        poller.setLoopCount(3);
        poller.setInterval(200);
        poller.setSpread(false); // every engine due at the same tick: one round = one batch of five
        poller.setTargets(targets);
        QCOMPARE(poller.loopCount(), 3);
        QSignalSpy spy(&poller, &MetricsPoller::batchReady);
        QElapsedTimer running;
        running.start();
        poller.start();
        QTRY_VERIFY_WITH_TIMEOUT(spy.size() >= 6, 10000);
        poller.stop();
        const qint64 elapsed = running.elapsed();
        // One batch per interval, not one per loop and interval (three times as many).
        QVERIFY2(spy.size() <= elapsed / 200 + 3,
            qPrintable(QStringLiteral("%1 batches in %2 ms").arg(spy.size()).arg(elapsed)));
        int whole = 0;
        for (const auto &args : std::as_const(spy)) {
            const PollBatch batch = args.at(0).value<PollBatch>();
            // A loop whose cut came late on a loaded machine may hold one engine's two polls: count engines.
            QSet<int> engines;
            for (const PollOutcome &o : batch.outcomes) {
                engines.insert(o.engine);
                QCOMPARE(o.status, PollStatus::Ok);
                // One clock: no outcome finished after the batch was cut, none long before.
                QVERIFY2(o.finishedAtMs <= batch.roundAtMs,
                    qPrintable(QStringLiteral("%1 > %2").arg(o.finishedAtMs).arg(batch.roundAtMs)));
                QVERIFY(batch.roundAtMs - o.finishedAtMs < 5000);
            }
            whole += engines.size() == 5 ? 1 : 0;
        }
        // Rounds at the edges (start, a late loop on a loaded machine) may be partial, most hold all three
        // loops' engines.
        QVERIFY2(whole >= 2, qPrintable(QStringLiteral("%1 whole rounds of %2 batches").arg(whole).arg(spy.size())));
        QCOMPARE(poller.completedPolls() >= 5u, true);
    }

    void backToOneLoopForASmallFleet()
    {
        SimEngine *e = startEngine();
        QVERIFY(e);
        MetricsPoller poller(findRunning);
        poller.setLoopCount(2);
        poller.setTargets({target(1, e->port())});
        QCOMPARE(poller.loopCount(), 2);
        poller.setLoopCount(0);
        poller.setInterval(100);
        poller.setTargets({target(2, e->port())});
        QCOMPARE(poller.loopCount(), 1);
        poller.start();
        QVERIFY(collect(poller, {2}, 5000).contains(2));
    }
};

QTEST_GUILESS_MAIN(TestMetricsPoller)
#include "tst_metricspoller.moc"
