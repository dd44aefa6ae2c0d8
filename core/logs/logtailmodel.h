// SPDX-License-Identifier: MIT
#pragma once

#include "logs/logmatcher.h"

#include <QAbstractListModel>

#include <deque>

// The lines of a followed log, bounded (oldest dropped first), each classified by the LogMatcher.
// Search and "first error" work on what the buffer holds. GUI thread only.
namespace pd {

struct LogLine {
    qint64 offset = -1; // byte offset in the file
    QString text;
    LogLineClass cls;
};

class LogTailModel final : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles {
        SignatureRole = Qt::UserRole + 60, // int: signature id, 0 none
        ErrorRole, // bool
        OffsetRole, // qint64
        SeverityRole, // int(LogSeverity) when a signature matched, -1 otherwise
    };

    explicit LogTailModel(int maxLines = 20000, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;

    void appendLines(const QList<LogLine> &lines);
    void clear();
    const LogLine &line(int row) const { return m_lines.at(size_t(row)); }
    int maxLines() const { return m_maxLines; }
    qint64 droppedLines() const { return m_dropped; }

    // The next row at or after `from` (before, when backwards) containing text; -1 when none (no wrap).
    int find(const QString &text, int from, bool backwards = false, Qt::CaseSensitivity cs = Qt::CaseInsensitive) const;
    int firstErrorRow() const; // first line with a signature, else first generic error line; -1
    int nextErrorRow(int after) const;

private:
    std::deque<LogLine> m_lines;
    int m_maxLines;
    qint64 m_dropped = 0;
};

} // namespace pd
