// SPDX-License-Identifier: MIT
// WarmUpRun over a canned transport (no socket, no simulator): the requests it sends (path, headers,
// the body of each index, at most `concurrency` at once), where its model comes from, how it classifies
// error answers, broken connections and timeouts, and that cancel() and deleting the run end what is in
// flight. tests/warmup/tst_warmuprun.cpp runs the same class against pdsim's proxy and a hostile server.
#include "cannedtransport.h"
#include "ops/warmuprun.h"

#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

Q_DECLARE_METATYPE(pd::test::CannedReply)

using namespace pd;
using pd::test::CannedReply;
using pd::test::CannedTransport;

namespace {

ProxyEndpoint endpoint()
{
    return { QUrl(QStringLiteral("http://127.0.0.121:8000")), "s3cr3t", {}, 1500 };
}

WarmUpOptions options(int count = 1, bool stream = true)
{
    WarmUpOptions o;
    o.count = count;
    o.concurrency = 1;
    o.promptTokens = 8;
    o.maxTokens = 2;
    o.stream = stream;
    o.model = QStringLiteral("m");
    o.requestTimeoutMs = 5000;
    return o;
}

QByteArray sseEvent(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}
const QByteArray kChunkA = sseEvent(R"({"id":"c","object":"text_completion","choices":[{"index":0,"text":"a"}]})");
const QByteArray kChunkB = sseEvent(R"({"id":"c","object":"text_completion","choices":[{"index":0,"text":"b"}]})");
const QByteArray kUsage = sseEvent(
    R"({"id":"c","object":"text_completion","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":2}})");
const QByteArray kDone = sseEvent("[DONE]");
const QByteArray kWhole
    = R"({"id":"c","object":"text_completion","choices":[{"index":0,"text":"ab","finish_reason":"length"}],)"
      R"("usage":{"prompt_tokens":8,"completion_tokens":2}})";

CannedReply completeStream()
{
    return CannedReply::streamed({ kChunkA, kChunkB, kUsage, kDone });
}

// Runs the warm-up to its finished() (emitted once).
WarmUpResult run(CannedTransport &transport, const WarmUpOptions &o)
{
    WarmUpRun warmup(endpoint(), o, nullptr, &transport);
    QSignalSpy finished(&warmup, &WarmUpRun::finished);
    warmup.start();
    if (!finished.wait(10000))
        qWarning("the warm-up did not finish within 10 s");
    if (finished.size() != 1)
        return {};
    return finished.first().first().value<WarmUpResult>();
}

} // namespace

class TestWarmUpRunUnit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachRequestHasTheDocumentedShape_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("tag");
        QTest::newRow("streamed") << true << QString();
        QTest::newRow("streamed canary") << true << QStringLiteral("pdconsole-canary");
        QTest::newRow("not streamed") << false << QString();
    }
    void eachRequestHasTheDocumentedShape()
    {
        QFETCH(bool, stream);
        QFETCH(QString, tag);
        CannedTransport transport;
        transport.script(
            "POST", QStringLiteral("/v1/completions"), stream ? completeStream() : CannedReply::http(200, kWhole));
        WarmUpOptions o = options(3, stream);
        o.concurrency = 2;
        o.trafficTag = tag;
        const WarmUpResult result = run(transport, o);
        QVERIFY2(result.allOk(), qPrintable(result.error + result.examples[int(WarmUpOutcome::Malformed)]));
        QCOMPARE(result.model, QStringLiteral("m"));
        QCOMPARE(result.modelSource, QStringLiteral("option"));
        QVERIFY(transport.requestsTo(QStringLiteral("/v1/models")).isEmpty()); // a given model is not looked up
        const auto sent = transport.requests();
        QCOMPARE(sent.size(), 3);
        for (int i = 0; i < sent.size(); ++i) {
            const auto &r = sent.at(i);
            QCOMPARE(r.method, QByteArray("POST"));
            QCOMPARE(r.url, QUrl(QStringLiteral("http://127.0.0.121:8000/v1/completions")));
            QCOMPARE(r.body, WarmUpRun::requestBody(o, QStringLiteral("m"), i));
            QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
            QCOMPARE(r.header("Authorization"), QByteArray("Bearer s3cr3t"));
            QCOMPARE(r.hasHeader("Accept"), stream);
            if (stream)
                QCOMPARE(r.header("Accept"), QByteArray("text/event-stream"));
            QCOMPARE(r.header("X-PD-Traffic"), tag.toUtf8());
            QCOMPARE(r.hasHeader("X-PD-Traffic"), !tag.isEmpty());
            QCOMPARE(r.request.attribute(QNetworkRequest::RedirectPolicyAttribute).toInt(),
                int(QNetworkRequest::ManualRedirectPolicy));
        }
        for (const WarmUpSample &s : result.samples) {
            QCOMPARE(s.outcome, WarmUpOutcome::Ok);
            QCOMPARE(s.httpStatus, 200);
            QCOMPARE(s.tokens, 2);
            QCOMPARE(s.chunks, stream ? 2 : 0);
        }
    }

    void theBodyOfARequestIsWhatTheProxyNeeds()
    {
        WarmUpOptions o = options(1, true);
        o.trafficTag = QStringLiteral("pdconsole-canary");
        const QByteArray body = WarmUpRun::requestBody(o, QStringLiteral("deepseek_r1"), 4);
        const auto j = nlohmann::json::parse(body.toStdString());
        QCOMPARE(QString::fromStdString(j["model"].get<std::string>()), QStringLiteral("deepseek_r1"));
        QCOMPARE(QString::fromStdString(j["prompt"].get<std::string>()), WarmUpRun::prompt(o, 4));
        QVERIFY(WarmUpRun::prompt(o, 4).startsWith(QStringLiteral("pdconsole-canary request #4:")));
        QCOMPARE(j["max_tokens"].get<int>(), 2);
        QCOMPARE(j["ignore_eos"].get<bool>(), true);
        QCOMPARE(j["stream"].get<bool>(), true);
        QCOMPARE(j["stream_options"]["include_usage"].get<bool>(), true);
        QCOMPARE(QString::fromStdString(j["user"].get<std::string>()), o.trafficTag);
        QVERIFY(WarmUpRun::prompt(o, 4) != WarmUpRun::prompt(o, 5)); // no shared prefix cache
        o.stream = false;
        o.trafficTag.clear();
        const auto plain = nlohmann::json::parse(WarmUpRun::requestBody(o, QStringLiteral("m"), 0).toStdString());
        QCOMPARE(plain["stream"].get<bool>(), false);
        QVERIFY(!plain.contains("stream_options"));
        QVERIFY(!plain.contains("user"));
    }

    void neverMoreThanConcurrencyInFlight()
    {
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/v1/completions"), completeStream());
        WarmUpOptions o = options(10, true);
        o.concurrency = 3;
        const WarmUpResult result = run(transport, o);
        QVERIFY(result.allOk());
        QCOMPARE(result.sent(), 10);
        QCOMPARE(transport.requests().size(), 10);
        QCOMPARE(transport.maxInFlight(), 3);
        for (int i = 0; i < result.sent(); ++i)
            QCOMPARE(result.samples.at(i).index, i);
    }

    void theModelComesFromTheProxyOrTheProfile_data()
    {
        QTest::addColumn<CannedReply>("models");
        QTest::addColumn<QString>("fallback");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("source");
        QTest::newRow("the proxy's first model")
            << CannedReply::http(200, R"({"object":"list","data":[{"id":"deepseek_r1"},{"id":"other"}]})")
            << QStringLiteral("served") << QStringLiteral("deepseek_r1") << QStringLiteral("proxy /v1/models");
        QTest::newRow("503: the profile's")
            << CannedReply::http(503, R"({"error":"no backend"})") << QStringLiteral("served")
            << QStringLiteral("served") << QStringLiteral("profile");
        QTest::newRow("no model listed: the profile's")
            << CannedReply::http(200, R"({"object":"list","data":[]})") << QStringLiteral("served")
            << QStringLiteral("served") << QStringLiteral("profile");
        QTest::newRow("refused: the profile's") << CannedReply::refused() << QStringLiteral("served")
                                                << QStringLiteral("served") << QStringLiteral("profile");
    }
    void theModelComesFromTheProxyOrTheProfile()
    {
        QFETCH(CannedReply, models);
        QFETCH(QString, fallback);
        QFETCH(QString, model);
        QFETCH(QString, source);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/v1/models"), models);
        transport.script("POST", QStringLiteral("/v1/completions"), completeStream());
        WarmUpOptions o = options(1, true);
        o.model.clear();
        o.fallbackModel = fallback;
        const WarmUpResult result = run(transport, o);
        QVERIFY2(result.allOk(), qPrintable(result.error));
        QCOMPARE(result.model, model);
        QCOMPARE(result.modelSource, source);
        const auto lookup = transport.requestsTo(QStringLiteral("/v1/models"));
        QCOMPARE(lookup.size(), 1);
        QCOMPARE(lookup.first().method, QByteArray("GET"));
        QCOMPARE(lookup.first().header("Authorization"), QByteArray("Bearer s3cr3t"));
        QCOMPARE(lookup.first().request.transferTimeout(), endpoint().timeoutMs);
        const auto sent = transport.requestsTo(QStringLiteral("/v1/completions"));
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().body, WarmUpRun::requestBody(o, model, 0));
    }

    void noModelAnywhereSendsNothing_data()
    {
        QTest::addColumn<CannedReply>("models");
        QTest::addColumn<QString>("why");
        QTest::newRow("503") << CannedReply::http(503, R"({"error":"no backend"})")
                             << R"(HTTP 503 {"error":"no backend"})";
        QTest::newRow("empty list") << CannedReply::http(200, R"({"data":[]})") << R"(no model in {"data":[]})";
        QTest::newRow("refused") << CannedReply::refused() << "Connection refused";
    }
    void noModelAnywhereSendsNothing()
    {
        QFETCH(CannedReply, models);
        QFETCH(QString, why);
        CannedTransport transport;
        transport.script("GET", QStringLiteral("/v1/models"), models);
        WarmUpOptions o = options(3, true);
        o.model.clear();
        const WarmUpResult result = run(transport, o);
        QCOMPARE(result.error,
            QStringLiteral(
                "no model to ask for: the proxy's /v1/models gave none (%1) and the profile names no served model")
                .arg(why));
        QCOMPARE(result.sent(), 0);
        QVERIFY(!result.allOk());
        QCOMPARE(transport.requests().size(), 1);
    }

    void errorAnswersAreClassified_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<CannedReply>("answer");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("detail");
        const auto closed = QNetworkReply::RemoteHostClosedError;
        const QString closedText = QStringLiteral("Connection closed");
        QTest::newRow("500 with a message")
            << true << CannedReply::http(500, "Internal Server Error", "text/plain") << int(WarmUpOutcome::HttpError)
            << 500 << "HTTP 500: Internal Server Error";
        QTest::newRow("503 JSON") << false << CannedReply::http(503, R"({"error":"No available decode servers"})")
                                  << int(WarmUpOutcome::HttpError) << 503
                                  << R"(HTTP 503: {"error":"No available decode servers"})";
        QTest::newRow("refused") << true << CannedReply::refused() << int(WarmUpOutcome::ConnectionFailed) << 0
                                 << "Connection refused";
        QTest::newRow("closed before an answer")
            << true << CannedReply::failure(closed, closedText) << int(WarmUpOutcome::ConnectionFailed) << 0
            << "the proxy closed the connection before answering";
        QTest::newRow("empty 200 (a decoder failed)")
            << true << CannedReply::http(200, {}, "text/event-stream") << int(WarmUpOutcome::EmptyOk) << 200
            << "HTTP 200 with an empty body (the proxy's answer when a decoder fails)";
        QTest::newRow("empty 200, not streamed")
            << false << CannedReply::http(200, {}) << int(WarmUpOutcome::EmptyOk) << 200
            << "HTTP 200 with an empty body (the proxy's answer when a decoder fails)";
        QTest::newRow("stream without [DONE]")
            << true << CannedReply::streamed({ kChunkA, kChunkB }) << int(WarmUpOutcome::NoDone) << 200
            << "the stream ended without data: [DONE] after 2 content chunk(s), 4 line(s): truncated";
        QTest::newRow("stream cut by the connection")
            << true << CannedReply::streamed({ kChunkA }).thenError(closed, closedText) << int(WarmUpOutcome::NoDone)
            << 200
            << "the stream ended without data: [DONE] after 1 content chunk(s), 2 line(s): truncated (connection: "
               "Connection closed)";
        QTest::newRow("complete, then the connection broke")
            << true << completeStream().thenError(closed, closedText) << int(WarmUpOutcome::NoDone) << 200
            << "the connection broke: Connection closed";
        QTest::newRow("an error event") << true
                                        << CannedReply::streamed(
                                               { kChunkA, sseEvent(R"({"error":{"message":"decode failed"}})") })
                                        << int(WarmUpOutcome::ErrorPayload) << 200
                                        << "line 3: the stream carries an error: decode failed";
        QTest::newRow("a line that is not SSE")
            << true << CannedReply::streamed({ "hello\n\n", kDone }) << int(WarmUpOutcome::Malformed) << 200
            << "line 1: not an event-stream field: hello";
        QTest::newRow("[DONE] and no token") << true << CannedReply::streamed({ kDone }) << int(WarmUpOutcome::NoTokens)
                                             << 200 << "data: [DONE] without a single generated token";
    }
    void errorAnswersAreClassified()
    {
        QFETCH(bool, stream);
        QFETCH(CannedReply, answer);
        QFETCH(int, outcome);
        QFETCH(int, status);
        QFETCH(QString, detail);
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/v1/completions"), answer);
        const WarmUpResult result = run(transport, options(2, stream));
        QVERIFY(result.error.isEmpty());
        QCOMPARE(result.sent(), 2); // a failure does not stop the run
        QCOMPARE(result.failed(), 2);
        QVERIFY(!result.allOk());
        for (const WarmUpSample &s : result.samples) {
            QCOMPARE(int(s.outcome), outcome);
            QCOMPARE(s.httpStatus, status);
            QCOMPARE(s.detail, detail);
        }
        QCOMPARE(result.counts[outcome], 2);
        QCOMPARE(result.examples[outcome], QStringLiteral("#1: ") + detail); // the first, by its 1-based number
    }

    void aRequestThatDoesNotEndTimesOut_data()
    {
        // The per-request timeout: 100 ms (the least validate() allows) for silence; 250 ms where bytes come
        // first, which arrive on the next turns of the event loop: the margin only keeps a starved machine
        // from timing out before them.
        QTest::addColumn<bool>("stream");
        QTest::addColumn<CannedReply>("answer");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<QString>("detail"); // the start of it: a stalled stream names when its first token came
        QTest::newRow("not a byte") << true << CannedReply::silence() << 100 << 0 << 0 << "no answer within 100 ms";
        QTest::newRow("200, then no token")
            << true << CannedReply::streamed({}).stalling() << 250 << 200 << 0 << "HTTP 200 but no token within 250 ms";
        QTest::newRow("a stalled stream") << true << CannedReply::streamed({ kChunkA }).stalling() << 250 << 200 << 1
                                          << "stream stalled: 1 content chunk(s), first after ";
        QTest::newRow("half a body, not streamed")
            << false << CannedReply::http(200, R"({"id":"c","choices":[)").stalling() << 250 << 200 << 0
            << "HTTP 200 but the body did not end within 250 ms";
        QTest::newRow("half an error body") << true << CannedReply::http(500, "Internal").stalling() << 250 << 500 << 0
                                            << "HTTP 500 but the body did not end within 250 ms";
    }
    void aRequestThatDoesNotEndTimesOut()
    {
        QFETCH(bool, stream);
        QFETCH(CannedReply, answer);
        QFETCH(int, timeoutMs);
        QFETCH(int, status);
        QFETCH(int, chunks);
        QFETCH(QString, detail);
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/v1/completions"), answer);
        WarmUpOptions o = options(1, stream);
        o.requestTimeoutMs = timeoutMs;
        const WarmUpResult result = run(transport, o);
        QCOMPARE(result.sent(), 1);
        const WarmUpSample &s = result.samples.first();
        QCOMPARE(s.outcome, WarmUpOutcome::Timeout);
        QCOMPARE(s.httpStatus, status);
        QCOMPARE(s.chunks, chunks);
        QVERIFY2(s.detail.startsWith(detail), qPrintable(s.detail));
        if (chunks > 0)
            QVERIFY2(s.detail.endsWith(QStringLiteral(" ms, then nothing until 250 ms")), qPrintable(s.detail));
        QCOMPARE(transport.inFlight(), 0); // the run aborted it
    }

    void cancelEndsWhatIsInFlightAndSendsNoMore()
    {
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/v1/completions"), CannedReply::silence());
        WarmUpOptions o = options(5, true);
        o.concurrency = 2;
        WarmUpRun warmup(endpoint(), o, nullptr, &transport);
        QSignalSpy finished(&warmup, &WarmUpRun::finished);
        warmup.start();
        QTRY_COMPARE(transport.inFlight(), 2);
        QVERIFY(warmup.isRunning());
        warmup.cancel();
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(!warmup.isRunning());
        const WarmUpResult result = finished.first().first().value<WarmUpResult>();
        QVERIFY(result.cancelled);
        QCOMPARE(result.sent(), 2);
        QCOMPARE(result.cancelledCount(), 2);
        for (const WarmUpSample &s : result.samples)
            QVERIFY2(s.detail.startsWith(QStringLiteral("cancelled after ")), qPrintable(s.detail));
        QCOMPARE(transport.requests().size(), 2);
        QCOMPARE(transport.inFlight(), 0);
        QVERIFY(!result.allOk());
    }

    void deletingTheRunAbortsWhatIsInFlight()
    {
        CannedTransport transport;
        transport.script("POST", QStringLiteral("/v1/completions"), CannedReply::silence());
        WarmUpOptions o = options(4, true);
        o.concurrency = 3;
        auto warmup = std::make_unique<WarmUpRun>(endpoint(), o, nullptr, &transport);
        QSignalSpy finished(warmup.get(), &WarmUpRun::finished);
        warmup->start();
        QTRY_COMPARE(transport.inFlight(), 3);
        warmup.reset();
        QCOMPARE(transport.inFlight(), 0);
        QCOMPARE(finished.size(), 0); // no finished() from a destructor
        QCOMPARE(transport.requests().size(), 3);
    }

    void unusableOptionsSendNothing()
    {
        CannedTransport transport;
        WarmUpOptions o = options(1, true);
        o.requestTimeoutMs = 50;
        const WarmUpResult result = run(transport, o);
        QCOMPARE(result.error, QStringLiteral("the per-request timeout must be at least 100 ms, got 50 ms"));
        QCOMPARE(result.sent(), 0);
        QVERIFY(transport.requests().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWarmUpRunUnit)
#include "tst_warmuprununit.moc"
