// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace pd {

// A table cell drawn by hand over what the style draws for it (alternate rows, selection, focus):
// the subclass paints a mark and the cell's text, given `markWidth` pixels more than the text needs.
class CellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    CellDelegate(int markWidth, QObject *parent);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const final;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const final;

protected:
    // Called between the painter's save() and restore(); `cell` holds the style's font, palette and
    // rectangle, `text` what the model displays.
    virtual void paintCell(
        QPainter *painter, const QStyleOptionViewItem &cell, const QString &text, const QModelIndex &index) const = 0;
    // The text's colour on this cell (the highlighted text on a selected row).
    static QColor textColor(const QStyleOptionViewItem &cell);

private:
    int m_markWidth;
};

} // namespace pd
