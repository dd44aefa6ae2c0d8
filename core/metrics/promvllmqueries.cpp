// SPDX-License-Identifier: MIT
#include "promvllmqueries.h"

#include <QCoreApplication>

#include <algorithm>

namespace pd {

namespace {

constexpr std::string_view kUp = "up";
constexpr std::string_view kRunning = "vllm:num_requests_running";
constexpr std::string_view kOldKv = "vllm:gpu_cache_usage_perc";
constexpr std::string_view kNewKv = "vllm:kv_cache_usage_perc";

void appendQuoted(std::string &out, std::string_view s)
{
    out += '"';
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

std::string join(const std::vector<std::string> &parts, char sep)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += sep;
        out += parts[i];
    }
    return out;
}

} // namespace

QString vllmGenerationName(VllmGeneration g)
{
    switch (g) {
    case VllmGeneration::V091:
        return QCoreApplication::translate("pd::PrometheusSource", "vLLM 0.9.1 names");
    case VllmGeneration::Current:
        return QCoreApplication::translate("pd::PrometheusSource", "current vLLM names");
    case VllmGeneration::Unknown:
        break;
    }
    return QCoreApplication::translate("pd::PrometheusSource", "unknown metric generation");
}

bool PromTargetProbe::looksLikeVllm() const
{
    return hasRunning || hasOldKv || hasNewKv;
}

VllmGeneration PromTargetProbe::generation() const
{
    if (hasNewKv)
        return VllmGeneration::Current;
    if (hasOldKv)
        return VllmGeneration::V091;
    return VllmGeneration::Unknown;
}

std::string detectionQuery(std::string_view engineLabel, std::string_view extraMatchers)
{
    // max: `up` keeps its value (a target down since it was added has no vLLM names yet, and is
    // down rather than of an unknown generation); the other names only need to exist.
    std::string q = "max by (__name__, ";
    q += engineLabel;
    q += ") ({__name__=~";
    std::string names;
    for (const std::string_view n : { kUp, kRunning, kOldKv, kNewKv }) {
        if (!names.empty())
            names += '|';
        names += promRegexLiteral(n);
    }
    appendQuoted(q, names);
    if (!extraMatchers.empty()) {
        q += ',';
        q += extraMatchers;
    }
    q += "})";
    return q;
}

std::vector<PromTargetProbe> readDetection(const PromApiAnswer &answer, std::string_view engineLabel, int *unlabelled)
{
    std::vector<PromTargetProbe> probes;
    int missing = 0;
    for (const PromSeries &s : answer.series) {
        const std::string_view value = s.label(engineLabel);
        if (value.empty()) {
            ++missing;
            continue;
        }
        auto it = std::find_if(
            probes.begin(), probes.end(), [&](const PromTargetProbe &p) { return p.labelValue == value; });
        if (it == probes.end()) {
            probes.push_back({ std::string(value) });
            it = probes.end() - 1;
        }
        const std::string_view name = s.label("__name__");
        if (name == kUp) {
            it->hasUp = true;
            it->up = s.points.empty() ? 0 : s.points.front().value;
        }
        it->hasRunning |= name == kRunning;
        it->hasOldKv |= name == kOldKv;
        it->hasNewKv |= name == kNewKv;
    }
    if (unlabelled)
        *unlabelled = missing;
    return probes;
}

std::vector<std::string> fetchedNames(bool v091, bool current)
{
    std::vector<std::string> names = {
        "up",
        "process_start_time_seconds",
        "vllm:num_requests_running",
        "vllm:num_requests_waiting",
        "vllm:prompt_tokens_total",
        "vllm:generation_tokens_total",
        "vllm:request_success_total",
        "vllm:num_preemptions_total",
        "vllm:spec_decode_num_drafts_total",
        "vllm:spec_decode_num_draft_tokens_total",
        "vllm:spec_decode_num_accepted_tokens_total",
    };
    const auto histogram = [&names](const char *base, bool buckets) {
        const std::string b = std::string("vllm:") + base;
        if (buckets)
            names.push_back(b + "_bucket");
        names.push_back(b + "_sum");
        names.push_back(b + "_count");
    };
    histogram("time_to_first_token_seconds", true);
    histogram("e2e_request_latency_seconds", true);
    histogram("request_queue_time_seconds", true);
    histogram("request_prefill_time_seconds", false); // means only in the store
    histogram("request_decode_time_seconds", false);
    if (v091) {
        names.emplace_back("vllm:gpu_cache_usage_perc");
        names.emplace_back("vllm:gpu_prefix_cache_queries_total");
        names.emplace_back("vllm:gpu_prefix_cache_hits_total");
        histogram("time_per_output_token_seconds", true);
    }
    if (current) {
        names.emplace_back("vllm:kv_cache_usage_perc");
        names.emplace_back("vllm:prefix_cache_queries_total");
        names.emplace_back("vllm:prefix_cache_hits_total");
        histogram("inter_token_latency_seconds", true);
    }
    return names;
}

std::string promRegexLiteral(std::string_view value)
{
    // RE2 metacharacters; the result still needs PromQL string quoting (appendQuoted doubles '\').
    std::string out;
    out.reserve(value.size() + 8);
    for (const char c : value) {
        if (std::string_view(".+*?()|[]{}^$\\").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

std::string rawSamplesQuery(const std::vector<std::string> &names, std::string_view engineLabel,
    const std::vector<std::string> &labelValues, std::string_view extraMatchers, int windowS)
{
    std::vector<std::string> nameRes;
    nameRes.reserve(names.size());
    for (const std::string &n : names)
        nameRes.push_back(promRegexLiteral(n));
    std::vector<std::string> valueRes;
    valueRes.reserve(labelValues.size());
    for (const std::string &v : labelValues)
        valueRes.push_back(promRegexLiteral(v));
    std::string q = "{__name__=~";
    appendQuoted(q, join(nameRes, '|'));
    q += ',';
    q += engineLabel;
    q += "=~";
    appendQuoted(q, join(valueRes, '|'));
    if (!extraMatchers.empty()) {
        q += ',';
        q += extraMatchers;
    }
    q += "}[";
    q += std::to_string(std::max(1, windowS));
    q += "s]";
    return q;
}

} // namespace pd
