// SPDX-License-Identifier: MIT
#include "statusdelegate.h"

#include "apptheme.h"
#include "models/modelroles.h"
#include "net/polltypes.h"
#include "stateappearance.h"

#include <QPainter>

#include <algorithm>

namespace pd {

namespace {

// The marker of an engine without a derived state: its last poll's outcome.
QColor statusColor(int pollStatus, bool healthy)
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

void paintStatus(QPainter *painter, const QStyleOptionViewItem &opt, const QString &text, const QModelIndex &index)
{
    const QVariant derived = index.data(EngineStateRole);
    if (derived.isValid()) { // the derived state: its colour and glyph
        const auto state = EngineState(derived.toInt());
        // The painted glyph in the state's mark colour (stateappearance.h), then the words.
        const int g = std::max(8, opt.fontMetrics.height() - 4);
        const int w = g + 8;
        const QColor mark = stateMark(state, isDark(opt.palette));
        drawStateGlyph(*painter, state, QRectF(opt.rect.left() + 4 + (w - g) / 2.0, opt.rect.center().y() - g / 2.0 + 0.5, g, g), mark);
        painter->setFont(opt.font);
        painter->setPen(CellDelegate::textColor(opt));
        painter->drawText(opt.rect.adjusted(w + 6, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        return;
    }
    const int status = index.data(PollStatusRole).isValid() ? index.data(PollStatusRole).toInt() : -1;
    const QColor color = statusColor(status, index.data(HealthyRole).toBool());
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
    painter->setPen(CellDelegate::textColor(opt));
    painter->drawText(opt.rect.adjusted(d + 10, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

} // namespace

CellDelegate *newStatusDelegate(QObject *parent)
{
    return new CellDelegate(18, paintStatus, parent);
}

} // namespace pd
