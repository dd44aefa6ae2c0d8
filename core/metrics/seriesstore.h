// SPDX-License-Identifier: MIT
#pragma once

#include "pollround.h"
#include "ringseries.h"
#include "seriesid.h"
#include "slotwindow.h"

#include <QList>
#include <QObject>
#include <QPointF>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

// The bounded history behind every chart (docs/series-store.md): per engine the series of
// vllm-metrics.md §5.5 (SeriesId/Metric), pool aggregates per role and for the cluster, in float32
// rings at 1 s for 1 h and 10 s for 24 h, NaN marking gaps, older blocks compressed; and each engine's
// freshness.
//
// Threading: owned and used by the GUI thread only (its rings' decoded-column caches too). The poller
// hands each round's PollBatch over with one queued call; the GUI thread turns it into a PollRound
// (toPollRound) and ingest() costs a few µs per engine and emits roundIngested once. Views are computed on demand (decimated in core), so a chart's tick is one seriesView() and one
// replace() per series.
namespace pd {

struct SeriesStoreConfig {
    int pollIntervalMs = 1000;    // the poller's nominal period
    double fillFactor = 2.5;      // a round up to fillFactor periods after the previous one fills the slots in
                                  // between (its rates cover them); a later round leaves them as gaps
    double maxRateFactor = 10;    // no rate across an interval longer than this many periods (new base)
    int staleAfterMisses = 2;     // consecutive failed polls that make an engine stale
    int unreachableAfterMisses = 5;
    int fineSlots = 3600;         // 1 h at 1 s
    int fineResolutionMs = 1000;
    int coarseSlots = 8640;       // 24 h at 10 s
    int coarseResolutionMs = 10000;
    // History older than the two newest blocks (2-4 min at 1 s, 20-40 min at 10 s) is sealed with some
    // precision lost (docs/series-store.md, "Memory"): a value's error is at most 2^-(k+1) of the
    // largest magnitude in its block and series, k = 12 in the 1 s rings (1/8,192 of it) and 10 in the
    // 10 s rings, drawn only in views of hours (1/2,048: under half a pixel of a 2,000 px chart reaching
    // that value). Gaps and zero stay exact, and so do blocks of whole numbers up to 2^(k+1)
    // (a running-requests gauge: 3 stays 3 beside 3,000).
    RingCompression compression { 120, 12, FloatBlockCodec::ErrorBound::BlockLargest };
    RingCompression coarseCompression { 120, 10, FloatBlockCodec::ErrorBound::BlockLargest };
};

enum class Freshness : std::uint8_t { Unknown, Fresh, Stale, Unreachable };

struct EngineStatus {
    Freshness freshness = Freshness::Unknown;
    std::int64_t lastGoodMs = 0;     // time of the last good scrape (0: never)
    std::int64_t lastAttemptMs = 0;
    int consecutiveMisses = 0;
    std::optional<PollError> lastError; // the last failure (kept after recovery, for the detail view)
    int restarts = 0;                // counter resets / process_start_time changes seen
    std::int64_t lastRestartMs = 0;
};

struct SeriesView {
    QList<QPointF> points; // x: ms since the epoch, y: value; y NaN = a break
    int resolutionMs = 0;  // the ring the points came from
};

struct StoreMemory {
    std::size_t ringBytes = 0;      // sample storage allocated now: the hot rows reserved and the sealed blocks
    std::size_t samples = 0;        // samples held now (slots held × series; gaps count)
    std::size_t sampleCapacity = 0; // samples held once 1 h and 24 h have been seen
    std::size_t sealedBytes = 0;    // the compressed part alone
    std::size_t sealedSamples = 0;
    std::size_t stateBytes = 0;     // per-engine and per-pool state besides the rings
    double bytesPerSample() const { return samples ? double(ringBytes) / double(samples) : 0.0; }
    double sealedBytesPerSample() const { return sealedSamples ? double(sealedBytes) / double(sealedSamples) : 0.0; }
    double totalBytesPerSample() const { return samples ? double(ringBytes + stateBytes) / double(samples) : 0.0; }
};

class SeriesStore final : public QObject {
    Q_OBJECT
public:
    // One entry per engine, in Profile::engines() order: the pool each engine belongs to.
    explicit SeriesStore(std::vector<Role> engineRoles, SeriesStoreConfig config = {}, QObject *parent = nullptr);
    ~SeriesStore() override;
    static std::vector<Role> rolesOf(const Profile &profile);

    const SeriesStoreConfig &config() const { return m_config; }
    int engineCount() const { return int(m_roles.size()); }

    // One poll round. Rounds older than the newest slot are counted (droppedRounds) and only update
    // freshness. Emits roundIngested once.
    void ingest(const PollRound &round);

    // Points for a chart: at most maxPoints (2 per pixel column), min and max per column, breaks kept,
    // from the 1 s ring when the range fits in it, else from the 10 s ring.
    SeriesView seriesView(const SeriesId &id, std::int64_t fromMs, std::int64_t toMs, int maxPoints) const;
    // The newest value held (the head slot of the 1 s ring); NaN when it is a gap.
    float latest(const SeriesId &id) const;
    // The value of the slot holding timeMs (1 s ring when held there, else 10 s); NaN for a gap.
    float valueAt(const SeriesId &id, std::int64_t timeMs) const;
    // The raw column of a series in one ring (for tests, sparklines and exports); empty when the id is
    // not a series of that ring.
    enum class Resolution : std::uint8_t { Fine, Coarse };
    RingColumn column(const SeriesId &id, Resolution resolution) const;
    Resolution resolutionFor(std::int64_t fromMs, std::int64_t toMs) const;

    const EngineStatus &status(int engine) const { return m_engines[std::size_t(engine)].status; }
    // Engines whose freshness changed in the last round (for a model's dataChanged).
    const std::vector<int> &freshnessChanged() const { return m_freshnessChanged; }
    std::int64_t lastRoundMs() const { return m_lastRoundMs; }
    int droppedRounds() const { return m_droppedRounds; }
    int boundMismatches() const { return m_boundMismatches; } // engine histograms left out of a pool quantile

    StoreMemory memory() const;

Q_SIGNALS:
    void roundIngested(qint64 roundTimeMs);

private:
    struct EngineState {
        EngineMetrics previous;          // the last good scrape (the base of the next interval)
        std::int64_t previousMs = 0;     // 0: no base
        SlotWindow fine;                 // what the engine's current 1 s slot has accumulated
        SlotWindow coarse;               // ... and its current 10 s slot
        EngineStatus status;
    };
    struct PoolState {
        std::vector<int> engines;
        SlotWindow fine;
        SlotWindow coarse;
    };

    int engineFineColumn(int engine, int metric) const { return engine * kEngineMetricCount + metric; }
    int engineCoarseColumn(int engine, int metric) const { return engine * kCoarseEngineWidth + metric; }
    int poolColumn(Pool pool, Metric metric, Agg agg) const;
    void updateFreshness(int engine, const EnginePoll &poll, std::int64_t timeMs);
    void writePool(PoolState &pool, int poolIndex, std::int64_t fineSlot, std::int64_t coarseSlot);

    static constexpr int kCoarseEngineWidth = kEngineMetricCount + kGaugeCount; // + max of each gauge
    static constexpr int kPoolWidth = kEngineMetricCount * kAggCount + 1;       // + engines reporting

    SeriesStoreConfig m_config;
    std::vector<Role> m_roles;
    std::vector<EngineState> m_engines;
    PoolState m_pools[kPoolCount];
    RingSeries m_engineFine;
    RingSeries m_engineCoarse;
    RingSeries m_poolFine;
    RingSeries m_poolCoarse;
    std::int64_t m_lastRoundMs = 0;
    int m_droppedRounds = 0;
    int m_boundMismatches = 0;
    std::vector<int> m_freshnessChanged;
    std::vector<float> m_scratch;
    std::unique_ptr<IntervalDelta> m_delta; // reused per engine (1.4 KB, off the stack)
};

} // namespace pd
