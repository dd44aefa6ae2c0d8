// SPDX-License-Identifier: MIT
#pragma once

#include "audit/auditlog.h"

#include <QAbstractTableModel>

// The audit log as a table, newest last: time, user, action, target, result, detail, duration.
// reload() reads only the bytes appended since the last reload (the log only grows; a file that shrank
// or changed its beginning is read anew). Lines the reader skipped are in problems().
namespace pd {

class AuditModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, UserColumn, ActionColumn, TargetColumn, ResultColumn, DetailColumn, DurationColumn, ColumnCount };

    explicit AuditModel(QString path, int maxRows = 2000, QObject *parent = nullptr);

    void reload();
    const QString &path() const { return m_path; }
    QStringList problems() const { return m_problems; }
    QString error() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_path;
    int m_maxRows;
    QList<AuditEntry> m_entries;
    AuditCursor m_cursor;      // how far the file was read
    QStringList m_problems;
    QString m_error;
};

} // namespace pd
