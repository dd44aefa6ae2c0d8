// SPDX-License-Identifier: MIT
// The Prometheus source against Debian's real prometheus scraping simulated engines on loopback:
// the series store it fills (history backfilled, then refreshed) agrees with the store the console's
// own poller fills from the same engines; a target Prometheus reports down makes the engine
// unreachable with Prometheus' reason; an engine of an unknown metric generation, a target that is
// no engine of the profile and an engine Prometheus does not scrape are all reported.
#include "engine/simengine.h"
#include "http/httpserver.h"
#include "metrics/metricsextractor.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"
#include "net/prometheussource.h"
#include "prometheusharness.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <cmath>
#include <memory>

using namespace pd;
using namespace pd::sim;

namespace {

bool extract(std::string_view body, EngineMetrics *m, QString *error)
{
    const auto r = MetricsExtractor::extract(body, *m);
    if (!r.ok())
        *error = QString::fromStdString(r.error.toString());
    return r.ok();
}

void sendCompletion(QObject *owner, quint16 port, int promptWords, int maxTokens)
{
    auto *socket = new QTcpSocket(owner);
    QByteArray prompt;
    for (int i = 0; i < promptWords; ++i)
        prompt += "word ";
    const QByteArray body = "{\"model\":\"deepseek_r1\",\"prompt\":\"" + prompt
        + "\",\"max_tokens\":" + QByteArray::number(maxTokens) + ",\"ignore_eos\":true}";
    const QByteArray request = "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                               "Content-Length: "
        + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    QObject::connect(socket, &QTcpSocket::connected, socket, [socket, request] { socket->write(request); });
    QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    socket->connectToHost(QStringLiteral("127.0.0.1"), port);
}

QString hostPort(quint16 port)
{
    return QStringLiteral("127.0.0.1:%1").arg(port);
}

// Engines 0-2 are simulated engines the poller and Prometheus both watch; 3 answers /metrics with
// names of no known generation; 4 is in the profile but not scraped. Prometheus also scrapes a
// simulated engine that is not in the profile.
enum { kPrefill = 0, kDecodeOld = 1, kDecodeNew = 2, kOdd = 3, kGhost = 4, kProfileEngines = 5, kPolled = 3 };

} // namespace

class TestPrometheusSource final : public QObject {
    Q_OBJECT

private:
    std::vector<std::unique_ptr<SimEngine>> m_engines; // kPrefill, kDecodeOld, kDecodeNew, stranger
    std::unique_ptr<HttpServer> m_odd;
    quint16 m_ghostPort = 0;
    std::unique_ptr<test::PrometheusHarness> m_prometheus;
    std::unique_ptr<SeriesStore> m_polled; // fed by the console's own poller
    std::unique_ptr<MetricsPoller> m_poller;
    std::unique_ptr<SeriesStore> m_fromProm; // fed by the Prometheus source
    std::unique_ptr<PrometheusSource> m_source;
    PrometheusStatus m_status;
    int m_backfillRounds = 0;
    qint64 m_firstLiveRoundMs = 0;

    std::vector<std::string> profileHostPorts() const
    {
        return { hostPort(m_engines[0]->port()).toStdString(), hostPort(m_engines[1]->port()).toStdString(),
            hostPort(m_engines[2]->port()).toStdString(), hostPort(m_odd->port()).toStdString(),
            hostPort(m_ghostPort).toStdString() };
    }

    // Mean of a series over the slots [from, to] where both stores hold a value.
    static bool commonMeans(const SeriesStore &a, const SeriesStore &b, const SeriesId &id, qint64 from, qint64 to,
        double *meanA, double *meanB, int *slotCount)
    {
        double sa = 0, sb = 0;
        int n = 0;
        for (qint64 t = from; t <= to; t += 1000) {
            const float va = a.valueAt(id, t);
            const float vb = b.valueAt(id, t);
            if (std::isnan(va) || std::isnan(vb))
                continue;
            sa += double(va);
            sb += double(vb);
            ++n;
        }
        *slotCount = n;
        if (n == 0)
            return false;
        *meanA = sa / n;
        *meanB = sb / n;
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (test::PrometheusHarness::binary().isEmpty()) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("prometheus is not installed (Debian package prometheus; scripts/setup installs it)");
            QSKIP("prometheus is not installed");
        }
        for (int i = 0; i < 4; ++i) {
            EngineOptions o;
            o.role = i == kPrefill ? EngineRole::Prefill : EngineRole::Decode;
            o.host = QHostAddress(QStringLiteral("127.0.0.1"));
            o.dpRank = i;
            o.timeScale = 2;
            o.timing.jitter = false;
            o.flavor = i == kDecodeNew ? MetricsFlavor::Main : MetricsFlavor::V0_9_1;
            m_engines.push_back(std::make_unique<SimEngine>(o));
            QVERIFY(m_engines.back()->start());
        }
        // Names of no generation this console knows (a future rename, or not vLLM at all).
        m_odd = std::make_unique<HttpServer>();
        m_odd->setHandler([](const HttpRequest &req, const HttpResponderPtr &res) {
            if (req.path == "/metrics")
                res->respond(200, "text/plain; version=0.0.4",
                    "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running 3\n"
                    "# TYPE vllm:kv_usage_ratio gauge\nvllm:kv_usage_ratio 0.5\n");
            else
                res->respond(404, "text/plain", "not found\n");
        });
        QVERIFY(m_odd->listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
        {
            QTcpServer probe; // a port nobody listens on: the engine Prometheus does not scrape
            QVERIFY(probe.listen(QHostAddress(QStringLiteral("127.0.0.1")), 0));
            m_ghostPort = probe.serverPort();
        }

        m_prometheus = std::make_unique<test::PrometheusHarness>();
        QString error;
        QVERIFY2(m_prometheus->start(
                     { hostPort(m_engines[0]->port()), hostPort(m_engines[1]->port()), hostPort(m_engines[2]->port()),
                         hostPort(m_odd->port()), hostPort(m_engines[3]->port()) },
                     &error),
            qPrintable(error));
        qInfo("prometheus pid %lld on %s", m_prometheus->pid(), qPrintable(m_prometheus->url().toString()));

        // The console's own poller on the three simulated engines of the profile.
        m_polled = std::make_unique<SeriesStore>(std::vector<Role> { Role::Prefill, Role::Decode, Role::Decode });
        m_poller = std::make_unique<MetricsPoller>(&extract);
        m_poller->setInterval(1000);
        connect(m_poller.get(), &MetricsPoller::batchReady, this, [this](const PollBatch &batch) {
            m_polled->ingest(toPollRound(batch, m_polled->engineCount(), QDateTime::currentMSecsSinceEpoch()));
        });
        QList<PollTarget> targets;
        for (int i = 0; i < kPolled; ++i)
            targets.append({ i, QByteArrayLiteral("127.0.0.1"), m_engines[std::size_t(i)]->port(), false, {} });
        m_poller->setTargets(targets);
        m_poller->start();

        // Steady decode load on both decode engines, none on the prefill engine.
        for (int r = 0; r < 20; ++r)
            sendCompletion(this, m_engines[kDecodeOld]->port(), 200, 20000);
        for (int r = 0; r < 12; ++r)
            sendCompletion(this, m_engines[kDecodeNew]->port(), 300, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_engines[kDecodeOld]->state().running, 20, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(m_engines[kDecodeNew]->state().running, 12, 10000);

        QVERIFY2(m_prometheus->waitForScrapes(5, 20000, &error), qPrintable(error));
        // History for the backfill to find: Prometheus scrapes for a while before the source connects.
        QTest::qWait(6000);

        std::vector<Role> roles { Role::Prefill, Role::Decode, Role::Decode, Role::Decode, Role::Decode };
        m_fromProm = std::make_unique<SeriesStore>(roles);
        PrometheusSourceConfig config;
        config.endpoint.base = m_prometheus->url();
        config.endpoint.timeoutMs = 10000;
        m_source = std::make_unique<PrometheusSource>(config);
        connect(m_source.get(), &PrometheusSource::statusChanged, this,
            [this](const PrometheusStatus &s) { m_status = s; });
        connect(m_source.get(), &PrometheusSource::delivered, this, [this](const PrometheusDelivery &d) {
            QCOMPARE(d.scrapeIntervalMs, 1000); // from /api/v1/targets
            for (const PollRound &round : d.rounds)
                m_fromProm->ingest(round);
            if (d.backfill)
                m_backfillRounds += int(d.rounds.size());
            else if (m_firstLiveRoundMs == 0 && !d.rounds.empty())
                m_firstLiveRoundMs = d.rounds.front().timeMs;
        });
        m_source->setEngines(profileHostPorts());
        m_source->start();
        QTRY_VERIFY_WITH_TIMEOUT(m_status.phase == PrometheusStatus::Phase::Live, 20000);
        QVERIFY2(m_status.error.isEmpty(), qPrintable(m_status.error));
        qInfo("backfill: %d rounds in %lld ms, %lld bytes", m_backfillRounds, m_status.backfillMs,
            m_status.backfillBytes);
        QVERIFY(m_backfillRounds >= 5); // the history from before the source connected
    }

    void cleanupTestCase()
    {
        m_source.reset();
        if (m_poller)
            m_poller->stop();
        m_poller.reset();
        if (m_prometheus)
            m_prometheus->stop();
    }

    void generationsDetected()
    {
        QCOMPARE(m_status.v091Engines, 2);
        QCOMPARE(m_status.currentEngines, 1);
        QCOMPARE(m_status.unknownGeneration, QList<int> { kOdd });
        QCOMPARE(m_status.notTargets, QList<int> { kGhost });
        QCOMPARE(m_status.unmapped, QStringList { hostPort(m_engines[3]->port()) }); // reported, not dropped
        // The odd engine and the ghost are errors in the store, with what is wrong.
        QTRY_VERIFY_WITH_TIMEOUT(m_fromProm->status(kOdd).lastError.has_value(), 10000);
        QVERIFY2(m_fromProm->status(kOdd).lastError->message.contains(QLatin1String("unknown metric generation")),
            qPrintable(m_fromProm->status(kOdd).lastError->message));
        QTRY_VERIFY_WITH_TIMEOUT(m_fromProm->status(kGhost).lastError.has_value(), 10000);
        QVERIFY2(m_fromProm->status(kGhost).lastError->message.contains(QLatin1String("not a Prometheus target")),
            qPrintable(m_fromProm->status(kGhost).lastError->message));
        QTRY_COMPARE_WITH_TIMEOUT(m_fromProm->status(kGhost).freshness, Freshness::Unreachable, 15000);
    }

    void tokenRatesAgreeWithThePoller()
    {
        // Live for a while, so the window holds backfilled and refreshed slotCount alike.
        QTRY_VERIFY_WITH_TIMEOUT(m_firstLiveRoundMs > 0, 10000);
        QTest::qWait(8000);
        const qint64 to = QDateTime::currentMSecsSinceEpoch() - 3000; // both stores have settled this far
        const qint64 from = to - 14000;
        QVERIFY2(from < m_firstLiveRoundMs, "the window should reach into the backfilled history");
        for (const int e : { int(kDecodeOld), int(kDecodeNew) }) {
            double a = 0, b = 0;
            int slotCount = 0;
            QVERIFY(commonMeans(*m_polled, *m_fromProm, SeriesId::forEngine(e, Metric::GenerationTokensRate), from, to,
                &a, &b, &slotCount));
            qInfo("engine %d: generation tokens/s: poller %.1f, Prometheus %.1f over %d common slots", e, a, b,
                slotCount);
            QVERIFY(slotCount >= 8);
            QVERIFY(a > 50);
            // Both stores take Δtokens/Δt between consecutive scrapes of the same counter; over n slotCount the
            // mean is (C(end) - C(start)) / time for each scraper, whose ends differ by at most one scrape
            // interval (1 s) at either side: |a - b| / a <= 2 / n plus the engine's own rate variation
            // within 1 s (MTP acceptance is random per step): 2/n + 5 %.
            const double tolerance = 2.0 / slotCount + 0.05;
            QVERIFY2(std::abs(a - b) <= tolerance * a,
                qPrintable(QStringLiteral("poller %1 vs Prometheus %2 tokens/s").arg(a).arg(b)));
            // Running requests are the same number in both (steady load).
            QVERIFY(commonMeans(
                *m_polled, *m_fromProm, SeriesId::forEngine(e, Metric::Running), from, to, &a, &b, &slotCount));
            QCOMPARE(a, b);
        }
        // The idle prefill engine: zero in both, exactly.
        double a = -1, b = -1;
        int slotCount = 0;
        QVERIFY(commonMeans(*m_polled, *m_fromProm, SeriesId::forEngine(kPrefill, Metric::GenerationTokensRate), from,
            to, &a, &b, &slotCount));
        QCOMPARE(a, 0.0);
        QCOMPARE(b, 0.0);
        QCOMPARE(m_fromProm->status(kDecodeOld).freshness, Freshness::Fresh);
        QCOMPARE(m_fromProm->status(kDecodeNew).freshness, Freshness::Fresh);
        qInfo("refresh: %llu so far, the last took %lld ms wall and read %lld bytes", m_status.refreshes,
            m_status.lastRefreshMs, m_status.lastRefreshBytes);
    }

    void gaugesAgreeExactly()
    {
        // Stalled engines hold running, waiting and KV cache usage still: both scrapers see the same values.
        // Stalled while they run requests (under ASan on a busy machine the steady load can leave an engine
        // between two requests for a moment, and an idle engine stalls with an empty KV cache).
        QTRY_VERIFY_WITH_TIMEOUT(
            m_engines[kDecodeOld]->state().running > 0 && m_engines[kDecodeNew]->state().running > 0, 15000);
        m_engines[kDecodeOld]->setFault(FaultKind::Stall);
        m_engines[kDecodeNew]->setFault(FaultKind::Stall);
        for (int r = 0; r < 3; ++r)
            sendCompletion(this, m_engines[kDecodeOld]->port(), 100, 100); // they queue
        QTRY_COMPARE_WITH_TIMEOUT(m_engines[kDecodeOld]->state().waiting, 3, 5000);
        const qint64 stalledAt = QDateTime::currentMSecsSinceEpoch();
        QTest::qWait(7000);
        const qint64 from = stalledAt + 2000;
        const qint64 to = QDateTime::currentMSecsSinceEpoch() - 2000;
        for (int e = 0; e < kPolled; ++e) {
            int compared = 0;
            for (qint64 t = from; t <= to; t += 1000) {
                for (const Metric m : { Metric::Running, Metric::Waiting, Metric::KvUsage }) {
                    const float a = m_polled->valueAt(SeriesId::forEngine(e, m), t);
                    const float b = m_fromProm->valueAt(SeriesId::forEngine(e, m), t);
                    if (std::isnan(a) || std::isnan(b))
                        continue;
                    QCOMPARE(b, a);
                    ++compared;
                }
            }
            QVERIFY2(compared >= 6, qPrintable(QStringLiteral("engine %1: %2 values compared").arg(e).arg(compared)));
        }
        QVERIFY(m_fromProm->valueAt(SeriesId::forEngine(kDecodeOld, Metric::KvUsage), to) > 0);
        QVERIFY(m_fromProm->valueAt(SeriesId::forEngine(kDecodeNew, Metric::KvUsage), to) > 0); // current names
        QCOMPARE(m_fromProm->valueAt(SeriesId::forEngine(kDecodeOld, Metric::Waiting), to), 3.0f);
        // A settled slot (the newest one may not hold every engine's scrape yet): the pool's sum, 20 + 12.
        QCOMPARE(m_fromProm->valueAt(SeriesId::forPool(Pool::Decode, Metric::Running), to), 32.0f);
        QCOMPARE(m_fromProm->valueAt(SeriesId::forPool(Pool::Decode, Metric::Running), to),
            m_polled->valueAt(SeriesId::forPool(Pool::Decode, Metric::Running), to));
    }

    void targetDownMakesTheEngineUnreachable()
    {
        m_engines[kDecodeNew]->stop(); // a killed engine: connection refused
        QTRY_COMPARE_WITH_TIMEOUT(m_fromProm->status(kDecodeNew).freshness, Freshness::Unreachable, 20000);
        // Prometheus' own reason, read from /api/v1/targets once the target is down.
        QTRY_VERIFY_WITH_TIMEOUT(m_fromProm->status(kDecodeNew).lastError
                && m_fromProm->status(kDecodeNew).lastError->message.contains(QLatin1String("connection refused")),
            20000);
        QCOMPARE(m_fromProm->status(kDecodeNew).lastError->kind, PollError::Kind::Refused);
        QCOMPARE(m_fromProm->status(kDecodeOld).freshness, Freshness::Fresh); // nothing else is affected
    }
};

QTEST_GUILESS_MAIN(TestPrometheusSource)
#include "tst_prometheussource.moc"
