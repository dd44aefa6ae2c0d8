// SPDX-License-Identifier: MIT
#include "models/enginetablemodel.h"

#include "cluster/clusterstore.h"
#include "models/modelroles.h"
#include "state/statetracker.h"

#include <algorithm>
#include <cmath>

namespace pd {

EngineTableModel::EngineTableModel(ClusterStore *store, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Shown, parent)
    , m_store(store)
{
    connect(m_store, &ClusterStore::profileChanged, this, &EngineTableModel::resetRows);
    connect(m_store, &ClusterStore::enginesObserved, this, &EngineTableModel::onEnginesObserved);
}

void EngineTableModel::onEnginesObserved(const QList<int> &engines)
{
    if (engines.isEmpty())
        return;
    const auto [lo, hi] = std::minmax_element(engines.begin(), engines.end());
    // One signal for the whole span: cheaper than one per row when most rows changed.
    Q_EMIT dataChanged(index(*lo, StatusColumn), index(*hi, KvColumn));
}

void EngineTableModel::setStateTracker(StateTracker *tracker)
{
    if (m_tracker)
        disconnect(m_tracker, nullptr, this, nullptr);
    m_tracker = tracker;
    auto all = [this] {
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, StatusColumn), index(rowCount() - 1, StatusColumn));
    };
    if (m_tracker) {
        connect(m_tracker, &StateTracker::statesChanged, this, [this](const QList<int> &engines) {
            if (engines.isEmpty())
                return;
            const auto [lo, hi] = std::minmax_element(engines.begin(), engines.end());
            Q_EMIT dataChanged(index(*lo, StatusColumn), index(*hi, StatusColumn));
        });
        connect(m_tracker, &StateTracker::reset, this, all);
    }
    all();
}

QVariant EngineTableModel::derivedData(int row, int role) const
{
    if (row >= m_tracker->engineCount())
        return {};
    const EngineState state = m_tracker->state(row);
    switch (role) {
    case Qt::DisplayRole: return engineStateLabel(state);
    case SortRole:
    case EngineStateRole: return int(state);
    case Qt::ToolTipRole: {
        const DerivedState &d = m_tracker->derived(row);
        return d.evidence.isEmpty() ? d.reason : d.reason + QStringLiteral("\n• ") + d.evidence.join(QStringLiteral("\n• "));
    }
    default: return {};
    }
}

QVariant EngineTableModel::observedData(int row, int column, int role) const
{
    if (m_tracker && column == StatusColumn && role != PollStatusRole && role != HealthyRole && role != Qt::TextAlignmentRole)
        return derivedData(row, role);
    const EngineObservation &o = m_store->observations().at(row);
    const std::optional<EngineMetrics> &m = o.lastGood;
    const bool fresh = o.polled && o.last.status == PollStatus::Ok;
    if (role == PollStatusRole)
        return o.polled ? int(o.last.status) : -1;
    if (role == HealthyRole)
        return fresh && o.last.healthStatus == 200;
    if (role == Qt::TextAlignmentRole)
        return column == StatusColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && column == StatusColumn && o.polled) {
        QString tip = o.last.error.isEmpty() ? tr("/metrics %1 in %2 ms, /health %3")
                                                    .arg(o.last.httpStatus)
                                                    .arg(o.last.latencyMs, 0, 'f', 1)
                                                    .arg(o.last.healthStatus)
                                             : o.last.error;
        if (o.lastOkAt.isValid())
            tip += tr("\nlast good scrape %1").arg(o.lastOkAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
        return tip;
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (column) {
    case StatusColumn:
        if (!o.polled)
            return role == SortRole ? QVariant(-1) : QVariant(tr("—"));
        if (role == SortRole)
            return int(o.last.status);
        if (fresh && o.last.healthStatus != 200)
            return tr("unhealthy (/health %1)").arg(o.last.healthStatus);
        switch (o.last.status) {
        case PollStatus::Ok: return tr("responding");
        case PollStatus::Refused: return tr("refused");
        case PollStatus::Timeout: return tr("timeout");
        case PollStatus::HttpError: return tr("HTTP %1").arg(o.last.httpStatus);
        case PollStatus::Malformed: return tr("bad metrics");
        case PollStatus::Failed: return tr("error");
        }
        return {};
    case RunningColumn:
        return m && !std::isnan(m->running) ? QVariant(int(m->running)) : QVariant();
    case WaitingColumn:
        return m && !std::isnan(m->waiting) ? QVariant(int(m->waiting)) : QVariant();
    case KvColumn:
        if (!m || std::isnan(m->kvUsage))
            return {};
        return role == SortRole ? QVariant(m->kvUsage) : QVariant(QStringLiteral("%1 %").arg(m->kvUsage * 100.0, 0, 'f', 1));
    default:
        return {};
    }
}

int EngineTableModel::rows() const
{
    return int(m_store->engines().size());
}

QVariant EngineTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Engine &engine = m_store->engines().at(index.row());
    const Profile &profile = m_store->profile();
    const Node &node = profile.nodes.at(engine.nodeIndex);
    const EngineGroup &group = node.engineGroups.at(engine.groupIndex);
    if (index.column() >= StatusColumn && index.column() <= KvColumn)
        return observedData(index.row(), index.column(), role);
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

QStringList EngineTableModel::columnTitles() const
{
    return { tr("Node"), tr("Pool"), tr("Status"), tr("Running"), tr("Waiting"), tr("KV cache"), tr("Host"), tr("Port"),
        tr("DP rank"), tr("DP master"), tr("TP"), tr("Launcher arguments") };
}

} // namespace pd
