// SPDX-License-Identifier: MIT
#pragma once

#include "audit/auditlog.h"
#include "models/flattablemodel.h"

// The audit log as a table, newest last: time, user, action, target, result, detail, duration.
// reload() reads only the bytes appended since the last reload (the log only grows; a file that shrank
// or changed its beginning is read anew). Lines the reader skipped are in problems().
namespace pd {

class AuditModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, UserColumn, ActionColumn, TargetColumn, ResultColumn, DetailColumn, DurationColumn, ColumnCount };

    explicit AuditModel(QString path, int maxRows = 2000, QObject *parent = nullptr);

    void reload();
    const QString &path() const { return m_path; }
    QStringList problems() const { return m_problems; }
    QString error() const { return m_error; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    QString m_path;
    int m_maxRows;
    QList<AuditEntry> m_entries;
    AuditCursor m_cursor;      // how far the file was read
    QStringList m_problems;
    QString m_error;
};

} // namespace pd
