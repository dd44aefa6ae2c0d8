// SPDX-License-Identifier: MIT
#include "charts/timeserieschart.h"

#include "charts/chartcolors.h"
#include "charts/plotlinesitem.h"

#include <QAction>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFileDialog>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QMessageBox>
#include <QTimeZone>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

constexpr int kPixelsPerTimeTick = 90; // an HH:mm:ss label and some air
constexpr double kTimeLabelHalfWidth = 24; // px: half an HH:mm label
constexpr int kPixelsPerValueTick = 22; // a line of text and some air

QList<AxisTick> ticksOf(QCategoryAxis *axis) // endValue() is not const in Qt 6.4
{
    QList<AxisTick> ticks;
    const QStringList labels = axis->categoriesLabels();
    for (const QString &label : labels)
        ticks.append({ axis->endValue(label), label });
    return ticks;
}

// Our ticks as the axis' categories, labelled at their values; touched only when they changed. Every
// setStartValue, even to the value it has, makes Qt Charts lay the whole chart out again and set each
// axis label's HTML anew: with 16 charts fed every second that was a fifth of the GUI thread's time.
void showTicks(QCategoryAxis *axis, const QList<AxisTick> &ticks, double min, double max)
{
    // A category ends at its tick; the first starts just below the range (a tick may sit on min).
    const double start = min - (max - min) * 1e-6;
    if (ticksOf(axis) != ticks) {
        const QStringList labels = axis->categoriesLabels();
        for (const QString &label : labels)
            axis->remove(label);
        axis->setStartValue(start);
        for (const AxisTick &tick : ticks)
            axis->append(tick.label, tick.value);
    } else if (axis->startValue() != start) {
        axis->setStartValue(start);
    }
    if (axis->min() != min || axis->max() != max)
        axis->setRange(min, max);
}

QCategoryAxis *newAxis(QChart *chart)
{
    auto *axis = new QCategoryAxis(chart);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setTruncateLabels(false);
    return axis;
}

} // namespace

TimeSeriesChart::TimeSeriesChart(const QString &title, Format format, QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_x(newAxis(m_chart))
    , m_y(newAxis(m_chart))
    , m_format(std::move(format))
    , m_emptyText(tr("no data"))
{
    m_chart->setTitle(title);
    QFont titleFont = m_chart->titleFont();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    // The time axis' labels are painted by PlotLinesItem in this band under the plot (see there why).
    m_chart->setMargins(QMargins(4, 0, 8, timeLabelBand()));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setBackgroundRoundness(0);
    m_y->setRange(0, 1);
    m_x->setRange(0, 1); // fixed: it only keeps the series attached; the time ticks are PlotLinesItem's
    m_x->setLabelsVisible(false);
    m_x->setGridLineVisible(false);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_view->setRenderHint(QPainter::Antialiasing, false);
    m_view->setMinimumHeight(170);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    // Qt Charts draws the frame, axes, title and legend; the data is painted by PlotLinesItem.
    m_plot = new PlotLinesItem([this](double shown) { return m_format(shown / m_scale); });
    m_view->scene()->addItem(m_plot);
    m_plot->setZValue(m_chart->zValue() + 100);
    connect(m_chart, &QChart::plotAreaChanged, this, [this](const QRectF &area) {
        m_plot->setPlotArea(m_chart->mapRectToScene(area));
        // How many ticks fit depends on the plot's size.
        updateTimeTicks();
        rescaleY();
    });
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *save = new QAction(tr("Save Chart as PNG…"), this);
    connect(save, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save chart"), m_chart->title() + QStringLiteral(".png"), tr("PNG images (*.png)"));
        if (!path.isEmpty() && !savePng(path))
            QMessageBox::warning(this, tr("Save failed"), tr("Could not write %1").arg(path));
    });
    addAction(save);
    applyPalette();
    rescaleY();
}

bool TimeSeriesChart::savePng(const QString &path) const
{
    return m_view->grab().save(path, "PNG");
}

int TimeSeriesChart::addLine(const QString &name, const QColor &color)
{
    // An empty series per line gives the legend its marker and keeps the axes attached.
    auto *series = new QLineSeries(m_chart);
    series->setName(name);
    QPen pen(color);
    pen.setWidthF(1.5);
    series->setPen(pen);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_lines.append(series);
    m_lineMax.append(std::numeric_limits<double>::quiet_NaN());
    const int line = m_plot->addLine(name, color);
    applyPalette(); // the legend marker in this theme's shade
    return line;
}

void TimeSeriesChart::setUnit(const QString &unit)
{
    m_unit = unit;
    rescaleY(); // new labels, so the axis' categories are rebuilt
}

void TimeSeriesChart::setMinimumStep(double step)
{
    m_minStep = step;
    rescaleY();
}

void TimeSeriesChart::setPoints(int line, const QList<QPointF> &points)
{
    if (line < 0 || line >= m_lines.size())
        return;
    double maxValue = std::numeric_limits<double>::quiet_NaN();
    QList<QPointF> shown;
    shown.reserve(points.size());
    for (const QPointF &p : points) {
        const double y = p.y() * m_scale;
        shown.append(QPointF(p.x(), y));
        if (std::isfinite(y) && !(y <= maxValue))
            maxValue = y;
    }
    m_plot->setPoints(line, std::move(shown));
    m_lineMax[line] = maxValue;
    rescaleY();
}

double TimeSeriesChart::dataMax() const
{
    double top = std::numeric_limits<double>::quiet_NaN();
    for (const double m : m_lineMax)
        if (std::isfinite(m) && !(m <= top))
            top = m;
    return top;
}

void TimeSeriesChart::setSharedMax(double max)
{
    if (max == m_sharedMax || (std::isnan(max) && std::isnan(m_sharedMax)))
        return;
    m_sharedMax = max;
    rescaleY();
}

void TimeSeriesChart::setEmptyText(const QString &text)
{
    m_emptyText = text;
    rescaleY();
}

void TimeSeriesChart::rescaleY()
{
    const double own = dataMax();
    if (std::isnan(own)) {
        // Nothing to show: no axis pretending a 0-1 range, the plot says why.
        showTicks(m_y, {}, 0, 1);
        m_y->setGridLineVisible(false);
        m_plot->setEmptyText(m_emptyText);
        m_plot->setRanges(m_fromMs, m_toMs, 1);
        return;
    }
    const double top = std::isfinite(m_sharedMax) ? std::max(own, m_sharedMax) : own;
    const double height = m_chart->plotArea().height();
    const int maxTicks = height > 40 ? std::clamp(int(height / kPixelsPerValueTick), 2, 6) : 5;
    const ValueTicks ticks = valueTicks(top, maxTicks, m_unit, numberLocale(locale()), m_minStep);
    showTicks(m_y, ticks.ticks, 0, ticks.top);
    m_y->setGridLineVisible(true);
    m_plot->setEmptyText(QString());
    m_plot->setRanges(m_fromMs, m_toMs, ticks.top);
}

void TimeSeriesChart::setTimeRange(qint64 fromMs, qint64 toMs)
{
    m_fromMs = double(fromMs);
    m_toMs = double(std::max(toMs, fromMs + 1));
    updateTimeTicks();
    m_plot->setRanges(m_fromMs, m_toMs, m_y->max());
}

void TimeSeriesChart::updateTimeTicks()
{
    const int budget = std::clamp(plotWidth() / kPixelsPerTimeTick, 2, 12);
    TimeTicks ticks = timeTicks(qint64(m_fromMs), qint64(m_toMs), budget, QTimeZone::systemTimeZone());
    // A label centred on a tick at the very edge would run into the y labels or out of the chart.
    const double edgeMs = kTimeLabelHalfWidth * (m_toMs - m_fromMs) / plotWidth();
    ticks.ticks.removeIf([&](const AxisTick &t) { return t.value < m_fromMs + edgeMs || t.value > m_toMs - edgeMs; });
    m_plot->setTimeTicks(ticks.ticks, m_y->labelsFont(), timeLabelBand());
}

void TimeSeriesChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    else if (event->type() == QEvent::LocaleChange)
        rescaleY();
    QWidget::changeEvent(event);
}

void TimeSeriesChart::applyPalette()
{
    const ChartColors colors = ChartColors::fromPalette(palette());
    m_chart->setBackgroundBrush(colors.background);
    m_chart->setPlotAreaBackgroundVisible(false);
    m_chart->setTitleBrush(colors.text);
    m_chart->legend()->setLabelColor(colors.text);
    m_view->setBackgroundBrush(colors.background);
    for (QCategoryAxis *axis : { m_x, m_y }) {
        axis->setLabelsColor(colors.text);
        axis->setGridLineColor(colors.grid);
        axis->setLinePenColor(colors.axis);
    }
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        QPen pen = m_lines.at(i)->pen();
        pen.setColor(colors.lineOn(m_plot->lineColor(int(i))));
        m_lines.at(i)->setPen(pen);
    }
    m_plot->setColors(colors);
}

void TimeSeriesChart::setMarkers(const QList<ChartMarker> &markers)
{
    m_plot->setMarkers(markers);
}

int TimeSeriesChart::markerCount() const
{
    return m_plot->markerCount();
}

void TimeSeriesChart::setTitle(const QString &title)
{
    m_chart->setTitle(title);
}

QString TimeSeriesChart::title() const
{
    return m_chart->title();
}

int TimeSeriesChart::plotWidth() const
{
    const int w = int(m_chart->plotArea().width());
    return w > 10 ? w : std::max(100, width() - 60);
}

int TimeSeriesChart::pointCount(int line) const
{
    return m_plot->pointCount(line);
}

QString TimeSeriesChart::describeAt(double fraction) const
{
    const QRectF area = m_plot->boundingRect();
    return m_plot->describeAt(area.left() + fraction * area.width());
}

QList<AxisTick> TimeSeriesChart::xTicks() const
{
    return m_plot->timeTicks();
}

int TimeSeriesChart::timeLabelBand() const
{
    return QFontMetrics(m_y->labelsFont()).height() + 4;
}

QList<AxisTick> TimeSeriesChart::yTicks() const
{
    return ticksOf(m_y);
}

double TimeSeriesChart::yTop() const
{
    return m_y->max();
}

QString TimeSeriesChart::shownEmptyText() const
{
    return m_plot->emptyText();
}

} // namespace pd
