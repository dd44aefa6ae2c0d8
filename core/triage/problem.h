// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>

// One current problem of the cluster, as the Problems panel lists it and notifications announce it.
namespace pd {

enum class ProblemSeverity : std::uint8_t { Critical, Error, Warning };
template<> inline constexpr std::size_t enumCount<ProblemSeverity> = std::size_t(ProblemSeverity::Warning) + 1;

// In ranking order: a lower value is more urgent.
enum class ProblemKind : std::uint8_t {
    PoolEmpty, // no engine of a pool serves: every request of that kind fails
    ProxyUnreachable, // the proxy does not answer /healthcheck
    GroupBroken, // a rank of a coupled DP group died: the others hang (above every per-rank symptom)
    ListedButDead, // the proxy routes to an instance that does not answer: a share of every request fails
    ClientRequestsFailing, // the canary's requests through the proxy fail: what clients get (canaryprobe.h)
    EngineStalled, // requests running, counters frozen
    EngineUnhealthy, // 5xx on /health or /metrics, or metrics that do not parse
    EngineUnreachable, // refused or timing out after answering before
    NodeSshDown, // the console cannot reach the node over SSH
    NodeCheckFailed, // the node checks (hccn_tool, npu-smi) found a failure or a warning on the node
    LogError, // a known error signature in the engine's log (ascend-node-tools.md)
    ProxyDroppedAdd, // the proxy silently dropped an add
    NotInProxy, // healthy engine the proxy does not route to
    MetricsStale, // polls failing, below the failure verdict
    // Appended, so that the kinds above keep their numbers; their rank is not their place here
    // (problemRanksBefore).
    OutOfTraffic, // healthy engines a busy proxy drains for longer than kOutOfTrafficAfterMs: capacity unused
    OperationFailed, // an operation of this console failed and nothing has succeeded on its engines since
    // (the last value: enumCount below counts up to it)
};
template<> inline constexpr std::size_t enumCount<ProblemKind> = std::size_t(ProblemKind::OperationFailed) + 1;

enum class ProblemScope : std::uint8_t { Cluster, Proxy, Pool, Node, Engine, Group };

struct Problem {
    ProblemSeverity severity = ProblemSeverity::Warning;
    ProblemKind kind = ProblemKind::MetricsStale;
    ProblemScope scope = ProblemScope::Engine;
    QString key; // stable identity across rounds: "engine-stalled:12", "pool-empty:prefill"
    QString what; // "Engine stalled", "Prefill pool empty"
    QString where; // "d1 · 127.0.0.7:9003 (DP 19)", "node d1", "proxy 127.0.0.1:8000"
    QString detail; // the reason, one line
    std::int64_t sinceMs = 0;
    QStringList evidence;
    QString nextStep; // what the operator should look at or do first
    int engine = -1; // the engine to focus, -1 for none
    int node = -1; // the node to focus, -1 for none
    int engineCount = 0; // engines concerned (a node or pool problem covers several)
    QString group; // the DP group ("decode@192.0.0.5:13395") of a group problem, empty otherwise
    QList<int> folded; // engines whose own problems this one stands for (a broken group's ranks)
    bool acknowledged = false;
};

QString problemSeverityName(ProblemSeverity severity); // "critical", "error", "warning"
QString problemKindName(ProblemKind kind); // "pool-empty", "engine-stalled", ...
// Ranking: kind first (its order above, but for the kinds ranked beside another: see problem.cpp), then the more severe
// (a node whose checks failed before one whose checks only warn), then the oldest first, then the engine and node
// index.
bool problemRanksBefore(const Problem &a, const Problem &b);

} // namespace pd

Q_DECLARE_METATYPE(pd::Problem)
