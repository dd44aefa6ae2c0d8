// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

#include <QAbstractTableModel>

// The node x NPU grid of a node-check run: one row per node, column 0 the node-level checks (reach,
// tools, npu-smi, hccn.conf), columns 1..N the hccn devices 0..N-1 (A2 rows end at device 7). A cell's
// verdict is the worst of its checks. Rows fill in as nodes report; GUI thread.
namespace pd {

class NodeCheckGridModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles {
        VerdictRole = Qt::UserRole + 40, // int(Verdict); -1 while pending or when the node has no such device
        PendingRole, // bool: the run has not reported this node yet
        FailingChecksRole, // QStringList: names of the checks that are not pass
    };

    explicit NodeCheckGridModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void setTargets(const QList<NodeCheckTarget> &targets); // a new run: every row pending
    void updateNode(const NodeReport &report); // a node reported (or grew)
    void setReport(const ClusterReport &report); // final: cross-node rules applied

    const ClusterReport &report() const { return m_report; }
    int deviceOf(const QModelIndex &index) const { return index.column() - 1; } // -1: node level
    QList<CheckResult> checksAt(const QModelIndex &index) const;
    int maxDevices() const { return m_maxDevices; }

private:
    int rowOf(const QString &node) const;

    ClusterReport m_report; // one NodeReport per row, in target order
    QList<bool> m_pending;
    int m_maxDevices = 0;
};

} // namespace pd
