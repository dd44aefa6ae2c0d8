// SPDX-License-Identifier: MIT
// The series store on explicit timestamps: rates with resets, windowed quantiles, gaps, the 10 s ring,
// wrap-around, pool aggregates, freshness, decimated views and the memory bound.
#include "metrics/metricsextractor.h"
#include "metrics/seriesstore.h"

#include <QFile>

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

using namespace pd;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t T0 = 1'700'000'000'000; // a multiple of 10 s

// An engine whose counters and histograms the test moves by hand.
struct FakeEngine {
    EngineMetrics m;
    explicit FakeEngine(bool mainGeneration = false)
    {
        m.running = 4;
        m.waiting = 1;
        m.kvUsage = 0.5;
        m.promptTokens = m.generationTokens = m.requestSuccess = 0;
        m.successByReason = {0, 0, 0, mainGeneration ? 0.0 : nan}; // "error" exists on main only
        m.preemptions = m.prefixQueries = m.prefixHits = 0;
        m.specDrafts = m.specDraftTokens = m.specAcceptedTokens = 0;
        m.processStartTime = 1000;
        for (int h = 0; h < int(Histogram::Count); ++h)
            setBounds(Histogram(h), {0.1, 0.5, 1.0, inf});
    }
    void setBounds(Histogram h, std::initializer_list<double> bounds)
    {
        HistogramSnapshot &s = m.histogram(h);
        s.bucketCount = int(bounds.size());
        int i = 0;
        for (double b : bounds) {
            s.bounds[std::size_t(i)] = b;
            s.counts[std::size_t(i++)] = 0;
        }
        s.count = 0;
        s.sum = 0;
    }
    void observe(Histogram h, double value, int n)
    {
        HistogramSnapshot &s = m.histogram(h);
        for (int i = 0; i < s.bucketCount; ++i)
            if (value <= s.bounds[std::size_t(i)])
                s.counts[std::size_t(i)] += n;
        s.count += n;
        s.sum += value * n;
    }
    void tokens(double prompt, double generation)
    {
        m.promptTokens += prompt;
        m.generationTokens += generation;
    }
};

EnginePoll ok(const FakeEngine &e, std::int64_t scrapedAtMs = 0)
{
    EnginePoll p;
    p.metrics = e.m;
    p.scrapedAtMs = scrapedAtMs;
    return p;
}

EnginePoll miss(const QString &message = QStringLiteral("timeout after 1000 ms"))
{
    EnginePoll p;
    p.error = PollError{PollError::Kind::Timeout, message};
    return p;
}

PollRound round(std::int64_t timeMs, std::vector<EnginePoll> engines)
{
    PollRound r;
    r.timeMs = timeMs;
    r.engines = std::move(engines);
    return r;
}

float at(const SeriesStore &s, const SeriesId &id, std::int64_t timeMs) { return s.valueAt(id, timeMs); }

bool near(double a, double b, double rel = 1e-5) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

#define QNEAR(a, b) QVERIFY2(near((a), (b)), qPrintable(QStringLiteral("%1 vs %2").arg(double(a), 0, 'g', 9).arg(double(b), 0, 'g', 9)))

} // namespace

class TestSeriesStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ratesAndCounterReset();
    void rateUsesScrapeTime();
    void histogramQuantilesAndMeans();
    void brokenHistogramIsNotCompared();
    void bothGenerations();
    void bothGenerationsFromSampleBodies_data();
    void bothGenerationsFromSampleBodies();
    void missedPollsLeaveGaps();
    void lateAndEarlyRounds();
    void tenSecondDownsampling();
    void wrapAroundAfterAnHour();
    void poolAggregates();
    void freshnessTransitions();
    void decimatedViews();
    void memoryBound();
};

void TestSeriesStore::ratesAndCounterReset()
{
    SeriesStore store({Role::Decode});
    FakeEngine e;
    const auto prompt = SeriesId::forEngine(0, Metric::PromptTokensRate);
    for (int i = 0; i < 10; ++i) {
        if (i > 0) {
            e.tokens(100, 50);
            e.m.requestSuccess += 2;
            e.m.successByReason[0] += 2;
        }
        store.ingest(round(T0 + i * 1000, {ok(e)}));
    }
    QVERIFY(std::isnan(at(store, prompt, T0))); // no base for the first scrape
    QCOMPARE(at(store, prompt, T0 + 5000), 100.0f);
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::GenerationTokensRate)), 50.0f);
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::RequestRate)), 2.0f);
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::FinishedStopRate)), 2.0f);
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::FinishedErrorRate)))); // not exposed
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::Running)), 4.0f);

    // The engine restarts (same process_start_time, as in multiprocess mode): counters fall back.
    EngineMetrics before = e.m;
    e.m.promptTokens = 30;
    e.m.generationTokens = 10;
    e.m.requestSuccess = 0;
    store.ingest(round(T0 + 10'000, {ok(e)}));
    QVERIFY(std::isnan(at(store, prompt, T0 + 10'000))); // a gap, not a spike (nor a negative rate)
    QCOMPARE(at(store, SeriesId::forEngine(0, Metric::Running), T0 + 10'000), 4.0f); // gauges go on
    QCOMPARE(store.status(0).restarts, 1);
    e.tokens(100, 50);
    store.ingest(round(T0 + 11'000, {ok(e)}));
    QCOMPARE(at(store, prompt, T0 + 11'000), 100.0f);

    // A changed process_start_time is a restart even when every counter went up.
    e.m.processStartTime = 2000;
    e.tokens(5000, 5000);
    store.ingest(round(T0 + 12'000, {ok(e)}));
    QVERIFY(std::isnan(at(store, prompt, T0 + 12'000)));
    QCOMPARE(store.status(0).restarts, 2);
    e.tokens(100, 50);
    store.ingest(round(T0 + 13'000, {ok(e)}));
    QCOMPARE(at(store, prompt, T0 + 13'000), 100.0f);

    const SeriesView v = store.seriesView(prompt, T0, T0 + 13'000, 1000);
    for (const QPointF &p : v.points)
        QVERIFY(std::isnan(p.y()) || p.y() == 100.0);
    Q_UNUSED(before);
}

void TestSeriesStore::rateUsesScrapeTime()
{
    SeriesStore store({Role::Prefill});
    FakeEngine e;
    store.ingest(round(T0, {ok(e, T0 + 100)}));
    e.tokens(130, 0);
    store.ingest(round(T0 + 1000, {ok(e, T0 + 1400)})); // the body came 1.3 s after the previous one
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::PromptTokensRate)), 100.0f);
    QCOMPARE(store.status(0).lastGoodMs, T0 + 1400);
    // The same body delivered again, stamped earlier: no rate, and the base does not move back.
    store.ingest(round(T0 + 2000, {ok(e, T0 + 1200)}));
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::PromptTokensRate))));
    e.tokens(200, 0);
    store.ingest(round(T0 + 3000, {ok(e, T0 + 3400)}));
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::PromptTokensRate)), 100.0f); // 200 over 2 s
}

void TestSeriesStore::histogramQuantilesAndMeans()
{
    SeriesStore store({Role::Prefill});
    FakeEngine e;
    store.ingest(round(T0, {ok(e)}));
    // Window 1: 10 at 0.05, 20 at 0.3, 10 at 0.8 -> cumulative deltas {10, 30, 40, 40}
    e.observe(Histogram::Ttft, 0.05, 10);
    e.observe(Histogram::Ttft, 0.3, 20);
    e.observe(Histogram::Ttft, 0.8, 10);
    store.ingest(round(T0 + 1000, {ok(e)}));
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftP50)), 0.3);
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftP90)), 0.8);  // rank 36: 0.5 + 0.5·6/10
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftP99)), 0.98); // rank 39.6: 0.5 + 0.5·9.6/10
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftMean)), 14.5 / 40);
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::E2eP50)))); // no observation: no value

    // Window 2: 5 observations above the last finite bound -> +Inf bucket -> the largest finite bound.
    e.observe(Histogram::Ttft, 5.0, 5);
    store.ingest(round(T0 + 2000, {ok(e)}));
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftP50)), 1.0);
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::TtftMean)), 5.0);

    // The 10 s slot holds both windows: deltas {10, 30, 40, 45}, quantiles from the sum, not a mean of p50s.
    const RingColumn coarse = store.column(SeriesId::forEngine(0, Metric::TtftP50), SeriesStore::Resolution::Coarse);
    QNEAR(coarse.at(coarse.lastSlot), 0.1 + 0.4 * (12.5 / 20)); // rank 22.5
    const RingColumn coarseMean = store.column(SeriesId::forEngine(0, Metric::TtftMean), SeriesStore::Resolution::Coarse);
    QNEAR(coarseMean.at(coarseMean.lastSlot), (14.5 + 25) / 45);
}

void TestSeriesStore::brokenHistogramIsNotCompared()
{
    // A snapshot claiming more buckets than it can hold (or a negative count) never reaches the
    // quantile maths; the other series go on.
    SeriesStore store({Role::Decode});
    FakeEngine e;
    e.m.histogram(Histogram::Ttft).bucketCount = 99;
    e.m.histogram(Histogram::E2e).bucketCount = -3;
    store.ingest(round(T0, {ok(e)}));
    e.tokens(100, 0);
    e.m.histogram(Histogram::Ttft).count += 5;
    store.ingest(round(T0 + 1000, {ok(e)}));
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::TtftP50))));
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::E2eP99))));
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::PromptTokensRate)), 100.0f);
}

void TestSeriesStore::bothGenerations()
{
    // The extractor maps 0.9.1 (gpu_cache_usage_perc, time_per_output_token_seconds, no "error" reason)
    // and main (kv_cache_usage_perc, inter_token_latency_seconds) onto the same fields; the store charts both.
    SeriesStore store({Role::Decode, Role::Decode});
    FakeEngine old(false), current(true);
    for (FakeEngine *e : {&old, &current})
        e->setBounds(Histogram::InterToken, {0.01, 0.025, 0.05, 0.075, 0.1, inf});
    store.ingest(round(T0, {ok(old), ok(current)}));
    for (FakeEngine *e : {&old, &current}) {
        e->observe(Histogram::InterToken, 0.03, 100);
        e->m.kvUsage = 0.7;
        e->m.requestSuccess += 1;
    }
    current.m.successByReason[3] += 1;
    store.ingest(round(T0 + 1000, {ok(old), ok(current)}));
    for (int engine : {0, 1}) {
        QCOMPARE(store.latest(SeriesId::forEngine(engine, Metric::KvUsage)), 0.7f);
        QNEAR(store.latest(SeriesId::forEngine(engine, Metric::InterTokenP50)), 0.025 + 0.025 * 0.5);
        QCOMPARE(store.latest(SeriesId::forEngine(engine, Metric::RequestRate)), 1.0f);
    }
    QVERIFY(std::isnan(store.latest(SeriesId::forEngine(0, Metric::FinishedErrorRate))));
    QCOMPARE(store.latest(SeriesId::forEngine(1, Metric::FinishedErrorRate)), 1.0f);
}

void TestSeriesStore::bothGenerationsFromSampleBodies_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("0.9.1") << QStringLiteral("sample-vllm-metrics.txt");
    QTest::newRow("main") << QStringLiteral("sample-vllm-metrics-main.txt");
}

void TestSeriesStore::bothGenerationsFromSampleBodies()
{
    // The real extractor on the two sample bodies, then one second of traffic added by hand.
    QFETCH(QString, file);
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/metrics/") + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray body = f.readAll();
    FakeEngine e;
    QVERIFY(MetricsExtractor::extract(std::string_view(body.constData(), std::size_t(body.size())), e.m).ok());
    QVERIFY(!std::isnan(e.m.kvUsage));
    const HistogramSnapshot &itl = e.m.histogram(Histogram::InterToken);
    QVERIFY(itl.bucketCount > 2); // time_per_output_token_seconds or inter_token_latency_seconds

    SeriesStore store({Role::Decode});
    store.ingest(round(T0, {ok(e)}));
    e.tokens(1000, 500);
    e.observe(Histogram::InterToken, 0.03, 100); // in (0.025, 0.05]
    e.m.specDrafts += 100;
    e.m.specDraftTokens += 100;
    e.m.specAcceptedTokens += 80;
    store.ingest(round(T0 + 1000, {ok(e)}));
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::KvUsage)), float(e.m.kvUsage));
    QCOMPARE(store.latest(SeriesId::forEngine(0, Metric::PromptTokensRate)), 1000.0f);
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::InterTokenP50)), 0.0375);
    QNEAR(store.latest(SeriesId::forEngine(0, Metric::InterTokenMean)), 0.03);
    if (!std::isnan(e.m.specDraftTokens))
        QNEAR(store.latest(SeriesId::forEngine(0, Metric::SpecAcceptanceRate)), 0.8);
    QCOMPARE(store.status(0).restarts, 0);
}

void TestSeriesStore::missedPollsLeaveGaps()
{
    SeriesStore store({Role::Decode, Role::Decode});
    FakeEngine a, b;
    for (int i = 0; i < 6; ++i) {
        if (i > 0) {
            a.tokens(0, 100);
            b.tokens(0, 100);
        }
        store.ingest(round(T0 + i * 1000, {ok(a), i == 3 ? miss() : ok(b)}));
    }
    const auto gen = [](int engine) { return SeriesId::forEngine(engine, Metric::GenerationTokensRate); };
    QCOMPARE(at(store, gen(0), T0 + 3000), 100.0f);
    QVERIFY(std::isnan(at(store, gen(1), T0 + 3000)));              // the missed round is a gap
    QVERIFY(std::isnan(at(store, SeriesId::forEngine(1, Metric::Running), T0 + 3000)));
    QCOMPARE(at(store, gen(1), T0 + 4000), 100.0f);                  // Δ over the 2 s since the last good scrape
    QCOMPARE(at(store, SeriesId::forPool(Pool::Decode, Metric::EnginesReporting), T0 + 3000), 1.0f);
    QCOMPARE(at(store, SeriesId::forPool(Pool::Decode, Metric::GenerationTokensRate), T0 + 3000), 100.0f);
    QCOMPARE(at(store, SeriesId::forPool(Pool::Decode, Metric::GenerationTokensRate), T0 + 4000), 200.0f);

    const SeriesView v = store.seriesView(gen(1), T0, T0 + 5000, 100);
    QCOMPARE(v.resolutionMs, 1000);
    QCOMPARE(v.points.size(), 5); // 2 s, break, 4 s, 5 s (the first has no rate) plus 1 s
    QVERIFY(std::isnan(v.points[2].y()));
    QCOMPARE(v.points[2].x(), double(T0 + 3000));
}

void TestSeriesStore::lateAndEarlyRounds()
{
    SeriesStore store({Role::Prefill});
    FakeEngine e;
    const auto prompt = SeriesId::forEngine(0, Metric::PromptTokensRate);
    for (int i = 0; i < 3; ++i) {
        e.tokens(i ? 100 : 0, 0);
        store.ingest(round(T0 + i * 1000, {ok(e)}));
    }
    // 5 s without any round (more than 2.5 periods): the store cannot vouch for 3..6 s.
    e.tokens(500, 0);
    store.ingest(round(T0 + 7000, {ok(e)}));
    for (int s = 3; s <= 6; ++s)
        QVERIFY2(std::isnan(at(store, prompt, T0 + s * 1000)), qPrintable(QString::number(s)));
    QCOMPARE(at(store, prompt, T0 + 7000), 100.0f);
    // A round 2 s late (jitter within 2.5 periods): its rate covers the skipped slot too.
    e.tokens(200, 0);
    store.ingest(round(T0 + 9000, {ok(e)}));
    QCOMPARE(at(store, prompt, T0 + 8000), 100.0f);
    QCOMPARE(at(store, prompt, T0 + 9000), 100.0f);
    // An early round in the same 1 s slot merges: the slot's rate is Δ over the union of both intervals.
    e.tokens(120, 0);
    store.ingest(round(T0 + 9400, {ok(e)}));
    QNEAR(at(store, prompt, T0 + 9000), 320.0 / 2.4);
    QCOMPARE(at(store, prompt, T0 + 8000), 100.0f); // the filled slot keeps what it had
    // A round older than the newest slot is dropped from the series.
    store.ingest(round(T0 + 5000, {ok(e)}));
    QCOMPARE(store.droppedRounds(), 1);
    QVERIFY(std::isnan(at(store, prompt, T0 + 5000)));
}

void TestSeriesStore::tenSecondDownsampling()
{
    SeriesStore store({Role::Prefill});
    FakeEngine e;
    for (int i = 0; i < 20; ++i) {
        e.m.running = i;
        e.m.kvUsage = 0.1 * (i % 3);
        if (i > 0)
            e.tokens(100 * (i % 2 + 1), 0);
        store.ingest(round(T0 + i * 1000, {ok(e)}));
    }
    using R = SeriesStore::Resolution;
    const RingColumn mean = store.column(SeriesId::forEngine(0, Metric::Running), R::Coarse);
    const RingColumn max = store.column(SeriesId::forEngine(0, Metric::Running, Agg::Max), R::Coarse);
    const RingColumn rate = store.column(SeriesId::forEngine(0, Metric::PromptTokensRate), R::Coarse);
    const RingColumn kvMax = store.column(SeriesId::forEngine(0, Metric::KvUsage, Agg::Max), R::Coarse);
    const std::int64_t s0 = T0 / 10'000;
    QCOMPARE(mean.lastSlot, s0 + 1);
    QCOMPARE(mean.at(s0), 4.5f);  // mean of 0..9
    QCOMPARE(max.at(s0), 9.0f);   // and its max
    QCOMPARE(mean.at(s0 + 1), 14.5f);
    QCOMPARE(max.at(s0 + 1), 19.0f);
    QNEAR(kvMax.at(s0), 0.2);
    QNEAR(rate.at(s0), 1400.0 / 9);  // nine 1 s intervals in the first slot (the first scrape is the base)
    QNEAR(rate.at(s0 + 1), 1500.0 / 10);
    // A 24 h view reads the 10 s ring.
    const SeriesView v = store.seriesView(SeriesId::forEngine(0, Metric::Running), T0 + 20'000 - 86'400'000, T0 + 20'000, 3200);
    QCOMPARE(v.resolutionMs, 10'000);
    QCOMPARE(v.points.size(), 2);
    QCOMPARE(v.points[0], QPointF(double(T0), 4.5));
}

void TestSeriesStore::wrapAroundAfterAnHour()
{
    SeriesStore store({Role::Decode});
    FakeEngine e;
    const int rounds = 3700;
    for (int i = 0; i < rounds; ++i) {
        e.m.running = i;
        store.ingest(round(T0 + std::int64_t(i) * 1000, {ok(e)}));
    }
    const auto running = SeriesId::forEngine(0, Metric::Running);
    const RingColumn fine = store.column(running, SeriesStore::Resolution::Fine);
    QCOMPARE(fine.lastSlot, T0 / 1000 + rounds - 1);
    QCOMPARE(fine.firstSlot, fine.lastSlot - 3599); // one hour kept
    QCOMPARE(fine.at(fine.firstSlot), float(rounds - 3600));
    QCOMPARE(store.latest(running), float(rounds - 1));
    // The first 100 s left the 1 s ring; the 10 s ring still answers.
    QCOMPARE(store.valueAt(running, T0 + 5000), 4.5f);
    const RingColumn coarse = store.column(running, SeriesStore::Resolution::Coarse);
    QCOMPARE(coarse.lastSlot - coarse.firstSlot + 1, std::int64_t(370));
    // A 1 h chart reads the 1 s ring, decimated to the width; 2 h needs the 10 s ring.
    const std::int64_t now = T0 + (rounds - 1) * 1000;
    const SeriesView hour = store.seriesView(running, now - 3'600'000, now, 3200);
    QCOMPARE(hour.resolutionMs, 1000);
    QVERIFY(hour.points.size() <= 3200);
    QCOMPARE(hour.points.last().y(), double(rounds - 1));
    QCOMPARE(store.seriesView(running, now - 7'200'000, now, 3200).resolutionMs, 10'000);
}

void TestSeriesStore::poolAggregates()
{
    SeriesStore store({Role::Prefill, Role::Prefill, Role::Prefill, Role::Decode, Role::Decode});
    std::vector<FakeEngine> e(5);
    const double running[5] = {1, 2, 3, 10, 20};
    for (int i = 0; i < 5; ++i)
        e[std::size_t(i)].m.running = running[i];
    e[4].setBounds(Histogram::Ttft, {0.2, 2.0, inf}); // other buckets: left out of the decode pool's quantile
    auto all = [&] {
        std::vector<EnginePoll> polls;
        for (const FakeEngine &f : e)
            polls.push_back(ok(f));
        return polls;
    };
    store.ingest(round(T0, all()));
    e[0].observe(Histogram::Ttft, 0.05, 10);
    e[1].observe(Histogram::Ttft, 0.3, 10);
    e[2].observe(Histogram::Ttft, 0.8, 10);
    e[3].observe(Histogram::Ttft, 0.3, 10);
    e[4].observe(Histogram::Ttft, 1.5, 10);
    for (int i = 0; i < 5; ++i) {
        e[std::size_t(i)].tokens(100 * (i + 1), 0);
        e[std::size_t(i)].m.prefixQueries += 100;
        e[std::size_t(i)].m.prefixHits += 10 * i;
    }
    store.ingest(round(T0 + 1000, all()));

    auto pool = [&](Pool p, Metric m, Agg a = Agg::Value) { return store.latest(SeriesId::forPool(p, m, a)); };
    QCOMPARE(pool(Pool::Prefill, Metric::Running), 6.0f);
    QCOMPARE(pool(Pool::Prefill, Metric::Running, Agg::Mean), 2.0f);
    QCOMPARE(pool(Pool::Prefill, Metric::Running, Agg::Max), 3.0f);
    QNEAR(pool(Pool::Prefill, Metric::Running, Agg::P99), 2.98); // quantile(0.99) over {1,2,3}
    QCOMPARE(pool(Pool::Decode, Metric::Running), 30.0f);
    QCOMPARE(pool(Pool::Cluster, Metric::Running), 36.0f);
    QCOMPARE(pool(Pool::Cluster, Metric::Running, Agg::Max), 20.0f);
    QCOMPARE(pool(Pool::Cluster, Metric::EnginesReporting), 5.0f);
    QCOMPARE(pool(Pool::Prefill, Metric::PromptTokensRate), 600.0f);
    QCOMPARE(pool(Pool::Cluster, Metric::PromptTokensRate), 1500.0f);
    QNEAR(pool(Pool::Cluster, Metric::PrefixHitRate), 100.0 / 500); // Σhits / Σqueries, not a mean of ratios
    // Latency: bucket deltas summed over the pool {10, 20, 30, 30}, then the quantile: rank 15 -> 0.3
    QNEAR(pool(Pool::Prefill, Metric::TtftP50), 0.3);
    QNEAR(pool(Pool::Prefill, Metric::TtftP50, Agg::Max), 0.75); // the worst engine's p50
    QNEAR(pool(Pool::Prefill, Metric::TtftP50, Agg::Mean), (0.05 + 0.3 + 0.75) / 3);
    QNEAR(pool(Pool::Prefill, Metric::TtftMean), (0.5 + 3 + 8) / 30.0);
    QNEAR(pool(Pool::Decode, Metric::TtftP50), 0.3);             // engine 4 has other bounds: only engine 3
    QNEAR(pool(Pool::Decode, Metric::TtftMean), (3 + 15) / 20.0); // means need no equal bounds
    QVERIFY(store.boundMismatches() > 0);
}

void TestSeriesStore::freshnessTransitions()
{
    SeriesStore store({Role::Decode, Role::Decode});
    QSignalSpy spy(&store, &SeriesStore::roundIngested);
    FakeEngine e;
    QCOMPARE(store.status(0).freshness, Freshness::Unknown);
    std::int64_t t = T0;
    store.ingest(round(t, {ok(e), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Fresh);
    QCOMPARE(store.freshnessChanged(), (std::vector<int>{0, 1}));
    QCOMPARE(spy.count(), 1); // one signal per round, not per engine
    const std::int64_t good = t;

    store.ingest(round(t += 1000, {miss(), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Fresh); // one miss is not stale yet
    QVERIFY(store.freshnessChanged().empty());
    store.ingest(round(t += 1000, {miss(), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Stale);
    QCOMPARE(store.freshnessChanged(), std::vector<int>{0});
    store.ingest(round(t += 1000, {miss(), ok(e)}));
    store.ingest(round(t += 1000, {miss(), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Stale);
    store.ingest(round(t += 1000, {miss(QStringLiteral("connection refused")), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Unreachable);
    QCOMPARE(store.status(0).consecutiveMisses, 5);
    QCOMPARE(store.status(0).lastError->message, QStringLiteral("connection refused"));
    QCOMPARE(store.status(0).lastGoodMs, good);
    store.ingest(round(t += 1000, {EnginePoll{}, ok(e)})); // not polled: nothing changes
    QCOMPARE(store.status(0).freshness, Freshness::Unreachable);
    store.ingest(round(t += 1000, {ok(e), ok(e)}));
    QCOMPARE(store.status(0).freshness, Freshness::Fresh);
    QCOMPARE(store.status(0).lastGoodMs, t);
    QCOMPARE(store.status(1).freshness, Freshness::Fresh);
    QCOMPARE(spy.count(), 8);
    QCOMPARE(spy.last().at(0).toLongLong(), t);
}

void TestSeriesStore::decimatedViews()
{
    SeriesStore store({Role::Decode, Role::Decode});
    FakeEngine a, b;
    const int rounds = 3600;
    for (int i = 0; i < rounds; ++i) {
        a.m.waiting = i == 1234 ? 500 : i % 7; // one spike
        b.m.waiting = 1;
        const bool gap = i >= 2000 && i < 2100; // 100 s when engine a is unreachable
        store.ingest(round(T0 + std::int64_t(i) * 1000, {gap ? miss() : ok(a), ok(b)}));
    }
    const std::int64_t now = T0 + (rounds - 1) * 1000;
    for (const SeriesId &id : {SeriesId::forEngine(0, Metric::Waiting), SeriesId::forPool(Pool::Decode, Metric::Waiting, Agg::Max)}) {
        const int width = 400;
        const SeriesView v = store.seriesView(id, now - 3'600'000, now, 2 * width);
        QVERIFY(v.points.size() <= 2 * width);
        double maxY = 0;
        int breaks = 0;
        for (const QPointF &p : v.points) {
            breaks += std::isnan(p.y());
            if (!std::isnan(p.y()))
                maxY = std::max(maxY, p.y());
        }
        QCOMPARE(maxY, 500.0); // min/max per column keeps the 1 s spike
        if (!id.isPool())
            QCOMPARE(breaks, 1); // the 100 s outage spans whole columns (9 s each)
        else
            QCOMPARE(breaks, 0); // the pool's max still has engine b
    }
    // An empty or invalid series yields no points.
    QVERIFY(store.seriesView(SeriesId::forEngine(7, Metric::Waiting), now - 60'000, now, 100).points.isEmpty());
    QVERIFY(store.seriesView(SeriesId::forEngine(0, Metric::EnginesReporting), now - 60'000, now, 100).points.isEmpty());
}

void TestSeriesStore::memoryBound()
{
    const int engines = 16;
    SeriesStore store(std::vector<Role>(engines, Role::Decode));
    const StoreMemory empty = store.memory();
    const std::size_t perEngine = std::size_t(kEngineMetricCount) * 3600 + std::size_t(kEngineMetricCount + kGaugeCount) * 8640;
    const std::size_t pools = std::size_t(kPoolCount) * (kEngineMetricCount * kAggCount + 1) * (3600 + 8640);
    QCOMPARE(empty.sampleCapacity, engines * perEngine + pools);
    QCOMPARE(empty.samples, std::size_t(0));
    QCOMPARE(empty.sealedBytes, std::size_t(0)); // nothing is allocated for history not yet seen

    // Twenty minutes of rounds: request counts and token rates that move every second.
    std::vector<FakeEngine> fleet(engines);
    const int rounds = 1200;
    for (int i = 0; i < rounds; ++i) {
        PollRound r;
        r.timeMs = T0 + std::int64_t(i) * 1000;
        for (int e = 0; e < engines; ++e) {
            FakeEngine &f = fleet[std::size_t(e)];
            f.m.running = double((i * 7 + e) % 23);
            f.m.waiting = double((i + e) % 3);
            f.m.kvUsage = 0.25 + 0.001 * double((i * 13 + e) % 400);
            f.tokens(1000 + (i * 37 + e) % 500, 300 + (i * 11) % 90);
            f.observe(Histogram::Ttft, 0.05 + 0.01 * double(i % 40), 2);
            r.engines.push_back(ok(f, r.timeMs));
        }
        store.ingest(r);
    }
    const StoreMemory mem = store.memory();
    QCOMPARE(mem.samples, std::size_t(engines * (kEngineMetricCount * rounds + (kEngineMetricCount + kGaugeCount) * (rounds / 10)))
                              + std::size_t(kPoolCount * (kEngineMetricCount * kAggCount + 1) * (rounds + rounds / 10)));
    QVERIFY(mem.sealedSamples > mem.samples / 2); // all but the two newest blocks of each ring
    QVERIFY2(mem.sealedBytesPerSample() < 1.5, qPrintable(QString::number(mem.sealedBytesPerSample())));
    QVERIFY(mem.stateBytes / engines < 16 * 1024); // per-engine state besides the rings
    // The newest values are exact; a sealed one keeps the precision the store was given.
    QCOMPARE(store.latest(SeriesId::forEngine(3, Metric::Running)), float(((rounds - 1) * 7 + 3) % 23));
    QCOMPARE(store.valueAt(SeriesId::forEngine(3, Metric::Running), T0 + 100'000), float((100 * 7 + 3) % 23));
}

QTEST_GUILESS_MAIN(TestSeriesStore)
#include "tst_seriesstore.moc"
