// SPDX-License-Identifier: MIT
// The engine's load model on a hand-driven clock: step times against realistic-load.md's calibration
// figures, admission caps, queueing, KV usage, MTP, stall and abort accounting.
#include "engine/loadmodel.h"

#include <QTest>

using namespace pd::sim;

namespace {

EngineOptions options(EngineRole role)
{
    EngineOptions o;
    o.role = role;
    o.timing.jitter = false;
    return o;
}

// Runs the model until it is idle (bounded), returning every event.
QList<ModelEvent> runToIdle(LoadModel &m, ManualClock &clock, double limit = 1e5)
{
    QList<ModelEvent> all;
    while (std::isfinite(m.nextEventTime()) && clock.now() < limit) {
        clock.set(m.nextEventTime());
        all += m.advance();
    }
    return all;
}

} // namespace

class TestSimEngineLoadModel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepTimes_data();
    void stepTimes();
    void kvPull();
    void prefillCapsRunningAndQueues();
    void decodeBatchAndKvUsage();
    void mtpAcceptance();
    void stallFreezesEverything();
    void abortCountsAsFinished();
    void naturalLengthFinishesByStop();
};

void TestSimEngineLoadModel::stepTimes_data()
{
    QTest::addColumn<int>("role");
    QTest::addColumn<QList<int>>("prefill");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("context");
    QTest::addColumn<double>("seconds");
    // realistic-load.md §2.2 and the §2.4 table (mean context 4.1k).
    QTest::newRow("one 3.5k prompt") << 0 << QList<int>{3500} << 0 << 0 << 0.35;
    QTest::newRow("full prefill step") << 0 << QList<int>{3500, 3500, 3500, 3500} << 0 << 0 << 1.25;
    QTest::newRow("decode b=1") << 1 << QList<int>{} << 1 << 4100 << 0.042;
    QTest::newRow("decode b=8") << 1 << QList<int>{} << 8 << 4100 << 0.056;
    QTest::newRow("decode b=16") << 1 << QList<int>{} << 16 << 4100 << 0.072;
    QTest::newRow("decode b=28") << 1 << QList<int>{} << 28 << 4100 << 0.096;
    QTest::newRow("decode b=28 16k") << 1 << QList<int>{} << 28 << 16000 << 0.129;
}

void TestSimEngineLoadModel::stepTimes()
{
    QFETCH(int, role);
    QFETCH(QList<int>, prefill);
    QFETCH(int, batch);
    QFETCH(int, context);
    QFETCH(double, seconds);
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole(role)), clock, stats, 1);
    const std::vector<int> p(prefill.begin(), prefill.end());
    const std::vector<int> d(std::size_t(batch), context);
    const double t = m.stepTime(p, d);
    QVERIFY2(std::abs(t - seconds) < seconds * 0.03, qPrintable(QString::number(t)));
}

void TestSimEngineLoadModel::kvPull()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Decode), clock, stats, 1);
    // 3.5k prompt: 10 ms + 250 MB / 20 GB/s ≈ 23 ms; first contact +240 ms (§2.3)
    QVERIFY(std::abs(m.kvPullTime(3500, false) - 0.0225) < 0.001);
    QVERIFY(std::abs(m.kvPullTime(3500, true) - 0.2625) < 0.001);
}

void TestSimEngineLoadModel::prefillCapsRunningAndQueues()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Prefill), clock, stats, 1);
    for (int i = 0; i < 10; ++i)
        m.submit({3500, 1, 1, 1, 0, false, {}, true});
    ModelSnapshot s = m.snapshot();
    QCOMPARE(s.running, 4); // max-num-seqs 4
    QCOMPARE(s.waiting, 6);
    const QList<ModelEvent> events = runToIdle(m, clock);
    int finished = 0;
    for (const ModelEvent &e : events)
        finished += e.finished ? 1 : 0;
    QCOMPARE(finished, 10);
    QCOMPARE(stats.success[std::size_t(FinishReason::Length)], 10.0);
    QCOMPARE(stats.e2e.count(), 10.0);
    QCOMPARE(stats.ttft.count(), 10.0);
    QCOMPARE(stats.tpot.count(), 0.0); // prefill engines observe no TPOT
    QCOMPARE(stats.promptTokens, 35000.0);
    // The first request starts a step alone (the engine was idle); the rest batch 4, 4, 1.
    QCOMPARE(stats.iterationTokens.count(), 4.0);
    QCOMPARE(stats.iterationTokens.sum(), 35000.0 + 10);
    // three warm-up steps at 3× (0.35, 1.25, 1.25 s), then 0.35 s
    QVERIFY2(std::abs(clock.now() - (3 * (0.3506 + 1.2524 + 1.2524) + 0.3506)) < 0.05,
             qPrintable(QString::number(clock.now())));
    QVERIFY(stats.queueTime.sum() > 0);
    // KV of finished prefills stays held until the decoder pulled it
    m.refreshGauges();
    QVERIFY(stats.kvUsage > 0);
    clock.advance(1.0);
    m.refreshGauges();
    QCOMPARE(stats.kvUsage, 0.0);
}

void TestSimEngineLoadModel::decodeBatchAndKvUsage()
{
    ManualClock clock;
    EngineStats stats;
    EngineOptions o = options(EngineRole::Decode);
    o.timing.mtpAcceptance = 0;
    o.timing.speculativeTokens = 0;
    LoadModel m(o, clock, stats, 1);
    for (int i = 0; i < 30; ++i)
        m.submit({4096, 50, 50, 1, 0, true, "p0", false});
    QCOMPARE(m.snapshot().pulling, 28);
    QCOMPARE(m.snapshot().waiting, 30); // pulls count as waiting
    clock.set(0.3);                      // all pulls done (first contact 240 ms + 25 ms)
    m.advance();
    m.refreshGauges();
    QCOMPARE(stats.running, 28.0);
    QCOMPARE(stats.waiting, 2.0);
    // 28 × ceil(4097 / 128) blocks of 2,344: ≈ 0.39 (§2.6: 0.25–0.45 at full load)
    QVERIFY(stats.kvUsage > 0.35 && stats.kvUsage < 0.45);
    runToIdle(m, clock);
    QCOMPARE(stats.success[std::size_t(FinishReason::Length)], 30.0);
    QCOMPARE(stats.generationTokens, 1500.0);
    // Without MTP, TPOT ≈ the step time at b = 28 and ≈ 4.1k context: ≈ 96 ms
    const double tpot = stats.tpot.sum() / stats.tpot.count();
    QVERIFY2(tpot > 0.08 && tpot < 0.1, qPrintable(QString::number(tpot)));
    QCOMPARE(stats.tpot.count(), 30.0 * 49);
}

void TestSimEngineLoadModel::mtpAcceptance()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Decode), clock, stats, 42);
    for (int i = 0; i < 20; ++i)
        m.submit({1000, 500, 500, 1, 0, false, {}, false});
    runToIdle(m, clock);
    const double rate = stats.specAccepted / stats.specDraftTokens;
    QVERIFY2(std::abs(rate - 0.8) < 0.03, qPrintable(QString::number(rate)));
    QCOMPARE(stats.generationTokens, 20.0 * 500);
    // tokens = first tokens + one per TPOT observation + accepted drafts
    QCOMPARE(stats.generationTokens, 20 + stats.tpot.count() + stats.specAccepted);
    QCOMPARE(stats.specAcceptedPerPos[0], stats.specAccepted);
}

void TestSimEngineLoadModel::stallFreezesEverything()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Decode), clock, stats, 1);
    m.submit({100, 1000, 1000, 1, 0, false, {}, false});
    clock.set(1.0);
    m.advance();
    const double tokens = stats.generationTokens;
    QVERIFY(tokens > 1);
    m.setStalled(true);
    QVERIFY(!std::isfinite(m.nextEventTime()));
    clock.set(100.0);
    QVERIFY(m.advance().isEmpty());
    QCOMPARE(stats.generationTokens, tokens);
    m.submit({100, 10, 10, 1, 0, false, {}, false});
    QCOMPARE(m.snapshot().waiting, 1); // queued behind the stuck batch
    m.setStalled(false);
    QVERIFY(m.nextEventTime() >= 100.0);
    runToIdle(m, clock, 1e6);
    QCOMPARE(stats.finishedRequests(), 2.0);
}

void TestSimEngineLoadModel::abortCountsAsFinished()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Decode), clock, stats, 1);
    const quint64 a = m.submit({100, 1000, 1000, 1, 0, false, {}, false});
    m.submit({100, 10, 10, 1, 0, false, {}, false});
    clock.set(0.5);
    m.advance();
    QVERIFY(m.abort(a));
    QVERIFY(!m.abort(a));
    runToIdle(m, clock);
    QCOMPARE(stats.success[std::size_t(FinishReason::Abort)], 1.0);
    QCOMPARE(stats.success[std::size_t(FinishReason::Length)], 1.0);
    QCOMPARE(stats.e2e.count(), 2.0);
    QCOMPARE(stats.requestGenerationTokens.count(), 2.0);
}

void TestSimEngineLoadModel::naturalLengthFinishesByStop()
{
    ManualClock clock;
    EngineStats stats;
    LoadModel m(options(EngineRole::Decode), clock, stats, 3);
    m.submit({100, 64, 20, 1, 0, false, {}, false}); // EOS after 20 of 64 allowed tokens
    runToIdle(m, clock);
    QCOMPARE(stats.success[std::size_t(FinishReason::Stop)], 1.0);
    QCOMPARE(stats.requestGenerationTokens.sum(), 20.0);
    double sum = 0;
    for (int i = 0; i < 2000; ++i)
        sum += m.sampleOutputLength();
    QVERIFY(std::abs(sum / 2000 - 1100) < 60); // lognormal mean 1,100 (§2.1)
}

QTEST_GUILESS_MAIN(TestSimEngineLoadModel)
#include "tst_simengineloadmodel.moc"
