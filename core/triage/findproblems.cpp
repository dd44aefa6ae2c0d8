// SPDX-License-Identifier: MIT
#include "triage/findproblems.h"

#include "logs/logsignatures.h"
#include "ops/scaleoperation.h"
#include "state/derivestate.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

#include <algorithm>

namespace pd {

namespace {

// The operator's words of a problem (what, where, detail, next step), filed under pd::Triage; keys stay
// English identifiers.
struct FindProblemsTr {
    Q_DECLARE_TR_FUNCTIONS(pd::Triage)
};

// The engine problem a state makes, if any.
std::optional<ProblemKind> engineProblem(const TriageEngine &e)
{
    switch (e.state) {
    case EngineState::Stalled:
        return ProblemKind::EngineStalled;
    case EngineState::Unhealthy:
        return ProblemKind::EngineUnhealthy;
    case EngineState::Unreachable:
        // The proxy keeps picking a dead least-loaded instance (proxy-api.md 8.2): its share of the
        // traffic fails, which makes it the most urgent engine problem.
        if (e.membership == MembershipFact::Active)
            return ProblemKind::ListedButDead;
        return ProblemKind::EngineUnreachable;
    case EngineState::Stopped:
        // Stopped by the operator is no problem, even while the proxy still lists it (it drains a removed
        // instance until idle); stopped with no intent while the proxy routes to it is.
        if (e.intent == OperatorIntent::Stop)
            return std::nullopt;
        if (e.membership == MembershipFact::Active)
            return ProblemKind::ListedButDead;
        if (e.membership == MembershipFact::Waiting)
            return ProblemKind::EngineUnreachable;
        return std::nullopt;
    case EngineState::ReadyNotInProxy:
        if (e.membership == MembershipFact::Dropped)
            return ProblemKind::ProxyDroppedAdd;
        return std::nullopt; // a spare engine is a choice, not a problem
    default:
        if (e.freshness == FreshnessFact::Stale || e.freshness == FreshnessFact::Unreachable)
            return ProblemKind::MetricsStale;
        return std::nullopt;
    }
}

QString whatOf(ProblemKind kind, const TriageEngine &e)
{
    switch (kind) {
    case ProblemKind::EngineStalled:
        return FindProblemsTr::tr("Engine stalled");
    case ProblemKind::EngineUnhealthy:
        return FindProblemsTr::tr("Engine unhealthy");
    case ProblemKind::EngineUnreachable:
        return e.state == EngineState::Stopped ? FindProblemsTr::tr("Engine not running, yet in the proxy")
                                               : FindProblemsTr::tr("Engine unreachable");
    case ProblemKind::ListedButDead:
        return e.state == EngineState::Stopped ? FindProblemsTr::tr("Proxy routes to a stopped engine")
                                               : FindProblemsTr::tr("Proxy routes to a dead engine");
    case ProblemKind::ProxyDroppedAdd:
        return FindProblemsTr::tr("Proxy dropped the engine's add");
    case ProblemKind::MetricsStale:
        return FindProblemsTr::tr("Engine metrics stale");
    default:
        return problemKindName(kind);
    }
}

QString nextStepOf(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::GroupBroken:
        return FindProblemsTr::tr("Restart the group: stop every rank (the survivors may need a force stop) and start them all "
                      "together. Removing the dead rank from the proxy does not help: the others wait for it in "
                      "every forward pass.");
    case ProblemKind::PoolEmpty:
        return FindProblemsTr::tr("Every request needs this pool: bring one of its engines back (see the engine problems "
                      "below) or add a healthy engine to the proxy.");
    case ProblemKind::ProxyUnreachable:
        return FindProblemsTr::tr("Check that the proxy process runs on its host and read its log; clients get no answers "
                      "meanwhile.");
    case ProblemKind::ListedButDead:
        return FindProblemsTr::tr("Remove it from the proxy now (the proxy keeps sending it requests that fail), then read "
                      "its log and restart it; pdctl watch --auto-eject does the removal unattended.");
    case ProblemKind::EngineStalled:
        return FindProblemsTr::tr(
            "Read the engine's log for a hung collective (HCCL) or NPU error; remove it from the proxy, "
            "then restart it.");
    case ProblemKind::EngineUnhealthy:
        return FindProblemsTr::tr(
            "Read the engine's log for the EngineCore error; remove it from the proxy and restart it.");
    case ProblemKind::EngineUnreachable:
        return FindProblemsTr::tr("Check that the process runs and the node is up (SSH); if it crashed, read its log and "
                      "restart it, or remove it from the proxy.");
    case ProblemKind::NodeSshDown:
        return FindProblemsTr::tr("Check that the node is up and sshd answers; check the key offered by ssh-agent.");
    case ProblemKind::ClientRequestsFailing:
        return FindProblemsTr::tr("Clients get these failures too. Fix the engine problems listed above (a dead engine the "
                      "proxy still routes to fails its share of requests); with none listed, read the proxy's log.");
    case ProblemKind::NodeCheckFailed:
        return FindProblemsTr::tr("Open Node checks for the device and the raw output; a link or NPU that fails there breaks "
                      "the KV transfers and collectives of every engine on the node.");
    case ProblemKind::LogError:
        return FindProblemsTr::tr("Open the engine's log (Show log): the diagnosis and the fix of the signature are beside the line.");
    case ProblemKind::ProxyDroppedAdd:
        return FindProblemsTr::tr("Check the engine answers /v1/models, then add it to the proxy again.");
    case ProblemKind::NotInProxy:
        return FindProblemsTr::tr("Add it to the proxy, or stop it to free its NPUs.");
    case ProblemKind::MetricsStale:
        return FindProblemsTr::tr("Polls are failing; watch whether they recover before acting.");
    case ProblemKind::OutOfTraffic:
        return FindProblemsTr::tr(
            "Wait for an idle moment (the proxy ends a drain only when no request is in flight anywhere); or bring "
            "them back with Scale or Add to proxy, which restarts the proxy with its current lists after a bounded "
            "wait (the requests in flight then fail); or stop them to free their NPUs.");
    case ProblemKind::OperationFailed:
        return FindProblemsTr::tr("Read the operation's steps in Operations.");
    }
    return {};
}

// What a failed canary request means to a client, in the operator's words.
QString canaryFailureWords(WarmUpOutcome outcome)
{
    switch (outcome) {
    case WarmUpOutcome::EmptyOk:
        return FindProblemsTr::tr("HTTP 200 with an empty body (a decoder failed behind the proxy)");
    case WarmUpOutcome::NoDone:
        return FindProblemsTr::tr("a stream cut short, without [DONE] (a decoder failed mid-answer)");
    case WarmUpOutcome::Timeout:
        return FindProblemsTr::tr("no complete answer in time (a hung or overloaded engine)");
    case WarmUpOutcome::HttpError:
        return FindProblemsTr::tr("an HTTP error");
    case WarmUpOutcome::ErrorPayload:
        return FindProblemsTr::tr("an error in the answer");
    case WarmUpOutcome::ConnectionFailed:
        return FindProblemsTr::tr("no connection to the proxy");
    case WarmUpOutcome::Malformed:
        return FindProblemsTr::tr("an answer that is not the OpenAI format");
    case WarmUpOutcome::NoTokens:
        return FindProblemsTr::tr("an answer without a single token");
    case WarmUpOutcome::Ok:
    case WarmUpOutcome::Cancelled:
        break;
    }
    return warmUpOutcomeName(outcome);
}

// A coupled group the operator is stopping as a whole (every rank's intent is stop): its ranks go down
// one by one and the rest hang for those seconds; that is the stop, not a fault to page anyone about.
bool stoppedOnPurpose(const TriageGroup &group, const QList<TriageEngine> &engines)
{
    return !group.engines.isEmpty() && std::all_of(group.engines.cbegin(), group.engines.cend(), [&engines](int e) {
        return e >= 0 && e < engines.size() && engines.at(e).intent == OperatorIntent::Stop;
    });
}

QString poolName(Role role)
{
    return role == Role::Prefill ? FindProblemsTr::tr("Prefill") : FindProblemsTr::tr("Decode");
}

// roleName() in a sentence; the keys and the proxy's own field names keep roleName().
QString problemRoleWord(Role role)
{
    return role == Role::Prefill ? FindProblemsTr::tr("prefill") : FindProblemsTr::tr("decode");
}

QString clockTime(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

// What the evidence says caused an engine's failure, when it says it: the log's signature (by its id,
// found from the title the diagnosis keeps), or the stall's own face (the KV cache pinned full).
enum class Cause { Unknown, KvTransfer, KvPinned, CollectiveHang };

struct EngineCause {
    Cause cause = Cause::Unknown;
    QString via; // the KV connector of a KV transfer failure ("Mooncake")
    bool operator==(const EngineCause &) const = default;
};

EngineCause causeOf(const TriageEngine &e, ProblemKind kind)
{
    if (const LogSignature *s = e.diagnosis.isEmpty() ? nullptr : logSignatureTitled(e.diagnosis)) {
        switch (s->id) {
        case kSigMooncakeTransfer:
            return { Cause::KvTransfer, QStringLiteral("Mooncake") };
        case kSigLlmDataDistLink:
            return { Cause::KvTransfer, QStringLiteral("LLMDataDist") };
        case kSigKvConnectorZmq:
            return { Cause::KvTransfer, FindProblemsTr::tr("the KV connector's ZMQ side channel") };
        case kSigHcclLinkTimeout:
        case kSigHcclExecTimeout:
            return { Cause::CollectiveHang, {} };
        default:
            break;
        }
    }
    if (kind == ProblemKind::EngineStalled && e.kvPinned)
        return { Cause::KvPinned, {} };
    return {};
}

// The coupled DP group each engine is a rank of, nullptr for an independent engine. A rank of a coupled
// group restarts only with its group: alone it cannot rejoin it, and stopping it hangs the others
// (dp-groups.md §3), so its menu offers only the group restart and the advice must say the same.
QList<const TriageGroup *> coupledGroupOf(const TriageInput &in)
{
    QList<const TriageGroup *> groupOf(in.engines.size(), nullptr);
    for (const TriageGroup &group : in.groups) {
        if (!group.coupled || group.engines.size() < 2)
            continue;
        for (int engine : group.engines) {
            if (engine >= 0 && engine < in.engines.size())
                groupOf[engine] = &group;
        }
    }
    return groupOf;
}

QString groupRestartWords(const QList<const TriageGroup *> &groups)
{
    if (groups.size() == 1)
        return FindProblemsTr::tr("restart DP group %1: its %2 ranks stop and start together (Problems ▸ Restart "
                                  "group); a rank alone cannot rejoin its group")
            .arg(groups.first()->id)
            .arg(groups.first()->engines.size());
    QStringList ids;
    for (const TriageGroup *group : groups)
        ids.append(group->id);
    return FindProblemsTr::tr("restart DP groups %1, each as a whole (Problems ▸ Restart group); a rank alone "
                              "cannot rejoin its group")
        .arg(ids.join(QStringLiteral(", ")));
}

// The second half of a next step that knows the cause: what brings the unit back.
QString unitAction(ProblemKind kind, const QList<const TriageGroup *> &groups)
{
    if (kind == ProblemKind::LogError) {
        return groups.isEmpty()
            ? FindProblemsTr::tr("open its log (Show log) for the signature's fix")
            : FindProblemsTr::tr("open its log (Show log) for the signature's fix; if that is a restart, %1")
                  .arg(groupRestartWords(groups));
    }
    if (!groups.isEmpty())
        return groupRestartWords(groups);
    if (kind == ProblemKind::EngineStalled || kind == ProblemKind::EngineUnhealthy)
        return FindProblemsTr::tr("remove it from the proxy and restart it");
    return FindProblemsTr::tr("restart it");
}

// The next step of an engine problem (or a node's several engines) that fits the unit: the engine
// itself, or the coupled DP group(s) of its ranks; led by the cause when the evidence names it.
// Independent engines with no known cause keep nextStepOf(kind).
QString engineNextStep(ProblemKind kind, Role role, const EngineCause &cause, const QList<const TriageGroup *> &groups)
{
    if (groups.isEmpty() && cause.cause == Cause::Unknown)
        return nextStepOf(kind);
    const QString action = unitAction(kind, groups);
    QString step;
    switch (cause.cause) {
    case Cause::KvTransfer:
        step = role == Role::Prefill
            ? FindProblemsTr::tr("KV transfer to the decoder failed (%1): check the pair's RDMA link with the node "
                                 "checks on both nodes, then %2.")
                  .arg(cause.via, action)
            : FindProblemsTr::tr("KV transfer from the prefiller failed (%1): check the pair's RDMA link with the "
                                 "node checks on both nodes, then %2.")
                  .arg(cause.via, action);
        break;
    case Cause::KvPinned:
        step = FindProblemsTr::tr("The KV cache is pinned full and frees nothing (blocks held for KV transfers that "
                                  "never completed): look at the peer engine and its log, then %1.")
                   .arg(action);
        break;
    case Cause::CollectiveHang:
        step = groups.isEmpty()
            ? FindProblemsTr::tr("A collective hangs (HCCL): a rank inside the engine died or is stuck, or the NPU "
                                 "network drops packets; check the links with the node checks, then %1.")
                  .arg(action)
            : FindProblemsTr::tr("A collective hangs (HCCL): a rank of the group died or is stuck; find the first "
                                 "error in its ranks' logs, then %1.")
                  .arg(action);
        break;
    case Cause::Unknown:
        switch (kind) {
        case ProblemKind::ListedButDead:
            return FindProblemsTr::tr("Remove it from the proxy now (the proxy keeps sending it requests that fail; "
                                      "routing around one rank is harmless), then read its log and %1.")
                .arg(action);
        case ProblemKind::EngineStalled:
            return FindProblemsTr::tr("Read the engine's log for a hung collective (HCCL) or NPU error, then %1.")
                .arg(action);
        case ProblemKind::EngineUnhealthy:
            return FindProblemsTr::tr("Read the engine's log for the EngineCore error, then %1.").arg(action);
        case ProblemKind::EngineUnreachable:
            return FindProblemsTr::tr(
                "Check that the process runs and the node is up (SSH); if it crashed, read its log and %1.")
                .arg(action);
        case ProblemKind::LogError:
            return FindProblemsTr::tr("Open the engine's log (Show log): the diagnosis and the fix of the signature "
                                      "are beside the line; if the fix is a restart, %1.")
                .arg(groupRestartWords(groups));
        default:
            return nextStepOf(kind);
        }
    }
    // A dead engine the proxy still routes to fails its share of every request now: its removal comes
    // before the cause.
    if (kind == ProblemKind::ListedButDead)
        return FindProblemsTr::tr("Remove it from the proxy now (the proxy keeps sending it requests that fail). %1")
            .arg(step);
    return step;
}

// Only the kinds whose advice is a restart, and the log's diagnoses, depend on the unit and the cause.
bool adviceFitsTheUnit(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::ListedButDead:
    case ProblemKind::EngineStalled:
    case ProblemKind::EngineUnhealthy:
    case ProblemKind::EngineUnreachable:
    case ProblemKind::LogError:
        return true;
    default:
        return false;
    }
}

// The advice for these engines of one problem: their coupled groups (each once, in order), and the cause
// when every one of them has the same.
struct EngineAdvice {
    QList<const TriageGroup *> groups;
    EngineCause cause;
};

EngineAdvice adviceFor(
    const TriageInput &in, const QList<const TriageGroup *> &groupOf, ProblemKind kind, const QList<int> &engines)
{
    EngineAdvice advice;
    bool independent = false;
    for (int k = 0; k < engines.size(); ++k) {
        const int i = engines.at(k);
        const EngineCause cause = causeOf(in.engines.at(i), kind);
        advice.cause = k == 0 || cause == advice.cause ? cause : EngineCause {};
        const TriageGroup *group = groupOf.at(i);
        if (!group)
            independent = true;
        else if (!advice.groups.contains(group))
            advice.groups.append(group);
    }
    // Independent engines among coupled ranks: said per engine, the groups' advice would not cover them.
    if (independent)
        advice.groups.clear();
    return advice;
}

// The summary's ways out ("... Ways out: retry when traffic pauses, or ..."), as a sentence; empty: none.
QString waysOutOf(const QString &summary)
{
    static const QString marker = QStringLiteral("ways out:");
    const qsizetype at = summary.indexOf(marker, 0, Qt::CaseInsensitive);
    if (at < 0)
        return {};
    QString ways = summary.mid(at + marker.size()).trimmed();
    if (ways.isEmpty())
        return {};
    ways[0] = ways.at(0).toUpper();
    if (!ways.endsWith(QLatin1Char('.')))
        ways.append(QLatin1Char('.'));
    return ways;
}

} // namespace

ProblemSeverity severityOf(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::GroupBroken:
    case ProblemKind::PoolEmpty:
    case ProblemKind::ProxyUnreachable:
        return ProblemSeverity::Critical;
    case ProblemKind::ListedButDead:
    case ProblemKind::ClientRequestsFailing:
    case ProblemKind::NodeCheckFailed:
    case ProblemKind::EngineStalled:
    case ProblemKind::EngineUnhealthy:
    case ProblemKind::EngineUnreachable:
    case ProblemKind::NodeSshDown:
    case ProblemKind::LogError:
    case ProblemKind::OperationFailed:
        return ProblemSeverity::Error;
    case ProblemKind::ProxyDroppedAdd:
    case ProblemKind::NotInProxy:
    case ProblemKind::MetricsStale:
    case ProblemKind::OutOfTraffic:
        return ProblemSeverity::Warning;
    }
    return ProblemSeverity::Warning;
}

namespace {

Problem newProblem(ProblemKind kind, ProblemScope scope)
{
    Problem p;
    p.kind = kind;
    p.severity = severityOf(kind);
    p.scope = scope;
    p.nextStep = nextStepOf(kind);
    return p;
}

// The proxy, and what clients get through it (the canary).
void addProxyProblems(const TriageInput &in, QList<Problem> &out)
{
    if (in.proxyKnown && !in.proxy.reachable) {
        Problem p = newProblem(ProblemKind::ProxyUnreachable, ProblemScope::Proxy);
        p.key = QStringLiteral("proxy-unreachable");
        p.what = FindProblemsTr::tr("Proxy unreachable");
        p.where = FindProblemsTr::tr("proxy %1").arg(in.proxyWhere);
        p.detail = in.proxy.error.isEmpty() ? FindProblemsTr::tr("/healthcheck does not answer") : in.proxy.error;
        p.sinceMs = in.proxySinceMs;
        p.evidence = { QStringLiteral("/healthcheck: %1").arg(p.detail) };
        out.append(p);
    }

    // What clients get: the canary's requests through the proxy. Unsaid while the proxy is down (said above).
    const CanaryStatus &canary = in.canary;
    if (canary.enabled && canary.consecutiveFailures >= kCanaryFailuresToRaise && !(in.proxyKnown && !in.proxy.reachable)) {
        Problem p = newProblem(ProblemKind::ClientRequestsFailing, ProblemScope::Proxy);
        p.key = QStringLiteral("client-requests-failing");
        p.what = FindProblemsTr::tr("Client requests failing");
        p.where = FindProblemsTr::tr("proxy %1").arg(in.proxyWhere);
        p.detail = FindProblemsTr::tr("%1 of the last %2 canary requests failed; the last: %3")
                       .arg(canary.failed)
                       .arg(canary.window)
                       .arg(canaryFailureWords(canary.last.outcome));
        if (canary.failed >= canary.window)
            p.severity = ProblemSeverity::Critical;
        p.sinceMs = canary.failingSinceMs;
        p.evidence = { QStringLiteral("canary %1: %2").arg(warmUpOutcomeName(canary.last.outcome), canary.last.detail) };
        if (canary.otherFailure.atMs != 0)
            p.evidence.append(QStringLiteral("canary %1: %2").arg(warmUpOutcomeName(canary.otherFailure.outcome),
                                                                   canary.otherFailure.detail));
        out.append(p);
    }
}

// The ranks of broken coupled groups: their group's problem stands for theirs (below).
QList<bool> ranksOfBrokenGroups(const TriageInput &in)
{
    QList<bool> inBrokenGroup(in.engines.size(), false);
    for (const TriageGroup &group : in.groups) {
        if (!group.coupled || group.health != GroupHealth::Broken || group.dead.isEmpty() || stoppedOnPurpose(group, in.engines))
            continue;
        for (int engine : group.engines) {
            if (engine >= 0 && engine < in.engines.size())
                inBrokenGroup[engine] = true;
        }
    }
    return inBrokenGroup;
}

// Pools: no engine serving, or the proxy counting none.
void addPoolProblems(const TriageInput &in, const QList<bool> &inBrokenGroup, QList<Problem> &out)
{
    for (Role role : { Role::Prefill, Role::Decode }) {
        int total = 0, serving = 0, observed = 0;
        std::int64_t lastChange = 0;
        for (const TriageEngine &e : in.engines) {
            if (e.role != role)
                continue;
            ++total;
            observed += e.state != EngineState::Unknown ? 1 : 0;
            serving += e.state == EngineState::Serving ? 1 : 0;
            lastChange = std::max(lastChange, e.sinceMs);
        }
        if (total == 0 || observed < total)
            continue;
        const int proxyCount = role == Role::Prefill ? in.proxy.prefillInstances : in.proxy.decodeInstances;
        const bool proxySaysEmpty = in.proxyKnown && in.proxy.reachable && proxyCount == 0;
        if (serving > 0 && !proxySaysEmpty)
            continue;
        // A pool emptied by broken groups alone is said by the groups' problems (one fault, one line).
        bool explained = serving == 0;
        for (int i = 0; explained && i < in.engines.size(); ++i) {
            const TriageEngine &e = in.engines.at(i);
            if (e.role == role && e.state != EngineState::Serving && !inBrokenGroup.at(i))
                explained = false;
        }
        if (explained)
            continue;
        Problem p = newProblem(ProblemKind::PoolEmpty, ProblemScope::Pool);
        p.key = QStringLiteral("pool-empty:%1").arg(roleName(role));
        p.what = FindProblemsTr::tr("%1 pool empty").arg(poolName(role));
        p.where = FindProblemsTr::tr("%1 pool").arg(problemRoleWord(role));
        p.detail = serving == 0 ? FindProblemsTr::tr("none of its %1 engines serves").arg(total)
                                : FindProblemsTr::tr("the proxy counts no %1 instance").arg(problemRoleWord(role));
        p.sinceMs = proxySaysEmpty ? std::max(lastChange, in.proxySinceMs) : lastChange;
        p.engineCount = total;
        p.evidence.append(FindProblemsTr::tr("%1 of %2 %3 engines serving").arg(serving).arg(total).arg(problemRoleWord(role)));
        if (in.proxyKnown && in.proxy.reachable)
            p.evidence.append(
                QStringLiteral("proxy /healthcheck: %1_instances=%2").arg(roleName(role)).arg(proxyCount));
        out.append(p);
    }
}

// Nodes: unreachable over SSH, and node checks that failed or warned.
void addNodeProblems(const TriageInput &in, QList<Problem> &out)
{
    for (int n = 0; n < in.nodes.size(); ++n) {
        const TriageNode &node = in.nodes.at(n);
        if (!node.sshKnown || node.sshUp)
            continue;
        Problem p = newProblem(ProblemKind::NodeSshDown, ProblemScope::Node);
        p.key = QStringLiteral("node-ssh-down:%1").arg(n);
        p.what = FindProblemsTr::tr("Node unreachable over SSH");
        p.where = FindProblemsTr::tr("node %1 (%2)").arg(node.name, node.address);
        p.detail = node.sshError;
        p.sinceMs = node.sshSinceMs;
        p.node = n;
        p.evidence = { QStringLiteral("SSH: %1").arg(node.sshError) };
        out.append(p);
    }

    // Nodes whose checks failed or warned (hccn_tool, npu-smi): one problem per node with every line.
    for (int n = 0; n < in.nodes.size(); ++n) {
        const TriageNode &node = in.nodes.at(n);
        if (node.checkFailures.isEmpty() && node.checkWarnings.isEmpty())
            continue;
        Problem p = newProblem(ProblemKind::NodeCheckFailed, ProblemScope::Node);
        p.key = QStringLiteral("node-check:%1").arg(n);
        const bool failed = !node.checkFailures.isEmpty();
        p.severity = failed ? ProblemSeverity::Error : ProblemSeverity::Warning;
        p.what = failed ? FindProblemsTr::tr("Node checks failed") : FindProblemsTr::tr("Node checks warn");
        p.where = FindProblemsTr::tr("node %1 (%2)").arg(node.name, node.address);
        const QStringList &lines = failed ? node.checkFailures : node.checkWarnings;
        p.detail = lines.size() == 1 ? lines.first()
                                     : FindProblemsTr::tr("%1 (and %2 more)").arg(lines.first()).arg(lines.size() - 1);
        p.sinceMs = node.checksAtMs;
        p.node = n;
        p.evidence = node.checkFailures + node.checkWarnings;
        out.append(p);
    }
}

// Broken coupled DP groups: one problem each, standing for the engine problems of all its ranks (a dead
// rank and 63 hung ones are one fault with one fix).
// Marks the ranks they stand for in covered.
void addGroupProblems(const TriageInput &in, QList<bool> &covered, QList<Problem> &out)
{
    for (const TriageGroup &group : in.groups) {
        if (!group.coupled || group.health != GroupHealth::Broken || group.dead.isEmpty() || stoppedOnPurpose(group, in.engines))
            continue;
        Problem p = newProblem(ProblemKind::GroupBroken, ProblemScope::Group);
        p.key = QStringLiteral("group-broken:%1").arg(group.id);
        p.group = group.id;
        const int size = int(group.engines.size());
        const int deadCount = int(group.dead.size());
        p.what = deadCount == 1 ? FindProblemsTr::tr("DP group broken: 1 rank dead")
                                : FindProblemsTr::tr("DP group broken: %1 ranks dead").arg(deadCount);
        p.where = FindProblemsTr::tr("group %1 (%2 ranks on %3)").arg(group.id).arg(size).arg(group.nodes.join(QStringLiteral(", ")));
        QStringList deaths;
        for (const GroupDeadRank &d : group.dead) {
            const int engine = group.engines.value(d.rank, -1);
            if (engine < 0 || engine >= in.engines.size())
                continue;
            const TriageEngine &e = in.engines.at(engine);
            const QString at = QDateTime::fromMSecsSinceEpoch(d.sinceMs).toString(QStringLiteral("HH:mm:ss"));
            deaths.append(FindProblemsTr::tr("%1 %2 since %3").arg(e.label, engineStateWord(d.state), at));
            p.evidence.append(FindProblemsTr::tr("dead rank %1: %2").arg(e.label, e.reason));
            p.evidence.append(e.evidence);
            if (p.engine < 0) {
                p.engine = engine;
                p.node = e.node;
            }
        }
        const int others = size - deadCount;
        p.detail = others == 1
            ? FindProblemsTr::tr("%1; the other rank cannot make progress (it still answers /health 200 but produces no "
                     "tokens)").arg(deaths.join(QStringLiteral("; ")))
            : FindProblemsTr::tr("%1; the other %2 ranks cannot make progress (they still answer /health 200 but produce no "
                     "tokens)").arg(deaths.join(QStringLiteral("; "))).arg(others);
        p.evidence.prepend(FindProblemsTr::tr("coupled DP group: every rank syncs in every forward pass; %1 of %2 ranks dead, "
                                  "%3 live and held")
                               .arg(deadCount).arg(size).arg(others));
        int poolServing = 0;
        for (const TriageEngine &e : in.engines)
            poolServing += e.role == group.role && e.state == EngineState::Serving ? 1 : 0;
        if (poolServing == 0)
            p.evidence.insert(1, FindProblemsTr::tr("no other %1 engine serves: every %1 request fails").arg(problemRoleWord(group.role)));
        p.sinceMs = group.sinceMs;
        p.engineCount = size;
        for (int engine : group.engines) {
            if (engine >= 0 && engine < in.engines.size()) {
                covered[engine] = true;
                p.folded.append(engine);
            }
        }
        out.append(p);
    }
}

// Engines. Several engines of one node with the same failure make one problem for the node: at 64+
// engines a hung collective or a dead host must read as one line, not sixteen.
void addEngineProblems(
    const TriageInput &in, const QList<const TriageGroup *> &groupOf, QList<bool> &covered, QList<Problem> &out)
{
    QList<std::optional<ProblemKind>> kinds;
    kinds.reserve(in.engines.size());
    for (const TriageEngine &e : in.engines)
        kinds.append(engineProblem(e));
    QList<QList<int>> byNode(in.nodes.size());
    for (int i = 0; i < in.engines.size(); ++i) {
        const int node = in.engines.at(i).node;
        if (node >= 0 && node < byNode.size())
            byNode[node].append(i);
    }
    for (int n = 0; n < byNode.size(); ++n) {
        const QList<int> &engines = byNode.at(n);
        for (ProblemKind kind :
            { ProblemKind::ListedButDead, ProblemKind::EngineStalled, ProblemKind::EngineUnhealthy,
              ProblemKind::EngineUnreachable }) {
            QList<int> hit;
            for (int i : engines) {
                if (!covered.at(i) && kinds.at(i) == kind)
                    hit.append(i);
            }
            if (hit.size() < kGroupOnNodeAtLeast)
                continue;
            const TriageEngine &first = in.engines.at(hit.first());
            Problem p = newProblem(kind, ProblemScope::Node);
            p.key = QStringLiteral("%1:node:%2").arg(problemKindName(kind)).arg(n);
            p.what = hit.size() == engines.size()
                ? FindProblemsTr::tr("%1 (all %2 engines of the node)").arg(whatOf(kind, first)).arg(engines.size())
                : FindProblemsTr::tr("%1 (%2 of the node's %3 engines)")
                      .arg(whatOf(kind, first))
                      .arg(hit.size())
                      .arg(engines.size());
            p.where = FindProblemsTr::tr("node %1").arg(n < in.nodes.size() ? in.nodes.at(n).name : QString::number(n));
            p.detail = first.reason;
            p.node = n;
            p.engine = hit.first();
            p.engineCount = int(hit.size());
            p.sinceMs = first.sinceMs;
            for (int i : hit)
                p.sinceMs = std::min(p.sinceMs, in.engines.at(i).sinceMs);
            p.evidence.append(FindProblemsTr::tr("first engine %1: %2").arg(first.label, first.reason));
            p.evidence.append(first.evidence);
            const EngineAdvice advice = adviceFor(in, groupOf, kind, hit);
            p.nextStep = engineNextStep(kind, first.role, advice.cause, advice.groups);
            if (advice.groups.size() == 1)
                p.group = advice.groups.first()->id;
            out.append(p);
            for (int i : hit)
                covered[i] = true;
        }
    }
    for (int i = 0; i < in.engines.size(); ++i) {
        if (covered.at(i) || !kinds.at(i))
            continue;
        const TriageEngine &e = in.engines.at(i);
        const ProblemKind kind = *kinds.at(i);
        Problem p = newProblem(kind, ProblemScope::Engine);
        p.key = QStringLiteral("%1:%2").arg(problemKindName(kind)).arg(i);
        p.what = whatOf(kind, e);
        p.where = e.label;
        p.detail = kind == ProblemKind::MetricsStale && !e.lastError.isEmpty() ? e.lastError : e.reason;
        p.sinceMs = e.sinceMs;
        p.engine = i;
        p.node = e.node;
        p.engineCount = 1;
        p.evidence = e.evidence;
        if (kind == ProblemKind::ListedButDead)
            p.evidence.prepend(FindProblemsTr::tr("the proxy lists it as an active %1 instance").arg(problemRoleWord(e.role)));
        if (adviceFitsTheUnit(kind)) {
            const EngineAdvice advice = adviceFor(in, groupOf, kind, { i });
            p.nextStep = engineNextStep(kind, e.role, advice.cause, advice.groups);
            if (!advice.groups.isEmpty())
                p.group = advice.groups.first()->id;
        }
        out.append(p);
    }
}

// Known error signatures in engines' logs: one line each, beside whatever state the engine is in
// (an error in the log often explains the stall or the crash listed above).
void addLogProblems(const TriageInput &in, const QList<const TriageGroup *> &groupOf, QList<Problem> &out)
{
    for (int i = 0; i < in.engines.size(); ++i) {
        const TriageEngine &e = in.engines.at(i);
        if (e.diagnosis.isEmpty())
            continue;
        Problem p = newProblem(ProblemKind::LogError, ProblemScope::Engine);
        p.key = QStringLiteral("log-error:%1").arg(i);
        p.what = FindProblemsTr::tr("Log: %1").arg(e.diagnosis);
        p.where = e.label;
        p.detail = e.diagnosisLine;
        p.sinceMs = e.diagnosisAtMs;
        p.engine = i;
        p.node = e.node;
        p.engineCount = 1;
        p.evidence = {FindProblemsTr::tr("log line: %1").arg(e.diagnosisLine)};
        const EngineAdvice advice = adviceFor(in, groupOf, ProblemKind::LogError, { i });
        p.nextStep = engineNextStep(ProblemKind::LogError, e.role, advice.cause, advice.groups);
        if (!advice.groups.isEmpty())
            p.group = advice.groups.first()->id;
        out.append(p);
    }
}

// Whether an engine in this state serves or could serve at once: capacity, when the proxy routes to it.
bool isHealthyState(EngineState state)
{
    switch (state) {
    case EngineState::Serving:
    case EngineState::Draining:
    case EngineState::ReadyNotInProxy:
    case EngineState::WaitingInProxy:
        return true;
    default:
        return false;
    }
}

// Healthy engines a busy proxy has drained for longer than kOutOfTrafficAfterMs: one problem per pool. The
// proxy finalises a drain only at a moment with no request in flight anywhere (proxy-api §8.3), so under
// steady traffic they hold their NPUs and get no request. Engines taken out on purpose and left running
// count too (said so): the operator sees the capacity they hold. Being stopped (intent Stop) is no capacity.
void addOutOfTrafficProblems(const TriageInput &in, QList<Problem> &out)
{
    if (in.nowMs <= 0)
        return;
    constexpr int kListedAtMost = 8;
    for (Role role : { Role::Prefill, Role::Decode }) {
        QList<int> held;
        int onPurpose = 0;
        std::int64_t since = 0;
        for (int i = 0; i < in.engines.size(); ++i) {
            const TriageEngine &e = in.engines.at(i);
            if (e.role != role || e.membership != MembershipFact::Draining || e.intent == OperatorIntent::Stop
                || !isHealthyState(e.state) || e.membershipSinceMs <= 0
                || in.nowMs - e.membershipSinceMs < kOutOfTrafficAfterMs)
                continue;
            held.append(i);
            onPurpose += e.intent == OperatorIntent::Drain ? 1 : 0;
            since = since == 0 ? e.membershipSinceMs : std::min(since, e.membershipSinceMs);
        }
        if (held.isEmpty())
            continue;
        const int n = int(held.size());
        Problem p = newProblem(ProblemKind::OutOfTraffic, ProblemScope::Pool);
        p.key = QStringLiteral("out-of-traffic:%1").arg(roleName(role));
        p.what = FindProblemsTr::tr("Healthy engines out of traffic");
        p.where = FindProblemsTr::tr("%1 pool").arg(problemRoleWord(role));
        p.detail = onPurpose == 0
            ? FindProblemsTr::tr(
                "%1: %n healthy rank(s) out of traffic since %2 (draining in a busy proxy)", nullptr, n)
                  .arg(problemRoleWord(role), clockTime(since))
            : FindProblemsTr::tr("%1: %n healthy rank(s) out of traffic since %2 (draining in a busy proxy; %3 "
                                 "taken out on purpose and left running)",
                nullptr, n)
                  .arg(problemRoleWord(role), clockTime(since))
                  .arg(onPurpose);
        p.sinceMs = since;
        p.engine = held.first();
        p.node = in.engines.at(held.first()).node;
        p.engineCount = n;
        for (int k = 0; k < n && k < kListedAtMost; ++k) {
            const TriageEngine &e = in.engines.at(held.at(k));
            p.evidence.append(e.intent == OperatorIntent::Drain
                    ? FindProblemsTr::tr("%1: taken out on purpose, draining since %2")
                          .arg(e.label, clockTime(e.membershipSinceMs))
                    : FindProblemsTr::tr("%1: draining since %2").arg(e.label, clockTime(e.membershipSinceMs)));
        }
        if (n > kListedAtMost)
            p.evidence.append(FindProblemsTr::tr("and %n more", nullptr, n - kListedAtMost));
        out.append(p);
    }
}

// Whether every engine of a failed operation has had a successful operation after it (an operation on
// no engine: the same operation succeeded after it).
bool healedSince(const TriageOperation &failed, const QList<TriageOperation> &all)
{
    auto laterSuccess
        = [&failed](const TriageOperation &o) { return !o.failed && o.finishedAtMs > failed.finishedAtMs; };
    if (failed.engines.isEmpty())
        return std::any_of(all.cbegin(), all.cend(), [&](const TriageOperation &o) {
            return laterSuccess(o) && o.kind == failed.kind && o.target == failed.target;
        });
    return std::all_of(failed.engines.cbegin(), failed.engines.cend(), [&](int engine) {
        return std::any_of(all.cbegin(), all.cend(),
            [&](const TriageOperation &o) { return laterSuccess(o) && o.engines.contains(engine); });
    });
}

// Operations of this console that failed while nothing has succeeded on their engines since: what they
// left (a group out of the proxy, ranks stopped) is the operator's to resolve. Only the latest failure of
// the same operation on the same target is said.
void addOperationProblems(const TriageInput &in, QList<Problem> &out)
{
    QList<const TriageOperation *> newestFirst;
    for (const TriageOperation &op : in.operations)
        newestFirst.append(&op);
    std::stable_sort(newestFirst.begin(), newestFirst.end(),
        [](const TriageOperation *a, const TriageOperation *b) { return a->finishedAtMs > b->finishedAtMs; });
    QSet<QString> said;
    for (const TriageOperation *op : std::as_const(newestFirst)) {
        if (!op->failed)
            continue;
        const QString id = op->kind + QLatin1Char(' ') + op->target;
        if (said.contains(id))
            continue;
        said.insert(id);
        if (!op->interrupted && healedSince(*op, in.operations))
            continue;
        Problem p = newProblem(ProblemKind::OperationFailed,
            !op->group.isEmpty()          ? ProblemScope::Group
                : op->engines.size() == 1 ? ProblemScope::Engine
                                          : ProblemScope::Cluster);
        p.key = QStringLiteral("operation-failed:%1:%2:%3").arg(op->kind, op->target).arg(op->finishedAtMs);
        const QString kind = operationKindText(op->kind);
        p.what = op->interrupted ? FindProblemsTr::tr("Operation cut short: %1 %2").arg(kind, op->target)
                                 : FindProblemsTr::tr("Operation failed: %1 %2").arg(kind, op->target);
        p.where = op->target;
        p.detail = op->summary;
        if (op->interrupted)
            p.nextStep = FindProblemsTr::tr("Operations tab: Finish or Undo it (pdctl repair --profile FILE)");
        else if (const QString ways = waysOutOf(op->summary); !ways.isEmpty())
            p.nextStep = ways;
        p.sinceMs = op->finishedAtMs;
        // Problem::group stays empty: it offers "Restart group", which is no answer to a failed scale-in.
        for (int engine : op->engines) {
            if (engine < 0 || engine >= in.engines.size())
                continue;
            if (p.engine < 0) {
                p.engine = engine;
                p.node = in.engines.at(engine).node;
            }
            ++p.engineCount;
        }
        p.evidence = { op->interrupted
                ? FindProblemsTr::tr("%1 %2 was cut short at %3").arg(kind, op->target, clockTime(op->finishedAtMs))
                : FindProblemsTr::tr("%1 %2 failed at %3").arg(kind, op->target, clockTime(op->finishedAtMs)) };
        out.append(p);
    }
}

} // namespace

QList<Problem> findProblems(const TriageInput &in)
{
    QList<Problem> out;
    addProxyProblems(in, out);
    addPoolProblems(in, ranksOfBrokenGroups(in), out);
    addNodeProblems(in, out);
    QList<bool> covered(in.engines.size(), false); // engines a group's or a node's problem stands for
    addGroupProblems(in, covered, out);
    const QList<const TriageGroup *> groupOf = coupledGroupOf(in);
    addEngineProblems(in, groupOf, covered, out);
    addLogProblems(in, groupOf, out);
    addOutOfTrafficProblems(in, out);
    addOperationProblems(in, out);
    std::sort(out.begin(), out.end(), problemRanksBefore);
    return out;
}
} // namespace pd
