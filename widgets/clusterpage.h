// SPDX-License-Identifier: MIT
#pragma once

#include <QSplitter>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace pd {

class ClusterStore;
class EngineTableModel;
class NodeTableModel;
class StateTracker;

// The Cluster tab: the nodes table above, the engines table below with a free-text filter; selecting
// nodes narrows the engines to theirs. Reads the store; the engines' status column comes from the
// state tracker. Engines are named by their index in ClusterStore::engines().
class ClusterPage final : public QSplitter {
    Q_OBJECT
public:
    ClusterPage(ClusterStore *store, StateTracker *tracker, QWidget *parent = nullptr);

    QTableView *nodeView() const { return m_nodeView; }
    QTableView *engineView() const { return m_engineView; }
    QSortFilterProxyModel *engineFilter() const;
    QLineEdit *filterEdit() const { return m_filterEdit; }

    // Columns wide enough for what the profile holds and the words the first poll rounds bring.
    void fitColumns();
    // Selects the engine's row, clearing the node selection and the text filter when they hide it.
    void selectEngine(int engine);
    void selectNode(int node);

Q_SIGNALS:
    void engineActivated(int engine); // Enter or double-click on a row
    void engineDoubleClicked(int engine);
    void currentEngineChanged(int engine); // the current row moved

private:
    void applyEngineFilter();
    int engineAt(const QModelIndex &viewIndex) const;

    NodeTableModel *m_nodeModel;
    EngineTableModel *m_engineModel;
    QSortFilterProxyModel *m_nodeSort;
    class EngineFilter *m_engineFilter;
    QTableView *m_nodeView;
    QTableView *m_engineView;
    QLineEdit *m_filterEdit;
};

} // namespace pd
