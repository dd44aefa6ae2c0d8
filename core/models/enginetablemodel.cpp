// SPDX-License-Identifier: MIT
#include "models/enginetablemodel.h"

#include "cluster/clusterstore.h"
#include "models/modelroles.h"

namespace pd {

EngineTableModel::EngineTableModel(ClusterStore *store, QObject *parent)
    : QAbstractTableModel(parent)
    , m_store(store)
{
    connect(m_store, &ClusterStore::profileChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int EngineTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_store->engines().size());
}

int EngineTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EngineTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Engine &engine = m_store->engines().at(index.row());
    const Profile &profile = m_store->profile();
    const Node &node = profile.nodes.at(engine.nodeIndex);
    const EngineGroup &group = node.engineGroups.at(engine.groupIndex);
    if (role == PoolRole)
        return int(engine.role);
    if (role == NodeIndexRole)
        return engine.nodeIndex;
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case PortColumn:
        case DpRankColumn:
        case TpColumn: return int(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case PortColumn: return engine.port;
        case DpRankColumn: return engine.dpRank;
        case TpColumn: return group.tpSize;
        case NodeColumn: return engine.nodeIndex;
        default: break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::ToolTipRole && index.column() == LauncherColumn)
        return tr("bash %1 %2").arg(profile.templatePath, profile.launcherArguments(engine).join(QLatin1Char(' ')));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NodeColumn: return node.name;
    case PoolColumn: return engine.role == Role::Prefill ? tr("prefill") : tr("decode");
    case HostColumn: return engine.host;
    case PortColumn: return engine.port;
    case DpRankColumn: return tr("%1 / %2").arg(engine.dpRank).arg(group.dpSize);
    case DpGroupColumn: return QStringLiteral("%1:%2").arg(group.dpAddress).arg(group.dpPort);
    case TpColumn: return group.tpSize;
    case LauncherColumn: return profile.launcherArguments(engine).join(QLatin1Char(' '));
    default: return {};
    }
}

QVariant EngineTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NodeColumn: return tr("Node");
    case PoolColumn: return tr("Pool");
    case HostColumn: return tr("Host");
    case PortColumn: return tr("Port");
    case DpRankColumn: return tr("DP rank");
    case DpGroupColumn: return tr("DP master");
    case TpColumn: return tr("TP");
    case LauncherColumn: return tr("Launcher arguments");
    default: return {};
    }
}

} // namespace pd
