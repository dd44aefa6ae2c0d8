// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartmarker.h"
#include "metrics/niceaxis.h"

#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>
#include <limits>

class QCategoryAxis;
class QChart;
class QChartView;
class QLineSeries;

namespace pd {

class PlotLinesItem;

// One time-series chart: a title, a few named lines over wall-clock time, breaks where the data has
// NaN gaps, a tooltip with the value under the mouse.
// Axes (arithmetic in core/metrics/niceaxis): y from 0 to a 1-2-5 step top with SI-suffixed, localised
// labels and the unit; x the set time range with ticks at round wall-clock times (local zone). A
// chart with no value to show says so ("no data", or setEmptyText()) instead of drawing a 0-1 axis.
// Colours follow the palette (light and dark themes).
// The only class that knows the chart backend (Qt Charts today): data arrives already decimated by
// the series store; Qt Charts draws title, legend and the axes' labels and grid (QCategoryAxis with
// our ticks), PlotLinesItem paints the lines.
class TimeSeriesChart final : public QWidget {
    Q_OBJECT
public:
    // `format` turns a stored value into display text (units, scaling) for the hover text.
    using Format = std::function<QString(double)>;

    TimeSeriesChart(const QString &title, Format format, QWidget *parent = nullptr);

    int addLine(const QString &name, const QColor &color);
    // `scale` multiplies stored values for display (1000 for seconds shown as ms, 100 for fractions).
    void setScale(double scale) { m_scale = scale; }
    // The unit on the y tick labels ("ms", "%", "tok/s"); empty for counts.
    void setUnit(const QString &unit);
    // Counts (requests, instances) tick on whole numbers: 1.
    void setMinimumStep(double step);
    void setPoints(int line, const QList<QPointF> &points);
    void setTimeRange(qint64 fromMs, qint64 toMs);
    // Charts of the same quantity side by side share a y axis: the axis reaches at least this
    // (display units; NaN: only this chart's data counts).
    void setSharedMax(double max);
    // The largest value shown (display units) over all lines; NaN when no line has a value.
    double dataMax() const;
    // What the plot says when no line has a value (default "no data").
    void setEmptyText(const QString &text);
    // What was done to the cluster, drawn as dashed vertical lines (the operations' markers).
    void setMarkers(const QList<ChartMarker> &markers);
    int markerCount() const;
    void setTitle(const QString &title);
    // Width of the plot area in pixels: the store decimates to at most two points per column.
    int plotWidth() const;
    int timeLabelBand() const; // px under the plot for the time labels
    QString title() const;
    bool savePng(const QString &path) const;
    int pointCount(int line) const;
    // The hover text at a fraction (0..1) of the plot's width (what the tooltip shows there).
    QString describeAt(double fraction) const;
    // What the axes show: tick positions and labels as drawn (empty y ticks while there is no data),
    // and the placeholder text drawn in the plot (empty while lines are drawn).
    QList<AxisTick> xTicks() const;
    QList<AxisTick> yTicks() const;
    double yTop() const;
    double rangeFromMs() const { return m_fromMs; }
    double rangeToMs() const { return m_toMs; }
    QString shownEmptyText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void rescaleY();
    void updateTimeTicks();
    void applyPalette();

    QChart *m_chart;
    QChartView *m_view;
    QCategoryAxis *m_x;
    QCategoryAxis *m_y;
    PlotLinesItem *m_plot = nullptr;
    QList<QLineSeries *> m_lines;
    QList<double> m_lineMax; // NaN: no value
    Format m_format;
    QString m_unit;
    QString m_emptyText;
    double m_scale = 1.0;
    double m_minStep = 0.0;
    double m_sharedMax = std::numeric_limits<double>::quiet_NaN();
    double m_fromMs = 0;
    double m_toMs = 1;
};

} // namespace pd
