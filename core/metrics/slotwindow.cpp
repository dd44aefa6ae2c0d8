// SPDX-License-Identifier: MIT
#include "slotwindow.h"
#include "quietnan.h"

#include "quantile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace pd {

namespace {


double counterValue(const EngineMetrics &m, int c)
{
    switch (Counter(c)) {
    case Counter::PromptTokens: return m.promptTokens;
    case Counter::GenerationTokens: return m.generationTokens;
    case Counter::RequestSuccess: return m.requestSuccess;
    case Counter::FinishedStop: return m.successByReason[0];
    case Counter::FinishedLength: return m.successByReason[1];
    case Counter::FinishedAbort: return m.successByReason[2];
    case Counter::FinishedError: return m.successByReason[3];
    case Counter::Preemptions: return m.preemptions;
    case Counter::PrefixQueries: return m.prefixQueries;
    case Counter::PrefixHits: return m.prefixHits;
    case Counter::SpecDrafts: return m.specDrafts;
    case Counter::SpecDraftTokens: return m.specDraftTokens;
    case Counter::SpecAcceptedTokens: return m.specAcceptedTokens;
    case Counter::Count: break;
    }
    return kNanD;
}

bool sameBounds(const HistogramSnapshot &a, const HistogramSnapshot &b)
{
    // A bucket count outside the snapshot's capacity is a broken snapshot: not comparable.
    return a.bucketCount == b.bucketCount && a.bucketCount > 0 && a.bucketCount <= HistogramSnapshot::kMaxBuckets
        && std::memcmp(a.bounds.data(), b.bounds.data(), sizeof(double) * std::size_t(a.bucketCount)) == 0;
}

double ratio(double num, double den)
{
    return den > 0 && !std::isnan(num) ? num / den : kNanD;
}

} // namespace

void IntervalDelta::compute(const EngineMetrics &prev, std::int64_t prevMs, const EngineMetrics &cur,
                            std::int64_t curMs, std::int64_t maxMs)
{
    seconds = double(curMs - prevMs) / 1000.0;
    if (curMs <= prevMs) {
        outcome = Outcome::NoBase;
        return;
    }
    if (curMs - prevMs > maxMs) {
        outcome = Outcome::TooLong;
        return;
    }
    if (!std::isnan(prev.processStartTime) && !std::isnan(cur.processStartTime)
        && prev.processStartTime != cur.processStartTime) {
        outcome = Outcome::Restart;
        return;
    }
    bool decreased = false;
    for (int c = 0; c < kCounterCount; ++c) {
        const double d = counterValue(cur, c) - counterValue(prev, c); // NaN when either side is absent
        decreased |= d < 0;
        counters[std::size_t(c)] = d;
    }
    for (int h = 0; h < kMeanHistograms; ++h) {
        const HistogramSnapshot &p = prev.histograms[std::size_t(h)];
        const HistogramSnapshot &q = cur.histograms[std::size_t(h)];
        const double dc = q.count - p.count;
        const double ds = q.sum - p.sum;
        decreased |= dc < 0;
        count[std::size_t(h)] = dc;
        sum[std::size_t(h)] = ds;
        if (h >= kQuantileHistograms)
            continue;
        int n = 0;
        if (q.bucketCount > 0 && sameBounds(p, q)) {
            n = q.bucketCount;
            double *out = buckets[std::size_t(h)].data();
            for (int b = 0; b < n; ++b) {
                const double d = q.counts[std::size_t(b)] - p.counts[std::size_t(b)];
                decreased |= d < 0;
                out[b] = d;
            }
            bounds[std::size_t(h)] = q.bounds.data();
        }
        bucketCount[std::size_t(h)] = n;
    }
    outcome = decreased ? Outcome::Restart : Outcome::Usable;
}

void SlotWindow::reset(std::int64_t newSlot)
{
    slot = newSlot;
    scrapes = 0;
    boundMismatches = 0;
    gaugeSum.fill(0);
    gaugeMax.fill(-std::numeric_limits<double>::infinity());
    gaugeN.fill(0);
    delta.fill(0);
    seconds.fill(0);
    bucketCount.fill(0);
    sum.fill(0);
    count.fill(0);
}

void SlotWindow::addGauges(const EngineMetrics &m)
{
    const double g[kGaugeCount] = {m.running, m.waiting, m.kvUsage};
    for (int i = 0; i < kGaugeCount; ++i) {
        if (std::isnan(g[i]))
            continue;
        gaugeSum[std::size_t(i)] += g[i];
        gaugeMax[std::size_t(i)] = std::max(gaugeMax[std::size_t(i)], g[i]);
        ++gaugeN[std::size_t(i)];
    }
}

void SlotWindow::addInterval(const IntervalDelta &d)
{
    for (int c = 0; c < kCounterCount; ++c) {
        const double v = d.counters[std::size_t(c)];
        if (std::isnan(v))
            continue;
        delta[std::size_t(c)] += v;
        seconds[std::size_t(c)] += d.seconds;
    }
    for (int h = 0; h < kMeanHistograms; ++h) {
        const double dc = d.count[std::size_t(h)];
        const double ds = d.sum[std::size_t(h)];
        if (!std::isnan(dc) && !std::isnan(ds)) {
            count[std::size_t(h)] += dc;
            sum[std::size_t(h)] += ds;
        }
    }
    for (int h = 0; h < kQuantileHistograms; ++h) {
        const int n = d.bucketCount[std::size_t(h)];
        int &mine = bucketCount[std::size_t(h)];
        if (n == 0 || mine < 0)
            continue;
        auto &acc = buckets[std::size_t(h)];
        const double *src = d.buckets[std::size_t(h)].data();
        if (mine == 0) {
            mine = n;
            std::memcpy(bounds[std::size_t(h)].data(), d.bounds[std::size_t(h)], sizeof(double) * std::size_t(n));
            std::memcpy(acc.data(), src, sizeof(double) * std::size_t(n));
        } else if (mine == n
                   && std::memcmp(bounds[std::size_t(h)].data(), d.bounds[std::size_t(h)], sizeof(double) * std::size_t(n)) == 0) {
            for (int b = 0; b < n; ++b)
                acc[std::size_t(b)] += src[b];
        } else {
            ++boundMismatches; // a pool mixing bucket layouts: keep the first layout, leave the other out
        }
    }
}

void SlotWindow::mergeDeltas(const SlotWindow &other)
{
    for (int c = 0; c < kCounterCount; ++c) {
        delta[std::size_t(c)] += other.delta[std::size_t(c)];
        seconds[std::size_t(c)] += other.seconds[std::size_t(c)];
    }
    for (int h = 0; h < kMeanHistograms; ++h) {
        sum[std::size_t(h)] += other.sum[std::size_t(h)];
        count[std::size_t(h)] += other.count[std::size_t(h)];
    }
    boundMismatches += other.boundMismatches;
    for (int h = 0; h < kQuantileHistograms; ++h) {
        const int n = other.bucketCount[std::size_t(h)];
        int &mine = bucketCount[std::size_t(h)];
        if (n <= 0)
            continue;
        const std::size_t bytes = sizeof(double) * std::size_t(n);
        if (mine == 0) {
            mine = n;
            std::memcpy(bounds[std::size_t(h)].data(), other.bounds[std::size_t(h)].data(), bytes);
            std::memcpy(buckets[std::size_t(h)].data(), other.buckets[std::size_t(h)].data(), bytes);
        } else if (mine == n && std::memcmp(bounds[std::size_t(h)].data(), other.bounds[std::size_t(h)].data(), bytes) == 0) {
            for (int b = 0; b < n; ++b)
                buckets[std::size_t(h)][std::size_t(b)] += other.buckets[std::size_t(h)][std::size_t(b)];
        } else {
            ++boundMismatches;
        }
    }
}

float SlotWindow::gaugeMaxValue(int gauge) const
{
    return gaugeN[std::size_t(gauge)] > 0 ? float(gaugeMax[std::size_t(gauge)]) : kNanF;
}

void SlotWindow::values(float *out) const
{
    auto rate = [&](Counter c) {
        const double s = seconds[std::size_t(c)];
        return s > 0 ? float(delta[std::size_t(c)] / s) : kNanF;
    };
    auto counted = [&](Counter c) { return seconds[std::size_t(c)] > 0 ? delta[std::size_t(c)] : kNanD; };
    for (int i = 0; i < kGaugeCount; ++i)
        out[i] = gaugeN[std::size_t(i)] > 0 ? float(gaugeSum[std::size_t(i)] / gaugeN[std::size_t(i)]) : kNanF;
    out[int(Metric::PromptTokensRate)] = rate(Counter::PromptTokens);
    out[int(Metric::GenerationTokensRate)] = rate(Counter::GenerationTokens);
    out[int(Metric::RequestRate)] = rate(Counter::RequestSuccess);
    out[int(Metric::PreemptionRate)] = rate(Counter::Preemptions);
    out[int(Metric::FinishedStopRate)] = rate(Counter::FinishedStop);
    out[int(Metric::FinishedLengthRate)] = rate(Counter::FinishedLength);
    out[int(Metric::FinishedAbortRate)] = rate(Counter::FinishedAbort);
    out[int(Metric::FinishedErrorRate)] = rate(Counter::FinishedError);
    out[int(Metric::PrefixHitRate)] = float(ratio(counted(Counter::PrefixHits), counted(Counter::PrefixQueries)));
    out[int(Metric::SpecAcceptanceRate)] =
        float(ratio(counted(Counter::SpecAcceptedTokens), counted(Counter::SpecDraftTokens)));
    const double perDraft = ratio(counted(Counter::SpecAcceptedTokens), counted(Counter::SpecDrafts));
    out[int(Metric::SpecAcceptanceLength)] = float(1.0 + perDraft);

    static constexpr double quantiles[3] = {0.5, 0.9, 0.99};
    for (int h = 0; h < kQuantileHistograms; ++h) {
        float *o = out + int(Metric::TtftP50) + 4 * h;
        const int n = bucketCount[std::size_t(h)];
        for (int q = 0; q < 3; ++q)
            o[q] = n > 0 ? float(histogramQuantile(quantiles[q], bounds[std::size_t(h)].data(),
                                                   buckets[std::size_t(h)].data(), n))
                         : kNanF;
        o[3] = float(ratio(sum[std::size_t(h)], count[std::size_t(h)]));
    }
    out[int(Metric::PrefillTimeMean)] = float(ratio(sum[int(Histogram::PrefillTime)], count[int(Histogram::PrefillTime)]));
    out[int(Metric::DecodeTimeMean)] = float(ratio(sum[int(Histogram::DecodeTime)], count[int(Histogram::DecodeTime)]));
}

} // namespace pd
