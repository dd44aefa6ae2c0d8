// SPDX-License-Identifier: MIT
// The chart the dashboards are made of: lines painted over Qt Charts' axes, breaks at NaN, a y axis
// from 0 to a round top, hover text with every line's value at the time under the mouse.
#include "apptheme.h"
#include "charts/timeserieschart.h"

#include <QDateTime>
#include <QImage>
#include <QPainter>
#include <QTest>

#include <cmath>

using namespace pd;

namespace {

constexpr qint64 kFrom = 1'700'000'000'000;
const QColor kRed(220, 0, 0);
const QColor kBlue(0, 0, 220);

QStringList labelsOf(const QList<AxisTick> &ticks)
{
    QStringList out;
    for (const AxisTick &t : ticks)
        out.append(t.label);
    return out;
}

double meanLightness(const QImage &image)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5, ++n)
            sum += QColor(image.pixel(x, y)).lightnessF();
    return n ? sum / n : 0;
}

QImage rendered(QWidget &widget)
{
    QImage image(widget.size(), QImage::Format_RGB32);
    image.fill(Qt::magenta);
    QPainter painter(&image);
    widget.render(&painter);
    return image;
}

// Columns of the image where some pixel has exactly this colour.
// (from row fromY down: the legend's markers sit above the plot)
QList<int> columnsWith(const QImage &image, const QColor &color, int fromY = 0)
{
    QList<int> columns;
    const QRgb wanted = color.rgb();
    for (int x = 0; x < image.width(); ++x) {
        for (int y = fromY; y < image.height(); ++y) {
            if ((image.pixel(x, y) & 0xffffff) == (wanted & 0xffffff)) {
                columns.append(x);
                break;
            }
        }
    }
    return columns;
}

} // namespace

class TestTimeSeriesChart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void paintsLinesWithBreaksAndDescribesValues()
    {
        TimeSeriesChart chart(QStringLiteral("Requests"), [](double v) { return QStringLiteral("%1 req").arg(v); });
        chart.resize(800, 300);
        const int red = chart.addLine(QStringLiteral("running"), kRed);
        const int blue = chart.addLine(QStringLiteral("waiting"), kBlue);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));

        // 100 s of data; the red line has a gap from 40 s to 60 s.
        QList<QPointF> running, waiting;
        for (int s = 0; s <= 100; ++s) {
            const double x = double(kFrom + s * 1000);
            running.append(QPointF(x, s >= 40 && s < 60 ? std::nan("") : 30.0));
            waiting.append(QPointF(x, 5.0));
        }
        chart.setTimeRange(kFrom, kFrom + 100'000);
        chart.setPoints(red, running);
        chart.setPoints(blue, waiting);
        QCOMPARE(chart.pointCount(red), 101);
        QCOMPARE(chart.pointCount(blue), 101);

        QImage image(chart.size(), QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            chart.render(&painter);
        }
        const QList<int> redColumns = columnsWith(image, kRed);
        const QList<int> blueColumns = columnsWith(image, kBlue);
        QVERIFY2(blueColumns.size() > 300, qPrintable(QString::number(blueColumns.size())));
        // The red line spans the plot minus the gap: some blue columns in the middle have no red.
        const int left = blueColumns.first();
        const int right = blueColumns.last();
        const int gapStart = left + (right - left) * 42 / 100;
        const int gapEnd = left + (right - left) * 58 / 100;
        for (int x = gapStart; x <= gapEnd; ++x)
            QVERIFY2(!redColumns.contains(x), qPrintable(QStringLiteral("red drawn in the gap at x=%1").arg(x)));
        QVERIFY(redColumns.contains(left + (right - left) / 10));
        QVERIFY(redColumns.contains(left + (right - left) * 9 / 10));

        // Hover: both values at 20 s; "no data" for the red line inside its gap.
        const QString early = chart.describeAt(0.2);
        QVERIFY2(early.contains(QStringLiteral("running: 30 req")) && early.contains(QStringLiteral("waiting: 5 req")),
            qPrintable(early));
        const QString inGap = chart.describeAt(0.5);
        QVERIFY2(inGap.contains(QStringLiteral("running: no data")), qPrintable(inGap));
        QVERIFY(chart.describeAt(-0.5).isEmpty());
    }

    void scaledValuesAreShownScaledAndDescribedInStoredUnits()
    {
        // Stored in seconds, shown in ms: the tooltip formats the stored value.
        TimeSeriesChart chart(
            QStringLiteral("TTFT"), [](double seconds) { return QStringLiteral("%1 s").arg(seconds); });
        chart.setScale(1000);
        chart.resize(600, 250);
        const int line = chart.addLine(QStringLiteral("p99"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 10'000);
        chart.setPoints(line, { QPointF(double(kFrom), 0.25), QPointF(double(kFrom + 10'000), 0.25) });
        const QString text = chart.describeAt(0.0);
        QVERIFY2(text.contains(QStringLiteral("p99: 0.25 s")), qPrintable(text));
    }

    void emptyAndOutOfRangeLinesAreHarmless()
    {
        TimeSeriesChart chart(QStringLiteral("Empty"), [](double v) { return QString::number(v); });
        chart.resize(400, 200);
        const int line = chart.addLine(QStringLiteral("x"), kRed);
        chart.setPoints(line, {});
        chart.setPoints(7, { QPointF(1, 1) }); // no such line: ignored
        QCOMPARE(chart.pointCount(line), 0);
        QCOMPARE(chart.pointCount(7), 0);
        QImage image(chart.size(), QImage::Format_RGB32);
        QPainter painter(&image);
        chart.render(&painter);
    }

    void axesTickOnRoundValuesAndWallClockTimes()
    {
        TimeSeriesChart chart(QStringLiteral("Tokens"), [](double v) { return QString::number(v); });
        chart.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
        chart.setUnit(QStringLiteral("tok/s"));
        chart.resize(800, 300);
        const int line = chart.addLine(QStringLiteral("prompt"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        // A live window ends on odd seconds; 3,800 tok/s at most.
        const qint64 to = kFrom + 7'400;
        const qint64 from = to - 5 * 60'000;
        chart.setTimeRange(from, to);
        chart.setPoints(line, { QPointF(double(to - 60'000), 1200), QPointF(double(to - 1000), 3800) });
        QCoreApplication::processEvents();
        QCOMPARE(labelsOf(chart.yTicks()),
            (QStringList { QStringLiteral("0 tok/s"), QStringLiteral("1k tok/s"), QStringLiteral("2k tok/s"),
                QStringLiteral("3k tok/s"), QStringLiteral("4k tok/s") }));
        QCOMPARE(chart.yTop(), 4000.0);
        // Time ticks: every minute on the minute, labelled as the wall clock reads.
        const QList<AxisTick> x = chart.xTicks();
        QVERIFY2(x.size() >= 3, qPrintable(labelsOf(x).join(QLatin1Char('|'))));
        for (qsizetype i = 0; i < x.size(); ++i) {
            const qint64 ms = qint64(x.at(i).value);
            QVERIFY(ms >= from && ms <= to);
            QCOMPARE(ms % 60'000, 0);
            QCOMPARE(x.at(i).label, QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm")));
            if (i > 0)
                QCOMPARE(ms - qint64(x.at(i - 1).value), qint64(60'000));
        }
        // A tick on the range's first millisecond is left out: its label would sit on the y labels.
        chart.setTimeRange(kFrom - kFrom % 60'000, kFrom - kFrom % 60'000 + 5 * 60'000 + 30'000);
        QVERIFY(!chart.xTicks().isEmpty());
        QVERIFY(chart.xTicks().first().value > double(kFrom - kFrom % 60'000));
        chart.setTimeRange(from, to);
        // The chart slides a second: same ticks; an hour: ticks every 10 or 15 minutes.
        chart.setTimeRange(from + 1000, to + 1000);
        QCOMPARE(chart.xTicks(), x);
        chart.setTimeRange(to - 3600'000, to);
        const qint64 step = qint64(chart.xTicks().at(1).value - chart.xTicks().at(0).value);
        QVERIFY2(step == 600'000 || step == 900'000, qPrintable(QString::number(step)));
    }

    void anEmptyChartSaysNoDataInsteadOfAnAxis()
    {
        TimeSeriesChart chart(QStringLiteral("Empty"), [](double v) { return QString::number(v); });
        chart.resize(600, 250);
        const int line = chart.addLine(QStringLiteral("x"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 60'000);
        QCOMPARE(chart.shownEmptyText(), QStringLiteral("no data"));
        QVERIFY(chart.yTicks().isEmpty());
        chart.setPoints(line, { QPointF(double(kFrom), std::nan("")), QPointF(double(kFrom + 1000), std::nan("")) });
        QCOMPARE(chart.shownEmptyText(), QStringLiteral("no data"));
        QVERIFY(chart.yTicks().isEmpty());
        chart.setEmptyText(QStringLiteral("not reported by this version"));
        QCOMPARE(chart.shownEmptyText(), QStringLiteral("not reported by this version"));
        // A zero is a value: an axis, no placeholder.
        chart.setPoints(line, { QPointF(double(kFrom), 0.0) });
        QVERIFY(chart.shownEmptyText().isEmpty());
        QCOMPARE(chart.yTicks().first().label, QStringLiteral("0"));
    }

    void lessDataThanTheRangeSitsWhereItHappened()
    {
        TimeSeriesChart chart(QStringLiteral("Recent"), [](double v) { return QString::number(v); });
        chart.resize(800, 300);
        const int line = chart.addLine(QStringLiteral("x"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        // The last 30 s of a 5 min window hold data.
        const qint64 to = kFrom + 300'000;
        QList<QPointF> points;
        for (int s = 270; s <= 300; ++s)
            points.append(QPointF(double(kFrom + s * 1000), 10));
        chart.setTimeRange(kFrom, to);
        chart.setPoints(line, points);
        chart.setSharedMax(20); // the line mid-height, away from the legend's marker
        const QList<int> red = columnsWith(rendered(chart), kRed, chart.height() / 3);
        QVERIFY(!red.isEmpty());
        QVERIFY2(red.first() > chart.width() * 8 / 10, qPrintable(QString::number(red.first())));
        QVERIFY(chart.describeAt(0.2).contains(QStringLiteral("x: no data")));
        QVERIFY(chart.describeAt(0.97).contains(QStringLiteral("x: 10")));
    }

    void theFirstLineIsDrawnOnTop()
    {
        // "all reasons" and "length limit" coincide on a prefill pool: the headline (first) line shows.
        TimeSeriesChart chart(QStringLiteral("Finished"), [](double v) { return QString::number(v); });
        chart.resize(600, 300);
        const int first = chart.addLine(QStringLiteral("all"), kRed);
        const int second = chart.addLine(QStringLiteral("length"), kBlue);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 10'000);
        const QList<QPointF> same { QPointF(double(kFrom), 5), QPointF(double(kFrom + 10'000), 5) };
        chart.setPoints(first, same);
        chart.setPoints(second, same);
        chart.setSharedMax(10);
        const QImage image = rendered(chart);
        QVERIFY(!columnsWith(image, kRed, chart.height() / 3).isEmpty());
        QVERIFY(columnsWith(image, kBlue, chart.height() / 3).isEmpty());
    }

    void aSharedMaximumLiftsTheAxis()
    {
        TimeSeriesChart chart(QStringLiteral("Shared"), [](double v) { return QString::number(v); });
        chart.resize(600, 250);
        const int line = chart.addLine(QStringLiteral("x"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 10'000);
        chart.setPoints(line, { QPointF(double(kFrom), 20), QPointF(double(kFrom + 10'000), 18) });
        QCOMPARE(chart.dataMax(), 20.0);
        QCOMPARE(chart.yTop(), 20.0);
        chart.setSharedMax(95);
        QCOMPARE(chart.yTop(), 100.0);
        QCOMPARE(chart.yTicks().last().label, QStringLiteral("100"));
        chart.setSharedMax(std::nan(""));
        QCOMPARE(chart.yTop(), 20.0);
    }

    void chartsFollowTheTheme()
    {
        TimeSeriesChart chart(QStringLiteral("Theme"), [](double v) { return QString::number(v); });
        chart.resize(600, 250);
        const int line = chart.addLine(QStringLiteral("x"), kBlue);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 10'000);
        chart.setPoints(line, { QPointF(double(kFrom), 20), QPointF(double(kFrom + 10'000), 18) });
        chart.setPalette(darkPalette());
        QVERIFY2(meanLightness(rendered(chart)) < 0.3, qPrintable(QString::number(meanLightness(rendered(chart)))));
        // The dark blue line is lifted to read on the dark background: not drawn in its light-theme shade.
        QVERIFY(columnsWith(rendered(chart), kBlue).isEmpty());
        chart.setPalette(lightPalette());
        QVERIFY2(meanLightness(rendered(chart)) > 0.7, qPrintable(QString::number(meanLightness(rendered(chart)))));
        QVERIFY(!columnsWith(rendered(chart), kBlue).isEmpty());
    }
};

QTEST_MAIN(TestTimeSeriesChart)
#include "tst_timeserieschart.moc"
