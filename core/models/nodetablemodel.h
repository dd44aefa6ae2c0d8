// SPDX-License-Identifier: MIT
#pragma once

#include "models/flattablemodel.h"

namespace pd {

class ClusterStore;

// The nodes of the opened profile, one row each.
class NodeTableModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, PoolColumn, AddressColumn, NpuColumn, EnginesColumn, SshColumn, NicColumn,
                  ColumnCount };

    explicit NodeTableModel(ClusterStore *store, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    ClusterStore *m_store;
};

} // namespace pd
