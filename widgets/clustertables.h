// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QSortFilterProxyModel>

class QTableView;
class QWidget;

// The Cluster page's two tables (nodes, engines): how their views look and which engines they show.
namespace pd {

// A table view as the Cluster page shows one: whole rows selected, alternating rows, sortable, no row
// numbers, one text line per row.
QTableView *makeClusterTable(QWidget *parent);

// Engines on the selected nodes (all when none is selected) whose row contains the free text in any
// column (the filter's regular expression; empty: every row).
class EngineFilter final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    // Node indices (NodeIndexRole) to keep; call refresh() after changing it.
    QList<int> nodes;
    void refresh() { invalidateFilter(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override;
};

} // namespace pd
