// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartcolors.h"
#include "charts/chartmarker.h"
#include "metrics/niceaxis.h"

#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QList>
#include <QPointF>
#include <QString>

#include <functional>

namespace pd {

// The data lines of a TimeSeriesChart, painted with QPainter::drawPolyline over the chart's plot area.
// Qt Charts (6.4) strokes every line into a QPainterPath on every update to build its hover shape:
// measured at 80 % of a Pools view frame with 32 lines of 1,200 points. Here the chart keeps axes,
// title and legend; this item maps the already-decimated points itself and paints them, breaking the
// line at NaN. Hovering shows every line's value at the time under the mouse.
class PlotLinesItem final : public QGraphicsObject {
    Q_OBJECT
public:
    using Format = std::function<QString(double)>;

    explicit PlotLinesItem(Format format, QGraphicsItem *parent = nullptr);

    int addLine(const QString &name, const QColor &color);
    QColor lineColor(int line) const { return line >= 0 && line < m_lines.size() ? m_lines.at(line).color : QColor(); }
    void setPoints(int line, QList<QPointF> points); // x: ms since the epoch; y: display value
    int pointCount(int line) const;
    // Vertical lines with a small flag at the top; the hover text names those near the mouse.
    void setMarkers(QList<ChartMarker> markers);
    int markerCount() const { return int(m_markers.size()); }

    // The time axis: a grid line up the plot and a label under it at each tick, in a band of
    // `labelHeight` below the plot area. Drawn here rather than by a Qt Charts axis: a Qt axis whose range
    // moves re-lays out the chart and sets every label's HTML again, every second (Qt 6.4 keeps memory
    // from each QTextDocument::setHtml: ~1 MB a minute over the Pools view's 16 charts).
    void setTimeTicks(QList<AxisTick> ticks, const QFont &font, double labelHeight);
    const QList<AxisTick> &timeTicks() const { return m_ticks; }

    // The plot area (scene coordinates) and what it spans.
    void setPlotArea(const QRectF &area);
    void setRanges(double fromMs, double toMs, double yMax);
    // The theme's colours (lines are lifted on a dark background, see ChartColors::lineOn).
    void setColors(const ChartColors &colors);
    // Drawn in the middle of the plot instead of lines (empty: nothing); "no data", or why not.
    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    // Text for the hover tooltip at scene x (exposed for tests).
    QString describeAt(double sceneX) const;

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override;

private:
    struct Line {
        QString name;
        QColor color;
        QList<QPointF> points;
    };
    void paintTimeTicks(QPainter *painter) const;
    double toSceneX(double ms) const;
    double toSceneY(double value) const;

    QList<Line> m_lines;
    QList<ChartMarker> m_markers;
    QList<AxisTick> m_ticks;
    QFont m_tickFont;
    double m_labelHeight = 0;
    QRectF m_area;
    double m_from = 0, m_to = 1, m_yMax = 1;
    Format m_format;
    ChartColors m_colors;
    QString m_emptyText;
};

} // namespace pd
