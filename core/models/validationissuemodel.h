// SPDX-License-Identifier: MIT
#pragma once

#include "models/flattablemodel.h"

namespace pd {

class ClusterStore;

// The opened profile's validation errors and warnings, errors first.
class ValidationIssueModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit ValidationIssueModel(ClusterStore *store, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    void rebuild();

    ClusterStore *m_store;
    QList<int> m_order; // indexes into the store's issues, errors first
};

} // namespace pd
