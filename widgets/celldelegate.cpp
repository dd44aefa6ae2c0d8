// SPDX-License-Identifier: MIT
#include "celldelegate.h"

#include <QPainter>

namespace pd {

CellDelegate::CellDelegate(int markWidth, CellPainter painter, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_markWidth(markWidth)
    , m_painter(std::move(painter))
{
}

QSize CellDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return { base.width() + m_markWidth, base.height() };
}

void CellDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QString text = cell.text;
    cell.text.clear();
    if (cell.widget)
        cell.widget->style()->drawControl(QStyle::CE_ItemViewItem, &cell, painter, cell.widget);
    painter->save();
    m_painter(painter, cell, text, index);
    painter->restore();
}

QColor CellDelegate::textColor(const QStyleOptionViewItem &cell)
{
    return cell.state & QStyle::State_Selected ? cell.palette.highlightedText().color() : cell.palette.text().color();
}

} // namespace pd
