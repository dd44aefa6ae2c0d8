// SPDX-License-Identifier: MIT
#include "metricsextractor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace pd {

// Named, not anonymous: MetricsAccumulator::Impl (external linkage) holds an Extractor.
namespace extraction {

enum class Slot : std::uint8_t {
    None, Running, Waiting, KvNew, KvOld, PromptTokens, GenerationTokens, Success, Preemptions,
    PrefixQueriesNew, PrefixHitsNew, PrefixQueriesOld, PrefixHitsOld, SpecDrafts, SpecDraftTokens,
    SpecAccepted, ProcessStart, Bucket, Count, Sum,
};

constexpr int kLegacyTpot = int(Histogram::Count); // index of the 0.9.1 TPOT histogram (scratch)

struct Entry {
    std::string_view name;
    Slot slot = Slot::None;
    std::int8_t histogram = -1;
};

#define PD_HIST(base, h)                                                                           \
    Entry{"vllm:" base "_bucket", Slot::Bucket, std::int8_t(h)},                                   \
        Entry{"vllm:" base "_count", Slot::Count, std::int8_t(h)},                                 \
        Entry{"vllm:" base "_sum", Slot::Sum, std::int8_t(h)}

constexpr Entry kEntries[] = {
    {"vllm:num_requests_running", Slot::Running},
    {"vllm:num_requests_waiting", Slot::Waiting},
    {"vllm:kv_cache_usage_perc", Slot::KvNew},
    {"vllm:gpu_cache_usage_perc", Slot::KvOld},
    {"vllm:prompt_tokens_total", Slot::PromptTokens},
    {"vllm:generation_tokens_total", Slot::GenerationTokens},
    {"vllm:request_success_total", Slot::Success},
    {"vllm:num_preemptions_total", Slot::Preemptions},
    {"vllm:prefix_cache_queries_total", Slot::PrefixQueriesNew},
    {"vllm:prefix_cache_hits_total", Slot::PrefixHitsNew},
    {"vllm:gpu_prefix_cache_queries_total", Slot::PrefixQueriesOld},
    {"vllm:gpu_prefix_cache_hits_total", Slot::PrefixHitsOld},
    {"vllm:spec_decode_num_drafts_total", Slot::SpecDrafts},
    {"vllm:spec_decode_num_draft_tokens_total", Slot::SpecDraftTokens},
    {"vllm:spec_decode_num_accepted_tokens_total", Slot::SpecAccepted},
    {"process_start_time_seconds", Slot::ProcessStart},
    PD_HIST("time_to_first_token_seconds", Histogram::Ttft),
    PD_HIST("inter_token_latency_seconds", Histogram::InterToken),
    PD_HIST("time_per_output_token_seconds", kLegacyTpot),
    PD_HIST("e2e_request_latency_seconds", Histogram::E2e),
    PD_HIST("request_queue_time_seconds", Histogram::QueueTime),
    PD_HIST("request_prefill_time_seconds", Histogram::PrefillTime),
    PD_HIST("request_decode_time_seconds", Histogram::DecodeTime),
};
#undef PD_HIST

// A cheap hash over the length and a few bytes near the end (where vLLM names differ), into an
// open-addressed table: one or two probes per sample line, a full compare only on a candidate.
constexpr std::size_t kTableSize = 128;

constexpr std::size_t quickHash(std::string_view n)
{
    const std::size_t len = n.size();
    std::uint32_t h = std::uint32_t(len) * 0x9E3779B1u;
    if (len >= 12) {
        h ^= std::uint32_t(std::uint8_t(n[len - 1])) * 0x85EBCA6Bu;
        h ^= std::uint32_t(std::uint8_t(n[len - 4])) * 0xC2B2AE35u;
        h ^= std::uint32_t(std::uint8_t(n[len - 9])) * 0x27D4EB2Fu;
        h ^= std::uint32_t(std::uint8_t(n[len - 12])) * 0x165667B1u;
        h ^= std::uint32_t(std::uint8_t(n[5])) * 0x9E3779B1u;
    }
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h & (kTableSize - 1);
}

struct Table {
    std::array<std::int8_t, kTableSize> slot{}; // index into kEntries, -1 empty
};

constexpr Table makeTable()
{
    Table t;
    for (auto &s : t.slot)
        s = -1;
    for (std::size_t i = 0; i < std::size(kEntries); ++i) {
        std::size_t h = quickHash(kEntries[i].name);
        while (t.slot[h] != -1)
            h = (h + 1) & (kTableSize - 1);
        t.slot[h] = std::int8_t(i);
    }
    return t;
}

constexpr Table kTable = makeTable();

const Entry *lookup(std::string_view name)
{
    if (name.size() < 12 || name.size() > 64)
        return nullptr;
    std::size_t h = quickHash(name);
    for (;;) {
        const int i = kTable.slot[h];
        if (i < 0)
            return nullptr;
        if (kEntries[i].name == name)
            return &kEntries[i];
        h = (h + 1) & (kTableSize - 1);
    }
}

inline void add(double &field, double v) { field = std::isnan(field) ? v : field + v; }

bool hasData(const HistogramSnapshot &h) { return h.bucketCount > 0 || !std::isnan(h.count) || !std::isnan(h.sum); }

class Extractor final : public PromVisitor {
public:
    Extractor(EngineMetrics &out, const MetricsExtractor::Options &options) : m_out(out), m_options(options) {}

    bool wantsSample(std::string_view name) override
    {
        m_entry = lookup(name);
        return m_entry != nullptr;
    }

    void sample(const PromSample &s) override
    {
        if (!m_options.engine.empty()) {
            const PromLabel engine = s.labels.find("engine");
            if (engine.name.empty() || !engine.valueEquals(m_options.engine))
                return;
        }
        ++m_used;
        const double v = s.value;
        switch (m_entry->slot) {
        case Slot::None: break;
        case Slot::Running: add(m_out.running, v); break;
        case Slot::Waiting: add(m_out.waiting, v); break;
        case Slot::KvNew: m_kvNew = std::isnan(m_kvNew) ? v : std::max(m_kvNew, v); break;
        case Slot::KvOld: m_kvOld = std::isnan(m_kvOld) ? v : std::max(m_kvOld, v); break;
        case Slot::PromptTokens: add(m_out.promptTokens, v); break;
        case Slot::GenerationTokens: add(m_out.generationTokens, v); break;
        case Slot::Success: success(s); break;
        case Slot::Preemptions: add(m_out.preemptions, v); break;
        case Slot::PrefixQueriesNew: add(m_prefixQueriesNew, v); break;
        case Slot::PrefixHitsNew: add(m_prefixHitsNew, v); break;
        case Slot::PrefixQueriesOld: add(m_prefixQueriesOld, v); break;
        case Slot::PrefixHitsOld: add(m_prefixHitsOld, v); break;
        case Slot::SpecDrafts: add(m_out.specDrafts, v); break;
        case Slot::SpecDraftTokens: add(m_out.specDraftTokens, v); break;
        case Slot::SpecAccepted: add(m_out.specAcceptedTokens, v); break;
        case Slot::ProcessStart: m_out.processStartTime = v; break;
        case Slot::Bucket: bucket(s); break;
        case Slot::Count: add(histogram(m_entry->histogram).count, v); break;
        case Slot::Sum: add(histogram(m_entry->histogram).sum, v); break;
        }
    }

    // Resolves old/new names and overflowed histograms; returns the number of dropped histograms.
    int finish()
    {
        m_out.kvUsage = std::isnan(m_kvNew) ? m_kvOld : m_kvNew;
        m_out.prefixQueries = std::isnan(m_prefixQueriesNew) ? m_prefixQueriesOld : m_prefixQueriesNew;
        m_out.prefixHits = std::isnan(m_prefixHitsNew) ? m_prefixHitsOld : m_prefixHitsNew;
        if (!hasData(m_out.histogram(Histogram::InterToken))) {
            m_out.histogram(Histogram::InterToken) = m_legacyTpot;
            m_overflow[std::size_t(Histogram::InterToken)] = m_overflow[kLegacyTpot];
        }
        int dropped = 0;
        for (std::size_t i = 0; i < m_out.histograms.size(); ++i) {
            if (m_overflow[i]) {
                m_out.histograms[i] = HistogramSnapshot{};
                ++dropped;
            }
        }
        return dropped;
    }

    std::size_t used() const { return m_used; }

private:
    HistogramSnapshot &histogram(int i) { return i == kLegacyTpot ? m_legacyTpot : m_out.histograms[std::size_t(i)]; }

    void success(const PromSample &s)
    {
        add(m_out.requestSuccess, s.value);
        const PromLabel reason = s.labels.find("finished_reason");
        static constexpr std::string_view kReasons[] = {"stop", "length", "abort", "error"};
        for (std::size_t i = 0; i < std::size(kReasons); ++i) {
            if (reason.rawValue == kReasons[i] && !reason.escaped) {
                add(m_out.successByReason[i], s.value);
                break;
            }
        }
    }

    void bucket(const PromSample &s)
    {
        const PromLabel le = s.labels.find("le");
        double bound = 0;
        if (le.name.empty() || le.escaped || !PromParser::parseValue(le.rawValue, bound) || std::isnan(bound))
            return;
        const int hi = m_entry->histogram;
        HistogramSnapshot &h = histogram(hi);
        int &cursor = m_cursor[std::size_t(hi)];
        if (cursor < h.bucketCount && h.bounds[std::size_t(cursor)] == bound) {
            add(h.counts[std::size_t(cursor)], s.value);
            ++cursor;
            return;
        }
        int i = 0;
        while (i < h.bucketCount && h.bounds[std::size_t(i)] < bound)
            ++i;
        if (i < h.bucketCount && h.bounds[std::size_t(i)] == bound) {
            add(h.counts[std::size_t(i)], s.value);
            cursor = i + 1;
            return;
        }
        if (h.bucketCount == HistogramSnapshot::kMaxBuckets) {
            m_overflow[std::size_t(hi)] = true;
            return;
        }
        for (int j = h.bucketCount; j > i; --j) {
            h.bounds[std::size_t(j)] = h.bounds[std::size_t(j - 1)];
            h.counts[std::size_t(j)] = h.counts[std::size_t(j - 1)];
        }
        h.bounds[std::size_t(i)] = bound;
        h.counts[std::size_t(i)] = s.value;
        ++h.bucketCount;
        cursor = i + 1;
    }

    EngineMetrics &m_out;
    const MetricsExtractor::Options &m_options;
    const Entry *m_entry = nullptr;
    std::size_t m_used = 0;
    double m_kvNew = kAbsent, m_kvOld = kAbsent;
    double m_prefixQueriesNew = kAbsent, m_prefixHitsNew = kAbsent;
    double m_prefixQueriesOld = kAbsent, m_prefixHitsOld = kAbsent;
    HistogramSnapshot m_legacyTpot;
    std::array<int, kLegacyTpot + 1> m_cursor{};
    std::array<bool, kLegacyTpot + 1> m_overflow{};
};

} // namespace extraction

class MetricsAccumulator::Impl final {
public:
    Impl(EngineMetrics &out, const MetricsExtractor::Options &options) : x(out, options) {}
    extraction::Extractor x;
};

MetricsAccumulator::MetricsAccumulator(EngineMetrics &out, MetricsExtractor::Options options)
    : m_options(options)
{
    out = EngineMetrics{};
    m_impl = std::make_unique<Impl>(out, m_options);
}

MetricsAccumulator::~MetricsAccumulator() = default;

bool MetricsAccumulator::reads(std::string_view name)
{
    return extraction::lookup(name) != nullptr;
}

void MetricsAccumulator::add(std::string_view name, const PromLabels &labels, double value)
{
    if (!m_impl->x.wantsSample(name))
        return;
    PromSample s;
    s.name = name;
    s.labels = labels;
    s.value = value;
    m_impl->x.sample(s);
}

int MetricsAccumulator::finish()
{
    return m_impl->x.finish();
}

std::size_t MetricsAccumulator::samplesUsed() const
{
    return m_impl->x.used();
}

MetricsExtractor::Result MetricsExtractor::extract(std::string_view body, EngineMetrics &out, const Options &options)
{
    out = EngineMetrics{};
    extraction::Extractor x(out, options);
    const PromParser::Result parsed = PromParser::parse(body, x);
    Result r;
    r.error = parsed.error;
    r.lines = parsed.lines;
    r.samplesRead = x.used();
    r.samplesSkipped = parsed.skipped;
    if (!parsed.ok()) {
        out = EngineMetrics{};
        return r;
    }
    r.droppedHistograms = x.finish();
    return r;
}

} // namespace pd
