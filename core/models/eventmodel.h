// SPDX-License-Identifier: MIT
#pragma once

#include "models/flattablemodel.h"
#include "state/stateevent.h"

#include <QSortFilterProxyModel>

// The event log as a table, oldest first (StateTracker::events()), and a filter by node, engine,
// kind and free text for the timeline and the detail panel.
namespace pd {

class StateTracker;

class EventModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, KindColumn, WhereColumn, WhatColumn, ReasonColumn, ColumnCount };

    explicit EventModel(StateTracker *tracker, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    const StateEvent &event(int row) const;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    void onAppended(int added, int dropped);
    void onReset();

    StateTracker *m_tracker;
    int m_rows = 0;
};

class EventFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EventFilterModel(QObject *parent = nullptr);

    void setNode(int node); // -1: every node
    void setEngine(int engine); // -1: every engine
    void setKindEnabled(StateEvent::Kind kind, bool enabled);
    void setText(const QString &text); // over where, what and reason, case-insensitive
    int node() const { return m_node; }
    int engine() const { return m_engine; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_node = -1;
    int m_engine = -1;
    unsigned m_kinds = ~0u;
    QString m_text;
};

} // namespace pd
