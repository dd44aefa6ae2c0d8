// SPDX-License-Identifier: MIT
#include "ops/warmuptypes.h"

#include "metrics/quantile.h"

#include <algorithm>
#include <vector>

namespace pd {

QString WarmUpOptions::validate() const
{
    if (count < 1 || count > 100000)
        return QStringLiteral("count must be 1..100000, got %1").arg(count);
    if (concurrency < 1 || concurrency > 64)
        return QStringLiteral("concurrency must be 1..64, got %1").arg(concurrency);
    if (promptTokens < 1 || promptTokens > 1000000)
        return QStringLiteral("prompt tokens must be 1..1000000, got %1").arg(promptTokens);
    if (maxTokens < 1 || maxTokens > 1000000)
        return QStringLiteral("max tokens must be 1..1000000, got %1").arg(maxTokens);
    if (requestTimeoutMs < 100)
        return QStringLiteral("the per-request timeout must be at least 100 ms, got %1 ms").arg(requestTimeoutMs);
    return {};
}

QString warmUpOutcomeName(WarmUpOutcome outcome)
{
    static constexpr const char *names[] = { "ok", "http-error", "empty-200", "no-done", "malformed", "error-payload",
        "no-tokens", "timeout", "connection-failed", "cancelled" };
    return enumName(outcome, names, "unknown");
}

LatencyStats latencyStats(QList<double> values)
{
    values.removeIf([](double v) { return !std::isfinite(v); });
    LatencyStats s;
    s.count = int(values.size());
    if (values.isEmpty())
        return s;
    std::vector<float> v(values.begin(), values.end());
    s.p50 = valuesQuantile(0.50, v.data(), s.count);
    s.p90 = valuesQuantile(0.90, v.data(), s.count);
    s.p99 = valuesQuantile(0.99, v.data(), s.count);
    s.max = *std::max_element(values.cbegin(), values.cend());
    return s;
}

void summarizeWarmUp(WarmUpResult &result)
{
    result.counts.fill(0);
    result.examples.fill(QString());
    QList<double> ttft, tpot, e2e;
    for (const WarmUpSample &s : std::as_const(result.samples)) {
        const int k = int(s.outcome);
        ++result.counts[k];
        if (result.examples[k].isEmpty() && s.outcome != WarmUpOutcome::Ok)
            result.examples[k] = QStringLiteral("#%1: %2").arg(s.index + 1).arg(s.detail);
        if (s.outcome != WarmUpOutcome::Ok)
            continue;
        ttft << s.ttftMs;
        tpot << s.tpotMs;
        e2e << s.e2eMs;
    }
    result.ttft = latencyStats(ttft);
    result.tpot = latencyStats(tpot);
    result.e2e = latencyStats(e2e);
}

} // namespace pd
