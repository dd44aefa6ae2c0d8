// SPDX-License-Identifier: MIT
#include "models/problemmodel.h"

#include "models/modelroles.h"
#include "state/derivestate.h"
#include "triage/triage.h"

#include <QDateTime>

namespace pd {

ProblemModel::ProblemModel(Triage *triage, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Hidden, parent)
    , m_triage(triage)
    , m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    for (const Problem &p : triage->problems())
        m_keys.append(p.key);
    connect(triage, &Triage::problemsChanged, this, &ProblemModel::sync);
}

void ProblemModel::setClock(std::function<std::int64_t()> nowMs)
{
    m_now = std::move(nowMs);
}

// Brings m_keys to Triage's order with row removals, moves and inserts, so persistent indexes of
// problems that stay follow them.
void ProblemModel::sync()
{
    const QList<Problem> &problems = m_triage->problems();
    QStringList target;
    target.reserve(problems.size());
    for (const Problem &p : problems)
        target.append(p.key);
    // Remove rows whose key is gone (from the bottom, in runs).
    for (int row = int(m_keys.size()) - 1; row >= 0; --row) {
        if (target.contains(m_keys.at(row)))
            continue;
        int first = row;
        while (first > 0 && !target.contains(m_keys.at(first - 1)))
            --first;
        beginRemoveRows({}, first, row);
        m_keys.remove(first, row - first + 1);
        endRemoveRows();
        row = first;
    }
    // Walk the target order: move existing rows into place, insert new ones.
    for (int i = 0; i < target.size(); ++i) {
        const QString &key = target.at(i);
        if (i < m_keys.size() && m_keys.at(i) == key)
            continue;
        const int at = int(m_keys.indexOf(key, i));
        if (at >= 0) {
            beginMoveRows({}, at, at, {}, i);
            m_keys.move(at, i);
            endMoveRows();
        } else {
            beginInsertRows({}, i, i);
            m_keys.insert(i, key);
            endInsertRows();
        }
    }
    if (!m_keys.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_keys.size()) - 1, ColumnCount - 1));
}

int ProblemModel::rows() const
{
    return int(m_keys.size());
}

QVariant ProblemModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int at = m_triage->indexOf(m_keys.at(index.row()));
    if (at < 0)
        return {};
    const Problem &p = m_triage->problems().at(at);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            switch (p.severity) { // problemSeverityName() in the operator's language
            case ProblemSeverity::Critical:
                return tr("critical", "problem severity");
            case ProblemSeverity::Error:
                return tr("error", "problem severity");
            case ProblemSeverity::Warning:
                return tr("warning", "problem severity");
            }
            return problemSeverityName(p.severity);
        case WhatColumn:
            return p.acknowledged ? tr("%1 (acknowledged)").arg(p.what) : p.what;
        case WhereColumn:
            return p.where;
        case SinceColumn:
            return p.sinceMs > 0 ? formatAge(m_now() - p.sinceMs) : QString();
        case DetailColumn:
            return p.detail;
        case NextStepColumn:
            return p.nextStep;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1 — %2\n%3").arg(p.what, p.where, p.detail);
        if (!p.evidence.isEmpty())
            tip += QStringLiteral("\n\n") + tr("Evidence:") + QStringLiteral("\n• ") + p.evidence.join(QStringLiteral("\n• "));
        tip += QStringLiteral("\n\n") + tr("Next step: %1").arg(p.nextStep);
        return tip;
    }
    case SortRole:
        return index.column() == SinceColumn ? QVariant(qint64(p.sinceMs)) : QVariant(at);
    case ProblemSeverityRole:
        return int(p.severity);
    case ProblemKeyRole:
        return p.key;
    case AcknowledgedRole:
        return p.acknowledged;
    case EngineIndexRole:
        return p.engine;
    case NodeIndexRole:
        return p.node;
    case TimeRole:
        return qint64(p.sinceMs);
    default:
        return {};
    }
}

QStringList ProblemModel::columnTitles() const
{
    return { tr("Severity"), tr("Problem"), tr("Where"), tr("Since"), tr("Evidence"), tr("Next step") };
}

} // namespace pd
