// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

#include <functional>

namespace pd {

// Paints a cell's mark and text; called between the painter's save() and restore(), with the style's
// font, palette and rectangle in `cell` and what the model displays in `text`.
using CellPainter = std::function<void(
    QPainter *painter, const QStyleOptionViewItem &cell, const QString &text, const QModelIndex &index)>;

// A table cell drawn by hand over what the style draws for it (alternate rows, selection, focus),
// given `markWidth` pixels more than its text needs.
class CellDelegate final : public QStyledItemDelegate {
public:
    CellDelegate(int markWidth, CellPainter painter, QObject *parent);
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The text's colour on a cell (the highlighted text on a selected row).
    static QColor textColor(const QStyleOptionViewItem &cell);

private:
    int m_markWidth;
    CellPainter m_painter;
};

} // namespace pd
