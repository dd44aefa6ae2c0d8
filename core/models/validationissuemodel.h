// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

namespace pd {

class ClusterStore;

// The opened profile's validation errors and warnings, errors first.
class ValidationIssueModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit ValidationIssueModel(ClusterStore *store, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    ClusterStore *m_store;
    QList<int> m_order; // indexes into the store's issues, errors first
};

} // namespace pd
