// SPDX-License-Identifier: MIT
// The proxy's /healthcheck over time: answers become points, a proxy that does not answer is a gap
// (never a zero), an answer without request_num (before vllm-ascend v0.21) has no requests-in-flight
// value, the ring keeps only the newest answers, and long histories are decimated without losing a spike.
#include "net/proxyhealthhistory.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

using namespace pd;
using Series = ProxyHealthHistory::Series;

namespace {

constexpr qint64 kT0 = 1'764'000'000'000;

ProxyHealth answer(qint64 ms, int prefill, int decode, std::optional<int> requests)
{
    ProxyHealth h;
    h.reachable = true;
    h.prefillInstances = prefill;
    h.decodeInstances = decode;
    h.requestNum = requests;
    h.when = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    return h;
}

ProxyHealth silence(qint64 ms)
{
    ProxyHealth h;
    h.error = QStringLiteral("connection refused");
    h.when = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    return h;
}

int finiteCount(const QList<QPointF> &points)
{
    return int(std::count_if(points.cbegin(), points.cend(), [](const QPointF &p) { return std::isfinite(p.y()); }));
}

int breakCount(const QList<QPointF> &points)
{
    return int(points.size()) - finiteCount(points);
}

} // namespace

class TestProxyHealthHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void answersArePointsAndSilenceIsAGap()
    {
        ProxyHealthHistory history;
        QSignalSpy appended(&history, &ProxyHealthHistory::appended);
        for (int s = 0; s < 10; ++s)
            history.append(s >= 4 && s < 7 ? silence(kT0 + s * 1000) : answer(kT0 + s * 1000, 2, 3, 5 + s));
        QCOMPARE(appended.count(), 10);
        QCOMPARE(history.size(), 10);
        QCOMPARE(history.newestMs(), kT0 + 9000);

        const QList<QPointF> requests = history.points(Series::RequestsInFlight, kT0, kT0 + 9000, 1000);
        // 0..3 answered, 4..6 did not (one break, no zeros), 7..9 answered.
        QCOMPARE(finiteCount(requests), 7);
        QCOMPARE(breakCount(requests), 1);
        for (const QPointF &p : requests)
            QVERIFY2(!(p.y() == 0), "an unanswered poll drawn as zero");
        QCOMPARE(requests.at(3), QPointF(double(kT0 + 3000), 8));
        QVERIFY(std::isnan(requests.at(4).y()));
        QCOMPARE(requests.at(4).x(), double(kT0 + 4000)); // the break is where the silence began
        QCOMPARE(requests.at(5), QPointF(double(kT0 + 7000), 12));

        const QList<QPointF> decode = history.points(Series::DecodeInstances, kT0, kT0 + 9000, 1000);
        QCOMPARE(finiteCount(decode), 7);
        QCOMPARE(decode.first().y(), 3.0);
        QCOMPARE(history.points(Series::PrefillInstances, kT0, kT0 + 9000, 1000).first().y(), 2.0);
    }

    void aProxyWithoutRequestNumHasNoRequestsLine()
    {
        ProxyHealthHistory history;
        QVERIFY(!history.reportsRequestNum().has_value());
        for (int s = 0; s < 5; ++s)
            history.append(answer(kT0 + s * 1000, 1, 1, std::nullopt));
        QCOMPARE(history.reportsRequestNum(), std::optional<bool>(false));
        QCOMPARE(finiteCount(history.points(Series::RequestsInFlight, kT0, kT0 + 5000, 100)), 0);
        QCOMPARE(finiteCount(history.points(Series::PrefillInstances, kT0, kT0 + 5000, 100)), 5);
        // An upgraded proxy starts reporting; a silence afterwards does not change what it reports.
        history.append(answer(kT0 + 5000, 1, 1, 4));
        history.append(silence(kT0 + 6000));
        QCOMPARE(history.reportsRequestNum(), std::optional<bool>(true));
        QCOMPARE(finiteCount(history.points(Series::RequestsInFlight, kT0, kT0 + 7000, 100)), 1);
    }

    void aLongSilenceBetweenAnswersIsAGap()
    {
        ProxyHealthHistory history;
        history.setMaxGapMs(3000);
        history.append(answer(kT0, 1, 1, 1));
        history.append(answer(kT0 + 1000, 1, 1, 1));
        history.append(answer(kT0 + 20'000, 1, 1, 1)); // nobody polled for 19 s
        history.append(answer(kT0 + 21'000, 1, 1, 1));
        const QList<QPointF> points = history.points(Series::PrefillInstances, kT0, kT0 + 21'000, 100);
        QCOMPARE(points.size(), 5);
        QVERIFY(std::isnan(points.at(2).y()));
        QVERIFY(points.at(2).x() > double(kT0 + 1000) && points.at(2).x() < double(kT0 + 20'000));
    }

    void theRingKeepsTheNewestAnswers()
    {
        ProxyHealthHistory history(10);
        for (int s = 0; s < 25; ++s)
            history.append(answer(kT0 + s * 1000, 1, 1, s));
        QCOMPARE(history.size(), 10);
        QCOMPARE(history.capacity(), 10);
        const QList<QPointF> points = history.points(Series::RequestsInFlight, kT0, kT0 + 25'000, 100);
        QCOMPARE(points.size(), 10);
        QCOMPARE(points.first(), QPointF(double(kT0 + 15'000), 15));
        QCOMPARE(points.last(), QPointF(double(kT0 + 24'000), 24));
        // An answer stamped before the newest (a clock step back) is not taken.
        history.append(answer(kT0 + 3000, 1, 1, 99));
        QCOMPARE(history.newestMs(), kT0 + 24'000);
        history.clear();
        QCOMPARE(history.size(), 0);
        QVERIFY(history.points(Series::RequestsInFlight, kT0, kT0 + 25'000, 100).isEmpty());
    }

    void theRangeSelectsAndEntersAtTheEdge()
    {
        ProxyHealthHistory history;
        for (int s = 0; s < 100; ++s)
            history.append(answer(kT0 + s * 1000, 1, 1, s));
        const QList<QPointF> points = history.points(Series::RequestsInFlight, kT0 + 50'500, kT0 + 60'000, 100);
        // 51..60 in range, and 50 so the line starts at the left edge.
        QCOMPARE(points.size(), 11);
        QCOMPARE(points.first().y(), 50.0);
        QCOMPARE(points.last().y(), 60.0);
    }

    void decimationKeepsSpikesAndGaps()
    {
        ProxyHealthHistory history;
        for (int s = 0; s < 3600; ++s) {
            if (s >= 2000 && s < 2200)
                history.append(silence(kT0 + s * 1000));
            else
                history.append(answer(kT0 + s * 1000, 1, 1, s == 1234 ? 500 : 10));
        }
        const QList<QPointF> points = history.points(Series::RequestsInFlight, kT0, kT0 + 3600'000, 200);
        QVERIFY2(points.size() <= 200, qPrintable(QString::number(points.size())));
        double top = 0;
        for (const QPointF &p : points)
            if (std::isfinite(p.y()))
                top = std::max(top, p.y());
        QCOMPARE(top, 500.0);
        QCOMPARE(breakCount(points), 1);
        for (qsizetype i = 1; i < points.size(); ++i)
            QVERIFY(points.at(i).x() >= points.at(i - 1).x());
    }
};

QTEST_GUILESS_MAIN(TestProxyHealthHistory)
#include "tst_proxyhealthhistory.moc"
