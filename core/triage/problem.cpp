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
    static constexpr const char *names[]
        = { "pool-empty", "proxy-unreachable", "group-broken", "listed-but-dead", "client-requests-failing",
              "engine-stalled", "engine-unhealthy", "engine-unreachable", "node-ssh-down", "node-check-failed",
              "log-error", "proxy-dropped-add", "not-in-proxy", "metrics-stale", "out-of-traffic", "operation-failed" };
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
        // A failed operation explains what the operator sees rather than adding a fault: beside the log
        // diagnoses, below the failures it may have left (a group stopped, a pool empty), above warnings.
        case ProblemKind::OperationFailed:
            return int(ProblemKind::LogError);
        // Healthy engines held out of traffic are the same loss as a healthy engine not in the proxy:
        // capacity paid for and unused, nothing failing. Beside NotInProxy, so after an add the proxy
        // dropped (a definite failure) and before stale metrics (which may recover by themselves); a pool
        // of held ranks ranks before a single engine (more engines first).
        case ProblemKind::OutOfTraffic:
            return int(ProblemKind::NotInProxy);
        default:
            return int(k);
        }
    };
    return std::tuple(rank(a.kind), int(a.severity), -a.engineCount, a.sinceMs, a.node, a.engine, a.key)
        < std::tuple(rank(b.kind), int(b.severity), -b.engineCount, b.sinceMs, b.node, b.engine, b.key);
}

} // namespace pd
