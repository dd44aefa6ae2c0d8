// SPDX-License-Identifier: MIT
#include "charts/plotlinesitem.h"

#include <QDateTime>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QToolTip>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>

namespace pd {

PlotLinesItem::PlotLinesItem(Format format, QGraphicsItem *parent)
    : QGraphicsObject(parent)
    , m_format(std::move(format))
{
    setAcceptHoverEvents(true);
    setFlag(QGraphicsItem::ItemClipsToShape, false);
}

int PlotLinesItem::addLine(const QString &name, const QColor &color)
{
    m_lines.append(Line { name, color, {} });
    return int(m_lines.size()) - 1;
}

void PlotLinesItem::setPoints(int line, QList<QPointF> points)
{
    if (line < 0 || line >= m_lines.size())
        return;
    m_lines[line].points = std::move(points);
    update();
}

int PlotLinesItem::pointCount(int line) const
{
    return line >= 0 && line < m_lines.size() ? int(m_lines.at(line).points.size()) : 0;
}

void PlotLinesItem::setPlotArea(const QRectF &area)
{
    if (area == m_area)
        return;
    prepareGeometryChange();
    m_area = area;
    update();
}

void PlotLinesItem::setRanges(double fromMs, double toMs, double yMax)
{
    m_from = fromMs;
    m_to = toMs > fromMs ? toMs : fromMs + 1;
    m_yMax = yMax > 0 ? yMax : 1;
    update();
}

void PlotLinesItem::setColors(const ChartColors &colors)
{
    m_colors = colors;
    update();
}

void PlotLinesItem::setEmptyText(const QString &text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    update();
}

void PlotLinesItem::setTimeTicks(QList<AxisTick> ticks, const QFont &font, double labelHeight)
{
    if (ticks == m_ticks && font == m_tickFont && labelHeight == m_labelHeight)
        return;
    if (labelHeight != m_labelHeight)
        prepareGeometryChange();
    m_ticks = std::move(ticks);
    m_tickFont = font;
    m_labelHeight = labelHeight;
    update();
}

QRectF PlotLinesItem::boundingRect() const
{
    return m_area.adjusted(0, 0, 0, m_labelHeight);
}

double PlotLinesItem::toSceneX(double ms) const
{
    return m_area.left() + (ms - m_from) / (m_to - m_from) * m_area.width();
}

double PlotLinesItem::toSceneY(double value) const
{
    return m_area.bottom() - value / m_yMax * m_area.height();
}

void PlotLinesItem::paintTimeTicks(QPainter *painter) const
{
    painter->setFont(m_tickFont);
    for (const AxisTick &tick : m_ticks) {
        if (tick.value < m_from || tick.value > m_to)
            continue;
        const double x = std::round(toSceneX(tick.value)) + 0.5;
        painter->setPen(QPen(m_colors.grid, 1));
        painter->drawLine(QPointF(x, m_area.top()), QPointF(x, m_area.bottom()));
        painter->setPen(m_colors.text);
        painter->drawText(
            QRectF(x - 60, m_area.bottom() + 2, 120, m_labelHeight - 2), Qt::AlignHCenter | Qt::AlignTop, tick.label);
    }
}

void PlotLinesItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    if (m_area.isEmpty())
        return;
    painter->save();
    paintTimeTicks(painter);
    painter->setClipRect(m_area.adjusted(0, -1, 0, 1));
    painter->setRenderHint(QPainter::Antialiasing, false);
    if (!m_emptyText.isEmpty()) {
        painter->setPen(m_colors.placeholder);
        painter->drawText(m_area, Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    }
    QVarLengthArray<QPointF, 2048> run;
    // The first line (a row's headline figure: running, all reasons, p50) last, on top of the others.
    for (auto it = m_lines.crbegin(); it != m_lines.crend(); ++it) {
        const Line &line = *it;
        // A cosmetic one-pixel pen: the raster engine draws it without a stroker (a 1.5 px pen is
        // stroked into a path per polyline, two orders of magnitude slower).
        QPen pen(m_colors.lineOn(line.color), 1);
        pen.setCosmetic(true);
        painter->setPen(pen);
        run.clear();
        auto flush = [&] {
            if (run.size() == 1)
                painter->drawPoint(run.front());
            else if (run.size() > 1)
                painter->drawPolyline(run.constData(), int(run.size()));
            run.clear();
        };
        for (const QPointF &p : line.points) {
            if (!std::isfinite(p.y())) {
                flush();
                continue;
            }
            run.append(QPointF(toSceneX(p.x()), toSceneY(p.y())));
        }
        flush();
    }
    for (const ChartMarker &m : std::as_const(m_markers)) {
        if (m.ms < m_from || m.ms > m_to)
            continue;
        const double x = std::round(toSceneX(m.ms)) + 0.5;
        QPen pen(m_colors.lineOn(m.color), 1, Qt::DashLine);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLine(QPointF(x, m_area.top()), QPointF(x, m_area.bottom()));
        const QPointF flag[3] = { { x, m_area.top() }, { x + 5, m_area.top() + 3 }, { x, m_area.top() + 6 } };
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_colors.lineOn(m.color));
        painter->drawPolygon(flag, 3);
    }
    painter->restore();
}

void PlotLinesItem::setMarkers(QList<ChartMarker> markers)
{
    m_markers = std::move(markers);
    update();
}

QString PlotLinesItem::describeAt(double sceneX) const
{
    if (m_area.isEmpty() || sceneX < m_area.left() || sceneX > m_area.right())
        return {};
    const double ms = m_from + (sceneX - m_area.left()) / m_area.width() * (m_to - m_from);
    QStringList parts;
    // Before a line's first point or after its last (by more than a few pixels) it has no value.
    const double slack = 4 * (m_to - m_from) / std::max(1.0, m_area.width());
    for (const Line &line : m_lines) {
        if (line.points.isEmpty())
            continue;
        if (ms < line.points.first().x() - slack || ms > line.points.last().x() + slack) {
            parts.append(QStringLiteral("%1: %2").arg(line.name, tr("no data")));
            continue;
        }
        const auto it = std::lower_bound(
            line.points.cbegin(), line.points.cend(), ms, [](const QPointF &p, double x) { return p.x() < x; });
        // The nearer of the two neighbours.
        auto best = it;
        if (best == line.points.cend() || (best != line.points.cbegin() && ms - std::prev(best)->x() < best->x() - ms))
            best = std::prev(best);
        parts.append(
            QStringLiteral("%1: %2").arg(line.name, std::isfinite(best->y()) ? m_format(best->y()) : tr("no data")));
    }
    // Markers within a few pixels of the mouse.
    QStringList near;
    for (const ChartMarker &m : m_markers) {
        if (std::abs(m.ms - ms) <= slack)
            near.append(QDateTime::fromMSecsSinceEpoch(qint64(m.ms)).toString(QStringLiteral("HH:mm:ss ")) + m.label);
    }
    if (parts.isEmpty() && near.isEmpty())
        return {};
    const QString when = QDateTime::fromMSecsSinceEpoch(qint64(ms)).toString(QStringLiteral("HH:mm:ss"));
    QString text = parts.isEmpty() ? when : when + QStringLiteral(" — ") + parts.join(QStringLiteral(", "));
    for (const QString &line : std::as_const(near))
        text += QStringLiteral("\n▸ ") + line;
    return text;
}

void PlotLinesItem::hoverMoveEvent(QGraphicsSceneHoverEvent *event)
{
    const QString text = describeAt(event->scenePos().x());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text);
}

void PlotLinesItem::hoverLeaveEvent(QGraphicsSceneHoverEvent *)
{
    QToolTip::hideText();
}

} // namespace pd
