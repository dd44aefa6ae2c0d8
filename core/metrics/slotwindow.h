// SPDX-License-Identifier: MIT
#pragma once

#include "enginemetrics.h"
#include "seriesid.h"

#include <array>
#include <cstdint>

// The arithmetic between two scrapes of one engine and the accumulation of what falls into one time
// slot. Plain C++, no allocation: the poll round's hot path.
namespace pd {

// The counters the store turns into rates and ratios.
enum class Counter : std::uint8_t {
    PromptTokens, GenerationTokens, RequestSuccess, FinishedStop, FinishedLength, FinishedAbort, FinishedError,
    Preemptions, PrefixQueries, PrefixHits, SpecDrafts, SpecDraftTokens, SpecAcceptedTokens, Count
};
inline constexpr int kCounterCount = int(Counter::Count);
inline constexpr int kQuantileHistograms = 4;                // Ttft, InterToken, E2e, QueueTime
inline constexpr int kMeanHistograms = int(Histogram::Count); // + PrefillTime, DecodeTime
inline constexpr int kMaxBuckets = HistogramSnapshot::kMaxBuckets;

// The deltas of one engine between two consecutive good scrapes.
struct IntervalDelta {
    enum class Outcome : std::uint8_t { Usable, NoBase, Restart, TooLong };
    Outcome outcome = Outcome::NoBase;
    double seconds = 0;
    std::array<double, kCounterCount> counters{};   // NaN where a side lacks the counter
    std::array<int, kQuantileHistograms> bucketCount{}; // 0: not comparable this interval
    std::array<std::array<double, kMaxBuckets>, kQuantileHistograms> buckets{}; // cumulative deltas
    std::array<const double *, kQuantileHistograms> bounds{};
    std::array<double, kMeanHistograms> sum{};   // NaN where not comparable
    std::array<double, kMeanHistograms> count{};

    // Fills the deltas from prev (at prevMs) to cur (at curMs). A changed process_start_time, or any
    // counter, histogram count or bucket that went down, is a restart: the interval yields nothing.
    // An interval longer than maxMs yields nothing either (TooLong). `cur` must outlive the delta
    // (bounds point into it).
    void compute(const EngineMetrics &prev, std::int64_t prevMs, const EngineMetrics &cur, std::int64_t curMs,
                 std::int64_t maxMs);
    bool isUsable() const { return outcome == Outcome::Usable; }
};

// What one slot (1 s or 10 s) has accumulated, for one engine or one pool.
struct SlotWindow {
    std::int64_t slot = -1;
    int scrapes = 0; // good scrapes (engines) or contributions (pools) in the slot
    std::array<double, kGaugeCount> gaugeSum{};
    std::array<double, kGaugeCount> gaugeMax{};
    std::array<int, kGaugeCount> gaugeN{};
    std::array<double, kCounterCount> delta{};
    std::array<double, kCounterCount> seconds{};
    std::array<int, kQuantileHistograms> bucketCount{}; // 0: none yet; -1: bounds differed, dropped
    int boundMismatches = 0;
    std::array<std::array<double, kMaxBuckets>, kQuantileHistograms> bounds{};
    std::array<std::array<double, kMaxBuckets>, kQuantileHistograms> buckets{};
    std::array<double, kMeanHistograms> sum{};
    std::array<double, kMeanHistograms> count{};

    void reset(std::int64_t newSlot);
    void addGauges(const EngineMetrics &m);
    void addInterval(const IntervalDelta &d);
    // Adds another window's counter, sum/count and bucket deltas (a pool made of pools).
    void mergeDeltas(const SlotWindow &other);
    // The series values of this window, kEngineMetricCount floats (NaN where undefined).
    void values(float *out) const;
    float gaugeMaxValue(int gauge) const;
};

} // namespace pd
