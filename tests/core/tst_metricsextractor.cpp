// SPDX-License-Identifier: MIT
// MetricsExtractor: both sample expositions reduced to EngineMetrics with the values read by hand
// from the files, name generations, numeric buckets, several engines, malformed bodies.
#include "metrics/metricsextractor.h"
#include "testdata.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace pd;

namespace {

QByteArray readFixture(const char *name)
{
    return test::readTestData(QStringLiteral("metrics/") + QLatin1String(name));
}

std::string_view view(const QByteArray &b) { return {b.constData(), std::size_t(b.size())}; }

std::vector<double> bounds(const HistogramSnapshot &h)
{
    return {h.bounds.begin(), h.bounds.begin() + h.bucketCount};
}
std::vector<double> counts(const HistogramSnapshot &h)
{
    return {h.counts.begin(), h.counts.begin() + h.bucketCount};
}

const double kInf = std::numeric_limits<double>::infinity();
const std::vector<double> kTtftBounds{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
                                      2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0, kInf};
const std::vector<double> kTtftCounts{0, 0, 0, 0, 17, 104, 328, 753, 6925, 14247, 16857, 17793,
                                      18457, 18473, 18473, 18473, 18473, 18473, 18473, 18473, 18473, 18473, 18473};
const std::vector<double> kItlBounds{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
                                     0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, kInf};
const std::vector<double> kItlCounts{22, 78720, 3.82405e+06, 1.0491601e+07, 1.4252473e+07, 1.6130259e+07,
                                     1.6325319e+07, 1.6345969e+07, 1.6346476e+07, 1.6346498e+07, 1.6346498e+07,
                                     1.6346498e+07, 1.6346498e+07, 1.6346498e+07, 1.6346498e+07, 1.6346498e+07,
                                     1.6346498e+07, 1.6346498e+07, 1.6346498e+07, 1.6346498e+07};
const std::vector<double> kLatencyBounds{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0,
                                         30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0, kInf};

} // namespace

class TestMetricsExtractor final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void samples_data();
    void samples();
    void newNamesWin_data();
    void newNamesWin();
    void bucketsAreNumericAndOrderFree();
    void finishedReasons();
    void severalEngines();
    void malformedBodyIsAnError();
    void bodyWithoutVllmIsNotAnError();
    void tooManyBuckets();
};

void TestMetricsExtractor::samples_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<bool>("main");
    QTest::newRow("0.9.1") << QByteArray("sample-vllm-metrics.txt") << false;
    QTest::newRow("main") << QByteArray("sample-vllm-metrics-main.txt") << true;
}

void TestMetricsExtractor::samples()
{
    QFETCH(QByteArray, file);
    QFETCH(bool, main);
    const QByteArray body = readFixture(file.constData());
    EngineMetrics m;
    const auto r = MetricsExtractor::extract(view(body), m);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(r.droppedHistograms, 0);
    QCOMPARE(r.samplesRead + r.samplesSkipped, std::size_t(main ? 510 : 373));

    QCOMPARE(m.running, 41.0);
    QCOMPARE(m.waiting, 2.0);
    QCOMPARE(m.kvUsage, 0.6237384506949017);
    QCOMPARE(m.promptTokens, 4.127943e+07);
    QCOMPARE(m.generationTokens, 2.97691e+07);
    QCOMPARE(m.requestSuccess, 18432.0); // 17804 stop + 611 length + 17 abort (+ 0 error on main)
    QCOMPARE(m.successByReason[0], 17804.0);
    QCOMPARE(m.successByReason[1], 611.0);
    QCOMPARE(m.successByReason[2], 17.0);
    if (main)
        QCOMPARE(m.successByReason[3], 0.0);
    else
        QVERIFY(std::isnan(m.successByReason[3]));
    QCOMPARE(m.preemptions, 37.0);
    QCOMPARE(m.prefixQueries, 4.1297653e+07);
    QCOMPARE(m.prefixHits, 7.689622e+06);
    QCOMPARE(m.specDrafts, 1.6346498e+07);
    QCOMPARE(m.specDraftTokens, 1.6346498e+07);
    QCOMPARE(m.specAcceptedTokens, 1.3425378e+07);
    QCOMPARE(m.processStartTime, 1.75256280053e+09);

    const HistogramSnapshot &ttft = m.histogram(Histogram::Ttft);
    QCOMPARE(bounds(ttft), kTtftBounds);
    QCOMPARE(counts(ttft), kTtftCounts);
    QCOMPARE(ttft.count, 18473.0);
    QCOMPARE(ttft.sum, 7068.426813035167);

    // 0.9.1 has only time_per_output_token_seconds, main only inter_token_latency_seconds.
    const HistogramSnapshot &itl = m.histogram(Histogram::InterToken);
    QCOMPARE(bounds(itl), kItlBounds);
    QCOMPARE(counts(itl), kItlCounts);
    QCOMPARE(itl.count, 1.6346498e+07);
    QCOMPARE(itl.sum, 1.1479812190686443e+06);

    const HistogramSnapshot &e2e = m.histogram(Histogram::E2e);
    QCOMPARE(bounds(e2e), kLatencyBounds);
    QCOMPARE(e2e.counts[0], 0.0);       // le="0.3"
    QCOMPARE(e2e.counts[4], 3.0);       // le="1.5"
    QCOMPARE(e2e.counts[21], 18432.0);  // le="+Inf"
    QCOMPARE(e2e.count, 18432.0);
    QCOMPARE(e2e.sum, 1.1040971429718174e+06);

    const HistogramSnapshot &queue = m.histogram(Histogram::QueueTime);
    QCOMPARE(bounds(queue), kLatencyBounds);
    QCOMPARE(queue.counts[0], 18323.0);
    QCOMPARE(queue.counts[4], 18429.0);
    QCOMPARE(queue.count, 18432.0);
    QCOMPARE(queue.sum, 504.6240822393023);

    QCOMPARE(m.histogram(Histogram::PrefillTime).bucketCount, 22);
    QCOMPARE(m.histogram(Histogram::PrefillTime).sum, 6551.092730795874);
    QCOMPARE(m.histogram(Histogram::DecodeTime).bucketCount, 22);
    QCOMPARE(m.histogram(Histogram::DecodeTime).sum, 1.0969676981587692e+06);
    for (const HistogramSnapshot &h : m.histograms)
        QCOMPARE(h.counts[std::size_t(h.bucketCount - 1)], h.count); // +Inf bucket == _count
}

void TestMetricsExtractor::newNamesWin_data()
{
    QTest::addColumn<QByteArray>("body");
    const QByteArray oldFirst =
        "vllm:gpu_cache_usage_perc{engine=\"0\"} 0.25\n"
        "vllm:kv_cache_usage_perc{engine=\"0\"} 0.5\n"
        "vllm:gpu_prefix_cache_queries_total{engine=\"0\"} 10\n"
        "vllm:prefix_cache_queries_total{engine=\"0\"} 20\n"
        "vllm:gpu_prefix_cache_hits_total{engine=\"0\"} 1\n"
        "vllm:prefix_cache_hits_total{engine=\"0\"} 2\n"
        "vllm:time_per_output_token_seconds_bucket{le=\"0.1\"} 1\n"
        "vllm:time_per_output_token_seconds_bucket{le=\"+Inf\"} 1\n"
        "vllm:time_per_output_token_seconds_count 1\n"
        "vllm:inter_token_latency_seconds_bucket{le=\"0.2\"} 5\n"
        "vllm:inter_token_latency_seconds_bucket{le=\"+Inf\"} 6\n"
        "vllm:inter_token_latency_seconds_count 6\n";
    QTest::newRow("old first") << oldFirst;
    QList<QByteArray> lines = oldFirst.trimmed().split('\n');
    std::reverse(lines.begin(), lines.end());
    QTest::newRow("new first") << (lines.join('\n') + '\n');
}

void TestMetricsExtractor::newNamesWin()
{
    QFETCH(QByteArray, body);
    EngineMetrics m;
    QVERIFY(MetricsExtractor::extract(view(body), m).ok());
    QCOMPARE(m.kvUsage, 0.5);
    QCOMPARE(m.prefixQueries, 20.0);
    QCOMPARE(m.prefixHits, 2.0);
    const HistogramSnapshot &itl = m.histogram(Histogram::InterToken);
    QCOMPARE(bounds(itl), (std::vector<double>{0.2, kInf}));
    QCOMPARE(itl.count, 6.0);

    // Only the old names: they fill the same fields.
    const QByteArray old = "vllm:gpu_cache_usage_perc 0.25\nvllm:gpu_prefix_cache_hits_total 1\n";
    QVERIFY(MetricsExtractor::extract(view(old), m).ok());
    QCOMPARE(m.kvUsage, 0.25);
    QCOMPARE(m.prefixHits, 1.0);
    QVERIFY(std::isnan(m.prefixQueries));
}

void TestMetricsExtractor::bucketsAreNumericAndOrderFree()
{
    // Multi-process registries print _sum first and may order buckets differently; bounds are
    // compared as numbers ("2.097152e+06" > "1000.0" although it sorts before it as text).
    const QByteArray body =
        "vllm:time_to_first_token_seconds_sum{engine=\"0\"} 12.5\n"
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"2.097152e+06\"} 9\n"
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\"} 10\n"
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"1000.0\"} 7\n"
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"1e+03\"} 100\n" // same bound again: summed
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"5.0\"} 3\n"
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"bogus\"} 3\n"   // ignored
        "vllm:time_to_first_token_seconds_bucket{engine=\"0\"} 3\n"                // no le: ignored
        "vllm:time_to_first_token_seconds_count{engine=\"0\"} 10\n";
    EngineMetrics m;
    QVERIFY(MetricsExtractor::extract(view(body), m).ok());
    const HistogramSnapshot &h = m.histogram(Histogram::Ttft);
    QCOMPARE(bounds(h), (std::vector<double>{5.0, 1000.0, 2097152.0, kInf}));
    QCOMPARE(counts(h), (std::vector<double>{3, 107, 9, 10}));
    QCOMPARE(h.sum, 12.5);
    QCOMPARE(h.count, 10.0);
}

void TestMetricsExtractor::finishedReasons()
{
    const QByteArray body =
        "vllm:request_success_total{engine=\"0\",finished_reason=\"stop\"} 5\n"
        "vllm:request_success_total{engine=\"0\",finished_reason=\"error\"} 2\n"
        "vllm:request_success_total{engine=\"0\",finished_reason=\"timeout\"} 1\n" // a future reason
        "vllm:request_success_created{engine=\"0\",finished_reason=\"stop\"} 1.7e9\n";
    EngineMetrics m;
    const auto r = MetricsExtractor::extract(view(body), m);
    QVERIFY(r.ok());
    QCOMPARE(r.samplesSkipped, std::size_t(1)); // _created
    QCOMPARE(m.requestSuccess, 8.0);
    QCOMPARE(m.successByReason[0], 5.0);
    QVERIFY(std::isnan(m.successByReason[1]));
    QVERIFY(std::isnan(m.successByReason[2]));
    QCOMPARE(m.successByReason[3], 2.0);
}

void TestMetricsExtractor::severalEngines()
{
    const QByteArray body =
        "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3\n"
        "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 4\n"
        "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.75\n"
        "vllm:kv_cache_usage_perc{engine=\"1\",model_name=\"m\"} 0.25\n"
        "vllm:e2e_request_latency_seconds_bucket{engine=\"0\",le=\"1.0\",model_name=\"m\"} 1\n"
        "vllm:e2e_request_latency_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} 2\n"
        "vllm:e2e_request_latency_seconds_bucket{engine=\"1\",le=\"1.0\",model_name=\"m\"} 10\n"
        "vllm:e2e_request_latency_seconds_bucket{engine=\"1\",le=\"+Inf\",model_name=\"m\"} 20\n";
    EngineMetrics all;
    QVERIFY(MetricsExtractor::extract(view(body), all).ok());
    QCOMPARE(all.running, 7.0);
    QCOMPARE(all.kvUsage, 0.75);
    QCOMPARE(counts(all.histogram(Histogram::E2e)), (std::vector<double>{11, 22}));

    EngineMetrics one;
    MetricsExtractor::Options o;
    o.engine = "1";
    QVERIFY(MetricsExtractor::extract(view(body), one, o).ok());
    QCOMPARE(one.running, 4.0);
    QCOMPARE(one.kvUsage, 0.25);
    QCOMPARE(counts(one.histogram(Histogram::E2e)), (std::vector<double>{10, 20}));
}

void TestMetricsExtractor::malformedBodyIsAnError()
{
    // Cut mid-line, and garbled in the middle: an error with its position, and nothing kept.
    const QByteArray full = readFixture("sample-vllm-metrics.txt");
    const QByteArray cut = full.left(full.indexOf("\nvllm:num_requests_waiting{") + 1 + 30);
    EngineMetrics m;
    auto r = MetricsExtractor::extract(view(cut), m);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error.kind), int(PromErrorKind::MissingFinalNewline));
    QCOMPARE(int(r.error.column), 31);
    QVERIFY(std::isnan(m.running));

    QByteArray garbled = full;
    const qsizetype at = garbled.indexOf("\nvllm:gpu_cache_usage_perc{") + 1;
    garbled[at + 26] = '\x01'; // inside the label block
    r = MetricsExtractor::extract(view(garbled), m);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error.kind), int(PromErrorKind::InvalidLabelName));
    QCOMPARE(int(r.error.line), int(full.left(at).count('\n')) + 1);
    QCOMPARE(int(r.error.column), 27);
    QVERIFY(std::isnan(m.running));
    QVERIFY(std::isnan(m.kvUsage));
    QCOMPARE(m.histogram(Histogram::Ttft).bucketCount, 0);
}

void TestMetricsExtractor::bodyWithoutVllmIsNotAnError()
{
    const QByteArray body = "# HELP up whatever\n# TYPE up gauge\nup 1\nnode_load1 0.5\n";
    EngineMetrics m;
    const auto r = MetricsExtractor::extract(view(body), m);
    QVERIFY(r.ok());
    QCOMPARE(r.samplesRead, std::size_t(0));
    QCOMPARE(r.samplesSkipped, std::size_t(2));
    QVERIFY(std::isnan(m.running));
    QVERIFY(std::isnan(m.kvUsage));
    QVERIFY(std::isnan(m.requestSuccess));
    for (const HistogramSnapshot &h : m.histograms) {
        QCOMPARE(h.bucketCount, 0);
        QVERIFY(std::isnan(h.count));
    }
}

void TestMetricsExtractor::tooManyBuckets()
{
    QByteArray body;
    for (int i = 1; i <= HistogramSnapshot::kMaxBuckets + 5; ++i)
        body += "vllm:request_queue_time_seconds_bucket{le=\"" + QByteArray::number(i) + "\"} " + QByteArray::number(i) + "\n";
    body += "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\"} 1\n";
    EngineMetrics m;
    const auto r = MetricsExtractor::extract(view(body), m);
    QVERIFY(r.ok());
    QCOMPARE(r.droppedHistograms, 1);
    QCOMPARE(m.histogram(Histogram::QueueTime).bucketCount, 0);
    QCOMPARE(m.histogram(Histogram::E2e).bucketCount, 1);
}

QTEST_GUILESS_MAIN(TestMetricsExtractor)
#include "tst_metricsextractor.moc"
