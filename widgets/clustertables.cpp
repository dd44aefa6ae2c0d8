// SPDX-License-Identifier: MIT
#include "clustertables.h"

#include "models/modelroles.h"

#include <QHeaderView>
#include <QRegularExpression>
#include <QTableView>

namespace pd {

QTableView *makeClusterTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->setWordWrap(false);
    return view;
}

bool EngineFilter::filterAcceptsRow(int row, const QModelIndex &parent) const
{
    const QModelIndex first = sourceModel()->index(row, 0, parent);
    if (!nodes.isEmpty() && !nodes.contains(first.data(NodeIndexRole).toInt()))
        return false;
    const QRegularExpression re = filterRegularExpression();
    if (re.pattern().isEmpty())
        return true;
    for (int c = 0; c < sourceModel()->columnCount(parent); ++c) {
        if (sourceModel()->index(row, c, parent).data().toString().contains(re))
            return true;
    }
    return false;
}

} // namespace pd
