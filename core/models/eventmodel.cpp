// SPDX-License-Identifier: MIT
#include "models/eventmodel.h"

#include "models/modelroles.h"
#include "state/statetracker.h"

#include <QDateTime>

namespace pd {

EventModel::EventModel(StateTracker *tracker, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Hidden, parent)
    , m_tracker(tracker)
    , m_rows(tracker->events().size())
{
    connect(tracker, &StateTracker::eventsAppended, this, &EventModel::onAppended);
    connect(tracker, &StateTracker::reset, this, &EventModel::onReset);
}

void EventModel::onReset()
{
    beginResetModel();
    m_rows = m_tracker->events().size();
    endResetModel();
}

void EventModel::onAppended(int added, int dropped)
{
    const int size = m_tracker->events().size();
    if (dropped > m_rows || m_rows - dropped + added != size) {
        onReset();
        return;
    }
    if (dropped > 0) {
        beginRemoveRows({}, 0, dropped - 1);
        m_rows -= dropped;
        endRemoveRows();
    }
    if (added > 0) {
        beginInsertRows({}, m_rows, m_rows + added - 1);
        m_rows += added;
        endInsertRows();
    }
}

const StateEvent &EventModel::event(int row) const
{
    return m_tracker->events().at(row);
}

int EventModel::rows() const
{
    return m_rows;
}

QVariant EventModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const StateEvent &e = event(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.atMs).toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        case KindColumn:
            switch (e.kind) { // eventKindName() in the operator's language
            case StateEvent::Kind::State:
                return tr("state", "event kind");
            case StateEvent::Kind::Membership:
                return tr("membership", "event kind");
            case StateEvent::Kind::Process:
                return tr("process", "event kind");
            case StateEvent::Kind::Proxy:
                return tr("proxy", "event kind");
            case StateEvent::Kind::Action:
                return tr("action", "event kind");
            case StateEvent::Kind::Diagnosis:
                return tr("diagnosis", "event kind");
            }
            return eventKindName(e.kind);
        case WhereColumn:
            return e.where;
        case WhatColumn:
            return e.what;
        case ReasonColumn:
            return e.reason;
        }
        return {};
    case Qt::ToolTipRole:
        return e.evidence.isEmpty() ? e.reason
                                    : e.reason + QStringLiteral("\n• ") + e.evidence.join(QStringLiteral("\n• "));
    case SortRole:
        return index.column() == TimeColumn ? QVariant(qint64(e.atMs)) : data(index, Qt::DisplayRole);
    case TimeRole:
        return qint64(e.atMs);
    case EventKindRole:
        return int(e.kind);
    case EngineIndexRole:
        return e.engine;
    case NodeIndexRole:
        return e.node;
    case EngineStateRole:
        return int(e.to);
    default:
        return {};
    }
}

QStringList EventModel::columnTitles() const
{
    return { tr("Time"), tr("Kind"), tr("Where"), tr("What"), tr("Reason") };
}

EventFilterModel::EventFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void EventFilterModel::setNode(int node)
{
    m_node = node;
    invalidateFilter();
}

void EventFilterModel::setEngine(int engine)
{
    m_engine = engine;
    invalidateFilter();
}

void EventFilterModel::setKindEnabled(StateEvent::Kind kind, bool enabled)
{
    const unsigned bit = 1u << unsigned(kind);
    m_kinds = enabled ? (m_kinds | bit) : (m_kinds & ~bit);
    invalidateFilter();
}

void EventFilterModel::setText(const QString &text)
{
    m_text = text;
    invalidateFilter();
}

bool EventFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex first = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!(m_kinds & (1u << unsigned(first.data(EventKindRole).toInt()))))
        return false;
    if (m_engine >= 0 && first.data(EngineIndexRole).toInt() != m_engine)
        return false;
    if (m_node >= 0 && first.data(NodeIndexRole).toInt() != m_node)
        return false;
    if (m_text.isEmpty())
        return true;
    for (int c : { int(EventModel::WhereColumn), int(EventModel::WhatColumn), int(EventModel::ReasonColumn) }) {
        if (sourceModel()->index(sourceRow, c, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace pd
