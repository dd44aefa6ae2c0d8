// SPDX-License-Identifier: MIT
#include "state/enginefacts.h"

namespace pd {

QString httpFactName(HttpFact fact)
{
    static constexpr const char *names[]
        = { "unknown", "ok", "refused", "timeout", "5xx", "http-error", "malformed", "failed" };
    return enumName(fact, names, "unknown");
}

QString freshnessFactName(FreshnessFact fact)
{
    static constexpr const char *names[] = { "unknown", "fresh", "stale", "unreachable" };
    return enumName(fact, names, "unknown");
}

QString processFactName(ProcessFact fact)
{
    static constexpr const char *names[] = { "unknown", "running", "exited" };
    return enumName(fact, names, "unknown");
}

FreshnessFact freshnessOf(const EngineFacts &facts, const StateThresholds &thresholds)
{
    if (facts.http == HttpFact::Unknown)
        return FreshnessFact::Unknown;
    if (facts.consecutiveFailures >= thresholds.unreachablePolls)
        return FreshnessFact::Unreachable;
    if (facts.consecutiveFailures >= thresholds.stalePolls)
        return FreshnessFact::Stale;
    return FreshnessFact::Fresh;
}

} // namespace pd
