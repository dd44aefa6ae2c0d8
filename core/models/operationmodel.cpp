// SPDX-License-Identifier: MIT
#include "models/operationmodel.h"

#include "ops/scaleoperation.h"
#include "ops/scalerunner.h"

namespace pd {

namespace {

// The status ids of the Status column in the operator's language; OperationStatusRole keeps the ids.
QString outcomeText(OperationOutcome o)
{
    switch (o) {
    case OperationOutcome::NotStarted: return OperationModel::tr("not-started", "operation status");
    case OperationOutcome::Running: return OperationModel::tr("running", "operation status");
    case OperationOutcome::Succeeded: return OperationModel::tr("succeeded", "operation status");
    case OperationOutcome::Failed: return OperationModel::tr("failed", "operation status");
    case OperationOutcome::Cancelled: return OperationModel::tr("cancelled", "operation status");
    }
    return operationOutcomeName(o);
}

QString stepStatusText(StepStatus status)
{
    switch (status) {
    case StepStatus::Pending: return OperationModel::tr("pending", "step status");
    case StepStatus::Running: return OperationModel::tr("running", "step status");
    case StepStatus::Done: return OperationModel::tr("done", "step status");
    case StepStatus::Skipped: return OperationModel::tr("skipped", "step status");
    case StepStatus::Failed: return OperationModel::tr("failed", "step status");
    case StepStatus::Cancelled: return OperationModel::tr("cancelled", "step status");
    }
    return stepStatusName(status);
}

QString roleText(Role role)
{
    return role == Role::Prefill ? OperationModel::tr("prefill") : OperationModel::tr("decode");
}

} // namespace

OperationModel::OperationModel(ScaleRunner *runner, QObject *parent)
    : QAbstractItemModel(parent)
{
    for (ScaleOperation *op : runner->operations())
        m_ops.append(op);
    connect(runner, &ScaleRunner::operationAdded, this, &OperationModel::added);
    connect(runner, &ScaleRunner::operationChanged, this, &OperationModel::changed);
    connect(runner, &ScaleRunner::operationFinished, this, [this](ScaleOperation *op) { changed(op, -1); });
}

void OperationModel::added(ScaleOperation *op)
{
    const int row = int(m_ops.size());
    beginInsertRows({}, row, row);
    m_ops.append(op);
    endInsertRows();
}

void OperationModel::changed(ScaleOperation *op, int step)
{
    const int row = int(m_ops.indexOf(op));
    if (row < 0)
        return;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    if (step >= 0 && step < op->steps().size()) {
        const QModelIndex parent = index(row, 0);
        Q_EMIT dataChanged(index(step, 0, parent), index(step, ColumnCount - 1, parent));
    }
}

QModelIndex OperationModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_ops.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.column() != 0)
        return {};
    const ScaleOperation *op = m_ops.value(parent.row());
    if (!op || row >= op->steps().size())
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex OperationModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int OperationModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_ops.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const ScaleOperation *op = m_ops.value(parent.row());
    return op ? int(op->steps().size()) : 0;
}

int OperationModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

ScaleOperation *OperationModel::operation(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    const int row = index.internalId() == 0 ? index.row() : int(index.internalId() - 1);
    return m_ops.value(row);
}

QVariant OperationModel::data(const QModelIndex &index, int role) const
{
    const ScaleOperation *op = operation(index);
    if (!op)
        return {};
    if (index.internalId() == 0) {
        const QString status = operationOutcomeName(op->outcome());
        if (role == OperationStatusRole)
            return status;
        if (role == Qt::ToolTipRole)
            return op->summary();
        if (role != Qt::DisplayRole)
            return {};
        switch (index.column()) {
        case WhatColumn:
            return QStringLiteral("%1 %2 %3").arg(operationKindText(op->kind()), roleText(op->engine().role), op->engine().id);
        case StatusColumn: {
            if (op->outcome() == OperationOutcome::Running && op->currentStep() >= 0)
                return tr("running: %1").arg(stepLabelText(op->steps().at(op->currentStep())));
            return outcomeText(op->outcome());
        }
        case DetailColumn: return op->summary();
        case StartedColumn: return op->startedAt().isValid() ? op->startedAt().toLocalTime().toString(QStringLiteral("HH:mm:ss")) : QString();
        }
        return {};
    }
    const OperationStep &step = op->steps().at(index.row());
    if (role == OperationStatusRole)
        return stepStatusName(step.status);
    if (role == Qt::ToolTipRole)
        return step.detail;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WhatColumn: return stepLabelText(step);
    case StatusColumn: return stepStatusText(step.status);
    case DetailColumn: return step.detail;
    case StartedColumn: return step.started.isValid() ? step.started.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : QString();
    }
    return {};
}

QVariant OperationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhatColumn: return tr("Operation / step");
    case StatusColumn: return tr("Status");
    case DetailColumn: return tr("Detail");
    case StartedColumn: return tr("Started");
    }
    return {};
}

} // namespace pd
