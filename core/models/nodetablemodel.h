// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

namespace pd {

class ClusterStore;

// The nodes of the opened profile, one row each.
class NodeTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, PoolColumn, AddressColumn, NpuColumn, EnginesColumn, SshColumn, NicColumn,
                  ColumnCount };

    explicit NodeTableModel(ClusterStore *store, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ClusterStore *m_store;
};

} // namespace pd
