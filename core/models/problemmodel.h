// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>

#include <functional>

// The current problems, ranked, one row each (Triage::problems()). Rows keep their identity by key
// across updates: a problem that stays keeps its row's persistent index, so selections survive.
namespace pd {

class Triage;

class ProblemModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, WhatColumn, WhereColumn, SinceColumn, DetailColumn, NextStepColumn, ColumnCount };

    explicit ProblemModel(Triage *triage, QObject *parent = nullptr);
    void setClock(std::function<std::int64_t()> nowMs); // for "since" ages

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void sync();

    Triage *m_triage;
    QStringList m_keys; // the rows as shown, in Triage's order after sync()
    std::function<std::int64_t()> m_now;
};

} // namespace pd
