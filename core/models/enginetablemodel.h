// SPDX-License-Identifier: MIT
#pragma once

#include "models/flattablemodel.h"

namespace pd {

class ClusterStore;
class StateTracker;

// Every engine of the opened profile, one row each, in the profile's order, with what was last
// observed of it (poll status, running and waiting requests, KV cache usage).
class EngineTableModel final : public FlatTableModel {
    Q_OBJECT
public:
    enum Column { NodeColumn, PoolColumn, StatusColumn, RunningColumn, WaitingColumn, KvColumn, HostColumn,
                  PortColumn, DpRankColumn, DpGroupColumn, TpColumn, LauncherColumn, ColumnCount };

    explicit EngineTableModel(ClusterStore *store, QObject *parent = nullptr);
    // With a tracker the Status column shows each engine's derived state (EngineStateRole, the reason
    // and evidence as tooltip) instead of the last poll's outcome.
    void setStateTracker(StateTracker *tracker);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override;
    QStringList columnTitles() const override;

    void onEnginesObserved(const QList<int> &engines);
    QVariant observedData(int row, int column, int role) const;

    QVariant derivedData(int row, int role) const;

    ClusterStore *m_store;
    StateTracker *m_tracker = nullptr;
};

} // namespace pd
