// SPDX-License-Identifier: MIT
#include "seriesid.h"

#include <array>

namespace pd {

MetricKind metricKind(Metric metric)
{
    switch (metric) {
    case Metric::Running:
    case Metric::Waiting:
    case Metric::KvUsage:
    case Metric::EnginesReporting:
        return MetricKind::Gauge;
    case Metric::PromptTokensRate:
    case Metric::GenerationTokensRate:
    case Metric::RequestRate:
    case Metric::PreemptionRate:
    case Metric::FinishedStopRate:
    case Metric::FinishedLengthRate:
    case Metric::FinishedAbortRate:
    case Metric::FinishedErrorRate:
        return MetricKind::Rate;
    case Metric::PrefixHitRate:
    case Metric::SpecAcceptanceRate:
    case Metric::SpecAcceptanceLength:
        return MetricKind::Ratio;
    case Metric::Count:
        return MetricKind::Count;
    default:
        return MetricKind::Latency;
    }
}

QLatin1StringView metricName(Metric metric)
{
    static constexpr std::array<const char *, kMetricCount> names{
        "running", "waiting", "kv_usage",
        "prompt_tokens_per_s", "generation_tokens_per_s", "requests_per_s", "preemptions_per_s",
        "finished_stop_per_s", "finished_length_per_s", "finished_abort_per_s", "finished_error_per_s",
        "prefix_hit_rate", "spec_acceptance_rate", "spec_acceptance_length",
        "ttft_p50", "ttft_p90", "ttft_p99", "ttft_mean",
        "inter_token_p50", "inter_token_p90", "inter_token_p99", "inter_token_mean",
        "e2e_p50", "e2e_p90", "e2e_p99", "e2e_mean",
        "queue_time_p50", "queue_time_p90", "queue_time_p99", "queue_time_mean",
        "prefill_time_mean", "decode_time_mean",
        "engines_reporting"};
    const int i = int(metric);
    return i >= 0 && i < kMetricCount ? QLatin1StringView(names[std::size_t(i)]) : QLatin1StringView();
}

} // namespace pd
