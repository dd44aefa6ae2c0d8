// SPDX-License-Identifier: MIT
#pragma once

#include "triage/findproblems.h"

#include <QHash>
#include <QObject>
#include <QSet>

// The current problems, kept up to date from the StateTracker (one recompute per poll round and per
// proxy answer), with the operator's acknowledgements. An acknowledged problem stays listed (marked)
// and is silent; once it clears, the acknowledgement goes with it, so its return is news again.
namespace pd {

class ClusterStore;
class StateTracker;

class Triage final : public QObject {
    Q_OBJECT
public:
    Triage(StateTracker *tracker, ClusterStore *store, QObject *parent = nullptr);

    const QList<Problem> &problems() const { return m_problems; }
    int count() const { return int(m_problems.size()); }
    int indexOf(const QString &key) const;

    void acknowledge(const QString &key);
    bool isAcknowledged(const QString &key) const { return m_acknowledged.contains(key); }

    // Node SSH reachability (filled in by the SSH part).
    void setNodeSsh(int node, bool up, const QString &error = {}, std::int64_t atMs = 0);
    // One status round's verdict for many nodes at once (`unreachable`: node -> the error), judged once: node
    // by node, 64 nodes made 64 recomputations of every engine's problems in one event-loop turn.
    void setNodesSsh(const QList<int> &answered, const QHash<int, QString> &unreachable, std::int64_t atMs = 0);
    // The latest node checks of the node named so (summarizeNodeChecks()); an unknown name is ignored.
    void setNodeChecks(const QString &nodeName, const QStringList &failures, const QStringList &warnings,
                       std::int64_t atMs = 0);
    // The canary's verdict (canaryprobe.h); a default status (enabled false) says nothing.
    void setCanary(const CanaryStatus &canary);
    const CanaryStatus &canary() const { return m_canary; }
    // The recent operations that ended (their engines as indices into the store's engines); a failed one
    // is a problem until an operation succeeds on its engines. Forgotten when another profile opens.
    void setOperations(const QList<TriageOperation> &operations);

    void recompute();

Q_SIGNALS:
    void problemsChanged();
    // Problems whose key was not in the previous list (acknowledged ones never are: they just cleared).
    void problemsAppeared(const QList<pd::Problem> &problems);

private:
    TriageInput snapshot() const;
    void rebuildNodes();
    void noteNodeSsh(int node, bool up, const QString &error, std::int64_t atMs);

    StateTracker *m_tracker;
    ClusterStore *m_store;
    QList<TriageNode> m_nodes;
    CanaryStatus m_canary;
    QList<TriageOperation> m_operations;
    QList<Problem> m_problems;
    QSet<QString> m_acknowledged;
};

} // namespace pd
