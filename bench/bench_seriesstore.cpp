// SPDX-License-Identifier: MIT
// bench_seriesstore [--engines N] [--rounds R] [--no-day] [--kept BITS] [--coarse-kept BITS]
// Ingests R rounds (default 3,600 = 1 h at 1 s) of synthetic EngineMetrics for N engines (default
// 1,024; half prefill, half decode; counters increasing, ~1 % misses, a few restarts), then 22 h more
// at one round per 10 s and a last hour at 1 s, so both rings are full, and times decimated views of a
// 1,600 px chart.
// --data noise (default): every gauge and rate drawn anew each second, white noise, the worst case for
// the history's compression; --data drifting: a load that drifts, whole-number gauges that move by a
// few, scrape times with a few ms of jitter (Synth::stepDrifting), closer to what engines report.
// --kept, --coarse-kept: the mantissa bits sealed history keeps at 1 s (of each value) and at 10 s (of
// each block's largest magnitude); default: the store's, 12 and 10 (23 = every bit).
// Prints ns per engine per round (ingest only, the synthetic data is built outside the timed part),
// memory after the hour and after the day, and decimation times. Last line:
//   seriesstore: <ns> ns/engine-round ingest, <B> bytes/sample, <MB> MB for <N> engines
#include "metrics/seriesstore.h"
#include "synthmetrics.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

using namespace pd;
using namespace pd::bench;

namespace {

template<typename F>
double medianUs(F &&f, int reps = 21)
{
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto a = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
    }
    std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
    return t[std::size_t(reps / 2)];
}

// Decimated views of four series (two pool sums or maxima, a pool's summed histogram, one engine) over
// each range ending at `to`, as a 1600 px chart asks for them: the redraw's median and the first view's.
void measureViews(SeriesStore &store, int engines, std::int64_t to, std::initializer_list<std::int64_t> ranges)
{
    const int width = 1600;
    struct View { const char *name; SeriesId id; };
    const View views[] = {
        {"pool decode generation tok/s (sum)", SeriesId::forPool(Pool::Decode, Metric::GenerationTokensRate)},
        {"pool cluster KV max", SeriesId::forPool(Pool::Cluster, Metric::KvUsage, Agg::Max)},
        {"pool decode TTFT p99 (summed buckets)", SeriesId::forPool(Pool::Decode, Metric::TtftP99)},
        {"engine 517 TTFT p99", SeriesId::forEngine(std::min(517, engines - 1), Metric::TtftP99)},
    };
    for (const View &v : views) {
        for (std::int64_t range : ranges) {
            std::size_t points = 0;
            int res = 0;
            auto view = [&] {
                const SeriesView sv = store.seriesView(v.id, to - range, to, 2 * width);
                points = std::size_t(sv.points.size());
                res = sv.resolutionMs;
            };
            // The first view decodes the series' sealed blocks; a chart's redraw one round later
            // finds most of them decoded already (the ring keeps the decoded columns it read last).
            const double first = medianUs(view, 1);
            const double us = medianUs(view);
            std::printf("decimate %-38s %5.0f min: %8.1f us, %4zu points (%d ms slots); first view %.1f us\n",
                        v.name, double(range) / 60'000.0, us, points, res, first);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int engines = 1024, rounds = 3600;
    bool day = true;
    SeriesStoreConfig config;
    bool drifting = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--engines") && i + 1 < argc)
            engines = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--no-day"))
            day = false;
        else if (!std::strcmp(argv[i], "--data") && i + 1 < argc)
            drifting = !std::strcmp(argv[++i], "drifting");
        else if (!std::strcmp(argv[i], "--kept") && i + 1 < argc)
            config.compression.keptMantissaBits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--coarse-kept") && i + 1 < argc)
            config.coarseCompression.keptMantissaBits = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::printf("usage: bench_seriesstore [--engines N] [--rounds R] [--no-day] [--kept BITS] [--coarse-kept "
                        "BITS] [--data noise|drifting]\n");
            return 0;
        }
    }
    std::vector<Role> roles(static_cast<std::size_t>(engines));
    for (int e = 0; e < engines; ++e)
        roles[std::size_t(e)] = e < engines / 2 ? Role::Prefill : Role::Decode;
    const double rssBefore = rssMb();
    SeriesStore store(roles, config);
    int signals = 0;
    QObject::connect(&store, &SeriesStore::roundIngested, &store, [&signals] { ++signals; });

    Synth synth;
    PollRound round;
    round.engines.resize(std::size_t(engines));
    std::vector<EngineMetrics> state(static_cast<std::size_t>(engines));
    for (EngineMetrics &m : state)
        synth.init(m);
    std::vector<double> load(static_cast<std::size_t>(engines), 0.5);

    const std::int64_t t0 = 1'700'000'000'000;
    double ingestNs = 0;
    long engineRounds = 0, misses = 0, restarts = 0;
    auto runRound = [&](std::int64_t t, double seconds, bool faults) {
        for (int e = 0; e < engines; ++e) {
            EngineMetrics &m = state[std::size_t(e)];
            if (drifting)
                synth.stepDrifting(m, e < engines / 2, seconds, load[std::size_t(e)]);
            else
                synth.step(m, e < engines / 2, seconds);
            EnginePoll &p = round.engines[std::size_t(e)];
            const double r = synth.u(synth.rng);
            if (faults && r < 0.01) {
                p.metrics.reset();
                p.error = PollError{PollError::Kind::Timeout, QString()};
                ++misses;
                continue;
            }
            if (faults && r > 0.99998) { // a restart: counters from zero, a new start time
                synth.init(m);
                m.promptTokens = m.generationTokens = m.requestSuccess = 0;
                m.processStartTime = double(t) / 1000;
                ++restarts;
            }
            p.error.reset();
            p.metrics = m;
            // Bodies arrive over the first 100 ms; drifting data adds a few ms of jitter, as real scrapes have.
            p.scrapedAtMs = t + std::int64_t(e % 100) + (drifting ? std::int64_t(synth.u(synth.rng) * 6) : 0);
        }
        round.timeMs = t;
        const double a = threadCpuNs();
        store.ingest(round);
        ingestNs += threadCpuNs() - a;
        engineRounds += engines;
    };

    const auto wall0 = std::chrono::steady_clock::now();
    for (int i = 0; i < rounds; ++i)
        runRound(t0 + std::int64_t(i) * 1000, 1.0, true);
    const double nsPerEngineRound = ingestNs / double(engineRounds);
    const double wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    std::printf("ingest: %d engines x %d rounds at 1 s: %.0f ns/engine-round CPU (%.2f ms per round), "
                "%ld misses, %ld restarts, %d signals, %.1f s wall incl. synthesis\n",
                engines, rounds, nsPerEngineRound, nsPerEngineRound * engines / 1e6, misses, restarts, signals, wallS);
    const double rssHour = rssMb();
    auto printMemory = [&](const char *when) {
        const StoreMemory mem = store.memory();
        std::printf("memory %s: rings %.1f MB for %zu samples held (%.2f bytes/sample), of which sealed %.1f MB for "
                    "%zu samples (%.2f bytes/sample, %d / %d mantissa bits kept at 1 s / 10 s); RSS %.0f MB\n",
            when, double(mem.ringBytes) / 1e6, mem.samples, mem.bytesPerSample(), double(mem.sealedBytes) / 1e6,
            mem.sealedSamples, mem.sealedBytesPerSample(), config.compression.keptMantissaBits,
            config.coarseCompression.keptMantissaBits, rssMb());
    };
    printMemory("after 1 h");

    std::int64_t now = t0 + std::int64_t(rounds - 1) * 1000;
    measureViews(store, engines, now, {300'000, 3'600'000});

    if (day) {
        // 22 h more at one round per 10 s, then the last hour at 1 s again: both rings hold what a day
        // of 1 s polling leaves (the 10 s ring 24 h, the 1 s ring the last hour).
        const double before = ingestNs;
        const long erBefore = engineRounds;
        for (int i = 1; i <= 22 * 360; ++i) {
            now += 10'000;
            runRound(now, 10.0, false);
        }
        std::printf("ingest: 22 h more at 10 s: %.0f ns/engine-round CPU\n",
                    (ingestNs - before) / double(engineRounds - erBefore));
        const double beforeLast = ingestNs;
        const long erBeforeLast = engineRounds;
        for (int i = 1; i <= 3600; ++i) {
            now += 1000;
            runRound(now, 1.0, true);
        }
        std::printf("ingest: the last hour at 1 s: %.0f ns/engine-round CPU\n",
                    (ingestNs - beforeLast) / double(engineRounds - erBeforeLast));
    }
    measureViews(store, engines, now, {86'400'000});
    printMemory(day ? "after 24 h" : "at the end");

    const StoreMemory mem = store.memory();
    const double totalMb = double(mem.ringBytes + mem.stateBytes) / 1e6;
    std::printf("memory: %.2f bytes/sample in the rings (%.4f with per-engine state), %zu samples, rings %.1f MB, "
                "state %.1f MB (%.1f KB/engine); RSS %.0f MB after 1 h, %.0f MB now (%.0f MB at start)\n",
                mem.bytesPerSample(), mem.totalBytesPerSample(), mem.samples, double(mem.ringBytes) / 1e6,
                double(mem.stateBytes) / 1e6, double(mem.stateBytes) / 1024.0 / engines, rssHour, rssMb(), rssBefore);
    std::printf("seriesstore: %.0f ns/engine-round ingest, %.2f bytes/sample, %.0f MB for %d engines\n",
                nsPerEngineRound, mem.bytesPerSample(), totalMb, engines);
    return 0;
}
