// SPDX-License-Identifier: MIT
// The pure pieces under the series store: Prometheus quantiles, the row ring, min/max decimation.
#include "metrics/decimate.h"
#include "metrics/quantile.h"
#include "metrics/ringseries.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace pd;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
}

class TestSeriesMath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void histogramQuantile_data();
    void histogramQuantile();
    void histogramQuantileEdges();
    void valuesQuantile();
    void ringGapsAndWrap();
    void decimateUndecimatedKeepsEveryPointAndBreaks();
    void decimateMinMaxPerColumn();
    void decimateKeepsGapsAsBreaks();
};

void TestSeriesMath::histogramQuantile_data()
{
    QTest::addColumn<double>("q");
    QTest::addColumn<QList<double>>("cumulative");
    QTest::addColumn<double>("expected");
    // bounds 0.1, 0.5, 1, +Inf; worked by hand: rank = q·total, the first bucket whose cumulative count
    // reaches it, linear inside it from the previous bound (0 for the first).
    const QList<double> c{10, 30, 40, 40};
    QTest::newRow("p50") << 0.5 << c << 0.1 + 0.4 * (10.0 / 20.0);   // rank 20 in (0.1,0.5]: 0.3
    QTest::newRow("p99") << 0.99 << c << 0.5 + 0.5 * (9.6 / 10.0);   // rank 39.6 in (0.5,1]: 0.98
    QTest::newRow("p10 first bucket from 0") << 0.1 << c << 0.1 * (4.0 / 10.0); // 0.04
    QTest::newRow("p25 exactly a bucket edge") << 0.25 << c << 0.1;   // rank 10 = cumulative of bucket 0
    QTest::newRow("+Inf bucket -> largest finite bound") << 0.9 << QList<double>{10, 30, 40, 100} << 1.0;
    QTest::newRow("empty window") << 0.5 << QList<double>{0, 0, 0, 0} << qQNaN();
}

void TestSeriesMath::histogramQuantile()
{
    QFETCH(double, q);
    QFETCH(QList<double>, cumulative);
    QFETCH(double, expected);
    const double bounds[4] = {0.1, 0.5, 1.0, inf};
    const double got = pd::histogramQuantile(q, bounds, cumulative.constData(), 4);
    if (std::isnan(expected))
        QVERIFY(std::isnan(got));
    else
        QVERIFY2(std::abs(got - expected) < 1e-12, qPrintable(QString::number(got, 'g', 17)));
}

void TestSeriesMath::histogramQuantileEdges()
{
    const double bounds[3] = {-1.0, 2.0, inf};
    const double cum[3] = {5, 10, 10};
    QCOMPARE(pd::histogramQuantile(0.2, bounds, cum, 3), -1.0); // first bound <= 0 is returned as is
    QVERIFY(std::isinf(pd::histogramQuantile(1.5, bounds, cum, 3)));
    QVERIFY(pd::histogramQuantile(-0.5, bounds, cum, 3) < 0);
    const double noInf[2] = {1.0, 2.0};
    QVERIFY(std::isnan(pd::histogramQuantile(0.5, noInf, cum, 2))); // last bound must be +Inf
    QVERIFY(std::isnan(pd::histogramQuantile(0.5, bounds, cum, 1)));
}

void TestSeriesMath::valuesQuantile()
{
    std::vector<float> v{5, 1, 4, 2, 3};
    QCOMPARE(pd::valuesQuantile(0.5, v.data(), 5), 3.0);
    v = {5, 1, 4, 2, 3};
    QCOMPARE(pd::valuesQuantile(0.99, v.data(), 5), 4.0 + 0.96); // rank 3.96 between 4 and 5
    v = {7};
    QCOMPARE(pd::valuesQuantile(0.99, v.data(), 1), 7.0);
    QVERIFY(std::isnan(pd::valuesQuantile(0.5, v.data(), 0)));
}

void TestSeriesMath::ringGapsAndWrap()
{
    RingSeries ring(5, 2, 1000);
    QCOMPARE(ring.headSlot(), kNoSlot);
    QCOMPARE(ring.slotOf(12'999), std::int64_t(12));
    ring.advanceTo(10);
    ring.headRow()[0] = 1;
    ring.advanceTo(13); // 11 and 12 become gaps
    ring.headRow()[0] = 4;
    QCOMPARE(ring.value(10, 0), 1.0f);
    QVERIFY(std::isnan(ring.value(11, 0)));
    QVERIFY(std::isnan(ring.value(12, 0)));
    QCOMPARE(ring.value(13, 0), 4.0f);
    ring.advanceTo(16); // capacity 5: holds 12..16, slot 10 is gone
    QCOMPARE(ring.firstSlot(), std::int64_t(12));
    QVERIFY(!ring.contains(10));
    QVERIFY(std::isnan(ring.value(10, 0)));
    QCOMPARE(ring.value(13, 0), 4.0f);
    ring.advanceTo(40); // a jump beyond the capacity drops everything
    QCOMPARE(ring.firstSlot(), std::int64_t(40));
    QVERIFY(std::isnan(ring.value(40, 1)));
    QCOMPARE(ring.samplesHeld(), std::size_t(2)); // one slot of two columns since the jump
}

namespace {
struct Column {
    RingSeries ring;
    Column(const std::vector<float> &values, std::int64_t firstSlot, int resMs = 1000)
        : ring(int(values.size()) + 1, 1, resMs)
    {
        for (std::size_t i = 0; i < values.size(); ++i) {
            ring.advanceTo(firstSlot + std::int64_t(i));
            ring.headRow()[0] = values[i];
        }
    }
};
} // namespace

void TestSeriesMath::decimateUndecimatedKeepsEveryPointAndBreaks()
{
    Column c({1, 2, kNanF, kNanF, 5, 6}, 100);
    const QList<QPointF> p = decimateMinMax(c.ring.column(0), 100'000, 105'000, 100);
    QCOMPARE(p.size(), 5); // 1, 2, break, 5, 6
    QCOMPARE(p[0], QPointF(100'000, 1));
    QCOMPARE(p[1], QPointF(101'000, 2));
    QVERIFY(std::isnan(p[2].y()));
    QCOMPARE(p[2].x(), 102'000.0);
    QCOMPARE(p[3], QPointF(104'000, 5));
    // Range clipping: only slots whose start lies inside [from, to]
    QCOMPARE(decimateMinMax(c.ring.column(0), 100'500, 101'000, 100).size(), 1);
}

void TestSeriesMath::decimateMinMaxPerColumn()
{
    // 3,600 slots over 100 columns (200 points): each column holds 36 slots.
    std::vector<float> v(3600);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = float(i % 36); // 0..35 in every column
    v[1000] = 500;            // a one-second spike
    v[2000] = -500;
    Column c(v, 0);
    const int maxPoints = 200;
    const QList<QPointF> p = decimateMinMax(c.ring.column(0), 0, 3'599'000, maxPoints);
    QVERIFY(p.size() <= maxPoints);
    double maxY = -1e9, minY = 1e9;
    std::vector<int> perColumn(100);
    double lastX = -1;
    for (const QPointF &pt : p) {
        QVERIFY(pt.x() > lastX); // time order
        lastX = pt.x();
        maxY = std::max(maxY, pt.y());
        minY = std::min(minY, pt.y());
        ++perColumn[std::size_t(pt.x() * 100.0 / 3'599'001.0)]; // the decimator's column edges
    }
    QCOMPARE(maxY, 500.0); // spikes survive
    QCOMPARE(minY, -500.0);
    for (int n : perColumn)
        QVERIFY(n <= 2);
}

void TestSeriesMath::decimateKeepsGapsAsBreaks()
{
    std::vector<float> v(1000, 1.0f);
    for (int i = 400; i < 600; ++i)
        v[std::size_t(i)] = kNanF; // 200 s gap = 20 whole columns of 10 s
    Column c(v, 0);
    const QList<QPointF> p = decimateMinMax(c.ring.column(0), 0, 999'000, 200);
    QVERIFY(p.size() <= 200);
    int breaks = 0;
    for (const QPointF &pt : p)
        breaks += std::isnan(pt.y());
    QCOMPARE(breaks, 1);
    // No point inside the gap
    for (const QPointF &pt : p)
        if (!std::isnan(pt.y()))
            QVERIFY(pt.x() < 400'000 || pt.x() >= 600'000);
    // A trailing gap adds nothing; an all-gap range is empty
    Column g({kNanF, kNanF, kNanF}, 0);
    QVERIFY(decimateMinMax(g.ring.column(0), 0, 2'000, 2).isEmpty());
}

QTEST_GUILESS_MAIN(TestSeriesMath)
#include "tst_seriesmath.moc"
