// SPDX-License-Identifier: MIT
#include "pooldelegate.h"

#include "cluster/profile.h"
#include "models/modelroles.h"
#include "stateappearance.h"

#include <QPainter>

namespace pd {

QColor PoolDelegate::poolColor(int pool)
{
    // A tag under white ink: the light palette's colour on both, as the severity badges (the lighter dark
    // variants are for lines and text on a dark base).
    return pd::poolColor(pool == int(Role::Prefill) ? Role::Prefill : Role::Decode, false);
}

QSize PoolDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {base.width() + 20, base.height()};
}

void PoolDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    opt.widget ? opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget)
               : void();
    const QVariant pool = index.data(PoolRole);
    if (!pool.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(opt.font);
    const int w = fm.horizontalAdvance(text) + 12;
    const QRect tag(opt.rect.left() + 4, opt.rect.center().y() - fm.height() / 2 - 1, w, fm.height() + 2);
    painter->setPen(Qt::NoPen);
    painter->setBrush(poolColor(pool.toInt()));
    painter->drawRoundedRect(tag, 4, 4);
    painter->setPen(Qt::white);
    painter->drawText(tag, Qt::AlignCenter, text);
    painter->restore();
}

} // namespace pd
