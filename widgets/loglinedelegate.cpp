// SPDX-License-Identifier: MIT
#include "loglinedelegate.h"

#include "apptheme.h"
#include "logs/logsignatures.h"
#include "logs/logtailmodel.h"
#include "stateappearance.h"

#include <QPainter>

namespace pd {

QColor LogLineDelegate::severityColor(int severity)
{
    const bool dark = isDarkTheme();
    switch (severity) {
    case int(LogSeverity::Critical):
        return severityInk(ProblemSeverity::Critical, dark);
    case int(LogSeverity::Error):
        return severityInk(ProblemSeverity::Error, dark);
    case int(LogSeverity::Warning):
        return severityInk(ProblemSeverity::Warning, dark);
    default:
        return toneInk(Tone::Muted, dark);
    }
}

QSize LogLineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    return { option.fontMetrics.horizontalAdvance(index.data().toString()) + 24, option.fontMetrics.height() + 2 };
}

void LogLineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const int sig = index.data(LogTailModel::SignatureRole).toInt();
    const bool error = index.data(LogTailModel::ErrorRole).toBool();
    const int severity = index.data(LogTailModel::SeverityRole).toInt();
    const bool selected = option.state & QStyle::State_Selected;
    painter->save();
    const QRect r = option.rect;
    QColor band = Qt::transparent;
    if (sig > 0) {
        band = severityColor(severity);
        band.setAlpha(45);
    }
    painter->fillRect(
        r, selected ? option.palette.highlight().color() : (sig > 0 ? band : option.palette.base().color()));
    const int m = r.height() - 6;
    const QRect marker(r.left() + 4, r.top() + 3, m, m);
    painter->setRenderHint(QPainter::Antialiasing);
    if (sig > 0) { // a diamond for a known signature
        painter->setPen(Qt::NoPen);
        painter->setBrush(severityColor(severity));
        const QPointF c = QRectF(marker).center();
        const qreal h = m / 2.0;
        const QPointF pts[4]
            = { { c.x(), c.y() - h }, { c.x() + h, c.y() }, { c.x(), c.y() + h }, { c.x() - h, c.y() } };
        painter->drawPolygon(pts, 4);
    } else if (error) { // a bar for any other error line
        painter->fillRect(
            QRect(marker.left() + m / 3, marker.top(), qMax(2, m / 3), m), severityColor(int(LogSeverity::Error)));
    }
    painter->setPen(selected
            ? option.palette.highlightedText().color()
            : (error && sig == 0 ? severityColor(int(LogSeverity::Error)) : option.palette.text().color()));
    painter->setFont(option.font);
    painter->drawText(r.adjusted(m + 10, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, index.data().toString());
    painter->restore();
}

} // namespace pd
