// SPDX-License-Identifier: MIT
#include "triage/triage.h"

#include "cluster/clusterstore.h"
#include "state/statetracker.h"

namespace pd {

Triage::Triage(StateTracker *tracker, ClusterStore *store, QObject *parent)
    : QObject(parent)
    , m_tracker(tracker)
    , m_store(store)
{
    connect(tracker, &StateTracker::roundDerived, this, &Triage::recompute);
    connect(tracker, &StateTracker::proxyChanged, this, &Triage::recompute);
    connect(tracker, &StateTracker::diagnosed, this, &Triage::recompute);
    connect(tracker, &StateTracker::reset, this, [this] {
        m_acknowledged.clear();
        m_operations.clear(); // their engine indices were the previous profile's
        rebuildNodes();
        recompute();
    });
    rebuildNodes();
    recompute();
}

void Triage::rebuildNodes()
{
    m_nodes.clear();
    if (!m_store->hasProfile())
        return;
    for (const Node &node : m_store->profile().nodes) {
        TriageNode n;
        n.name = node.name;
        n.address = node.address;
        m_nodes.append(n);
    }
}

int Triage::indexOf(const QString &key) const
{
    for (int i = 0; i < m_problems.size(); ++i) {
        if (m_problems.at(i).key == key)
            return i;
    }
    return -1;
}

void Triage::acknowledge(const QString &key)
{
    const int i = indexOf(key);
    if (i < 0 || m_acknowledged.contains(key))
        return;
    m_acknowledged.insert(key);
    m_problems[i].acknowledged = true;
    Q_EMIT problemsChanged();
}

void Triage::noteNodeSsh(int node, bool up, const QString &error, std::int64_t atMs)
{
    if (node < 0 || node >= m_nodes.size())
        return;
    TriageNode &n = m_nodes[node];
    if (!n.sshKnown || n.sshUp != up)
        n.sshSinceMs = atMs > 0 ? atMs : m_tracker->nowMs();
    n.sshKnown = true;
    n.sshUp = up;
    n.sshError = error;
}

void Triage::setNodeSsh(int node, bool up, const QString &error, std::int64_t atMs)
{
    noteNodeSsh(node, up, error, atMs);
    recompute();
}

void Triage::setNodesSsh(const QList<int> &answered, const QHash<int, QString> &unreachable, std::int64_t atMs)
{
    for (const int node : answered)
        noteNodeSsh(node, true, QString(), atMs);
    for (auto it = unreachable.cbegin(); it != unreachable.cend(); ++it)
        noteNodeSsh(it.key(), false, it.value(), atMs);
    recompute();
}

void Triage::setNodeChecks(const QString &nodeName, const QStringList &failures, const QStringList &warnings,
                           std::int64_t atMs)
{
    for (TriageNode &n : m_nodes) {
        if (n.name != nodeName)
            continue;
        n.checkFailures = failures;
        n.checkWarnings = warnings;
        n.checksAtMs = atMs > 0 ? atMs : m_tracker->nowMs();
        recompute();
        return;
    }
}

void Triage::setCanary(const CanaryStatus &canary)
{
    m_canary = canary;
    recompute();
}

void Triage::setOperations(const QList<TriageOperation> &operations)
{
    m_operations = operations;
    recompute();
}

TriageInput Triage::snapshot() const
{
    TriageInput in;
    in.nodes = m_nodes;
    in.canary = m_canary;
    in.operations = m_operations;
    in.nowMs = m_tracker->nowMs();
    in.proxyKnown = m_tracker->proxyKnown();
    in.proxy = m_tracker->proxyHealth();
    in.proxySinceMs = m_tracker->proxySinceMs();
    if (m_store->hasProfile())
        in.proxyWhere
            = QStringLiteral("%1:%2").arg(m_store->profile().proxy.address).arg(m_store->profile().proxy.port);
    const int n = std::min(m_tracker->engineCount(), int(m_store->engines().size()));
    in.engines.reserve(n);
    for (int i = 0; i < n; ++i) {
        const Engine &engine = m_store->engines().at(i);
        const EngineFacts &f = m_tracker->facts(i);
        TriageEngine e;
        e.state = m_tracker->state(i);
        // Only problems read reasons and evidence: derive the words for the few engines that may have one.
        // A broken group's live ranks are folded under its problem: their words are never read.
        if (e.state != EngineState::Serving && e.state != EngineState::Unknown && e.state != EngineState::GroupBroken) {
            const DerivedState d = m_tracker->derived(i);
            e.reason = d.reason;
            e.evidence = d.evidence;
        }
        e.sinceMs = m_tracker->stateSinceMs(i);
        e.node = engine.nodeIndex;
        e.role = engine.role;
        e.membership = f.membership;
        e.membershipSinceMs = f.membershipSinceMs;
        e.intent = f.intent;
        e.kvPinned = f.kvUsage >= m_tracker->thresholds().kvPinnedUsage;
        if (!f.diagnosis.isEmpty()) {
            e.diagnosis = f.diagnosis;
            e.diagnosisLine = f.diagnosisLine;
            e.diagnosisAtMs = f.diagnosisAtMs;
            e.label = m_tracker->engineLabel(i);
        }
        e.freshness = freshnessOf(f, m_tracker->thresholds());
        // Draining engines may be listed as held out of traffic.
        if (e.freshness == FreshnessFact::Stale || e.freshness == FreshnessFact::Unreachable || !e.reason.isEmpty()
            || e.membership == MembershipFact::Draining) {
            e.label = m_tracker->engineLabel(i);
            e.lastError = f.lastError;
        }
        in.engines.append(std::move(e));
    }
    for (int g = 0; g < m_tracker->groupCount(); ++g) {
        const DpGroup &dp = m_tracker->groups().groups().at(g);
        TriageGroup group;
        group.id = dp.id;
        group.role = dp.role;
        group.coupled = dp.coupled;
        group.engines = dp.engines;
        group.nodes = dp.nodeNames;
        const GroupState &state = m_tracker->groupState(g);
        group.health = state.health;
        group.dead = state.dead;
        group.sinceMs = state.brokenSinceMs;
        for (const GroupDeadRank &d : state.dead) {
            const int engine = dp.engines.value(d.rank, -1);
            if (engine >= 0 && engine < in.engines.size() && in.engines.at(engine).label.isEmpty())
                in.engines[engine].label = m_tracker->engineLabel(engine);
        }
        in.groups.append(std::move(group));
    }
    return in;
}

void Triage::recompute()
{
    QList<Problem> next = findProblems(snapshot());
    QSet<QString> previous;
    for (const Problem &p : std::as_const(m_problems))
        previous.insert(p.key);
    QSet<QString> current;
    QList<Problem> appeared;
    for (Problem &p : next) {
        current.insert(p.key);
        p.acknowledged = m_acknowledged.contains(p.key);
        if (!previous.contains(p.key))
            appeared.append(p);
    }
    // A cleared problem forgets its acknowledgement.
    for (auto it = m_acknowledged.begin(); it != m_acknowledged.end();) {
        if (!current.contains(*it))
            it = m_acknowledged.erase(it);
        else
            ++it;
    }
    const bool changed = next.size() != m_problems.size()
        || !std::equal(next.begin(), next.end(), m_problems.begin(), [](const Problem &a, const Problem &b) {
               return a.key == b.key && a.detail == b.detail && a.evidence == b.evidence && a.sinceMs == b.sinceMs
                   && a.acknowledged == b.acknowledged;
           });
    m_problems = std::move(next);
    if (changed)
        Q_EMIT problemsChanged();
    if (!appeared.isEmpty())
        Q_EMIT problemsAppeared(appeared);
}

} // namespace pd
