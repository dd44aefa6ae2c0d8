// SPDX-License-Identifier: MIT
#pragma once

#include "models/flattablemodel.h"

#include <functional>

// The current problems, ranked, one row each (Triage::problems()). Rows keep their identity by key
// across updates: a problem that stays keeps its row's persistent index, so selections survive.
namespace pd {

class Triage;

class ProblemModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, WhatColumn, WhereColumn, SinceColumn, DetailColumn, NextStepColumn, ColumnCount };

    explicit ProblemModel(Triage *triage, QObject *parent = nullptr);
    void setClock(std::function<std::int64_t()> nowMs); // for "since" ages

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    void sync();

    Triage *m_triage;
    QStringList m_keys; // the rows as shown, in Triage's order after sync()
    std::function<std::int64_t()> m_now;
};

} // namespace pd
