// SPDX-License-Identifier: MIT
#include "ops/scalerunner.h"
#include "ops/proxyrestartscale.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>

#include <algorithm>
#include <memory>

namespace pd {

ScaleRunner::ScaleRunner(ScaleContext *context, QObject *parent)
    : QObject(parent)
    , m_ctx(context)
{
}

ScaleOperation *ScaleRunner::enqueue(ScaleOperation *operation)
{
    operation->setParent(this);
    m_all.append(operation);
    m_queue.append(operation);
    connect(operation, &ScaleOperation::stepChanged, this, [this, operation](int step) { Q_EMIT operationChanged(operation, step); });
    connect(operation, &ScaleOperation::intentDeclared, this, &ScaleRunner::intentDeclared);
    connect(operation, &ScaleOperation::finished, this, [this, operation](OperationOutcome outcome) {
        for (const QString &id : operation->engineIds())
            m_busyEngines.remove(id);
        --m_running;
        addMarker(operation, outcome);
        Q_EMIT operationFinished(operation);
        pump();
        if (isIdle())
            Q_EMIT idle();
    });
    Q_EMIT operationAdded(operation);
    QMetaObject::invokeMethod(this, &ScaleRunner::pump, Qt::QueuedConnection);
    return operation;
}

QList<ScaleOperation *> ScaleRunner::apply(const ScalePlan &plan, bool overrideLastInstance)
{
    QList<ScaleOperation *> ops;
    if (!plan.canApply(overrideLastInstance))
        return ops;
    // A coupled DP group is one operation: all its ranks start (or leave) together.
    QSet<QString> grouped;
    for (const QString &g : plan.groupsToStart) {
        const QList<EngineRef> ranks = plan.groupRanks.value(g);
        for (const EngineRef &e : ranks)
            grouped.insert(e.id);
        ops.append(enqueue(new DpGroupOperation(DpGroupOperation::Mode::ScaleOut, g, ranks, m_ctx)));
    }
    for (const QString &g : plan.groupsToRemove) {
        const QList<EngineRef> ranks = plan.groupRanks.value(g);
        for (const EngineRef &e : ranks)
            grouped.insert(e.id);
        ops.append(enqueue(new DpGroupOperation(DpGroupOperation::Mode::ScaleIn, g, ranks, m_ctx, overrideLastInstance)));
    }
    for (const EngineRef &e : plan.toStart)
        if (!grouped.contains(e.id))
            ops.append(enqueue(new ScaleOut(e, m_ctx)));
    for (const EngineRef &e : plan.toRemove)
        if (!grouped.contains(e.id))
            ops.append(enqueue(new ScaleIn(e, m_ctx, overrideLastInstance)));
    return ops;
}

ScaleOperation *ScaleRunner::applyByProxyRestart(const ScalePlan &plan, bool overrideLastInstance, bool allowInFlight)
{
    if (!plan.canApply(overrideLastInstance) || !m_ctx->commandLineMembership || plan.isNoop())
        return nullptr;
    auto *op = new ProxyRestartScale(plan, *m_ctx->commandLineMembership, m_ctx);
    op->setAllowInFlight(allowInFlight);
    return enqueue(op);
}

QList<ScaleOperation *> ScaleRunner::restore(const RestorePlan &plan)
{
    QList<ScaleOperation *> ops;
    if (!mutationRefusal(*m_ctx).isEmpty())
        return ops;
    for (const RestoreUnit &unit : plan.toAdd) {
        if (unit.groupId.isEmpty())
            ops.append(enqueue(new ScaleOut(unit.ranks.first(), m_ctx)));
        else
            ops.append(
                enqueue(new DpGroupOperation(DpGroupOperation::Mode::ScaleOut, unit.groupId, unit.ranks, m_ctx)));
    }
    for (const EngineRef &e : plan.toRemove) {
        auto *in = new ScaleIn(e, m_ctx, false);
        in->setStopEngine(false);
        ops.append(enqueue(in));
    }
    return ops;
}

void ScaleRunner::pump()
{
    for (qsizetype i = 0; i < m_queue.size() && m_running < m_cap;) {
        ScaleOperation *op = m_queue.at(i);
        if (op->isFinished()) { // cancelled while queued
            m_queue.removeAt(i);
            continue;
        }
        const QStringList ids = op->engineIds();
        if (std::any_of(ids.cbegin(), ids.cend(), [this](const QString &id) { return m_busyEngines.contains(id); })) {
            ++i;
            continue;
        }
        m_queue.removeAt(i);
        for (const QString &id : ids)
            m_busyEngines.insert(id);
        ++m_running;
        addMarker(op, OperationOutcome::Running);
        op->start();
    }
}

bool ScaleRunner::isIdle() const
{
    return m_running == 0 && m_queue.isEmpty();
}

void ScaleRunner::cancelAll()
{
    const auto queued = m_queue;
    for (ScaleOperation *op : queued)
        op->cancel(); // a queued one ends Cancelled at once without starting
    m_queue.clear();
    for (ScaleOperation *op : std::as_const(m_all))
        if (!op->isFinished())
            op->cancel();
}

void ScaleRunner::addMarker(ScaleOperation *op, OperationOutcome outcome)
{
    OperationMarker m;
    m.time = QDateTime::currentDateTimeUtc();
    m.kind = op->kind();
    m.role = op->engine().role;
    m.outcome = outcome;
    m.label = QStringLiteral("%1 %2 %3: %4").arg(op->kind(), roleName(op->engine().role), op->engine().id,
                                                 outcome == OperationOutcome::Running ? QStringLiteral("started") : operationOutcomeName(outcome));
    m_markers.append(m);
    Q_EMIT markerAdded(m);
}

} // namespace pd
