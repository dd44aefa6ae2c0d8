// SPDX-License-Identifier: MIT
#include "soakplot.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWidget>

#include <algorithm>

namespace soak {

namespace {

QLineSeries *line(const QString &name, const QList<QPointF> &points)
{
    auto *s = new QLineSeries;
    s->setName(name);
    s->append(points);
    return s;
}

// One chart: the series on a shared minutes axis and a value axis from 0 to a little over their top.
QChartView *chartOf(
    const QString &title, const QString &unit, const QList<QXYSeries *> &series, double minMinute, double maxMinute)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    auto *x = new QValueAxis;
    x->setRange(minMinute, maxMinute);
    x->setTitleText(QStringLiteral("minutes"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(maxMinute - minMinute > 30 ? 10 : 1);
    auto *y = new QValueAxis;
    y->setTitleText(unit);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 1;
    for (QXYSeries *s : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        for (const QPointF &p : s->points())
            top = std::max(top, p.y());
    }
    y->setRange(0, top * 1.1);
    y->applyNiceNumbers();
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

} // namespace

bool plotSoak(const QList<SamplePoint> &points, const QList<FaultMark> &faults, const QString &pngPath)
{
    if (points.isEmpty())
        return false;
    QList<QPointF> rss, series, stall, limit, failed;
    for (const SamplePoint &p : points) {
        rss.append({ p.minute, p.rssMiB });
        series.append({ p.minute, p.seriesMiB });
        stall.append({ p.minute, p.stallMs });
        failed.append({ p.minute, p.pollsFailed });
    }
    const double minMinute = points.first().minute, maxMinute = points.last().minute;
    limit = { { minMinute, 50.0 }, { maxMinute, 50.0 } };
    auto *marks = new QScatterSeries;
    marks->setName(QStringLiteral("fault injected"));
    marks->setMarkerSize(7);
    for (const FaultMark &f : faults)
        marks->append(f.minute, 0);

    QWidget page;
    auto *layout = new QVBoxLayout(&page);
    layout->addWidget(chartOf(QStringLiteral("console memory"), QStringLiteral("MiB"),
        { line(QStringLiteral("RSS"), rss), line(QStringLiteral("series store"), series) }, minMinute, maxMinute));
    layout->addWidget(chartOf(QStringLiteral("longest GUI stall per 10 s"), QStringLiteral("ms"),
        { line(QStringLiteral("stall max"), stall), line(QStringLiteral("50 ms limit"), limit) }, minMinute,
        maxMinute));
    layout->addWidget(chartOf(QStringLiteral("polls failed per 10 s (faults marked)"), QStringLiteral("polls"),
        { line(QStringLiteral("failed"), failed), marks }, minMinute, maxMinute));
    page.resize(1400, 1200);
    page.show();
    return page.grab().save(pngPath);
}

} // namespace soak
