// SPDX-License-Identifier: MIT
#include "models/auditmodel.h"

#include "models/modelroles.h"

#include <algorithm>

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
    AuditReadResult read = readAuditLog(m_path, m_offset, m_lines + 1);
    // Replaced or truncated since the last read: read it anew from the start.
    const bool sameFile = read.opened && read.error.isEmpty() && m_offset > 0
                          && read.head.left(m_head.size()) == m_head && m_head.size() > 0;
    if (m_offset > 0 && !sameFile) {
        m_offset = 0;
        m_lines = 0;
        m_problems.clear();
        read = readAuditLog(m_path);
        beginResetModel();
        m_entries.clear();
        endResetModel();
    }
    m_error = read.error;
    if (!read.opened)
        return;
    if (m_offset == 0)
        m_head = read.head;
    m_offset = read.endOffset;
    m_lines += read.lines;
    // The problems of complete lines are kept; an incomplete last line is reported until it completes.
    m_problems.erase(std::remove_if(m_problems.begin(), m_problems.end(),
                                    [](const QString &p) { return p.contains(QLatin1String("incomplete last line")); }),
                     m_problems.end());
    m_problems += read.problems;
    const QList<AuditEntry> &added = read.entries;
    if (added.isEmpty())
        return;
    const int overflow = int(m_entries.size() + added.size() - m_maxRows);
    if (overflow > 0) {
        const int drop = std::min(overflow, int(m_entries.size()));
        if (drop > 0) {
            beginRemoveRows({}, 0, drop - 1);
            m_entries.remove(0, drop);
            endRemoveRows();
        }
    }
    const qsizetype from = std::max<qsizetype>(0, added.size() - m_maxRows);
    beginInsertRows({}, int(m_entries.size()), int(m_entries.size() + (added.size() - from)) - 1);
    for (qsizetype i = from; i < added.size(); ++i)
        m_entries.append(added.at(i));
    endInsertRows();
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
