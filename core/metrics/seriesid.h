// SPDX-License-Identifier: MIT
#pragma once

#include "../cluster/profile.h"

#include <QLatin1StringView>

#include <cstdint>

// What the series store holds (vllm-metrics.md §5.5 items 1-8 and 10): the metric of a series, the pool
// it aggregates over, and how. A SeriesId names one series for a chart.
namespace pd {

enum class Metric : std::uint8_t {
    // Gauges, as scraped (the 10 s ring keeps their mean and their max)
    Running, Waiting, KvUsage,
    // Counter rates per second: Δvalue / Δt
    PromptTokensRate, GenerationTokensRate, RequestRate, PreemptionRate,
    FinishedStopRate, FinishedLengthRate, FinishedAbortRate, FinishedErrorRate,
    // Ratios of counter deltas
    PrefixHitRate,        // Δhits / Δqueries
    SpecAcceptanceRate,   // Δaccepted / Δdraft_tokens (MTP acceptance)
    SpecAcceptanceLength, // 1 + Δaccepted / Δdrafts
    // Windowed histogram quantiles (bucket deltas) and means (Δsum / Δcount), seconds
    TtftP50, TtftP90, TtftP99, TtftMean,
    InterTokenP50, InterTokenP90, InterTokenP99, InterTokenMean,
    E2eP50, E2eP90, E2eP99, E2eMean,
    QueueTimeP50, QueueTimeP90, QueueTimeP99, QueueTimeMean,
    PrefillTimeMean, DecodeTimeMean,
    // Pools only: how many engines contributed a value to the slot
    EnginesReporting,
    Count
};
inline constexpr int kMetricCount = int(Metric::Count);
inline constexpr int kEngineMetricCount = int(Metric::EnginesReporting); // metrics an engine has
inline constexpr int kGaugeCount = 3; // Running, Waiting, KvUsage: the first metrics

enum class MetricKind : std::uint8_t { Gauge, Rate, Ratio, Latency, Count };
MetricKind metricKind(Metric metric);
QLatin1StringView metricName(Metric metric); // stable key, e.g. "ttft_p99"

enum class Pool : std::uint8_t { Prefill, Decode, Cluster };
inline constexpr int kPoolCount = 3;
inline Pool poolOf(Role role) { return role == Role::Prefill ? Pool::Prefill : Pool::Decode; }

// How a pool series combines its engines (engine series only have Value, and Max for gauges).
//  Value: the pool's own figure. Gauges and rates: the sum over engines. Ratios: Σnumerator/Σdenominator.
//         Latencies: the quantile of the bucket deltas summed over engines with equal bounds, the mean
//         ΣΔsum/ΣΔcount. For an engine: its value.
//  Mean, Max, P99: across the engines' values of the slot (P99 with Prometheus quantile() semantics).
//         For an engine, Max is the maximum of the 1 s gauge samples inside a 10 s slot.
enum class Agg : std::uint8_t { Value, Mean, Max, P99 };
inline constexpr int kAggCount = 4;

struct SeriesId {
    int engine = -1; // index in Profile::engines(); -1: the pool
    Pool pool = Pool::Cluster;
    Metric metric = Metric::Running;
    Agg agg = Agg::Value;

    static SeriesId forEngine(int engine, Metric metric, Agg agg = Agg::Value) { return {engine, Pool::Cluster, metric, agg}; }
    static SeriesId forPool(Pool pool, Metric metric, Agg agg = Agg::Value) { return {-1, pool, metric, agg}; }
    bool isPool() const { return engine < 0; }
    bool operator==(const SeriesId &) const = default;
};

} // namespace pd
