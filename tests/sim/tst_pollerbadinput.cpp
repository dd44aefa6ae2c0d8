// SPDX-License-Identifier: MIT
// Bad answers from engines, through the real poller (libcurl on its own thread), the real vLLM body
// parser and the real series store: a 10 MB /metrics, a single 1 MB line, random bytes, a body cut
// off mid-line or mid-transfer, a counter going backwards, an engine that answers after 30 s. Each
// engine is marked with its reason; a healthy engine polled in the same rounds is never affected;
// the test's own (GUI) thread keeps spinning its event loop throughout.
#include "http/httpserver.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"
#include "net/vllmbodyparser.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <memory>

using namespace pd;
using namespace pd::sim;

namespace {

QByteArray sampleBody()
{
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/metrics/sample-vllm-metrics.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// The sample exposition with vllm:generation_tokens_total set to `value`.
QByteArray sampleWithGenerationTokens(const QByteArray &sample, double value)
{
    QByteArray body;
    for (const QByteArray &line : sample.split('\n')) {
        if (line.startsWith("vllm:generation_tokens_total{")) {
            body += line.left(line.lastIndexOf(' ') + 1) + QByteArray::number(value, 'f', 1) + '\n';
        } else if (!line.isEmpty()) {
            body += line + '\n';
        }
    }
    return body;
}

} // namespace

class TestPollerBadInput : public QObject {
    Q_OBJECT

private:
    enum Engine { Good, Huge, LongLineValid, LongLineGarbage, RandomBytes, CutMidLine, CounterBackwards, Late, CutMidTransfer, EngineCount };

    QByteArray m_sample;
    std::vector<std::unique_ptr<HttpServer>> m_servers;
    std::vector<HttpResponderPtr> m_neverAnswered; // the late engine's requests, answered after the test
    std::unique_ptr<QTcpServer> m_cutServer;        // closes mid-body
    int m_backwardsPolls = 0;

    HttpServer *serve(HttpHandler handler)
    {
        auto server = std::make_unique<HttpServer>();
        server->setHandler(std::move(handler));
        if (!server->listen(QHostAddress(QStringLiteral("127.0.0.1")), 0))
            return nullptr;
        m_servers.push_back(std::move(server));
        return m_servers.back().get();
    }

    // An engine that answers /health 200 and /metrics with `body`.
    HttpServer *serveBody(const QByteArray &body)
    {
        return serve([body](const HttpRequest &request, const HttpResponderPtr &responder) {
            if (request.path == "/health")
                responder->respond(200, "text/plain", {});
            else
                responder->respond(200, "text/plain; version=0.0.4", body);
        });
    }

    quint16 startCutServer()
    {
        m_cutServer = std::make_unique<QTcpServer>();
        connect(m_cutServer.get(), &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_cutServer->nextPendingConnection()) {
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    socket->readAll();
                    // Promises the whole sample, sends a third of it, and goes away.
                    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                                  QByteArray::number(m_sample.size()) + "\r\n\r\n" + m_sample.left(m_sample.size() / 3));
                    socket->flush();
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        return m_cutServer->listen(QHostAddress(QStringLiteral("127.0.0.1")), 0) ? m_cutServer->serverPort() : 0;
    }

    // Each bad engine's last outcome: the status and the reason its input earned, never Ok.
    static void verifyEachBadEngine(const QHash<int, PollOutcome> &last, const QHash<int, int> &okCount)
    {
    const PollOutcome huge10 = last.value(Huge);
    QCOMPARE(huge10.status, PollStatus::Malformed);
    QVERIFY2(huge10.error.contains(QStringLiteral("4 MiB")), qPrintable(huge10.error));
    QCOMPARE(okCount.value(Huge), 0);

    const PollOutcome longValid = last.value(LongLineValid);
    QCOMPARE(longValid.status, PollStatus::Ok);
    QCOMPARE(longValid.metrics->generationTokens, 2.97691e+07);

    const PollOutcome longGarbage = last.value(LongLineGarbage);
    QCOMPARE(longGarbage.status, PollStatus::Malformed);
    QVERIFY2(longGarbage.error.contains(QStringLiteral("line")), qPrintable(longGarbage.error));
    QCOMPARE(okCount.value(LongLineGarbage), 0);

    const PollOutcome random = last.value(RandomBytes);
    QCOMPARE(random.status, PollStatus::Malformed);
    QVERIFY2(random.error.contains(QStringLiteral("line 1")), qPrintable(random.error));

    const PollOutcome cutLine = last.value(CutMidLine);
    QCOMPARE(cutLine.status, PollStatus::Malformed);
    QVERIFY2(!cutLine.error.isEmpty(), "a body cut mid-line carries a reason");
    QCOMPARE(okCount.value(CutMidLine), 0);

    const PollOutcome cutTransfer = last.value(CutMidTransfer);
    QCOMPARE(cutTransfer.status, PollStatus::Failed);
    QVERIFY2(cutTransfer.error.contains(QStringLiteral("/metrics")), qPrintable(cutTransfer.error));

    const PollOutcome late = last.value(Late);
    QCOMPARE(late.status, PollStatus::Timeout);
    QVERIFY2(late.error.contains(QStringLiteral("imeout")) || late.error.contains(QStringLiteral("timed out")),
             qPrintable(late.error));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_sample = sampleBody();
        QVERIFY(m_sample.size() > 10000);
    }

    void cleanupTestCase()
    {
        for (const HttpResponderPtr &r : m_neverAnswered)
            r->abort();
        m_neverAnswered.clear();
        m_servers.clear();
        m_cutServer.reset();
    }

    void everyBadEngineIsMarkedAndTheGoodOneIsNotAffected()
    {
        QList<PollTarget> targets(EngineCount);
        auto add = [&](Engine engine, quint16 port) {
            QVERIFY2(port != 0, "could not listen on 127.0.0.1");
            targets[engine] = PollTarget{int(engine), QByteArrayLiteral("127.0.0.1"), port, false, {} };
        };
        auto portOf = [](HttpServer *server) { return server ? server->port() : quint16(0); };

        add(Good, portOf(serveBody(m_sample)));

        QByteArray huge;
        huge.reserve(10 * 1024 * 1024 + m_sample.size());
        while (huge.size() < 10 * 1024 * 1024)
            huge += m_sample;
        add(Huge, portOf(serveBody(huge)));

        // A legal 1 MB HELP line in front of the sample: parses, every metric still read.
        add(LongLineValid, portOf(serveBody("# HELP vllm:long_help " + QByteArray(1024 * 1024, 'x') + "\n" + m_sample)));
        // A 1 MB line of something that is not a sample.
        add(LongLineGarbage, portOf(serveBody(m_sample + "vllm:num_requests_running{engine=\"0\"} " + QByteArray(1024 * 1024, '9') + "z\n")));

        QByteArray noise(64 * 1024, Qt::Uninitialized);
        QRandomGenerator generator(20261129);
        for (char &c : noise)
            c = char(generator.bounded(256));
        add(RandomBytes, portOf(serveBody(noise)));

        // A complete HTTP answer whose body stops in the middle of a sample line.
        const qsizetype cut = m_sample.indexOf("vllm:num_requests_running{") + 20;
        add(CutMidLine, portOf(serveBody(m_sample.left(cut))));

        add(CounterBackwards, portOf(serve([this](const HttpRequest &request, const HttpResponderPtr &responder) {
            if (request.path == "/health") {
                responder->respond(200, "text/plain", {});
                return;
            }
            // 1,000 tokens per poll, then the process restarts and the counter starts again low.
            const int poll = m_backwardsPolls++;
            const double value = poll < 8 ? 1e6 + 1000.0 * poll : 10.0 + 1000.0 * (poll - 8);
            responder->respond(200, "text/plain", sampleWithGenerationTokens(m_sample, value));
        })));

        add(Late, portOf(serve([this](const HttpRequest &, const HttpResponderPtr &responder) {
            m_neverAnswered.push_back(responder); // would answer after 30 s; the poller gives up long before
        })));

        add(CutMidTransfer, startCutServer());

        SeriesStore store(std::vector<Role>(EngineCount, Role::Decode));
        MetricsPoller poller(parseVllmMetricsBody);
        poller.setInterval(250);
        poller.setTimeout(800);
        poller.setTargets(targets);

        QHash<int, PollOutcome> last;
        QHash<int, int> okCount;
        int goodRounds = 0;
        int batches = 0;
        int guiTicks = 0;
        QTimer guiTick;
        connect(&guiTick, &QTimer::timeout, this, [&guiTicks] { ++guiTicks; });
        guiTick.start(20);

        connect(&poller, &MetricsPoller::batchReady, this, [&](const PollBatch &batch) {
            ++batches;
            for (const PollOutcome &o : batch.outcomes) {
                last.insert(o.engine, o);
                if (o.status == PollStatus::Ok)
                    okCount[o.engine] += 1;
                if (o.engine == Good) {
                    ++goodRounds;
                    QCOMPARE(o.status, PollStatus::Ok);
                    QVERIFY(o.metrics.has_value());
                }
            }
            store.ingest(toPollRound(batch, store.engineCount(), QDateTime::currentMSecsSinceEpoch()));
        });
        poller.start();

        auto done = [&] {
            return last.size() == EngineCount && okCount.value(CounterBackwards) >= 20 && goodRounds >= 8;
        };
        static_cast<void>(QTest::qWaitFor(done, 20000)); // the caller checks what it waited for
        poller.stop();
        guiTick.stop();
        QVERIFY2(done(), qPrintable(QStringLiteral("outcomes for %1 of %2 engines, %3 backwards polls, %4 good rounds")
                                        .arg(last.size()).arg(int(EngineCount)).arg(m_backwardsPolls).arg(goodRounds)));

        // The healthy engine: every poll good, the numbers of the sample.
        QCOMPARE(okCount.value(Good), goodRounds);
        QCOMPARE(last.value(Good).metrics->generationTokens, 2.97691e+07);

        verifyEachBadEngine(last, okCount);
        if (QTest::currentTestFailed())
            return;

        // The counter that went backwards: polls stay good, the reset is seen, no negative rate.
        QVERIFY2(okCount.value(CounterBackwards) >= 20, qPrintable(last.value(CounterBackwards).error));
        QVERIFY(store.status(CounterBackwards).restarts >= 1);
        const std::int64_t now = QDateTime::currentMSecsSinceEpoch();
        const SeriesView rates = store.seriesView(SeriesId::forEngine(CounterBackwards, Metric::GenerationTokensRate),
                                                  now - 60'000, now + 1000, 4000);
        int finite = 0;
        for (const QPointF &p : rates.points) {
            if (std::isnan(p.y()))
                continue;
            ++finite;
            QVERIFY2(p.y() >= 0, qPrintable(QStringLiteral("negative token rate %1 after a counter reset").arg(p.y())));
        }
        QVERIFY2(finite >= 4, "rates are stored on both sides of the reset");

        // Bad engines are not fresh; the good one is.
        QCOMPARE(store.status(Good).freshness, Freshness::Fresh);
        QVERIFY(store.status(RandomBytes).freshness != Freshness::Fresh);
        QVERIFY(store.status(Late).lastError.has_value());

        // The test's thread spun its event loop all along (the poller is on its own thread).
        QVERIFY2(guiTicks >= 5, qPrintable(QStringLiteral("%1 ticks").arg(guiTicks)));
        QVERIFY(batches >= 8);
    }
};

QTEST_GUILESS_MAIN(TestPollerBadInput)
#include "tst_pollerbadinput.moc"
