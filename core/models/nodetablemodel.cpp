// SPDX-License-Identifier: MIT
#include "models/nodetablemodel.h"

#include "cluster/clusterstore.h"
#include "models/modelroles.h"

namespace pd {

NodeTableModel::NodeTableModel(ClusterStore *store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
    connect(m_store, &ClusterStore::profileChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_store->profile().nodes.size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Node &node = m_store->profile().nodes.at(index.row());
    int engines = 0;
    int npus = 0;
    for (const EngineGroup &g : node.engineGroups) {
        engines += g.dpSizeLocal;
        npus += g.dpSizeLocal * g.tpSize;
    }
    if (role == PoolRole)
        return int(node.role);
    if (role == NodeIndexRole)
        return index.row();
    if (role == SortRole) {
        switch (index.column()) {
        case NpuColumn: return node.npuCount;
        case EnginesColumn: return engines;
        default: break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::TextAlignmentRole && index.column() == EnginesColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NpuColumn && !node.npuIps.isEmpty())
        return tr("NPU IPs: %1").arg(node.npuIps.join(QStringLiteral(", ")));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn: return node.name;
    case PoolColumn: return node.role == Role::Prefill ? tr("prefill") : tr("decode");
    case AddressColumn: return node.address;
    case NpuColumn: return tr("%1 × %2 (%3 used)").arg(generationName(node.npuGeneration)).arg(node.npuCount).arg(npus);
    case EnginesColumn: return engines;
    case SshColumn:
        return QStringLiteral("%1@%2:%3%4")
            .arg(node.ssh.user, node.address)
            .arg(node.ssh.port)
            .arg(node.ssh.jumpHost.isEmpty() ? QString() : tr(" via %1").arg(node.ssh.jumpHost));
    case NicColumn: return node.nicName;
    default: return {};
    }
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Node");
    case PoolColumn: return tr("Pool");
    case AddressColumn: return tr("Address");
    case NpuColumn: return tr("NPUs");
    case EnginesColumn: return tr("Engines");
    case SshColumn: return tr("SSH");
    case NicColumn: return tr("NIC");
    default: return {};
    }
}

} // namespace pd
