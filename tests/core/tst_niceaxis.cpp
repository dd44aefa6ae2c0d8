// SPDX-License-Identifier: MIT
// The charts' tick arithmetic: 1-2-5 steps from 0, SI suffixes and locale separators on labels, time
// ticks at round wall-clock times of the zone (not every 75 s on odd seconds).
#include "metrics/niceaxis.h"
#include "testdata.h"

#include <QDateTime>
#include <QTest>

#include <cmath>
#include <limits>

using namespace pd;

namespace {

using test::strings; // literal lists (QT_NO_CAST_FROM_ASCII)

const QLocale kEnglish(QLocale::English, QLocale::UnitedStates);
const QLocale kGerman(QLocale::German, QLocale::Germany);

QStringList labelsOf(const QList<AxisTick> &ticks)
{
    QStringList out;
    for (const AxisTick &t : ticks)
        out.append(t.label);
    return out;
}

qint64 utcMs(int year, int month, int day, int h, int m, int s, int ms = 0)
{
    return QDateTime(QDate(year, month, day), QTime(h, m, s, ms), QTimeZone::utc()).toMSecsSinceEpoch();
}

} // namespace

class TestNiceAxis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void niceStepIsOneTwoOrFive_data()
    {
        QTest::addColumn<double>("rough");
        QTest::addColumn<double>("step");
        QTest::newRow("0.3") << 0.3 << 0.5;
        QTest::newRow("0.5 exactly") << 0.5 << 0.5;
        QTest::newRow("1") << 1.0 << 1.0;
        QTest::newRow("1.3 (not 1.3)") << 1.3 << 2.0;
        QTest::newRow("2.5") << 2.5 << 5.0;
        QTest::newRow("7") << 7.0 << 10.0;
        QTest::newRow("1000 exactly") << 1000.0 << 1000.0;
        QTest::newRow("3125") << 3125.0 << 5000.0;
        QTest::newRow("0.00013") << 0.00013 << 0.0002;
        QTest::newRow("0") << 0.0 << 1.0;
        QTest::newRow("negative") << -4.0 << 1.0;
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << 1.0;
    }
    void niceStepIsOneTwoOrFive()
    {
        QFETCH(double, rough);
        QFETCH(double, step);
        QCOMPARE(niceStep(rough), step);
    }

    void valueTicksRunFromZeroOnRoundSteps_data()
    {
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<double>("top");
        // The bad axis was 0 / 1.3 / 2.5 / 3.8 for a maximum of 3.8.
        QTest::newRow("3.8 req") << 3.8 << 5 << QString() << strings({ "0", "1", "2", "3", "4" }) << 4.0;
        QTest::newRow("17 running") << 17.0 << 5 << QString() << strings({ "0", "5", "10", "15", "20" }) << 20.0;
        QTest::newRow("tok/s into thousands")
            << 3600.0 << 5 << QStringLiteral("tok/s")
            << strings({ "0 tok/s", "1k tok/s", "2k tok/s", "3k tok/s", "4k tok/s" }) << 4000.0;
        QTest::newRow("a 500 step") << 1400.0 << 4 << QString() << strings({ "0", "500", "1k", "1.5k" }) << 1500.0;
        QTest::newRow("2.5k steps are not nice: 5k")
            << 9000.0 << 4 << QString() << strings({ "0", "5k", "10k" }) << 10000.0;
        QTest::newRow("millions") << 12e6 << 4 << QString() << strings({ "0", "5M", "10M", "15M" }) << 15e6;
        QTest::newRow("percent") << 98.0 << 6 << QStringLiteral("%")
                                 << strings({ "0%", "20%", "40%", "60%", "80%", "100%" }) << 100.0;
        QTest::newRow("small seconds") << 0.034 << 5 << QStringLiteral("s")
                                       << strings({ "0 s", "0.01 s", "0.02 s", "0.03 s", "0.04 s" }) << 0.04;
        QTest::newRow("per second sticks to the number")
            << 0.7 << 5 << QStringLiteral("/s") << strings({ "0/s", "0.2/s", "0.4/s", "0.6/s", "0.8/s" }) << 0.8;
        QTest::newRow("all zero still has an axis") << 0.0 << 5 << QString() << strings({ "0", "0.5", "1" }) << 1.0;
        QTest::newRow("exactly a step") << 20.0 << 5 << QString() << strings({ "0", "5", "10", "15", "20" }) << 20.0;
    }
    void valueTicksRunFromZeroOnRoundSteps()
    {
        QFETCH(double, max);
        QFETCH(int, maxTicks);
        QFETCH(QString, unit);
        QFETCH(QStringList, labels);
        QFETCH(double, top);
        const ValueTicks ticks = valueTicks(max, maxTicks, unit, kEnglish);
        QCOMPARE(labelsOf(ticks.ticks), labels);
        QVERIFY(ticks.ticks.size() <= std::max(2, maxTicks));
        QCOMPARE(ticks.top, top);
        QVERIFY(ticks.top >= max);
        QCOMPARE(ticks.ticks.first().value, 0.0);
        for (qsizetype i = 1; i < ticks.ticks.size(); ++i)
            QVERIFY(qFuzzyCompare(ticks.ticks.at(i).value - ticks.ticks.at(i - 1).value, ticks.step));
    }

    void tickValuesAreExactDecimals()
    {
        // 0.1 steps summed give 0.30000000000000004; ticks are computed as i·m / 10^k.
        const ValueTicks ticks = valueTicks(0.5, 6, QString(), kEnglish);
        QCOMPARE(ticks.step, 0.1);
        QCOMPARE(ticks.ticks.at(3).value, 0.3);
        QCOMPARE(ticks.ticks.at(3).label, QStringLiteral("0.3"));
    }

    void countsStayWhole()
    {
        QCOMPARE(labelsOf(valueTicks(1, 4, QString(), kEnglish, 1).ticks), strings({ "0", "1" }));
        QCOMPARE(labelsOf(valueTicks(3, 6, QString(), kEnglish, 1).ticks), strings({ "0", "1", "2", "3" }));
        QCOMPARE(labelsOf(valueTicks(1, 4, QString(), kEnglish).ticks), strings({ "0", "0.5", "1" }));
    }

    void labelsFollowTheLocale()
    {
        QCOMPARE(tickLabel(1500, 500, QStringLiteral("ms"), kGerman), QStringLiteral("1,5k ms"));
        QCOMPARE(tickLabel(2500, 500, QString(), kEnglish), QStringLiteral("2.5k"));
        QCOMPARE(tickLabel(15000, 5000, QString(), kEnglish), QStringLiteral("15k"));
        QCOMPARE(tickLabel(1.5e6, 5e5, QString(), kGerman), QStringLiteral("1,5M"));
        QCOMPARE(tickLabel(2.5e9, 5e8, QString(), kEnglish), QStringLiteral("2,500M"));
        QCOMPARE(tickLabel(0.25, 0.05, QString(), kEnglish), QStringLiteral("0.25"));
        // The C locale leaves the separator out unless asked.
        QCOMPARE(formatValue(12500, QString(), QLocale::c()), QStringLiteral("12500"));
        QCOMPARE(formatValue(12500, QString(), numberLocale(QLocale::c())), QStringLiteral("12,500"));
        QCOMPARE(tickLabel(600, 200, QString(), kEnglish), QStringLiteral("600"));
        QCOMPARE(tickLabel(-0.0, 0.2, QString(), kEnglish), QStringLiteral("0"));
    }

    void valuesReadAtAGlance_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("german");
        QTest::newRow("thousands separator")
            << 12500.0 << QStringLiteral("tok/s") << QStringLiteral("12,500 tok/s") << QStringLiteral("12.500 tok/s");
        QTest::newRow("integer") << 30.0 << QStringLiteral("req") << QStringLiteral("30 req")
                                 << QStringLiteral("30 req");
        QTest::newRow("three digits") << 1.2549 << QStringLiteral("s") << QStringLiteral("1.25 s")
                                      << QStringLiteral("1,25 s");
        QTest::newRow("small") << 0.012345 << QStringLiteral("s") << QStringLiteral("0.0123 s")
                               << QStringLiteral("0,0123 s");
        QTest::newRow("k above 100,000") << 125400.0 << QString() << QStringLiteral("125k") << QStringLiteral("125k");
        QTest::newRow("M") << 3.2e6 << QStringLiteral("tok/s") << QStringLiteral("3.2M tok/s")
                           << QStringLiteral("3,2M tok/s");
        QTest::newRow("percent") << 87.5 << QStringLiteral("%") << QStringLiteral("87.5%") << QStringLiteral("87,5%");
        QTest::newRow("zero") << 0.0 << QStringLiteral("/s") << QStringLiteral("0/s") << QStringLiteral("0/s");
        QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << QStringLiteral("s") << QString()
                                      << QString();
    }
    void valuesReadAtAGlance()
    {
        QFETCH(double, value);
        QFETCH(QString, unit);
        QFETCH(QString, english);
        QFETCH(QString, german);
        QCOMPARE(formatValue(value, unit, kEnglish), english);
        QCOMPARE(formatValue(value, unit, kGerman), german);
    }

    void timeTicksSitOnRoundWallClockTimes_data()
    {
        QTest::addColumn<qint64>("rangeMs");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<qint64>("stepMs");
        QTest::addColumn<QStringList>("labels");
        // The range ends at 10:47:23.4 UTC: odd seconds, as a live chart's does.
        QTest::newRow("5 min, 6 ticks: every minute")
            << qint64(5 * 60'000) << 6 << qint64(60'000) << strings({ "10:43", "10:44", "10:45", "10:46", "10:47" });
        QTest::newRow("5 min, 12 ticks: every 30 s")
            << qint64(5 * 60'000) << 12 << qint64(30'000)
            << strings({ "10:42:30", "10:43:00", "10:43:30", "10:44:00", "10:44:30", "10:45:00", "10:45:30", "10:46:00",
                   "10:46:30", "10:47:00" });
        QTest::newRow("1 h: every 15 min")
            << qint64(3600'000) << 5 << qint64(15 * 60'000) << strings({ "10:00", "10:15", "10:30", "10:45" });
        QTest::newRow("24 h: every 6 h") << qint64(24 * 3600'000) << 5 << qint64(6 * 3600'000)
                                         << strings({ "12:00", "18:00", "00:00", "06:00" });
        QTest::newRow("1 min: every 15 s")
            << qint64(60'000) << 5 << qint64(15'000) << strings({ "10:46:30", "10:46:45", "10:47:00", "10:47:15" });
    }
    void timeTicksSitOnRoundWallClockTimes()
    {
        QFETCH(qint64, rangeMs);
        QFETCH(int, maxTicks);
        QFETCH(qint64, stepMs);
        QFETCH(QStringList, labels);
        const qint64 to = utcMs(2026, 12, 3, 10, 47, 23, 400);
        const TimeTicks ticks = timeTicks(to - rangeMs, to, maxTicks, QTimeZone::utc());
        QCOMPARE(ticks.stepMs, stepMs);
        QCOMPARE(labelsOf(ticks.ticks), labels);
        QVERIFY(ticks.ticks.size() <= maxTicks);
        for (const AxisTick &t : ticks.ticks) {
            QVERIFY(t.value >= double(to - rangeMs) && t.value <= double(to));
            QCOMPARE(qint64(t.value) % stepMs, 0); // UTC: round on the epoch too
        }
    }

    void timeTicksAreRoundInTheLocalZone()
    {
        // UTC+5:30: hourly ticks fall on local full hours, i.e. on :30 UTC.
        const QTimeZone india(5 * 3600 + 30 * 60);
        const qint64 to = utcMs(2026, 12, 3, 10, 47, 23);
        const TimeTicks ticks = timeTicks(to - 4 * 3600'000, to, 5, india);
        QCOMPARE(ticks.stepMs, qint64(3600'000));
        QCOMPARE(labelsOf(ticks.ticks), strings({ "13:00", "14:00", "15:00", "16:00" }));
        QCOMPARE(qint64(ticks.ticks.first().value), utcMs(2026, 12, 3, 7, 30, 0));
    }

    void emptyRangeHasNoTicks()
    {
        QVERIFY(timeTicks(1000, 1000, 5, QTimeZone::utc()).ticks.isEmpty());
        QVERIFY(timeTicks(2000, 1000, 5, QTimeZone::utc()).ticks.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNiceAxis)
#include "tst_niceaxis.moc"
