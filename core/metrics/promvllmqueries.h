// SPDX-License-Identifier: MIT
#pragma once

#include "promapianswer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// The PromQL the Prometheus source sends, built from the vLLM names of both metric generations
// (vllm-metrics.md §5): 0.9.1 (gpu_cache_usage_perc, gpu_prefix_cache_*, time_per_output_token_seconds)
// and current vLLM (kv_cache_usage_perc, prefix_cache_*, inter_token_latency_seconds). Pure functions.
//
// The source reads raw samples (range selectors, each sample once with its own scrape timestamp) and
// lets the series store compute rates and quantiles, so the numbers are the poller's (see
// docs/prometheus-source.md, "Why raw samples").
namespace pd {

enum class VllmGeneration : std::uint8_t {
    Unknown, // up, but neither generation's KV cache gauge: not vLLM, or names this console does not know
    V091, // gpu_cache_usage_perc
    Current, // kv_cache_usage_perc (wins when a transitional version exposes both)
};

QString vllmGenerationName(VllmGeneration g);

// What the detection query saw of one target (one value of the engine label).
struct PromTargetProbe {
    std::string labelValue;
    bool hasUp = false;
    double up = 0; // the target's newest `up` (1 scraped, 0 down)
    bool hasRunning = false;
    bool hasOldKv = false; // vllm:gpu_cache_usage_perc
    bool hasNewKv = false; // vllm:kv_cache_usage_perc
    VllmGeneration generation() const;
    bool looksLikeVllm() const; // any vLLM name at all
};

// The cheap instant query that tells which names each target has: one series per (name, target),
// the value of `up` for up.
// `engineLabel` is the label that names the engine ("instance" by default); `extraMatchers` is
// inserted into the selector as is (e.g. `job="vllm"`), empty for none.
std::string detectionQuery(std::string_view engineLabel, std::string_view extraMatchers);
// Reads the detection answer (a vector) into one probe per label value, in first-seen order.
// Series without the engine label are counted in *unlabelled.
std::vector<PromTargetProbe> readDetection(const PromApiAnswer &answer, std::string_view engineLabel, int *unlabelled);

// The metric names fetched for targets of these generations (up and process_start_time_seconds
// included; only the histograms' parts the store uses: buckets of TTFT, ITL/TPOT, E2E and queue time,
// sum and count of all six).
std::vector<std::string> fetchedNames(bool v091, bool current);

// `{__name__=~"names", <label>=~"values", extra}[<window>s]` — raw samples of the last `windowS`
// seconds (up to the query's evaluation time). Values are matched literally (regex-escaped).
std::string rawSamplesQuery(const std::vector<std::string> &names, std::string_view engineLabel,
    const std::vector<std::string> &labelValues, std::string_view extraMatchers, int windowS);

// A literal as a PromQL regular expression inside a double-quoted string ("127.0.0.1:9000" ->
// "127\\.0\\.0\\.1:9000" as written in the query).
std::string promRegexLiteral(std::string_view value);

} // namespace pd
