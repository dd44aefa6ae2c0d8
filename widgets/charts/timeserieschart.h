// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartmarker.h"

#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace pd {

class PlotLinesItem;

// One time-series chart: a title, a few named lines over wall-clock time, breaks where the data has
// NaN gaps, a y axis from 0 to a round maximum, a tooltip with the value under the mouse.
// The only class that knows the chart backend (Qt Charts today): data arrives already decimated by
// the series store; Qt Charts draws axes, title and legend, PlotLinesItem paints the lines.
class TimeSeriesChart final : public QWidget {
    Q_OBJECT
public:
    // `format` turns a stored value into display text (units, scaling).
    using Format = std::function<QString(double)>;

    TimeSeriesChart(const QString &title, Format format, QWidget *parent = nullptr);

    int addLine(const QString &name, const QColor &color);
    // `scale` multiplies stored values for display (1000 for seconds shown as ms, 100 for fractions).
    void setScale(double scale) { m_scale = scale; }
    void setPoints(int line, const QList<QPointF> &points);
    void setTimeRange(qint64 fromMs, qint64 toMs);
    // What was done to the cluster, drawn as dashed vertical lines (the operations' markers).
    void setMarkers(const QList<ChartMarker> &markers);
    int markerCount() const;
    void setTitle(const QString &title);
    // Width of the plot area in pixels: the store decimates to at most two points per column.
    int plotWidth() const;
    QString title() const;
    bool savePng(const QString &path) const;
    int lineCount() const { return int(m_lines.size()); }
    int pointCount(int line) const;
    // The hover text at a fraction (0..1) of the plot's width (what the tooltip shows there).
    QString describeAt(double fraction) const;

private:
    void rescaleY();

    QChart *m_chart;
    QChartView *m_view;
    QDateTimeAxis *m_x;
    QValueAxis *m_y;
    PlotLinesItem *m_plot = nullptr;
    QList<QLineSeries *> m_lines;
    QList<double> m_lineMax;
    Format m_format;
    double m_scale = 1.0;
    double m_fromMs = 0;
    double m_toMs = 1;
};

} // namespace pd
