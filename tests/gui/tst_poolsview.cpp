// SPDX-License-Identifier: MIT
// The Pools dashboard as an operator reads it: both pools of a row on one y axis, finished / aborted /
// failed requests, queue time and prefix-cache hit rate per pool and per engine, and on top the
// proxy's /healthcheck over the same time range, with gaps where it did not answer and a sentence
// instead of zeros where it does not report requests in flight.
#include "apptheme.h"
#include "charts/timeserieschart.h"
#include "metrics/seriesstore.h"
#include "net/proxyhealthhistory.h"
#include "poolsview.h"
#include "proxyhealthcharts.h"
#include "testdata.h"

#include <QDateTime>
#include <QDir>
#include <QImage>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <limits>

using namespace pd;

namespace {

using test::strings; // literal lists (QT_NO_CAST_FROM_ASCII)

constexpr std::int64_t kT0 = 1'700'000'000'000; // a multiple of 10 s
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kSeconds = 60;

// One engine's counters moving at fixed rates per second.
EngineMetrics metricsAt(int second, bool decode)
{
    EngineMetrics m;
    m.running = decode ? 40 : 3;
    m.waiting = decode ? 2 : 0;
    m.kvUsage = decode ? 0.6 : 0.1;
    m.promptTokens = second * (decode ? 0.0 : 1000.0);
    m.generationTokens = second * (decode ? 12'500.0 : 0.0);
    // 0.9.1: no "error" reason. Decode finishes 2 req/s by stop and aborts one every 2 s.
    m.successByReason = { second * (decode ? 2.0 : 0.0), second * (decode ? 0.0 : 2.0), decode ? second * 0.5 : 0.0,
        std::numeric_limits<double>::quiet_NaN() };
    m.requestSuccess = m.successByReason[0] + m.successByReason[1] + m.successByReason[2];
    m.preemptions = 0;
    m.prefixQueries = second * 1000.0;
    m.prefixHits = second * 400.0;
    m.processStartTime = 1000;
    // Queue time: 10 requests a second, all between 10 ms and 100 ms (p50 = 55 ms by interpolation).
    HistogramSnapshot &q = m.histogram(Histogram::QueueTime);
    q.bucketCount = 4;
    q.bounds = { 0.01, 0.1, 1.0, kInf };
    q.counts = { 0, 10.0 * second, 10.0 * second, 10.0 * second };
    q.count = 10.0 * second;
    q.sum = 0.05 * q.count;
    return m;
}

ProxyHealth proxyAnswer(qint64 ms, std::optional<int> requests)
{
    ProxyHealth h;
    h.reachable = true;
    h.prefillInstances = 1;
    h.decodeInstances = 1;
    h.requestNum = requests;
    h.when = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    return h;
}

int rowTitled(const PoolsView &view, const QString &title)
{
    for (int r = 0; r < PoolsView::rowCount(); ++r)
        if (view.chart(0, r)->title() == title)
            return r;
    return -1;
}

QStringList labels(const QList<AxisTick> &ticks)
{
    QStringList out;
    for (const AxisTick &t : ticks)
        out.append(t.label);
    return out;
}

} // namespace

class TestPoolsView : public QObject {
    Q_OBJECT

    SeriesStore m_store { std::vector<Role> { Role::Prefill, Role::Decode } };
    ProxyHealthHistory m_history;

    // `view` at `size` on the test's series (and its proxy history when asked), shown; false when it was
    // never exposed.
    enum class History { Without, With };
    bool show(PoolsView &view, History history = History::Without, QSize size = QSize(1200, 900))
    {
        view.resize(size);
        view.setSeriesStore(&m_store);
        if (history == History::With)
            view.setProxyHistory(&m_history);
        view.show();
        return QTest::qWaitForWindowExposed(&view);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        for (int s = 0; s <= kSeconds; ++s) {
            PollRound round;
            round.timeMs = kT0 + s * 1000;
            for (const bool decode : { false, true }) {
                EnginePoll poll;
                poll.metrics = metricsAt(s, decode);
                poll.scrapedAtMs = round.timeMs;
                round.engines.push_back(poll);
            }
            m_store.ingest(round);
        }
    }

    void bothPoolsOfARowShareOneAxis()
    {
        PoolsView view;
        QVERIFY(show(view));
        view.refresh();
        const int tokens = rowTitled(view, QStringLiteral("Tokens per second"));
        QVERIFY(tokens >= 0);
        TimeSeriesChart *prefill = view.chart(0, tokens);
        TimeSeriesChart *decode = view.chart(1, tokens);
        // Prefill makes 1,000 prompt tok/s, decode 12,500 generation tok/s: one axis up to the larger.
        QCOMPARE(prefill->dataMax(), 1000.0);
        QCOMPARE(decode->dataMax(), 12'500.0);
        QCOMPARE(prefill->yTop(), decode->yTop());
        QVERIFY(prefill->yTop() >= 12'500.0);
        QCOMPARE(labels(prefill->yTicks()), labels(decode->yTicks()));
        QVERIFY2(labels(decode->yTicks()).contains(QStringLiteral("10k tok/s")),
            qPrintable(labels(decode->yTicks()).join(QLatin1Char('|'))));
        const QString hover = decode->describeAt(0.99);
        QVERIFY2(hover.contains(QStringLiteral("generation: 12,500 tok/s")), qPrintable(hover));
        // A row whose values differ a lot per pool still shares: KV cache 10 % and 60 %.
        const int kv = rowTitled(view, QStringLiteral("KV cache usage"));
        QCOMPARE(view.chart(0, kv)->yTop(), view.chart(1, kv)->yTop());
        QVERIFY(labels(view.chart(0, kv)->yTicks()).last().endsWith(QLatin1Char('%')));
    }

    void finishReasonsQueueTimeAndPrefixCachePerPoolAndEngine()
    {
        PoolsView view;
        QVERIFY(show(view));
        view.refresh();
        const int finished = rowTitled(view, QStringLiteral("Finished requests"));
        const int failed = rowTitled(view, QStringLiteral("Aborted and failed requests"));
        const int queue = rowTitled(view, QStringLiteral("Queue time"));
        const int prefix = rowTitled(view, QStringLiteral("Prefix cache hit rate"));
        QVERIFY(finished >= 0 && failed >= 0 && queue >= 0 && prefix >= 0);

        QString text = view.chart(1, finished)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("all reasons: 2.5 req/s")), qPrintable(text));
        text = view.chart(0, finished)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("length limit: 2 req/s")), qPrintable(text));
        // vLLM 0.9.1 has no "error" reason: no line, not a zero line.
        text = view.chart(1, failed)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("aborted: 0.5 req/s")) && !text.contains(QStringLiteral("error:")),
            qPrintable(text));
        QCOMPARE(view.chart(1, failed)->pointCount(1), 0);
        text = view.chart(0, queue)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("p50: 55 ms")), qPrintable(text));
        QVERIFY(labels(view.chart(0, queue)->yTicks()).last().endsWith(QStringLiteral(" ms")));
        text = view.chart(1, prefix)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("40%")), qPrintable(text));

        // Drill-down: the decode engine alone, the same rows; the proxy (the cluster's) is not shown.
        view.setEngine(1, QStringLiteral("127.0.0.2:9000"));
        text = view.chart(0, failed)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("aborted: 0.5 req/s")), qPrintable(text));
        text = view.chart(0, finished)->describeAt(0.99);
        QVERIFY2(text.contains(QStringLiteral("all reasons: 2.5 req/s")), qPrintable(text));
        QVERIFY(view.proxyCharts()->isHidden());
        view.setEngine(-1, QString());
        QVERIFY(!view.proxyCharts()->isHidden());
    }

    void theChartsSpanTheRangeEndingNow()
    {
        // One minute of data in a five-minute window: the window is the last five minutes, the data
        // sits at its right end.
        PoolsView view;
        QVERIFY(show(view));
        view.refresh();
        TimeSeriesChart *chart = view.chart(1, 0);
        QCOMPARE(chart->rangeToMs(), double(kT0 + kSeconds * 1000));
        QCOMPARE(chart->rangeFromMs(), double(kT0 + kSeconds * 1000 - 5 * 60'000));
        QVERIFY2(chart->describeAt(0.5).contains(QStringLiteral("no data")), qPrintable(chart->describeAt(0.5)));
        QVERIFY(chart->describeAt(0.95).contains(QStringLiteral("running: 40")));
        for (const AxisTick &t : chart->xTicks())
            QCOMPARE(qint64(t.value) % 60'000, 0); // whole minutes (every zone's offset is whole minutes)
    }

    void theProxyIsChartedOverTheSameRange()
    {
        PoolsView view;
        QVERIFY(show(view, History::With));
        ProxyHealthCharts *proxy = view.proxyCharts();
        QCOMPARE(proxy->requestsChart()->shownEmptyText(), QStringLiteral("no data"));

        // An old proxy (no request_num) answers for 20 s, is silent for 10 s, answers again.
        for (int s = 0; s <= kSeconds; ++s) {
            if (s >= 30 && s < 40) {
                ProxyHealth down;
                down.error = QStringLiteral("connection refused");
                down.when = QDateTime::fromMSecsSinceEpoch(kT0 + s * 1000, QTimeZone::utc());
                m_history.append(down);
            } else {
                m_history.append(proxyAnswer(kT0 + s * 1000, std::nullopt));
            }
        }
        QTRY_VERIFY(proxy->instancesChart()->pointCount(0) > 0);
        TimeSeriesChart *requests = proxy->requestsChart();
        QVERIFY2(
            requests->shownEmptyText().contains(QStringLiteral("request_num")), qPrintable(requests->shownEmptyText()));
        QVERIFY(requests->yTicks().isEmpty()); // no 0-1 axis with a flat zero
        TimeSeriesChart *instances = proxy->instancesChart();
        QVERIFY(instances->shownEmptyText().isEmpty());
        QCOMPARE(labels(instances->yTicks()), strings({ "0", "1" }));
        // Same window as the pools' charts.
        QCOMPARE(instances->rangeFromMs(), view.chart(0, 0)->rangeFromMs());
        QCOMPARE(instances->rangeToMs(), view.chart(0, 0)->rangeToMs());
        // 33 s, three seconds into the silence: a gap, not a zero.
        const double silent = 1.0 - 27.0 / 300.0;
        QVERIFY2(instances->describeAt(silent).contains(QStringLiteral("prefill: no data")),
            qPrintable(instances->describeAt(silent)));
        QVERIFY2(instances->describeAt(0.999).contains(QStringLiteral("prefill: 1")),
            qPrintable(instances->describeAt(0.999)));

        // A newer proxy reports request_num: the line appears.
        m_history.append(proxyAnswer(kT0 + (kSeconds + 1) * 1000, 7));
        QTRY_VERIFY(requests->shownEmptyText().isEmpty());
        QVERIFY2(
            requests->describeAt(1.0).contains(QStringLiteral("in flight: 7")), qPrintable(requests->describeAt(1.0)));
    }

    void everyRowSharesItsAxisInBothThemes()
    {
        // The whole dashboard, tall enough not to scroll; written to build/dev/screenshots for a look.
        PoolsView view;
        QVERIFY(show(view, History::With, QSize(1400, 2600)));
        QDir().mkpath(QStringLiteral(PD_BINARY_DIR "/screenshots"));
        for (const bool dark : { false, true }) {
            view.setPalette(dark ? darkPalette() : lightPalette());
            view.refresh();
            QCoreApplication::processEvents();
            for (int r = 0; r < PoolsView::rowCount(); ++r) {
                TimeSeriesChart *a = view.chart(0, r);
                TimeSeriesChart *b = view.chart(1, r);
                if (std::isnan(a->dataMax()) || std::isnan(b->dataMax()))
                    continue;
                QCOMPARE(a->yTop(), b->yTop());
                QCOMPARE(labels(a->yTicks()), labels(b->yTicks()));
            }
            const QImage shot = view.grab().toImage();
            double lightness = 0;
            int n = 0;
            for (int y = 0; y < shot.height(); y += 9)
                for (int x = 0; x < shot.width(); x += 9, ++n)
                    lightness += QColor(shot.pixel(x, y)).lightnessF();
            QVERIFY2(dark ? lightness / n < 0.35 : lightness / n > 0.7, qPrintable(QString::number(lightness / n)));
            QVERIFY(shot.save(QStringLiteral(PD_BINARY_DIR "/screenshots/pools-%1.png")
                                  .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"))));
        }
    }

    void anEmptyDashboardSaysNoData()
    {
        PoolsView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        QCOMPARE(view.chart(0, 0)->shownEmptyText(), QStringLiteral("no data"));
        QVERIFY(view.chart(0, 0)->yTicks().isEmpty());
        QCOMPARE(view.proxyCharts()->instancesChart()->shownEmptyText(), QStringLiteral("no data"));
    }
};

QTEST_MAIN(TestPoolsView)
#include "tst_poolsview.moc"
