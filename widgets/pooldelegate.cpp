// SPDX-License-Identifier: MIT
#include "pooldelegate.h"

#include "cluster/profile.h"
#include "models/modelroles.h"
#include "stateappearance.h"

#include <QPainter>

namespace pd {

namespace {

void paintPool(QPainter *painter, const QStyleOptionViewItem &cell, const QString &text, const QModelIndex &index)
{
    const QVariant pool = index.data(PoolRole);
    if (!pool.isValid()) {
        painter->setPen(CellDelegate::textColor(cell));
        painter->drawText(cell.rect.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(cell.font);
    const int w = fm.horizontalAdvance(text) + 12;
    const QRect tag(cell.rect.left() + 4, cell.rect.center().y() - fm.height() / 2 - 1, w, fm.height() + 2);
    painter->setPen(Qt::NoPen);
    // A tag under white ink: the light palette's colour on both themes, as the severity badges (the
    // lighter dark variants are for lines and text on a dark base).
    painter->setBrush(poolColor(pool.toInt() == int(Role::Prefill) ? Role::Prefill : Role::Decode, false));
    painter->drawRoundedRect(tag, 4, 4);
    painter->setPen(Qt::white);
    painter->drawText(tag, Qt::AlignCenter, text);
}

} // namespace

CellDelegate *newPoolDelegate(QObject *parent)
{
    return new CellDelegate(20, paintPool, parent);
}

} // namespace pd
