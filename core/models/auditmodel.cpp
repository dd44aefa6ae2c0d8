// SPDX-License-Identifier: MIT
#include "models/auditmodel.h"

#include "models/modelroles.h"

namespace pd {

AuditModel::AuditModel(QString path, int maxRows, QObject *parent)
    : QAbstractTableModel(parent)
    , m_path(std::move(path))
    , m_maxRows(std::max(1, maxRows))
{
    reload();
}

void AuditModel::reload()
{
    AuditReadResult read = readAuditLog(m_path);
    m_problems = read.problems;
    m_error = read.opened ? QString() : read.error;
    const QList<AuditEntry> &all = read.entries;
    const auto sameEntry = [](const AuditEntry &a, const AuditEntry &b) {
        return a.time == b.time && a.action == b.action && a.target == b.target && a.result == b.result;
    };
    // Appended lines only: the entry we hold last must be where it was.
    const bool grew = !m_entries.isEmpty() && all.size() >= m_readTotal && m_readTotal > 0
        && sameEntry(all.at(m_readTotal - 1), m_entries.last());
    if (grew) {
        const qsizetype added = all.size() - m_readTotal;
        if (added > 0) {
            const int overflow = int(m_entries.size() + added - m_maxRows);
            if (overflow > 0) {
                const int drop = std::min(overflow, int(m_entries.size()));
                beginRemoveRows({}, 0, drop - 1);
                m_entries.remove(0, drop);
                endRemoveRows();
            }
            const qsizetype from = std::max<qsizetype>(m_readTotal, all.size() - m_maxRows);
            beginInsertRows({}, int(m_entries.size()), int(m_entries.size() + (all.size() - from)) - 1);
            for (qsizetype i = from; i < all.size(); ++i)
                m_entries.append(all.at(i));
            endInsertRows();
        }
    } else {
        beginResetModel();
        m_entries = all.mid(std::max<qsizetype>(0, all.size() - m_maxRows));
        endResetModel();
    }
    m_readTotal = all.size();
}

int AuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const AuditEntry &e = m_entries.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case TimeColumn: return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case UserColumn: return e.host.isEmpty() ? e.user : QStringLiteral("%1@%2").arg(e.user, e.host);
        case ActionColumn: return e.action;
        case TargetColumn: return e.target;
        case ResultColumn: return e.result;
        case DetailColumn: return e.detail;
        case DurationColumn: return e.durationMs > 0 ? QStringLiteral("%1 s").arg(double(e.durationMs) / 1000.0, 0, 'f', 1) : QString();
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case TimeColumn: return e.time.toMSecsSinceEpoch();
        case DurationColumn: return e.durationMs;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == TimeRole)
        return e.time.toMSecsSinceEpoch();
    return {};
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case UserColumn: return tr("User");
    case ActionColumn: return tr("Action");
    case TargetColumn: return tr("Target");
    case ResultColumn: return tr("Result");
    case DetailColumn: return tr("Detail");
    case DurationColumn: return tr("Duration");
    }
    return {};
}

} // namespace pd
