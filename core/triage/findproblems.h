// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "net/proxyhealth.h"
#include "ops/canaryhistory.h"
#include "state/enginefacts.h"
#include "state/groupstate.h"
#include "triage/problem.h"

#include <QList>

// From derived states, the proxy's health and the nodes' SSH facts to the ranked list of problems.
// Pure, so the ranking and the wording are tested without a cluster.
namespace pd {

struct TriageEngine {
    EngineState state = EngineState::Unknown;
    QString reason;
    QStringList evidence;
    std::int64_t sinceMs = 0;
    int node = -1;
    Role role = Role::Decode;
    QString label; // "d1 · 127.0.0.7:9003 (DP 19)"
    MembershipFact membership = MembershipFact::Unknown;
    std::int64_t membershipSinceMs = 0; // when the membership became what it is (0: unknown)
    OperatorIntent intent = OperatorIntent::None; // stopped or taken out of the proxy on purpose
    FreshnessFact freshness = FreshnessFact::Unknown;
    QString lastError;
    bool kvPinned = false; // the KV cache as full as StateThresholds::kvPinnedUsage (a stall's cause)
    QString diagnosis; // the latest log signature's title (LogSignature::title), empty: none
    QString diagnosisLine;
    std::int64_t diagnosisAtMs = 0;
};

struct TriageNode {
    QString name;
    QString address;
    bool sshKnown = false; // filled in by the SSH part
    bool sshUp = true;
    QString sshError;
    std::int64_t sshSinceMs = 0;
    // The latest node checks (nodecheck/): what failed and what warned, one line each ("NPU 3 link:
    // link status: DOWN"); checksAtMs 0 when never run.
    QStringList checkFailures;
    QStringList checkWarnings;
    std::int64_t checksAtMs = 0;
};

// A DP group of the profile with its derived state (groupstate.h).
struct TriageGroup {
    QString id; // "decode@192.0.0.5:13395"
    Role role = Role::Decode;
    bool coupled = true;
    GroupHealth health = GroupHealth::Unknown;
    QList<int> engines; // indices into TriageInput::engines, in DP rank order
    QList<GroupDeadRank> dead; // rank = position in `engines`
    std::int64_t sinceMs = 0; // the first death
    QStringList nodes;
};

// One operation of this console that ended (ScaleRunner), as triage needs it: succeeded or failed (a
// cancelled one is neither, and is left out).
struct TriageOperation {
    QString kind; // "group-restart", "scale-out" (ScaleOperation::kind)
    QString target; // "decode@192.0.0.5:13395", "decode 127.0.0.8:9004"
    QString group; // the DP group of a group operation, empty otherwise
    QString summary; // one line: what happened (ScaleOperation::summary)
    std::int64_t finishedAtMs = 0;
    bool failed = false; // false: it succeeded
    // Cut short: its process was killed (the operations journal); `summary` says where. A problem until
    // it is repaired or forgotten (Operations tab), whatever succeeded since.
    bool interrupted = false;
    QList<int> engines; // indices into TriageInput::engines
};

struct TriageInput {
    QList<TriageEngine> engines;
    QList<TriageGroup> groups;
    QList<TriageNode> nodes;
    bool proxyKnown = false;
    ProxyHealth proxy;
    std::int64_t proxySinceMs = 0;
    QString proxyWhere; // "127.0.0.1:8000"
    CanaryStatus canary; // enabled false: no canary runs, nothing is said of client requests
    QList<TriageOperation> operations; // recent operations that succeeded or failed, in any order
    std::int64_t nowMs = 0; // the clock of the ages below (a drain's length); 0: no age is judged
};

// The canary raises a problem at this many failures in a row (one failure is a blip), and calls it
// critical when every request of its window failed.
inline constexpr int kCanaryFailuresToRaise = 2;

// A healthy engine the proxy has been draining this long is capacity out of traffic: the proxy finalises a
// drain only at a moment with no request in flight anywhere (proxy-api §8.3), which steady traffic never
// gives, while a drain that can end ends within a few listener ticks.
inline constexpr std::int64_t kOutOfTrafficAfterMs = 120'000;

// At least this many engines of one node with the same failure are listed as one node problem.
inline constexpr int kGroupOnNodeAtLeast = 3;

// Ranked (problemRanksBefore); acknowledged is left false.
QList<Problem> findProblems(const TriageInput &input);

ProblemSeverity severityOf(ProblemKind kind);

} // namespace pd
