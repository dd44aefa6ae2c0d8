// SPDX-License-Identifier: MIT
#pragma once

// Synthetic vLLM engine metrics for benchmarks: counters that increase, gauges that move, histograms
// with vLLM 0.9.1's bucket lists (vllm-metrics.md §2.3), one step per simulated second.
#include "metrics/enginemetrics.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace pd::bench {

inline constexpr double inf = std::numeric_limits<double>::infinity();

inline double threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

inline double rssMb()
{
    long pages = 0, resident = 0;
    if (FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return double(resident) * 4096.0 / 1e6;
}

inline void setBounds(HistogramSnapshot &h, const std::vector<double> &bounds)
{
    h.bucketCount = int(bounds.size()) + 1;
    for (std::size_t i = 0; i < bounds.size(); ++i)
        h.bounds[i] = bounds[i];
    h.bounds[bounds.size()] = inf;
    std::fill(h.counts.begin(), h.counts.end(), 0.0);
    h.count = 0;
    h.sum = 0;
}

// vLLM 0.9.1 bucket lists (vllm-metrics.md §2.3)
inline const std::vector<double> kTtft{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
                                1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
inline const std::vector<double> kTpot{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
                                1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
inline const std::vector<double> kLatency{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0,
                                   30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

struct Synth {
    std::mt19937 rng{42};
    std::uniform_real_distribution<double> u{0.0, 1.0};

    void init(EngineMetrics &m)
    {
        m = EngineMetrics{};
        m.promptTokens = m.generationTokens = m.requestSuccess = 1e6 * u(rng);
        m.successByReason = {m.requestSuccess, 0, 0, kAbsent};
        m.preemptions = m.prefixQueries = m.prefixHits = 0;
        m.specDrafts = m.specDraftTokens = m.specAcceptedTokens = 0;
        m.processStartTime = 1.7e9;
        setBounds(m.histogram(Histogram::Ttft), kTtft);
        setBounds(m.histogram(Histogram::InterToken), kTpot);
        setBounds(m.histogram(Histogram::E2e), kLatency);
        setBounds(m.histogram(Histogram::QueueTime), kLatency);
        for (Histogram h : {Histogram::PrefillTime, Histogram::DecodeTime})
            m.histogram(h).count = m.histogram(h).sum = 0;
    }
    void observe(HistogramSnapshot &h, double value, double n)
    {
        int b = 0;
        while (b < h.bucketCount - 1 && value > h.bounds[std::size_t(b)])
            ++b;
        for (int i = b; i < h.bucketCount; ++i)
            h.counts[std::size_t(i)] += n;
        h.count += n;
        h.sum += value * n;
    }
    // One second of an engine's life.
    void step(EngineMetrics &m, bool prefill, double seconds)
    {
        m.running = std::floor(64 * u(rng));
        m.waiting = std::floor(8 * u(rng));
        m.kvUsage = u(rng);
        const double requests = std::floor(4 * u(rng) * seconds);
        m.promptTokens += (prefill ? 20000 : 2000) * u(rng) * seconds;
        m.generationTokens += (prefill ? 4 : 1500) * u(rng) * seconds;
        m.requestSuccess += requests;
        m.successByReason[0] += requests;
        m.prefixQueries += 3000 * seconds;
        m.prefixHits += 1000 * u(rng) * seconds;
        m.specDrafts += 600 * seconds;
        m.specDraftTokens += 600 * seconds;
        m.specAcceptedTokens += 480 * u(rng) * seconds;
        if (requests > 0) {
            observe(m.histogram(Histogram::Ttft), 0.05 + 2 * u(rng), requests);
            observe(m.histogram(Histogram::E2e), 2 + 60 * u(rng), requests);
            observe(m.histogram(Histogram::QueueTime), 0.5 * u(rng), requests);
            for (Histogram h : {Histogram::PrefillTime, Histogram::DecodeTime}) {
                m.histogram(h).count += requests;
                m.histogram(h).sum += requests * u(rng);
            }
        }
        observe(m.histogram(Histogram::InterToken), 0.03 + 0.05 * u(rng), 500 * seconds);
    }

    // One second of an engine under a load that drifts instead of jumping: `load` (0..1, the engine's own
    // state, start it at 0.5) follows a slow random walk; gauges are whole numbers that move by a few;
    // request and token counts follow the load; latencies are drawn around a level that rises with it.
    // What real series at 1 s look like, next to step()'s white noise (the compression's worst case).
    void stepDrifting(EngineMetrics &m, bool prefill, double seconds, double &load)
    {
        load = std::clamp(load + 0.02 * (u(rng) - 0.5) * std::sqrt(seconds), 0.05, 1.0);
        m.running = std::max(0.0, std::round(48 * load + 2 * (u(rng) - 0.5)));
        m.waiting = load > 0.85 ? std::floor(20 * (load - 0.85) * u(rng) * 4) : 0;
        m.kvUsage = std::clamp(std::round((0.9 * load + 0.01 * (u(rng) - 0.5)) * 4096) / 4096, 0.0, 1.0); // blocks used / 4,096
        double requests = 0;
        for (int i = 0; i < int(std::lround(8 * seconds)); ++i)
            requests += u(rng) < 0.5 * load ? 1 : 0;
        m.promptTokens += requests * std::round(prefill ? 800 + 400 * u(rng) : 0);
        m.generationTokens += std::round((prefill ? requests : 1500 * load * seconds) * (0.9 + 0.2 * u(rng)));
        m.requestSuccess += requests;
        m.successByReason[0] += requests;
        m.prefixQueries += requests * 1000;
        m.prefixHits += std::round(requests * 1000 * (0.3 + 0.05 * u(rng)));
        if (requests > 0) {
            observe(m.histogram(Histogram::Ttft), (0.2 + 0.5 * load) * (0.8 + 0.4 * u(rng)), requests);
            observe(m.histogram(Histogram::E2e), (10 + 30 * load) * (0.8 + 0.4 * u(rng)), requests);
            observe(m.histogram(Histogram::QueueTime), 0.05 * load * u(rng), requests);
            for (Histogram h : {Histogram::PrefillTime, Histogram::DecodeTime}) {
                m.histogram(h).count += requests;
                m.histogram(h).sum += requests * (0.1 + 0.2 * load) * (0.9 + 0.2 * u(rng));
            }
        }
        observe(m.histogram(Histogram::InterToken), (0.03 + 0.03 * load) * (0.95 + 0.1 * u(rng)), std::round(1500 * load * seconds));
    }
};

} // namespace pd::bench
