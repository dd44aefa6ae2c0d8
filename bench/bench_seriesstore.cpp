// SPDX-License-Identifier: MIT
// bench_seriesstore [--engines N] [--rounds R] [--no-day]
// Ingests R rounds (default 3,600 = 1 h at 1 s) of synthetic EngineMetrics for N engines (default
// 1,024; half prefill, half decode; counters increasing, ~1 % misses, a few restarts), then 23 h more
// at one round per 10 s so the 10 s ring is full, and times decimated views of a 1,600 px chart.
// Prints ns per engine per round (ingest only, the synthetic data is built outside the timed part),
// memory, and decimation times. Last line:
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

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int engines = 1024, rounds = 3600;
    bool day = true;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--engines") && i + 1 < argc)
            engines = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--no-day"))
            day = false;
    }
    std::vector<Role> roles(static_cast<std::size_t>(engines));
    for (int e = 0; e < engines; ++e)
        roles[std::size_t(e)] = e < engines / 2 ? Role::Prefill : Role::Decode;
    const double rssBefore = rssMb();
    SeriesStore store(roles);
    int signals = 0;
    QObject::connect(&store, &SeriesStore::roundIngested, &store, [&signals] { ++signals; });

    Synth synth;
    PollRound round;
    round.engines.resize(std::size_t(engines));
    std::vector<EngineMetrics> state(static_cast<std::size_t>(engines));
    for (EngineMetrics &m : state)
        synth.init(m);

    const std::int64_t t0 = 1'700'000'000'000;
    double ingestNs = 0;
    long engineRounds = 0, misses = 0, restarts = 0;
    auto runRound = [&](std::int64_t t, double seconds, bool faults) {
        for (int e = 0; e < engines; ++e) {
            EngineMetrics &m = state[std::size_t(e)];
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
            p.scrapedAtMs = t + std::int64_t(e % 100); // bodies arrive over the first 100 ms
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

    const int width = 1600;
    struct View { const char *name; SeriesId id; };
    const View views[] = {
        {"pool decode generation tok/s (sum)", SeriesId::forPool(Pool::Decode, Metric::GenerationTokensRate)},
        {"pool cluster KV max", SeriesId::forPool(Pool::Cluster, Metric::KvUsage, Agg::Max)},
        {"pool decode TTFT p99 (summed buckets)", SeriesId::forPool(Pool::Decode, Metric::TtftP99)},
        {"engine 517 TTFT p99", SeriesId::forEngine(std::min(517, engines - 1), Metric::TtftP99)},
    };
    auto measure = [&](std::int64_t to, std::initializer_list<std::int64_t> ranges) {
        for (const View &v : views) {
            for (std::int64_t range : ranges) {
                std::size_t points = 0;
                int res = 0;
                const double us = medianUs([&] {
                    const SeriesView sv = store.seriesView(v.id, to - range, to, 2 * width);
                    points = std::size_t(sv.points.size());
                    res = sv.resolutionMs;
                });
                std::printf("decimate %-38s %5.0f min: %8.1f us, %4zu points (%d ms slots)\n", v.name,
                            double(range) / 60'000.0, us, points, res);
            }
        }
    };
    std::int64_t now = t0 + std::int64_t(rounds - 1) * 1000;
    measure(now, {300'000, 3'600'000});

    if (day) {
        // 23 h more at one round per 10 s: fills the 10 s ring (the 1 s ring sees gaps then).
        const double before = ingestNs;
        const long erBefore = engineRounds;
        for (int i = 1; i <= 23 * 360; ++i) {
            now += 10'000;
            runRound(now, 10.0, false);
        }
        std::printf("ingest: 23 h more at 10 s: %.0f ns/engine-round CPU\n",
                    (ingestNs - before) / double(engineRounds - erBefore));
    }
    measure(now, {86'400'000});

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
