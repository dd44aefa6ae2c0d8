// SPDX-License-Identifier: MIT
#pragma once

#include "enginemetrics.h"
#include "promparser.h"

#include <cstddef>
#include <memory>
#include <string_view>

// Reduces one /metrics body to pd::EngineMetrics (vllm-metrics.md §5.5), for both metric
// generations: 0.9.1 (gpu_cache_usage_perc, time_per_output_token_seconds, gpu_prefix_cache_*) and
// current main (kv_cache_usage_perc, inter_token_latency_seconds, prefix_cache_*); when a body has
// both, the new name wins. Every sample line the console does not read (`_created`, HELP/TYPE,
// buckets of histograms it does not chart, http_*, python_*) is skipped after its name, with one
// memchr. Allocation-free; a pure function of the body, callable from any thread.
//
// Several engines in one body (one API server in front of DP ranks, vLLM >= 0.10): with
// Options::engine set only samples whose `engine` label equals it are read; without it they are
// combined: counters, running/waiting and histogram buckets (matched by numeric `le`) are summed,
// KV usage is the maximum.
namespace pd {

class MetricsExtractor final {
public:
    struct Options {
        std::string_view engine; // empty: all engines of the body
    };

    struct Result {
        PromError error;                 // kind None: the body was well-formed
        std::size_t lines = 0;           // lines read
        std::size_t samplesRead = 0;     // sample lines the extractor used
        std::size_t samplesSkipped = 0;  // sample lines skipped after their name
        int droppedHistograms = 0;       // histograms with more than kMaxBuckets buckets (left empty)
        bool ok() const { return error.kind == PromErrorKind::None; }
    };

    // Fills `out` from `body` (out is reset first). On a malformed body `out` is reset to "nothing
    // exposed" again and the error says where (line, column) and why. A well-formed body without
    // vLLM families is not an error: the fields stay NaN.
    static Result extract(std::string_view body, EngineMetrics &out, const Options &options);
    static Result extract(std::string_view body, EngineMetrics &out) { return extract(body, out, Options{}); }
};

// The same mapping, fed sample by sample instead of from a body: for samples that arrive already
// parsed (a Prometheus server's API answer holds the samples of one scrape as series). Every sample
// goes through the extractor's own name table and merge rules, so a scrape read this way gives the
// very EngineMetrics the poller's extract() gives for the same exposition.
class MetricsAccumulator final {
public:
    explicit MetricsAccumulator(EngineMetrics &out, MetricsExtractor::Options options = {});
    ~MetricsAccumulator();
    MetricsAccumulator(const MetricsAccumulator &) = delete;
    MetricsAccumulator &operator=(const MetricsAccumulator &) = delete;

    // Whether the extractor reads samples called `name` (the names of both generations).
    static bool reads(std::string_view name);
    // One sample; `labels` as in an exposition's label block (le, finished_reason, engine matter).
    void add(std::string_view name, const PromLabels &labels, double value);
    // Resolves old/new names; returns the histograms dropped for too many buckets. Call once.
    int finish();
    std::size_t samplesUsed() const;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
    MetricsExtractor::Options m_options; // the Impl refers to it
};

} // namespace pd
