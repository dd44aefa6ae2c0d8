// SPDX-License-Identifier: MIT
#include "logs/logtailmodel.h"

namespace pd {

LogTailModel::LogTailModel(int maxLines, QObject *parent)
    : QAbstractListModel(parent)
    , m_maxLines(qMax(1, maxLines))
{
}

int LogTailModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

QVariant LogTailModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogLine &l = m_lines.at(size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        return l.text;
    case SignatureRole:
        return l.cls.signatureId;
    case ErrorRole:
        return l.cls.error;
    case OffsetRole:
        return l.offset;
    case SeverityRole: {
        const LogSignature *s = logSignature(l.cls.signatureId);
        return s ? int(s->severity) : -1;
    }
    case Qt::ToolTipRole: {
        const LogSignature *s = logSignature(l.cls.signatureId);
        return s ? QVariant(QString(s->title + QStringLiteral(": ") + s->diagnosis)) : QVariant();
    }
    default:
        return {};
    }
}

void LogTailModel::appendLines(const QList<LogLine> &lines)
{
    if (lines.isEmpty())
        return;
    qsizetype take = lines.size();
    qsizetype skip = 0;
    if (take > m_maxLines) { // more new lines than the buffer holds: keep the newest
        skip = take - m_maxLines;
        take = m_maxLines;
        m_dropped += skip;
    }
    const qsizetype overflow = qsizetype(m_lines.size()) + take - m_maxLines;
    if (overflow > 0) {
        beginRemoveRows({}, 0, int(overflow) - 1);
        m_lines.erase(m_lines.begin(), m_lines.begin() + overflow);
        endRemoveRows();
        m_dropped += overflow;
    }
    const int first = int(m_lines.size());
    beginInsertRows({}, first, first + int(take) - 1);
    for (qsizetype i = skip; i < lines.size(); ++i)
        m_lines.push_back(lines.at(i));
    endInsertRows();
}

void LogTailModel::clear()
{
    beginResetModel();
    m_lines.clear();
    m_dropped = 0;
    endResetModel();
}

int LogTailModel::find(const QString &text, int from, bool backwards, Qt::CaseSensitivity cs) const
{
    if (text.isEmpty() || m_lines.empty())
        return -1;
    const int n = int(m_lines.size());
    if (backwards) {
        for (int r = qMin(from, n - 1); r >= 0; --r) {
            if (m_lines[size_t(r)].text.contains(text, cs))
                return r;
        }
    } else {
        for (int r = qMax(0, from); r < n; ++r) {
            if (m_lines[size_t(r)].text.contains(text, cs))
                return r;
        }
    }
    return -1;
}

int LogTailModel::firstErrorRow() const
{
    int generic = -1;
    for (size_t r = 0; r < m_lines.size(); ++r) {
        if (m_lines[r].cls.signatureId > 0 && m_lines[r].cls.signatureId != 19) // 19 only wraps the root cause
            return int(r);
        if (generic < 0 && m_lines[r].cls.error)
            generic = int(r);
    }
    return generic;
}

int LogTailModel::nextErrorRow(int after) const
{
    for (size_t r = size_t(qMax(0, after + 1)); r < m_lines.size(); ++r) {
        if (m_lines[r].cls.error)
            return int(r);
    }
    return -1;
}

} // namespace pd
