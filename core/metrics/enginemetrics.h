// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

// One scrape of one engine's /metrics, reduced to what the console charts (vllm-metrics.md §5.5).
// Filled by the extractor from the parser's samples, consumed by the series store. Plain, fixed-size,
// no allocation: the poller produces ~1,000 of these per second. NaN marks "not exposed".
// Both metric generations map onto the same fields (0.9.1 gpu_cache_usage_perc and
// time_per_output_token_seconds; main kv_cache_usage_perc and inter_token_latency_seconds).
namespace pd {

inline constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// A cumulative histogram as exposed: upper bounds and cumulative counts (the +Inf bucket last).
struct HistogramSnapshot {
    static constexpr int kMaxBuckets = 40;
    int bucketCount = 0;                       // 0: not exposed
    std::array<double, kMaxBuckets> bounds{};  // le values, ascending, +Inf last
    std::array<double, kMaxBuckets> counts{};  // cumulative
    double count = kAbsent;                    // _count (equals the +Inf bucket)
    double sum = kAbsent;                      // _sum
};

enum class Histogram : int { Ttft, InterToken, E2e, QueueTime, PrefillTime, DecodeTime, Count };

struct EngineMetrics {
    // Gauges
    double running = kAbsent;                  // vllm:num_requests_running
    double waiting = kAbsent;                  // vllm:num_requests_waiting
    double kvUsage = kAbsent;                  // fraction 0..1 (kv_cache_usage_perc, else gpu_cache_usage_perc)
    // Counters (cumulative, as exposed)
    double promptTokens = kAbsent;             // vllm:prompt_tokens_total
    double generationTokens = kAbsent;         // vllm:generation_tokens_total
    double requestSuccess = kAbsent;           // Σ vllm:request_success_total over finished_reason
    std::array<double, 4> successByReason{kAbsent, kAbsent, kAbsent, kAbsent}; // stop, length, abort, error
    double preemptions = kAbsent;              // vllm:num_preemptions_total
    double prefixQueries = kAbsent;            // (gpu_)prefix_cache_queries_total
    double prefixHits = kAbsent;               // (gpu_)prefix_cache_hits_total
    double specDrafts = kAbsent;               // vllm:spec_decode_num_drafts_total
    double specDraftTokens = kAbsent;          // vllm:spec_decode_num_draft_tokens_total
    double specAcceptedTokens = kAbsent;       // vllm:spec_decode_num_accepted_tokens_total
    double processStartTime = kAbsent;         // process_start_time_seconds (restart detection)
    // Histograms
    std::array<HistogramSnapshot, int(Histogram::Count)> histograms{};

    HistogramSnapshot &histogram(Histogram h) { return histograms[std::size_t(h)]; }
    const HistogramSnapshot &histogram(Histogram h) const { return histograms[std::size_t(h)]; }
};

} // namespace pd
