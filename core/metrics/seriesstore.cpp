// SPDX-License-Identifier: MIT
#include "seriesstore.h"
#include "quietnan.h"

#include "decimate.h"
#include "quantile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace pd {

namespace {

// Keeps what the next interval reads: the scalars and each histogram's used buckets (a third of the
// struct's 3.9 KB for vLLM's bucket lists). Entries past bucketCount are never read.
void keepAsBase(EngineMetrics &dst, const EngineMetrics &src)
{
    dst.running = src.running;
    dst.waiting = src.waiting;
    dst.kvUsage = src.kvUsage;
    dst.promptTokens = src.promptTokens;
    dst.generationTokens = src.generationTokens;
    dst.requestSuccess = src.requestSuccess;
    dst.successByReason = src.successByReason;
    dst.preemptions = src.preemptions;
    dst.prefixQueries = src.prefixQueries;
    dst.prefixHits = src.prefixHits;
    dst.specDrafts = src.specDrafts;
    dst.specDraftTokens = src.specDraftTokens;
    dst.specAcceptedTokens = src.specAcceptedTokens;
    dst.processStartTime = src.processStartTime;
    for (std::size_t h = 0; h < dst.histograms.size(); ++h) {
        HistogramSnapshot &d = dst.histograms[h];
        const HistogramSnapshot &s = src.histograms[h];
        const std::size_t n = std::size_t(std::clamp(s.bucketCount, 0, HistogramSnapshot::kMaxBuckets));
        d.bucketCount = int(n);
        d.count = s.count;
        d.sum = s.sum;
        std::memcpy(d.bounds.data(), s.bounds.data(), n * sizeof(double));
        std::memcpy(d.counts.data(), s.counts.data(), n * sizeof(double));
    }
}
} // namespace

SeriesStore::SeriesStore(std::vector<Role> engineRoles, SeriesStoreConfig config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_roles(std::move(engineRoles))
    , m_engines(m_roles.size())
    , m_engineFine(
          config.fineSlots, int(m_roles.size()) * kEngineMetricCount, config.fineResolutionMs, config.compression)
    , m_engineCoarse(config.coarseSlots, int(m_roles.size()) * kCoarseEngineWidth, config.coarseResolutionMs,
          config.coarseCompression)
    , m_poolFine(config.fineSlots, kPoolCount * kPoolWidth, config.fineResolutionMs, config.compression)
    , m_poolCoarse(config.coarseSlots, kPoolCount * kPoolWidth, config.coarseResolutionMs, config.coarseCompression)
    , m_scratch(std::size_t(kEngineMetricCount) * std::max<std::size_t>(1, m_roles.size()))
    , m_delta(std::make_unique<IntervalDelta>())
{
    for (int e = 0; e < int(m_roles.size()); ++e) {
        m_pools[int(poolOf(m_roles[std::size_t(e)]))].engines.push_back(e);
        m_pools[int(Pool::Cluster)].engines.push_back(e);
    }
}

SeriesStore::~SeriesStore() = default;

std::vector<Role> SeriesStore::rolesOf(const Profile &profile)
{
    std::vector<Role> roles;
    const QList<Engine> engines = profile.engines();
    roles.reserve(std::size_t(engines.size()));
    for (const Engine &engine : engines)
        roles.push_back(engine.role);
    return roles;
}

void SeriesStore::ingest(const PollRound &round)
{
    m_freshnessChanged.clear();
    const std::int64_t t = round.timeMs;
    const int polled = std::min(int(round.engines.size()), engineCount());
    const std::int64_t fineSlot = m_engineFine.slotOf(t);
    const std::int64_t coarseSlot = m_engineCoarse.slotOf(t);
    const std::int64_t oldFine = m_engineFine.headSlot();
    const std::int64_t oldCoarse = m_engineCoarse.headSlot();

    if (t < 0 || (oldFine != kNoSlot && fineSlot < oldFine)) {
        // Older than what the rings hold: the slots are history now. Only freshness learns from it.
        ++m_droppedRounds;
        for (int e = 0; e < polled; ++e)
            updateFreshness(e, round.engines[std::size_t(e)], t);
        Q_EMIT roundIngested(t);
        return;
    }

    const bool fill = m_lastRoundMs > 0 && double(t - m_lastRoundMs) <= m_config.fillFactor * m_config.pollIntervalMs;
    m_engineFine.advanceTo(fineSlot);
    m_engineCoarse.advanceTo(coarseSlot);
    m_poolFine.advanceTo(fineSlot);
    m_poolCoarse.advanceTo(coarseSlot);
    for (PoolState &pool : m_pools) {
        if (pool.fine.slot != fineSlot)
            pool.fine.reset(fineSlot);
        if (pool.coarse.slot != coarseSlot)
            pool.coarse.reset(coarseSlot);
    }
    PoolState &prefill = m_pools[int(Pool::Prefill)];
    PoolState &decode = m_pools[int(Pool::Decode)];
    PoolState &cluster = m_pools[int(Pool::Cluster)];
    const int mismatchesBefore = prefill.fine.boundMismatches + decode.fine.boundMismatches;

    float *fineRow = m_engineFine.headRow();
    float *coarseRow = m_engineCoarse.headRow();
    const auto maxRateMs = std::int64_t(m_config.maxRateFactor * m_config.pollIntervalMs);
    IntervalDelta &d = *m_delta;

    for (int e = 0; e < polled; ++e) {
        const EnginePoll &poll = round.engines[std::size_t(e)];
        if (!poll.metrics) {
            if (poll.error)
                updateFreshness(e, poll, t);
            continue; // its cells of a new slot stay NaN: a gap
        }
        EngineState &s = m_engines[std::size_t(e)];
        const EngineMetrics &m = *poll.metrics;
        const std::int64_t at = poll.scrapedAtMs > 0 ? poll.scrapedAtMs : t;
        if (s.previousMs > 0)
            d.compute(s.previous, s.previousMs, m, at, maxRateMs);
        else
            d.outcome = IntervalDelta::Outcome::NoBase;
        if (d.outcome == IntervalDelta::Outcome::Restart) {
            ++s.status.restarts;
            s.status.lastRestartMs = t;
        }
        if (s.fine.slot != fineSlot)
            s.fine.reset(fineSlot);
        if (s.coarse.slot != coarseSlot)
            s.coarse.reset(coarseSlot);
        ++s.fine.scrapes;
        ++s.coarse.scrapes;
        s.fine.addGauges(m);
        s.coarse.addGauges(m);
        if (d.isUsable()) {
            PoolState &rolePool = m_pools[int(poolOf(m_roles[std::size_t(e)]))];
            s.fine.addInterval(d);
            s.coarse.addInterval(d);
            rolePool.fine.addInterval(d);
            rolePool.coarse.addInterval(d);
        }
        s.fine.values(fineRow + engineFineColumn(e, 0));
        float *c = coarseRow + engineCoarseColumn(e, 0);
        s.coarse.values(c);
        for (int g = 0; g < kGaugeCount; ++g)
            c[kEngineMetricCount + g] = s.coarse.gaugeMaxValue(g);
        if (at > s.previousMs) { // a body repeated or stamped earlier does not move the base back
            keepAsBase(s.previous, m);
            s.previousMs = at;
        }
        updateFreshness(e, poll, t);
    }
    m_boundMismatches += prefill.fine.boundMismatches + decode.fine.boundMismatches - mismatchesBefore;
    // The cluster's deltas are its two pools' deltas: merged once per round, not added per engine.
    cluster.fine.reset(fineSlot);
    cluster.fine.mergeDeltas(prefill.fine);
    cluster.fine.mergeDeltas(decode.fine);
    cluster.coarse.reset(coarseSlot);
    cluster.coarse.mergeDeltas(prefill.coarse);
    cluster.coarse.mergeDeltas(decode.coarse);

    for (int p = 0; p < kPoolCount; ++p)
        writePool(m_pools[p], p, fineSlot, coarseSlot);

    if (fill) {
        // The round's values cover the time since the previous round: repeated over the slots it skipped.
        m_engineFine.repeatHeadBack(oldFine);
        m_poolFine.repeatHeadBack(oldFine);
        m_engineCoarse.repeatHeadBack(oldCoarse);
        m_poolCoarse.repeatHeadBack(oldCoarse);
    }
    m_lastRoundMs = t;
    Q_EMIT roundIngested(t);
}

void SeriesStore::writePool(PoolState &pool, int poolIndex, std::int64_t fineSlot, std::int64_t coarseSlot)
{
    const int n = int(pool.engines.size());
    for (int fine = 1; fine >= 0; --fine) {
        const std::int64_t slot = fine ? fineSlot : coarseSlot;
        const RingSeries &engineRing = fine ? m_engineFine : m_engineCoarse;
        const int width = fine ? kEngineMetricCount : kCoarseEngineWidth;
        const float *engineRow = engineRing.headRow();
        float *out = (fine ? m_poolFine : m_poolCoarse).headRow() + poolIndex * kPoolWidth;
        const SlotWindow &window = fine ? pool.fine : pool.coarse;

        float pooled[kEngineMetricCount];
        window.values(pooled);
        double sums[kEngineMetricCount] = {};
        float maxs[kEngineMetricCount];
        int counts[kEngineMetricCount] = {};
        std::fill_n(maxs, kEngineMetricCount, -std::numeric_limits<float>::infinity());
        int reporting = 0;
        // Engine-major: each engine's row part is contiguous; values go to per-metric scratch columns.
        for (int k = 0; k < n; ++k) {
            const int e = pool.engines[std::size_t(k)];
            const EngineState &s = m_engines[std::size_t(e)];
            const SlotWindow &ew = fine ? s.fine : s.coarse;
            if (ew.slot != slot || ew.scrapes == 0)
                continue;
            ++reporting;
            const float *v = engineRow + std::size_t(e) * std::size_t(width);
            for (int m = 0; m < kEngineMetricCount; ++m) {
                const float x = v[m];
                if (std::isnan(x))
                    continue;
                sums[m] += x;
                const float mx = (!fine && m < kGaugeCount) ? v[kEngineMetricCount + m] : x;
                maxs[m] = std::max(maxs[m], mx);
                m_scratch[std::size_t(m) * std::size_t(n) + std::size_t(counts[m]++)] = x;
            }
        }
        for (int m = 0; m < kEngineMetricCount; ++m) {
            float *o = out + m * kAggCount;
            const int c = counts[m];
            const MetricKind kind = metricKind(Metric(m));
            const bool additive = kind == MetricKind::Gauge || kind == MetricKind::Rate;
            o[int(Agg::Value)] = additive ? (c ? float(sums[m]) : kNanF) : pooled[m];
            o[int(Agg::Mean)] = c ? float(sums[m] / c) : kNanF;
            o[int(Agg::Max)] = c ? maxs[m] : kNanF;
            o[int(Agg::P99)] = c ? float(valuesQuantile(0.99, m_scratch.data() + std::size_t(m) * std::size_t(n), c)) : kNanF;
        }
        out[kEngineMetricCount * kAggCount] = float(reporting);
    }
}

void SeriesStore::updateFreshness(int engine, const EnginePoll &poll, std::int64_t timeMs)
{
    EngineStatus &st = m_engines[std::size_t(engine)].status;
    const Freshness before = st.freshness;
    if (poll.metrics) {
        st.lastAttemptMs = timeMs;
        st.consecutiveMisses = 0;
        st.lastGoodMs = std::max(st.lastGoodMs, poll.scrapedAtMs > 0 ? poll.scrapedAtMs : timeMs);
        st.freshness = Freshness::Fresh;
    } else if (poll.error) {
        st.lastAttemptMs = timeMs;
        ++st.consecutiveMisses;
        st.lastError = *poll.error;
        if (st.consecutiveMisses >= m_config.unreachableAfterMisses)
            st.freshness = Freshness::Unreachable;
        else if (st.consecutiveMisses >= m_config.staleAfterMisses)
            st.freshness = Freshness::Stale;
    }
    if (st.freshness != before)
        m_freshnessChanged.push_back(engine);
}

int SeriesStore::poolColumn(Pool pool, Metric metric, Agg agg) const
{
    const int base = int(pool) * kPoolWidth;
    if (metric == Metric::EnginesReporting)
        return base + kEngineMetricCount * kAggCount;
    return base + int(metric) * kAggCount + int(agg);
}

RingColumn SeriesStore::column(const SeriesId &id, Resolution resolution) const
{
    const int m = int(id.metric);
    const bool fine = resolution == Resolution::Fine;
    if (m < 0 || m >= kMetricCount)
        return {};
    if (id.isPool()) {
        if (int(id.pool) >= kPoolCount || int(id.agg) >= kAggCount)
            return {};
        return (fine ? m_poolFine : m_poolCoarse).column(poolColumn(id.pool, id.metric, id.agg));
    }
    if (id.engine >= engineCount() || m >= kEngineMetricCount)
        return {};
    if (id.agg == Agg::Value || (id.agg == Agg::Max && fine))
        return fine ? m_engineFine.column(engineFineColumn(id.engine, m))
                    : m_engineCoarse.column(engineCoarseColumn(id.engine, m));
    if (id.agg == Agg::Max && m < kGaugeCount)
        return m_engineCoarse.column(engineCoarseColumn(id.engine, kEngineMetricCount + m));
    if (id.agg == Agg::Max) // an engine's 10 s slot of a non-gauge has one value: its max is that value
        return m_engineCoarse.column(engineCoarseColumn(id.engine, m));
    return {};
}

SeriesStore::Resolution SeriesStore::resolutionFor(std::int64_t fromMs, std::int64_t toMs) const
{
    const std::int64_t res = m_engineFine.resolutionMs();
    const std::int64_t span = std::int64_t(m_engineFine.capacity()) * res;
    if (toMs - fromMs > span)
        return Resolution::Coarse;
    const std::int64_t head = m_engineFine.headSlot();
    if (head == kNoSlot)
        return Resolution::Fine;
    const std::int64_t oldestRetainable = (head - m_engineFine.capacity() + 1) * res;
    return fromMs >= oldestRetainable - res ? Resolution::Fine : Resolution::Coarse;
}

SeriesView SeriesStore::seriesView(const SeriesId &id, std::int64_t fromMs, std::int64_t toMs, int maxPoints) const
{
    const Resolution r = resolutionFor(fromMs, toMs);
    SeriesView view;
    view.resolutionMs = r == Resolution::Fine ? m_engineFine.resolutionMs() : m_engineCoarse.resolutionMs();
    view.points = decimateMinMax(column(id, r), fromMs, toMs, maxPoints);
    return view;
}

float SeriesStore::latest(const SeriesId &id) const
{
    const RingColumn c = column(id, Resolution::Fine);
    return c.isEmpty() ? kNanF : c.at(c.lastSlot);
}

float SeriesStore::valueAt(const SeriesId &id, std::int64_t timeMs) const
{
    if (timeMs < 0)
        return kNanF;
    for (Resolution r : {Resolution::Fine, Resolution::Coarse}) {
        const RingColumn c = column(id, r);
        const std::int64_t slot = timeMs / c.resolutionMs;
        if (!c.isEmpty() && slot >= c.firstSlot && slot <= c.lastSlot)
            return c.at(slot);
    }
    return kNanF;
}

StoreMemory SeriesStore::memory() const
{
    StoreMemory mem;
    for (const RingSeries *ring : {&m_engineFine, &m_engineCoarse, &m_poolFine, &m_poolCoarse}) {
        mem.ringBytes += ring->storageBytes();
        mem.samples += ring->samplesHeld();
        mem.sampleCapacity += ring->sampleCapacity();
        mem.sealedBytes += ring->sealedBytes();
        mem.sealedSamples += ring->sealedSamples();
    }
    mem.stateBytes = sizeof(*this) + m_engines.capacity() * sizeof(EngineState) + m_scratch.capacity() * sizeof(float)
        + sizeof(IntervalDelta) + m_roles.capacity() * sizeof(Role);
    for (const PoolState &pool : m_pools)
        mem.stateBytes += pool.engines.capacity() * sizeof(int);
    return mem;
}

} // namespace pd
