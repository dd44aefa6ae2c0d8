// SPDX-License-Identifier: MIT
#include "statusdelegate.h"

#include "apptheme.h"
#include "models/modelroles.h"
#include "net/polltypes.h"
#include "stateappearance.h"

#include <QPainter>

#include <algorithm>

namespace pd {

QColor StatusDelegate::statusColor(int pollStatus, bool healthy)
{
    if (pollStatus < 0)
        return toneInk(Tone::Absent); // never polled
    switch (PollStatus(pollStatus)) {
    case PollStatus::Ok:
        return toneInk(healthy ? Tone::Good : Tone::Bad);
    case PollStatus::Refused:
        return toneInk(Tone::Muted);
    case PollStatus::Timeout:
        return toneInk(Tone::Caution);
    case PollStatus::HttpError:
    case PollStatus::Malformed:
    case PollStatus::Failed:
        return toneInk(Tone::Bad);
    }
    return toneInk(Tone::Muted);
}

QSize StatusDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {base.width() + 18, base.height()};
}

void StatusDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    if (opt.widget)
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const QVariant derived = index.data(EngineStateRole);
    if (derived.isValid()) { // the derived state: its colour and glyph
        const auto state = EngineState(derived.toInt());
        painter->save();
        // The painted glyph in the state's mark colour (stateappearance.h), then the words.
        const int g = std::max(8, opt.fontMetrics.height() - 4);
        const int w = g + 8;
        const QColor mark = stateMark(state, isDark(opt.palette));
        drawStateGlyph(*painter, state, QRectF(opt.rect.left() + 4 + (w - g) / 2.0, opt.rect.center().y() - g / 2.0 + 0.5, g, g), mark);
        painter->setFont(opt.font);
        painter->setPen(opt.state & QStyle::State_Selected ? opt.palette.highlightedText().color() : opt.palette.text().color());
        painter->drawText(opt.rect.adjusted(w + 6, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        painter->restore();
        return;
    }
    const int status = index.data(PollStatusRole).isValid() ? index.data(PollStatusRole).toInt() : -1;
    const QColor color = statusColor(status, index.data(HealthyRole).toBool());
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const int d = opt.fontMetrics.height() - 6;
    const QRect dot(opt.rect.left() + 5, opt.rect.center().y() - d / 2, d, d);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    // Square for failures, circle for serving: a shape cue as well as a colour.
    if (status == int(PollStatus::Ok) && index.data(HealthyRole).toBool())
        painter->drawEllipse(dot);
    else
        painter->drawRect(dot);
    painter->setPen(opt.state & QStyle::State_Selected ? opt.palette.highlightedText().color() : opt.palette.text().color());
    painter->drawText(opt.rect.adjusted(d + 10, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    painter->restore();
}

} // namespace pd
