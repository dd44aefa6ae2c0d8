// SPDX-License-Identifier: MIT
#include "triage/problem.h"

#include <tuple>

namespace pd {

QString problemSeverityName(ProblemSeverity severity)
{
    static constexpr const char *names[] = { "critical", "error", "warning" };
    return enumName(severity, names, "warning");
}

QString problemKindName(ProblemKind kind)
{
    static constexpr const char *names[] = { "pool-empty", "proxy-unreachable", "group-broken", "listed-but-dead",
        "client-requests-failing", "engine-stalled", "engine-unhealthy", "engine-unreachable", "node-ssh-down",
        "node-check-failed", "log-error", "proxy-dropped-add", "not-in-proxy", "metrics-stale" };
    return enumName(kind, names, "unknown");
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
