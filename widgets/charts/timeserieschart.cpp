// SPDX-License-Identifier: MIT
#include "charts/timeserieschart.h"

#include "charts/plotlinesitem.h"

#include <QAction>
#include <QChart>
#include <QFileDialog>
#include <QMessageBox>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace pd {

namespace {

// 1, 2, 5 × 10^k at or above v.
double niceCeiling(double v)
{
    if (!(v > 0))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    for (const double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * magnitude >= v)
            return step * magnitude;
    }
    return 10.0 * magnitude;
}

} // namespace

TimeSeriesChart::TimeSeriesChart(const QString &title, Format format, QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_x(new QDateTimeAxis(m_chart))
    , m_y(new QValueAxis(m_chart))
    , m_format(std::move(format))
{
    m_chart->setTitle(title);
    QFont titleFont = m_chart->titleFont();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->setMargins(QMargins(4, 0, 4, 0));
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->setBackgroundRoundness(0);
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_x->setTickCount(5);
    m_y->setLabelFormat(QStringLiteral("%.4g"));
    m_y->setTickCount(5);
    m_y->setRange(0, 1);
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
    });
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *save = new QAction(tr("Save Chart as PNG…"), this);
    connect(save, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save chart"), m_chart->title() + QStringLiteral(".png"),
                                                          tr("PNG images (*.png)"));
        if (!path.isEmpty() && !savePng(path))
            QMessageBox::warning(this, tr("Save failed"), tr("Could not write %1").arg(path));
    });
    addAction(save);
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
    m_lineMax.append(0.0);
    return m_plot->addLine(name, color);
}

void TimeSeriesChart::setPoints(int line, const QList<QPointF> &points)
{
    if (line < 0 || line >= m_lines.size())
        return;
    double maxValue = 0.0;
    QList<QPointF> shown;
    if (m_scale == 1.0) {
        shown = points;
        for (const QPointF &p : points)
            if (std::isfinite(p.y()))
                maxValue = std::max(maxValue, p.y());
    } else {
        shown.reserve(points.size());
        for (const QPointF &p : points) {
            shown.append(QPointF(p.x(), p.y() * m_scale));
            if (std::isfinite(p.y()))
                maxValue = std::max(maxValue, p.y() * m_scale);
        }
    }
    m_plot->setPoints(line, std::move(shown));
    m_lineMax[line] = maxValue;
    rescaleY();
}

void TimeSeriesChart::rescaleY()
{
    double top = 0.0;
    for (const double m : std::as_const(m_lineMax))
        top = std::max(top, m);
    const double nice = niceCeiling(top * 1.05);
    if (m_y->max() != nice) {
        m_y->setRange(0, nice);
        // Tick labels at 0, 1/4 .. 1 of the top: as many decimals as a quarter of it needs.
        m_y->setLabelFormat(nice >= 40 ? QStringLiteral("%.0f") : nice >= 4 ? QStringLiteral("%.1f") : QStringLiteral("%.3g"));
    }
    m_plot->setRanges(m_fromMs, m_toMs, nice);
}

void TimeSeriesChart::setTimeRange(qint64 fromMs, qint64 toMs)
{
    m_x->setFormat(toMs - fromMs > 6 * 3600 * 1000 ? QStringLiteral("HH:mm") : QStringLiteral("HH:mm:ss"));
    m_x->setRange(QDateTime::fromMSecsSinceEpoch(fromMs), QDateTime::fromMSecsSinceEpoch(toMs));
    m_fromMs = double(fromMs);
    m_toMs = double(toMs);
    m_plot->setRanges(m_fromMs, m_toMs, m_y->max());
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

} // namespace pd
