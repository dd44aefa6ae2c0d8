// SPDX-License-Identifier: MIT
#include "triage/problem.h"

#include <tuple>

namespace pd {

QString problemSeverityName(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Critical:
        return QStringLiteral("critical");
    case ProblemSeverity::Error:
        return QStringLiteral("error");
    case ProblemSeverity::Warning:
        return QStringLiteral("warning");
    }
    return QStringLiteral("warning");
}

QString problemKindName(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::GroupBroken:
        return QStringLiteral("group-broken");
    case ProblemKind::PoolEmpty:
        return QStringLiteral("pool-empty");
    case ProblemKind::ListedButDead:
        return QStringLiteral("listed-but-dead");
    case ProblemKind::ProxyUnreachable:
        return QStringLiteral("proxy-unreachable");
    case ProblemKind::ClientRequestsFailing:
        return QStringLiteral("client-requests-failing");
    case ProblemKind::NodeCheckFailed:
        return QStringLiteral("node-check-failed");
    case ProblemKind::EngineStalled:
        return QStringLiteral("engine-stalled");
    case ProblemKind::EngineUnhealthy:
        return QStringLiteral("engine-unhealthy");
    case ProblemKind::EngineUnreachable:
        return QStringLiteral("engine-unreachable");
    case ProblemKind::NodeSshDown:
        return QStringLiteral("node-ssh-down");
    case ProblemKind::LogError:
        return QStringLiteral("log-error");
    case ProblemKind::ProxyDroppedAdd:
        return QStringLiteral("proxy-dropped-add");
    case ProblemKind::NotInProxy:
        return QStringLiteral("not-in-proxy");
    case ProblemKind::MetricsStale:
        return QStringLiteral("metrics-stale");
    }
    return QStringLiteral("unknown");
}

bool problemRanksBefore(const Problem &a, const Problem &b)
{
    // Engine failures share one rank: a stall is no less urgent than a refusal.
    auto rank = [](ProblemKind k) {
        switch (k) {
        case ProblemKind::EngineStalled:
        case ProblemKind::EngineUnhealthy:
        case ProblemKind::EngineUnreachable:
            return int(ProblemKind::EngineStalled);
        default:
            return int(k);
        }
    };
    return std::tuple(rank(a.kind), int(a.severity), -a.engineCount, a.sinceMs, a.node, a.engine, a.key)
        < std::tuple(rank(b.kind), int(b.severity), -b.engineCount, b.sinceMs, b.node, b.engine, b.key);
}

} // namespace pd
