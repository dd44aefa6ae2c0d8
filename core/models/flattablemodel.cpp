// SPDX-License-Identifier: MIT
#include "models/flattablemodel.h"

namespace pd {

FlatTableModel::FlatTableModel(int columnCount, RowNumbers rowNumbers, QObject *parent)
    : QAbstractTableModel(parent)
    , m_columnCount(columnCount)
    , m_rowNumbers(rowNumbers)
{
}

int FlatTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : rows();
}

int FlatTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columnCount;
}

void FlatTableModel::resetRows()
{
    beginResetModel();
    endResetModel();
}

QVariant FlatTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        if (m_rowNumbers == RowNumbers::Shown)
            return QAbstractTableModel::headerData(section, orientation, role);
        return {};
    }
    const QStringList titles = columnTitles();
    Q_ASSERT(titles.size() == m_columnCount);
    if (section < 0 || section >= titles.size())
        return {};
    return titles.at(section);
}

} // namespace pd
