// SPDX-License-Identifier: MIT
#include "models/auditmodel.h"

#include "models/modelroles.h"

#include <QCoreApplication>

#include <algorithm>

namespace pd {

AuditModel::AuditModel(QString path, int maxRows, QObject *parent)
    : FlatTableModel(ColumnCount, RowNumbers::Hidden, parent)
    , m_path(std::move(path))
    , m_maxRows(std::max(1, maxRows))
{
    reload();
}

void AuditModel::reload()
{
    bool restarted = false;
    const AuditReadResult read = readAuditLogOn(m_path, m_cursor, &restarted);
    // Replaced or truncated since the last read: what was shown goes.
    if (restarted) {
        m_problems.clear();
        beginResetModel();
        m_entries.clear();
        endResetModel();
    }
    m_error = read.error;
    if (!read.opened)
        return;
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

namespace {

// The audit file's words (action parts and results) in the operator's language, for the view only: the
// file keeps the stable English identifiers, which pdctl audit and scripts grep for.
struct AuditWord {
    const char *source;
    const char *comment;
};
const AuditWord kAuditWords[] = {
    QT_TRANSLATE_NOOP3("pd::AuditModel", "scale-out", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "scale-in", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "start", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "stop", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "group-scale-out", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "group-start", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "group-scale-in", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "group-restart", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "scale-in-restart", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "scale-out-restart", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "engines", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "proxy", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "watch", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "warmup", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "restart", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "eject", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "readd", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "abandoned", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "force-stop", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "start-and-add", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "add-to-proxy", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "remove-from-proxy", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "restart-group", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "add", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "remove", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "drain", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "preflight", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "restart-proxy", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "start-engines", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "start-engine", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "start-ranks", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "stop-engines", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "stop-engine", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "stop-ranks", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "verify-stopped", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "verify", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "wait-idle", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "wait-listed", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "wait-ready", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "ok", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "failed", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "done", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "skipped", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "refused", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "cancelled", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "running", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "pending", "audit log word"),
    QT_TRANSLATE_NOOP3("pd::AuditModel", "succeeded", "audit log word"),
};

QString auditWord(const QString &token)
{
    for (const AuditWord &word : kAuditWords) {
        if (token == QLatin1String(word.source))
            return QCoreApplication::translate("pd::AuditModel", word.source, word.comment);
    }
    return token;
}

QString auditWords(const QString &text)
{
    QStringList parts = text.split(QLatin1Char('.'));
    for (QString &part : parts)
        part = auditWord(part);
    return parts.join(QLatin1Char('.'));
}

} // namespace

int AuditModel::rows() const
{
    return int(m_entries.size());
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
        case ActionColumn: return auditWords(e.action);
        case TargetColumn: return e.target;
        case ResultColumn: return auditWord(e.result);
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

QStringList AuditModel::columnTitles() const
{
    return { tr("Time"), tr("User"), tr("Action"), tr("Target"), tr("Result"), tr("Detail"), tr("Duration") };
}

} // namespace pd
