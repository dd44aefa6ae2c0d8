// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/restoreplan.h"
#include "ops/scaleoperation.h"
#include "ops/scaleplan.h"

#include <QList>
#include <QObject>

// Runs scaling operations: operations on one engine strictly one after the other, different engines
// in parallel up to a cap. An operation on a whole DP group takes one slot and keeps all its ranks
// busy: the cap never splits a group's start. Keeps every operation (the progress list) and the chart markers.
namespace pd {

// A point on the charts' time axis: what was done to the cluster, and how it ended.
struct OperationMarker {
    QDateTime time;
    QString label;        // "scale-out decode 127.0.0.8:9004: succeeded"
    QString kind;         // "scale-out", "scale-in", "remove-dead", ...
    Role role = Role::Decode;
    OperationOutcome outcome = OperationOutcome::Running; // Running: the start marker
};

class ScaleRunner final : public QObject {
    Q_OBJECT
public:
    explicit ScaleRunner(ScaleContext *context, QObject *parent = nullptr);
    ScaleContext *context() const { return m_ctx; } // what its operations run with

    void setParallelCap(int cap) { m_cap = qMax(1, cap); }

    // Takes ownership; the operation starts when its engine is free and a slot is.
    ScaleOperation *enqueue(ScaleOperation *operation);
    // One DpGroupOperation per coupled group to start or remove, one ScaleOut per other engine to
    // start, one ScaleIn per other engine to leave. Nothing when !canApply.
    QList<ScaleOperation *> apply(const ScalePlan &plan, bool overrideLastInstance);
    // The same plan for a proxy without /instances: one ProxyRestartScale over the context's
    // commandLineMembership. Null when !canApply or the context holds no command-line membership.
    ScaleOperation *applyByProxyRestart(const ScalePlan &plan, bool overrideLastInstance, bool allowInFlight);

    // After a proxy restart (it forgets runtime adds, §3): the confirmed planRestore (restoreplan.h).
    // A coupled group comes back as one DpGroupOperation (its ranks started together where none runs,
    // added in one call), an independent engine as a ScaleOut; what leaves as a ScaleIn that keeps the
    // engine running. Nothing when a mutating action is refused now.
    QList<ScaleOperation *> restore(const RestorePlan &plan);

    const QList<ScaleOperation *> &operations() const { return m_all; }
    const QList<OperationMarker> &markers() const { return m_markers; }
    bool isIdle() const;
    int runningCount() const { return m_running; }
    void cancelAll();

Q_SIGNALS:
    void operationAdded(pd::ScaleOperation *operation);
    void operationChanged(pd::ScaleOperation *operation, int step);
    void operationFinished(pd::ScaleOperation *operation);
    void markerAdded(const pd::OperationMarker &marker);
    // Every operation's ScaleOperation::intentDeclared, relayed: where the state tracker learns it.
    void intentDeclared(const pd::EngineRef &engine, pd::OperatorIntent intent, const QString &detail);
    void idle();

private:
    void pump();
    void addMarker(ScaleOperation *op, OperationOutcome outcome);

    ScaleContext *m_ctx;
    QList<ScaleOperation *> m_all;
    QList<ScaleOperation *> m_queue;
    QSet<QString> m_busyEngines;
    QList<OperationMarker> m_markers;
    int m_cap = 4;
    int m_running = 0;
};

} // namespace pd
