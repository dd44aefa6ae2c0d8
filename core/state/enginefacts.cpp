// SPDX-License-Identifier: MIT
#include "state/enginefacts.h"

namespace pd {

QString httpFactName(HttpFact fact)
{
    switch (fact) {
    case HttpFact::Unknown:
        return QStringLiteral("unknown");
    case HttpFact::Ok:
        return QStringLiteral("ok");
    case HttpFact::Refused:
        return QStringLiteral("refused");
    case HttpFact::Timeout:
        return QStringLiteral("timeout");
    case HttpFact::ServerError:
        return QStringLiteral("5xx");
    case HttpFact::ClientError:
        return QStringLiteral("http-error");
    case HttpFact::Malformed:
        return QStringLiteral("malformed");
    case HttpFact::Failed:
        return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

QString freshnessFactName(FreshnessFact fact)
{
    switch (fact) {
    case FreshnessFact::Unknown:
        return QStringLiteral("unknown");
    case FreshnessFact::Fresh:
        return QStringLiteral("fresh");
    case FreshnessFact::Stale:
        return QStringLiteral("stale");
    case FreshnessFact::Unreachable:
        return QStringLiteral("unreachable");
    }
    return QStringLiteral("unknown");
}

QString processFactName(ProcessFact fact)
{
    switch (fact) {
    case ProcessFact::Unknown:
        return QStringLiteral("unknown");
    case ProcessFact::Running:
        return QStringLiteral("running");
    case ProcessFact::Exited:
        return QStringLiteral("exited");
    }
    return QStringLiteral("unknown");
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
