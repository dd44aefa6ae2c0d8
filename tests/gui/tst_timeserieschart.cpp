// SPDX-License-Identifier: MIT
// The chart the dashboards are made of: lines painted over Qt Charts' axes, breaks at NaN, a y axis
// from 0 to a round top, hover text with every line's value at the time under the mouse.
#include "charts/timeserieschart.h"

#include <QImage>
#include <QPainter>
#include <QTest>

#include <cmath>

using namespace pd;

namespace {

constexpr qint64 kFrom = 1'700'000'000'000;
const QColor kRed(220, 0, 0);
const QColor kBlue(0, 0, 220);

// Columns of the image where some pixel has exactly this colour.
QList<int> columnsWith(const QImage &image, const QColor &color)
{
    QList<int> columns;
    const QRgb wanted = color.rgb();
    for (int x = 0; x < image.width(); ++x) {
        for (int y = 0; y < image.height(); ++y) {
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
        QVERIFY2(early.contains(QStringLiteral("running: 30 req")) && early.contains(QStringLiteral("waiting: 5 req")), qPrintable(early));
        const QString inGap = chart.describeAt(0.5);
        QVERIFY2(inGap.contains(QStringLiteral("running: no data")), qPrintable(inGap));
        QVERIFY(chart.describeAt(-0.5).isEmpty());
    }

    void scaledValuesAreShownScaledAndDescribedInStoredUnits()
    {
        // Stored in seconds, shown in ms: the tooltip formats the stored value.
        TimeSeriesChart chart(QStringLiteral("TTFT"), [](double seconds) { return QStringLiteral("%1 s").arg(seconds); });
        chart.setScale(1000);
        chart.resize(600, 250);
        const int line = chart.addLine(QStringLiteral("p99"), kRed);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setTimeRange(kFrom, kFrom + 10'000);
        chart.setPoints(line, {QPointF(double(kFrom), 0.25), QPointF(double(kFrom + 10'000), 0.25)});
        const QString text = chart.describeAt(0.0);
        QVERIFY2(text.contains(QStringLiteral("p99: 0.25 s")), qPrintable(text));
    }

    void emptyAndOutOfRangeLinesAreHarmless()
    {
        TimeSeriesChart chart(QStringLiteral("Empty"), [](double v) { return QString::number(v); });
        chart.resize(400, 200);
        const int line = chart.addLine(QStringLiteral("x"), kRed);
        chart.setPoints(line, {});
        chart.setPoints(7, {QPointF(1, 1)}); // no such line: ignored
        QCOMPARE(chart.pointCount(line), 0);
        QCOMPARE(chart.pointCount(7), 0);
        QImage image(chart.size(), QImage::Format_RGB32);
        QPainter painter(&image);
        chart.render(&painter);
    }
};

QTEST_MAIN(TestTimeSeriesChart)
#include "tst_timeserieschart.moc"
