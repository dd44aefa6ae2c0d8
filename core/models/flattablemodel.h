// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

namespace pd {

// What the console's flat tables share: no children, a fixed number of columns, and horizontal
// headers titled by columnTitles(). Subclasses give rows() and data().
class FlatTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Whether the vertical header numbers the rows (QAbstractItemModel's default) or stays empty.
    enum class RowNumbers { Hidden, Shown };

    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;

protected:
    FlatTableModel(int columnCount, RowNumbers rowNumbers, QObject *parent);

    virtual int rows() const = 0;
    // Everything changed (another profile): the views read every row again.
    void resetRows();
    // One title per column, in column order, in the operator's language.
    virtual QStringList columnTitles() const = 0;

private:
    int m_columnCount;
    RowNumbers m_rowNumbers;
};

} // namespace pd
