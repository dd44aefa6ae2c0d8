// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractItemModel>
#include <QList>
#include <QPointer>

// The operations progress list: one top-level row per scaling operation (newest last), its visible
// steps as children. Columns: what, status, detail, started. Status text is also given under
// OperationStatusRole ("running", "failed", ...) for delegates to colour.
namespace pd {

class ScaleOperation;
class ScaleRunner;

class OperationModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { WhatColumn, StatusColumn, DetailColumn, StartedColumn, ColumnCount };
    static constexpr int OperationStatusRole = Qt::UserRole + 40;

    explicit OperationModel(ScaleRunner *runner, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    ScaleOperation *operation(const QModelIndex &index) const;

private:
    void added(ScaleOperation *op);
    void changed(ScaleOperation *op, int step);

    QList<QPointer<ScaleOperation>> m_ops;
};

} // namespace pd
