// SPDX-License-Identifier: MIT
// The poller's own HTTP/1.1 client (HttpGetClient inside the poll loop), through MetricsPoller, against
// simulated engines and against scripted hostile servers on 127.0.0.81: chunked bodies with odd chunk
// sizes, headers split across reads, a close after the headers, closes between polls, a 10 MB body,
// a server that never answers, a refused port, a reset, HTTP/1.0 and Connection: close servers.
// Every poll reports the kind of failure the poller distinguishes, with a reason.
#include "engine/simengine.h"
#include "hostilehttpserver.h"
#include "net/metricspoller.h"
#include "net/vllmbodyparser.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <map>
#include <memory>

using namespace pd;
using namespace pd::sim;

namespace {

const QHostAddress kHostileAddress(QStringLiteral("127.0.0.81"));
constexpr double kSampleGenerationTokens = 2.97691e+07; // vllm:generation_tokens_total of the sample

QByteArray sampleBody()
{
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/metrics/sample-vllm-metrics.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

struct Seen {
    QList<PollOutcome> outcomes;
    int ok() const
    {
        int n = 0;
        for (const PollOutcome &o : outcomes)
            n += o.status == PollStatus::Ok ? 1 : 0;
        return n;
    }
    PollOutcome last() const { return outcomes.isEmpty() ? PollOutcome() : outcomes.last(); }
};

// Runs `poller` until every engine in `wanted` has at least its count of outcomes, or `timeoutMs`.
std::map<int, Seen> collect(MetricsPoller &poller, const std::map<int, int> &wanted, int timeoutMs)
{
    std::map<int, Seen> seen;
    QObject context;
    QObject::connect(&poller, &MetricsPoller::batchReady, &context, [&seen](const PollBatch &batch) {
        for (const PollOutcome &o : batch.outcomes)
            seen[o.engine].outcomes.append(o);
    });
    poller.start();
    static_cast<void>(QTest::qWaitFor( // the caller checks what it waited for
        [&] {
            for (const auto &[engine, count] : wanted)
                if (seen[engine].outcomes.size() < count)
                    return false;
            return true;
        },
        timeoutMs));
    poller.stop();
    return seen;
}

QString describe(const Seen &s)
{
    QStringList parts;
    for (const PollOutcome &o : s.outcomes)
        parts << pollStatusName(o.status)
                + (o.error.isEmpty() ? QString() : QLatin1String(" (") + o.error + QLatin1Char(')'));
    return parts.join(QLatin1String("; "));
}

} // namespace

class TestHttpGetClient : public QObject {
    Q_OBJECT

private:
    QByteArray m_sample;
    std::vector<std::unique_ptr<HostileHttpServer>> m_servers;

    HostileHttpServer *serve(HostileHttpServer::Behavior behavior)
    {
        m_servers.push_back(std::make_unique<HostileHttpServer>(behavior, m_sample, kHostileAddress));
        return m_servers.back()->port() ? m_servers.back().get() : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_sample = sampleBody();
        QVERIFY(m_sample.size() > 10000);
    }

    void cleanup() { m_servers.clear(); }

    void pollsSimulatedEnginesOnKeptConnections()
    {
        std::vector<std::unique_ptr<SimEngine>> engines;
        QList<PollTarget> targets;
        for (int i = 0; i < 3; ++i) {
            EngineOptions o;
            o.host = QHostAddress(QStringLiteral("127.0.0.1"));
            o.port = 0;
            engines.push_back(std::make_unique<SimEngine>(o));
            QVERIFY(engines.back()->start());
            targets.append({ i, QByteArrayLiteral("127.0.0.1"), engines.back()->port(), false, {} });
        }
        MetricsPoller poller(parseVllmMetricsBody);
        poller.setInterval(100);
        poller.setTargets(targets);
        const auto seen = collect(poller, { { 0, 5 }, { 1, 5 }, { 2, 5 } }, 10000);
        for (int i = 0; i < 3; ++i) {
            const Seen &s = seen.at(i);
            QVERIFY2(s.outcomes.size() >= 5, qPrintable(describe(s)));
            QCOMPARE(s.ok(), int(s.outcomes.size()));
            QCOMPARE(s.last().httpStatus, 200);
            QCOMPARE(s.last().healthStatus, 200);
            QVERIFY(s.last().bodyBytes > 10000);
            QVERIFY(s.last().metrics.has_value());
            QCOMPARE(s.last().metrics->running, 0.0);
        }
    }

    void everyHostileServerGetsItsKindOfOutcome()
    {
        using B = HostileHttpServer::Behavior;
        const QList<B> behaviors { B::KeepAlive, B::Chunked, B::SplitHead, B::CloseAfterHeaders, B::CloseBetweenPolls,
            B::DropSecondRequest, B::ConnectionClose, B::Http10UntilClose, B::HugeLength, B::HugeChunked,
            B::NeverAnswers, B::ResetMidHead, B::Status503, B::NotHttp };
        QList<PollTarget> targets;
        std::map<int, int> wanted;
        for (qsizetype i = 0; i < behaviors.size(); ++i) {
            HostileHttpServer *server = serve(behaviors.at(i));
            QVERIFY2(server, "could not listen on 127.0.0.81");
            targets.append({ int(i), kHostileAddress.toString().toUtf8(), server->port(), false, {} });
            const bool good = i <= behaviors.indexOf(B::Http10UntilClose) && behaviors.at(i) != B::CloseAfterHeaders;
            wanted[int(i)] = good ? 6 : 2;
        }
        // A port nothing listens on: listened once, then closed.
        const int refused = int(targets.size());
        {
            QTcpServer gone;
            QVERIFY(gone.listen(QHostAddress(QStringLiteral("127.0.0.82")), 0));
            targets.append({ refused, QByteArrayLiteral("127.0.0.82"), gone.serverPort(), false, {} });
        }
        wanted[refused] = 2;

        MetricsPoller poller(parseVllmMetricsBody);
        poller.setInterval(150);
        poller.setTimeout(1500); // generous: the servers share this thread, the machine is shared too
        poller.setTargets(targets);
        const auto seen = collect(poller, wanted, 25000);
        auto of
            = [&](B b) { return seen.count(int(behaviors.indexOf(b))) ? seen.at(int(behaviors.indexOf(b))) : Seen(); };

        // The servers that answer properly, however oddly: every poll good, the sample's numbers.
        for (B b : { B::KeepAlive, B::Chunked, B::SplitHead, B::CloseBetweenPolls, B::DropSecondRequest,
                 B::ConnectionClose, B::Http10UntilClose }) {
            const Seen s = of(b);
            const QByteArray what = QByteArray::number(int(b)) + ": " + describe(s).toUtf8();
            QVERIFY2(s.outcomes.size() >= 6, what.constData());
            QVERIFY2(s.ok() == int(s.outcomes.size()), what.constData());
            QCOMPARE(s.last().bodyBytes, qint64(m_sample.size()));
            QCOMPARE(s.last().metrics->generationTokens, kSampleGenerationTokens);
            QCOMPARE(s.last().healthStatus, 200);
        }
        // Keep-alive: one connection for every request.
        const HostileHttpServer &keep = *m_servers[std::size_t(behaviors.indexOf(B::KeepAlive))];
        QCOMPARE(keep.connections(), 1);
        QVERIFY(keep.requests() >= 6);
        // A server closing between polls, or on the second request of a connection: new connections,
        // and the request that met a dead kept-alive connection went out once more.
        QVERIFY(m_servers[std::size_t(behaviors.indexOf(B::CloseBetweenPolls))]->connections() >= 4);
        const HostileHttpServer &drop = *m_servers[std::size_t(behaviors.indexOf(B::DropSecondRequest))];
        QVERIFY2(drop.connections() >= 4, qPrintable(QString::number(drop.connections())));
        QVERIFY(drop.requests() > drop.connections()); // the dropped requests were seen and retried

        const Seen afterHeaders = of(B::CloseAfterHeaders);
        QCOMPARE(afterHeaders.ok(), 0);
        QCOMPARE(afterHeaders.last().status, PollStatus::Failed);
        QVERIFY2(afterHeaders.last().error.startsWith(QLatin1String("/metrics: "))
                && afterHeaders.last().error.contains(QLatin1String("body")),
            qPrintable(afterHeaders.last().error));

        for (B b : { B::HugeLength, B::HugeChunked }) {
            const Seen s = of(b);
            QVERIFY2(!s.outcomes.isEmpty(), "the 10 MB server was polled");
            QCOMPARE(s.ok(), 0);
            QCOMPARE(s.last().status, PollStatus::Malformed);
            QVERIFY2(s.last().error.contains(QLatin1String("the body exceeds 4 MiB")), qPrintable(s.last().error));
        }

        const Seen never = of(B::NeverAnswers);
        QCOMPARE(never.last().status, PollStatus::Timeout);
        QVERIFY2(never.last().error.contains(QLatin1String("timed out")), qPrintable(never.last().error));
        QVERIFY(never.last().latencyMs >= 1400);

        const Seen reset = of(B::ResetMidHead);
        QCOMPARE(reset.ok(), 0);
        QCOMPARE(reset.last().status, PollStatus::Failed);
        QVERIFY2(!reset.last().error.isEmpty(), "a reset carries a reason");

        const Seen unavailable = of(B::Status503);
        QCOMPARE(unavailable.last().status, PollStatus::HttpError);
        QCOMPARE(unavailable.last().httpStatus, 503);
        QCOMPARE(unavailable.last().healthStatus, 200);
        QVERIFY2(unavailable.last().error.contains(QLatin1String("503")), qPrintable(unavailable.last().error));

        const Seen notHttp = of(B::NotHttp);
        QCOMPARE(notHttp.last().status, PollStatus::Failed);
        QVERIFY2(notHttp.last().error.contains(QLatin1String("not an HTTP")), qPrintable(notHttp.last().error));

        const Seen gone = seen.count(refused) ? seen.at(refused) : Seen();
        QCOMPARE(gone.last().status, PollStatus::Refused);
        QVERIFY2(gone.last().error.contains(QLatin1String("onnect")), qPrintable(gone.last().error));
        QCOMPARE(gone.last().healthStatus, 0);
    }

    // Host names go to libcurl (it resolves without blocking the loop); PollTransport::Curl sends
    // every target there. Both read the same answers the same way.
    void namesAndTheCurlTransportGoThroughLibcurl()
    {
        using B = HostileHttpServer::Behavior;
        HostileHttpServer *chunked = serve(B::Chunked);
        HostileHttpServer *close10 = serve(B::Http10UntilClose);
        QVERIFY(chunked && close10);
        auto localhost
            = std::make_unique<HostileHttpServer>(B::KeepAlive, m_sample, QHostAddress(QHostAddress::LocalHost));
        QVERIFY(localhost->port());
        for (PollTransport transport : { PollTransport::Native, PollTransport::Curl }) {
            MetricsPoller poller(parseVllmMetricsBody);
            poller.setInterval(150);
            poller.setTransport(transport);
            poller.setTargets({ { 0, kHostileAddress.toString().toUtf8(), chunked->port(), false, {} },
                { 1, kHostileAddress.toString().toUtf8(), close10->port(), false, {} },
                { 2, QByteArrayLiteral("localhost"), localhost->port(), false, {} } });
            const auto seen = collect(poller, { { 0, 3 }, { 1, 3 }, { 2, 3 } }, 10000);
            for (int i = 0; i < 3; ++i) {
                const Seen &s = seen.at(i);
                QVERIFY2(s.outcomes.size() >= 3 && s.ok() == int(s.outcomes.size()), qPrintable(describe(s)));
                QCOMPARE(s.last().metrics->generationTokens, kSampleGenerationTokens);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestHttpGetClient)
#include "tst_httpgetclient.moc"
