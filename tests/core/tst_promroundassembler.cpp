// SPDX-License-Identifier: MIT
// From a Prometheus server's raw samples back to the poller's rounds: the engine map, the queries of
// both metric generations, and the agreement that matters: a scrape read from Prometheus gives the
// very EngineMetrics the poller's extractor gives for the same exposition.
#include "metrics/metricsextractor.h"
#include "metrics/promparser.h"
#include "metrics/promroundassembler.h"
#include "metrics/promvllmqueries.h"
#include "testdata.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstring>
#include <map>

using namespace pd;

namespace {

QByteArray readFixture(const char *name)
{
    return test::readTestData(QStringLiteral("metrics/") + QLatin1String(name));
}

// What Prometheus stores of one scrape of `body`: every sample as a series with the target's
// instance and job labels, one point at timeMs. Accumulates into `series` keyed by name + labels.
class ScrapeRecorder final : public PromVisitor {
public:
    ScrapeRecorder(std::map<std::string, PromSeries> &series, std::string instance, std::int64_t timeMs)
        : m_series(series)
        , m_instance(std::move(instance))
        , m_time(timeMs)
    {
    }
    void sample(const PromSample &s) override
    {
        PromSeries key;
        key.labels.emplace_back("__name__", std::string(s.name));
        for (const PromLabel &l : s.labels)
            key.labels.emplace_back(std::string(l.name), l.value());
        key.labels.emplace_back("instance", m_instance);
        key.labels.emplace_back("job", "vllm");
        std::string id;
        for (const auto &[n, v] : key.labels)
            id += n + '=' + v + ',';
        PromSeries &target = m_series[id];
        if (target.labels.empty())
            target.labels = key.labels;
        target.points.push_back({ m_time, s.value });
    }

private:
    std::map<std::string, PromSeries> &m_series;
    std::string m_instance;
    std::int64_t m_time;
};

void record(std::map<std::string, PromSeries> &series, const QByteArray &body, const std::string &instance,
    std::int64_t t, double up = 1)
{
    ScrapeRecorder r(series, instance, t);
    if (up == 1)
        QVERIFY(PromParser::parse(std::string_view(body.constData(), std::size_t(body.size())), r).ok());
    const QByteArray upLine = "up " + QByteArray::number(up) + "\n";
    ScrapeRecorder u(series, instance, t);
    QVERIFY(PromParser::parse(std::string_view(upLine.constData(), std::size_t(upLine.size())), u).ok());
}

PromApiAnswer matrixOf(const std::map<std::string, PromSeries> &series)
{
    PromApiAnswer a;
    a.outcome = PromApiAnswer::Outcome::Ok;
    a.resultType = PromResultType::Matrix;
    for (const auto &[id, s] : series)
        a.series.push_back(s);
    return a;
}

// The same exposition with every counter-like number scaled (a later scrape).
QByteArray later(const QByteArray &body, double factor)
{
    QByteArray out;
    for (const QByteArray &line : body.split('\n')) {
        if (line.startsWith("vllm:")
            && (line.contains("_total") || line.contains("_bucket") || line.contains("_count"))) {
            const qsizetype space = line.lastIndexOf(' ');
            const double v = line.mid(space + 1).toDouble();
            out += line.left(space + 1) + QByteArray::number(std::floor(v * factor), 'f', 0) + '\n';
        } else if (!line.isEmpty()) {
            out += line + '\n';
        }
    }
    return out;
}

bool sameMetrics(const EngineMetrics &a, const EngineMetrics &b, QString *why)
{
    const auto eq = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
    const std::pair<const char *, std::pair<double, double>> scalars[] = {
        { "running", { a.running, b.running } },
        { "waiting", { a.waiting, b.waiting } },
        { "kvUsage", { a.kvUsage, b.kvUsage } },
        { "promptTokens", { a.promptTokens, b.promptTokens } },
        { "generationTokens", { a.generationTokens, b.generationTokens } },
        { "requestSuccess", { a.requestSuccess, b.requestSuccess } },
        { "preemptions", { a.preemptions, b.preemptions } },
        { "prefixQueries", { a.prefixQueries, b.prefixQueries } },
        { "prefixHits", { a.prefixHits, b.prefixHits } },
        { "specDrafts", { a.specDrafts, b.specDrafts } },
        { "specAcceptedTokens", { a.specAcceptedTokens, b.specAcceptedTokens } },
        { "processStartTime", { a.processStartTime, b.processStartTime } },
    };
    for (const auto &[name, v] : scalars) {
        if (!eq(v.first, v.second)) {
            *why = QStringLiteral("%1: %2 vs %3").arg(QLatin1String(name)).arg(v.first).arg(v.second);
            return false;
        }
    }
    for (std::size_t r = 0; r < a.successByReason.size(); ++r) {
        if (!eq(a.successByReason[r], b.successByReason[r])) {
            *why = QStringLiteral("successByReason[%1]").arg(r);
            return false;
        }
    }
    for (int h : { int(Histogram::Ttft), int(Histogram::InterToken), int(Histogram::E2e), int(Histogram::QueueTime) }) {
        const HistogramSnapshot &x = a.histograms[std::size_t(h)];
        const HistogramSnapshot &y = b.histograms[std::size_t(h)];
        if (x.bucketCount != y.bucketCount || !eq(x.count, y.count) || !eq(x.sum, y.sum)
            || std::memcmp(x.bounds.data(), y.bounds.data(), sizeof(double) * std::size_t(x.bucketCount)) != 0
            || std::memcmp(x.counts.data(), y.counts.data(), sizeof(double) * std::size_t(x.bucketCount)) != 0) {
            *why = QStringLiteral("histogram %1 (%2 vs %3 buckets)").arg(h).arg(x.bucketCount).arg(y.bucketCount);
            return false;
        }
    }
    for (int h : { int(Histogram::PrefillTime), int(Histogram::DecodeTime) }) {
        if (!eq(a.histograms[std::size_t(h)].sum, b.histograms[std::size_t(h)].sum)
            || !eq(a.histograms[std::size_t(h)].count, b.histograms[std::size_t(h)].count)) {
            *why = QStringLiteral("mean histogram %1").arg(h);
            return false;
        }
    }
    return true;
}

} // namespace

class TestPromRoundAssembler final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void engineMap()
    {
        const PromEngineMap map({ PromEngineMap::key("127.0.0.2", 9000), PromEngineMap::key("127.0.0.2", 9001),
            PromEngineMap::key("Node-A.example", 8000), PromEngineMap::key("::1", 9100) });
        QCOMPARE(map.engineOf("127.0.0.2:9000"), 0);
        QCOMPARE(map.engineOf("127.0.0.2:9001"), 1);
        QCOMPARE(map.engineOf("127.0.0.2:9002"), -1);
        QCOMPARE(map.engineOf("node-a.EXAMPLE:8000"), 2); // host names are case-insensitive
        QCOMPARE(map.engineOf("node-a.example"), 2); // no port: the only engine on that host
        QCOMPARE(map.engineOf("127.0.0.2"), -1); // two engines there: ambiguous, unmapped
        QCOMPARE(map.engineOf("[::1]:9100"), 3); // Prometheus writes IPv6 in brackets
        QCOMPARE(map.engineOf("::1"), 3);
        QCOMPARE(map.engineOf(""), -1);
        QCOMPARE(PromEngineMap::key("::1", 9100), std::string("[::1]:9100"));
    }

    void queriesOfBothGenerations()
    {
        const std::vector<std::string> old = fetchedNames(true, false);
        const std::vector<std::string> cur = fetchedNames(false, true);
        const auto has = [](const std::vector<std::string> &v, const char *n) {
            return std::find(v.begin(), v.end(), n) != v.end();
        };
        QVERIFY(has(old, "vllm:gpu_cache_usage_perc"));
        QVERIFY(has(old, "vllm:time_per_output_token_seconds_bucket"));
        QVERIFY(!has(old, "vllm:kv_cache_usage_perc"));
        QVERIFY(has(cur, "vllm:kv_cache_usage_perc"));
        QVERIFY(has(cur, "vllm:inter_token_latency_seconds_bucket"));
        QVERIFY(has(cur, "vllm:prefix_cache_hits_total"));
        QVERIFY(!has(cur, "vllm:gpu_prefix_cache_hits_total"));
        for (const auto *v : { &old, &cur }) {
            QVERIFY(has(*v, "up"));
            QVERIFY(has(*v, "process_start_time_seconds"));
            QVERIFY(has(*v, "vllm:request_prefill_time_seconds_sum"));
            QVERIFY(!has(*v, "vllm:request_prefill_time_seconds_bucket")); // the store only needs its mean
            for (const std::string &n : *v) // everything fetched is read by the extractor (or is up)
                QVERIFY2(n == "up" || MetricsAccumulator::reads(n), n.c_str());
        }
        const std::string q = rawSamplesQuery(
            { "up", "vllm:num_requests_running" }, "instance", { "127.0.0.2:9000", "[::1]:9100" }, "job=\"vllm\"", 600);
        QCOMPARE(q,
            std::string(
                R"({__name__=~"up|vllm:num_requests_running",instance=~"127\\.0\\.0\\.2:9000|\\[::1\\]:9100",job="vllm"}[600s])"));
        QCOMPARE(detectionQuery("instance", ""),
            std::string(
                R"(max by (__name__, instance) ({__name__=~"up|vllm:num_requests_running|vllm:gpu_cache_usage_perc|vllm:kv_cache_usage_perc"}))"));
    }

    void detection()
    {
        PromApiAnswer a;
        a.outcome = PromApiAnswer::Outcome::Ok;
        a.resultType = PromResultType::Vector;
        const auto add = [&a](const char *name, const char *instance) {
            PromSeries s;
            s.labels = { { "__name__", name } };
            if (instance)
                s.labels.emplace_back("instance", instance);
            s.points.push_back({ 1000, 1 });
            a.series.push_back(s);
        };
        add("up", "a:1");
        add("vllm:num_requests_running", "a:1");
        add("vllm:gpu_cache_usage_perc", "a:1");
        add("up", "b:1");
        add("vllm:kv_cache_usage_perc", "b:1");
        add("vllm:gpu_cache_usage_perc", "b:1"); // a transitional version with both: the new name wins
        add("up", "c:1");
        add("vllm:num_requests_running", "c:1"); // vLLM, but neither KV name: unknown generation
        add("up", nullptr);
        int unlabelled = 0;
        const std::vector<PromTargetProbe> p = readDetection(a, "instance", &unlabelled);
        QCOMPARE(p.size(), std::size_t(3));
        QCOMPARE(unlabelled, 1);
        QCOMPARE(p[0].generation(), VllmGeneration::V091);
        QCOMPARE(p[1].generation(), VllmGeneration::Current);
        QCOMPARE(p[2].generation(), VllmGeneration::Unknown);
        QVERIFY(p[2].hasUp && p[2].hasRunning);
    }

    // The heart of it: the exposition as Prometheus stores it, read back, equals the extractor's reading.
    void scrapesEqualTheExtractors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("vLLM 0.9.1") << QStringLiteral("sample-vllm-metrics.txt");
        QTest::newRow("current vLLM") << QStringLiteral("sample-vllm-metrics-main.txt");
    }

    void scrapesEqualTheExtractors()
    {
        QFETCH(QString, file);
        const QByteArray first = readFixture(qPrintable(file));
        const QByteArray second = later(first, 1.01);
        std::map<std::string, PromSeries> series;
        record(series, first, "127.0.0.2:9000", 1'764'615'000'250);
        record(series, second, "127.0.0.2:9000", 1'764'615'001'250);
        record(series, second, "127.0.0.3:9000", 1'764'615'000'700);
        record(series, first, "10.9.9.9:9000", 1'764'615'000'700); // another cluster's engine
        PromRoundAssembler assembler(PromEngineMap({ "127.0.0.2:9000", "127.0.0.3:9000" }), "instance");
        const PromRoundAssembler::Result r = assembler.assemble(matrixOf(series), 1'764'615'002'000);

        QCOMPARE(r.unmapped, std::vector<std::string> { "10.9.9.9:9000" }); // reported, not dropped silently
        QCOMPARE(r.scrapes, std::size_t(3));
        // Slot 1764615000 holds engine 0's first and engine 1's scrape; slot ...001 engine 0's second.
        QCOMPARE(r.rounds.size(), std::size_t(2));
        QCOMPARE(r.rounds[0].timeMs, qint64(1'764'615'000'700));
        QVERIFY(r.rounds[0].engines[0].metrics && r.rounds[0].engines[1].metrics);
        QCOMPARE(r.rounds[0].engines[0].scrapedAtMs, qint64(1'764'615'000'250));
        QCOMPARE(r.rounds[1].timeMs, qint64(1'764'615'001'250));
        QVERIFY(r.rounds[1].engines[0].metrics);
        QVERIFY(!r.rounds[1].engines[1].metrics && !r.rounds[1].engines[1].error); // not scraped then

        EngineMetrics direct;
        QVERIFY(MetricsExtractor::extract(std::string_view(first.constData(), std::size_t(first.size())), direct).ok());
        QString why;
        QVERIFY2(sameMetrics(*r.rounds[0].engines[0].metrics, direct, &why), qPrintable(why));
        EngineMetrics direct2;
        QVERIFY(
            MetricsExtractor::extract(std::string_view(second.constData(), std::size_t(second.size())), direct2).ok());
        QVERIFY2(sameMetrics(*r.rounds[1].engines[0].metrics, direct2, &why), qPrintable(why));
        QVERIFY(direct2.generationTokens > direct.generationTokens);

        QCOMPARE(r.latest.size(), std::size_t(2));
        QCOMPARE(r.latest[0].timeMs, qint64(1'764'615'001'250));
        QCOMPARE(assembler.lastScrapeMs(0), qint64(1'764'615'001'250));

        // The same window again (overlapping refreshes): nothing is delivered twice.
        const PromRoundAssembler::Result again = assembler.assemble(matrixOf(series), 1'764'615'002'000);
        QVERIFY(again.rounds.empty());
        QCOMPARE(again.scrapes, std::size_t(0));
    }

    void horizonHoldsBackYoungScrapes()
    {
        const QByteArray body = readFixture("sample-vllm-metrics.txt");
        std::map<std::string, PromSeries> series;
        record(series, body, "e:1", 10'000);
        record(series, body, "e:1", 11'000);
        PromRoundAssembler assembler(PromEngineMap({ "e:1" }), "instance");
        QCOMPARE(assembler.assemble(matrixOf(series), 10'500).scrapes, std::size_t(1));
        QCOMPARE(assembler.assemble(matrixOf(series), 11'500).scrapes, std::size_t(1));
    }

    void downAndUnknown()
    {
        std::map<std::string, PromSeries> series;
        record(series, QByteArray(), "down:1", 5'000, 0);
        record(series, QByteArray("vllm:num_requests_running 3\nvllm:kv_usage_ratio 0.5\n"), "odd:1", 5'100);
        PromRoundAssembler assembler(PromEngineMap({ "down:1", "odd:1" }), "instance");
        assembler.setDownReason(
            0, QStringLiteral("Get \"http://down:1/metrics\": dial tcp: connect: connection refused"));
        const PromRoundAssembler::Result r = assembler.assemble(matrixOf(series), 6'000);
        QCOMPARE(r.rounds.size(), std::size_t(1));
        const EnginePoll &down = r.rounds[0].engines[0];
        QVERIFY(down.error && !down.metrics);
        QCOMPARE(down.error->kind, PollError::Kind::Refused);
        QVERIFY2(down.error->message.contains(QLatin1String("connection refused")), qPrintable(down.error->message));
        const EnginePoll &odd = r.rounds[0].engines[1];
        QVERIFY(odd.error && !odd.metrics);
        QCOMPARE(odd.error->kind, PollError::Kind::Parse);
        QVERIFY2(
            odd.error->message.contains(QLatin1String("unknown metric generation")), qPrintable(odd.error->message));
    }

    void errorKinds()
    {
        QCOMPARE(pollErrorKindOf(QStringLiteral("Get \"http://x/metrics\": context deadline exceeded")),
            PollError::Kind::Timeout);
        QCOMPARE(pollErrorKindOf(QStringLiteral("server returned HTTP status 503 Service Unavailable")),
            PollError::Kind::Http);
        QCOMPARE(pollErrorKindOf(QStringLiteral("expected equal, got \"INVALID\"")), PollError::Kind::Parse);
        QCOMPARE(pollErrorKindOf(QStringLiteral("dial tcp 127.0.0.9:9: connect: connection refused")),
            PollError::Kind::Refused);
        QCOMPARE(pollErrorKindOf(QStringLiteral("something else")), PollError::Kind::Other);
    }
};

QTEST_GUILESS_MAIN(TestPromRoundAssembler)
#include "tst_promroundassembler.moc"
