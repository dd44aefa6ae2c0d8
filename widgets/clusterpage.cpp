// SPDX-License-Identifier: MIT
#include "clusterpage.h"

#include "clustertables.h"
#include "jknavigation.h"
#include "models/enginetablemodel.h"
#include "models/modelroles.h"
#include "models/nodetablemodel.h"
#include "pooldelegate.h"
#include "stateappearance.h"
#include "statusdelegate.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTableView>
#include <QVBoxLayout>

namespace pd {

namespace {

// A table under its title, as one pane of the splitter.
QWidget *titledPane(QSplitter *splitter, const QString &title, const QList<QWidget *> &below)
{
    auto *pane = new QWidget(splitter);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(title, pane));
    for (QWidget *w : below)
        layout->addWidget(w);
    return pane;
}

} // namespace

ClusterPage::ClusterPage(ClusterStore *store, StateTracker *tracker, QWidget *parent)
    : QSplitter(Qt::Vertical, parent)
    , m_nodeModel(new NodeTableModel(store, this))
    , m_engineModel(new EngineTableModel(store, this))
    , m_nodeSort(new QSortFilterProxyModel(this))
    , m_engineFilter(new EngineFilter(this))
    , m_nodeView(makeClusterTable(this))
    , m_engineView(makeClusterTable(this))
    , m_filterEdit(new QLineEdit(this))
{
    setObjectName(QStringLiteral("mainSplitter")); // the name the saved layout and the tests know
    m_engineModel->setStateTracker(tracker);
    m_nodeSort->setSourceModel(m_nodeModel);
    m_nodeSort->setSortRole(SortRole);
    m_nodeView->setModel(m_nodeSort);
    m_nodeView->setObjectName(QStringLiteral("nodeView"));
    m_nodeView->setItemDelegateForColumn(NodeTableModel::PoolColumn, newPoolDelegate(m_nodeView));
    m_nodeView->horizontalHeader()->setStretchLastSection(true);

    m_engineFilter->setSourceModel(m_engineModel);
    m_engineFilter->setSortRole(SortRole);
    m_engineFilter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_engineView->setModel(m_engineFilter);
    m_engineView->setObjectName(QStringLiteral("engineView"));
    m_engineView->setItemDelegateForColumn(EngineTableModel::PoolColumn, newPoolDelegate(m_engineView));
    m_engineView->setItemDelegateForColumn(EngineTableModel::StatusColumn, newStatusDelegate(m_engineView));
    m_engineView->horizontalHeader()->setStretchLastSection(true);
    m_engineView->setToolTip(tr("Double-click an engine for its charts"));
    JkNavigation::install(m_engineView);

    m_filterEdit->setObjectName(QStringLiteral("engineFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter engines (node, host, port, rank…)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(
        tr("Filter engines (%1)").arg(QKeySequence(Qt::Key_Slash).toString(QKeySequence::NativeText)));
    connect(m_filterEdit, &QLineEdit::textChanged, this, &ClusterPage::applyEngineFilter);
    connect(
        m_nodeView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ClusterPage::applyEngineFilter);
    connect(m_engineView, &QTableView::activated, this,
        [this](const QModelIndex &index) { Q_EMIT engineActivated(engineAt(index)); });
    connect(m_engineView, &QTableView::doubleClicked, this,
        [this](const QModelIndex &index) { Q_EMIT engineDoubleClicked(engineAt(index)); });
    connect(m_engineView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                Q_EMIT currentEngineChanged(engineAt(current));
        });

    addWidget(titledPane(this, tr("<b>Nodes</b> — select nodes to narrow the engine list"), { m_nodeView }));
    addWidget(titledPane(this, tr("<b>Engines</b>"), { m_filterEdit, m_engineView }));
    setStretchFactor(0, 1);
    setStretchFactor(1, 2);
}

QSortFilterProxyModel *ClusterPage::engineFilter() const
{
    return m_engineFilter;
}

int ClusterPage::engineAt(const QModelIndex &viewIndex) const
{
    return m_engineFilter->mapToSource(viewIndex).row();
}

void ClusterPage::fitColumns()
{
    m_nodeView->resizeColumnsToContents();
    m_engineView->resizeColumnsToContents();
    // Observed columns fill in after the first poll round: leave room for their usual words.
    const QFontMetrics fm = m_engineView->fontMetrics();
    m_engineView->setColumnWidth(EngineTableModel::StatusColumn,
        qMax(m_engineView->columnWidth(EngineTableModel::StatusColumn),
            fm.horizontalAdvance(engineStateLabel(EngineState::ReadyNotInProxy)) + 34));
    m_engineView->setColumnWidth(EngineTableModel::KvColumn,
        qMax(m_engineView->columnWidth(EngineTableModel::KvColumn),
            fm.horizontalAdvance(QStringLiteral("100.0 %")) + 16));
    applyEngineFilter();
}

void ClusterPage::applyEngineFilter()
{
    m_engineFilter->nodes.clear();
    const QModelIndexList rows = m_nodeView->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows)
        m_engineFilter->nodes.append(row.data(NodeIndexRole).toInt());
    m_engineFilter->setFilterRegularExpression(QRegularExpression(
        QRegularExpression::escape(m_filterEdit->text()), QRegularExpression::CaseInsensitiveOption));
    m_engineFilter->refresh();
}

void ClusterPage::selectEngine(int engine)
{
    QModelIndex row = m_engineFilter->mapFromSource(m_engineModel->index(engine, 0));
    if (!row.isValid()) { // hidden by the node selection or the text filter
        m_nodeView->clearSelection();
        m_filterEdit->clear();
        applyEngineFilter();
        row = m_engineFilter->mapFromSource(m_engineModel->index(engine, 0));
    }
    m_engineView->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_engineView->scrollTo(row);
}

void ClusterPage::selectNode(int node)
{
    for (int r = 0; r < m_nodeSort->rowCount(); ++r) {
        const QModelIndex index = m_nodeSort->index(r, 0);
        if (index.data(NodeIndexRole).toInt() == node) {
            m_nodeView->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_nodeView->scrollTo(index);
            return;
        }
    }
}

} // namespace pd
