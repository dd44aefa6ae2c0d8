// SPDX-License-Identifier: MIT
#include "models/nodecheckgridmodel.h"

namespace pd {

NodeCheckGridModel::NodeCheckGridModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int NodeCheckGridModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_report.nodes.size());
}

int NodeCheckGridModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 1 + m_maxDevices;
}

QList<CheckResult> NodeCheckGridModel::checksAt(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return m_report.nodes.at(index.row()).cellChecks(deviceOf(index));
}

QVariant NodeCheckGridModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeReport &node = m_report.nodes.at(index.row());
    const bool pending = m_pending.at(index.row());
    const int device = deviceOf(index);
    const bool exists = device < node.deviceCount;
    const QList<CheckResult> checks = exists ? node.cellChecks(device) : QList<CheckResult>();
    QStringList failing;
    for (const CheckResult &c : checks) {
        if (c.verdict != Verdict::Pass && !failing.contains(checkKindName(c.kind)))
            failing.append(checkKindName(c.kind));
    }
    switch (role) {
    case Qt::DisplayRole:
        if (device < 0)
            return node.node;
        if (!exists)
            return QString();
        return failing.join(u' ');
    case VerdictRole:
        if (!exists || (pending && checks.isEmpty()))
            return -1;
        return checks.isEmpty() ? int(Verdict::Unknown) : int(node.cellVerdict(device));
    case PendingRole:
        return pending;
    case FailingChecksRole:
        return failing;
    case Qt::ToolTipRole: {
        if (!exists)
            return QString();
        if (pending && checks.isEmpty())
            return tr("%1: waiting for the node").arg(node.node);
        QStringList lines;
        lines.append(
            device < 0 ? tr("%1 (%2)").arg(node.node, node.host) : tr("%1 device %2").arg(node.node).arg(device));
        for (const CheckResult &c : checks) {
            if (c.verdict != Verdict::Pass)
                lines.append(QStringLiteral("%1 %2: %3").arg(verdictLabel(c.verdict), checkKindName(c.kind), c.reason));
        }
        if (lines.size() == 1)
            lines.append(tr("all %1 checks pass").arg(checks.size()));
        return lines.join(u'\n');
    }
    default:
        return {};
    }
}

QVariant NodeCheckGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return section == 0 ? tr("Node") : QString::number(section - 1);
    return QString::number(section + 1);
}

void NodeCheckGridModel::setTargets(const QList<NodeCheckTarget> &targets)
{
    beginResetModel();
    m_report = ClusterReport {};
    m_report.started = QDateTime::currentDateTimeUtc();
    m_pending.clear();
    m_maxDevices = 0;
    for (const NodeCheckTarget &t : targets) {
        NodeReport r;
        r.node = t.target.node;
        r.host = t.target.host;
        r.generation = t.generation;
        r.deviceCount = t.deviceCount;
        m_report.nodes.append(r);
        m_pending.append(true);
        m_maxDevices = qMax(m_maxDevices, t.deviceCount);
    }
    endResetModel();
}

int NodeCheckGridModel::rowOf(const QString &node) const
{
    for (int i = 0; i < m_report.nodes.size(); ++i) {
        if (m_report.nodes.at(i).node == node)
            return i;
    }
    return -1;
}

void NodeCheckGridModel::updateNode(const NodeReport &report)
{
    const int row = rowOf(report.node);
    if (row < 0)
        return;
    m_report.nodes[row] = report;
    m_pending[row] = false;
    Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
}

void NodeCheckGridModel::setReport(const ClusterReport &report)
{
    int maxDevices = 0;
    for (const NodeReport &n : report.nodes)
        maxDevices = qMax(maxDevices, n.deviceCount);
    bool sameShape = report.nodes.size() == m_report.nodes.size() && maxDevices == m_maxDevices;
    for (int i = 0; sameShape && i < report.nodes.size(); ++i)
        sameShape = report.nodes.at(i).node == m_report.nodes.at(i).node;
    if (!sameShape) {
        beginResetModel();
        m_report = report;
        m_pending = QList<bool>(report.nodes.size(), false);
        m_maxDevices = maxDevices;
        endResetModel();
        return;
    }
    m_report = report;
    m_pending.fill(false);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

} // namespace pd
