// SPDX-License-Identifier: MIT
#include "models/nodetablemodel.h"

#include "cluster/clusterstore.h"
#include "models/modelroles.h"

namespace pd {

NodeTableModel::NodeTableModel(ClusterStore *store, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Shown, parent)
    , m_store(store)
{
    connect(m_store, &ClusterStore::profileChanged, this, &NodeTableModel::resetRows);
}

int NodeTableModel::rows() const
{
    return int(m_store->profile().nodes.size());
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

QStringList NodeTableModel::columnTitles() const
{
    return { tr("Node"), tr("Pool"), tr("Address"), tr("NPUs"), tr("Engines"), tr("SSH"), tr("NIC") };
}

} // namespace pd
