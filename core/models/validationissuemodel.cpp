// SPDX-License-Identifier: MIT
#include "models/validationissuemodel.h"

#include "cluster/clusterstore.h"
#include "models/modelroles.h"

namespace pd {

ValidationIssueModel::ValidationIssueModel(ClusterStore *store, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Shown, parent)
    , m_store(store)
{
    const auto reset = [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    };
    connect(m_store, &ClusterStore::profileChanged, this, reset);
    connect(m_store, &ClusterStore::issuesChanged, this, reset);
    rebuild();
}

void ValidationIssueModel::rebuild()
{
    m_order.clear();
    const QList<ValidationIssue> &issues = m_store->issues();
    for (const Severity severity : {Severity::Error, Severity::Warning})
        for (int i = 0; i < issues.size(); ++i)
            if (issues.at(i).severity == severity)
                m_order.append(i);
}

int ValidationIssueModel::rows() const
{
    return int(m_order.size());
}

QVariant ValidationIssueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ValidationIssue &issue = m_store->issues().at(m_order.at(index.row()));
    if (role == SeverityRole)
        return int(issue.severity);
    if (role == PointerRole)
        return issue.pointer;
    if (role == SortRole)
        return index.column() == SeverityColumn ? QVariant(int(issue.severity)) : data(index, Qt::DisplayRole);
    if (role == Qt::ToolTipRole && index.column() == MessageColumn)
        return issue.message;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SeverityColumn: return issue.severity == Severity::Error ? tr("error") : tr("warning");
    case LocationColumn: return issue.pointer;
    case MessageColumn: return issue.message;
    default: return {};
    }
}

QStringList ValidationIssueModel::columnTitles() const
{
    return { tr("Severity"), tr("Where"), tr("Problem") };
}

} // namespace pd
