// SPDX-License-Identifier: MIT
// The warm-up's verdict on one answer, from fixture files of what the proxy can send (spec proxy-api
// §2.5, §8.2, §8.12a): whole and byte by byte the same; TTFT/TPOT from arrival times; the non-streamed
// body; the totals (percentiles with Prometheus quantile() semantics), CSV quoting and the text table.
#include "ops/completionstreamreader.h"
#include "ops/warmupreport.h"
#include "ops/warmuprun.h"

#include <QFile>
#include <QTest>

using namespace pd;

Q_DECLARE_METATYPE(pd::WarmUpOutcome)

// {"choices":[{"text":"<text>"}]}, the text's bytes as they are.
static QByteArray textBody(const QByteArray &text)
{
    return QByteArray("{'choices':[{'text':'@'}]}").replace('\'', '"').replace("@", text);
}

class TestWarmUpClassify : public QObject {
    Q_OBJECT

    static QByteArray fixture(const QString &name)
    {
        QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/") + name);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("missing fixture %s", qPrintable(name));
        return f.readAll();
    }

private Q_SLOTS:
    void stream_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<WarmUpOutcome>("outcome");
        QTest::addColumn<QString>("detail"); // a part of the detail
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("tokens");
        QTest::newRow("completions with usage") << "ok-completions.sse" << WarmUpOutcome::Ok << "" << 3 << 4;
        QTest::newRow("chat deltas, no usage") << "ok-chat.sse" << WarmUpOutcome::Ok << "" << 2 << 2;
        QTest::newRow("CRLF, comment, fields, last line unterminated")
            << "ok-crlf-comments.sse" << WarmUpOutcome::Ok << "" << 2 << 2;
        QTest::newRow("no [DONE]") << "no-done.sse" << WarmUpOutcome::NoDone
                                   << "without data: [DONE] after 2 content chunk(s)" << 2 << 2;
        QTest::newRow("cut inside a line")
            << "cut-inside-line.sse" << WarmUpOutcome::NoDone << "inside line 3" << 1 << 1;
        QTest::newRow("bad JSON on line 3")
            << "malformed-json.sse" << WarmUpOutcome::Malformed << "line 3: data is not a JSON object" << 1 << 1;
        QTest::newRow("HTML on line 3") << "malformed-field.sse" << WarmUpOutcome::Malformed
                                        << "line 3: not an event-stream field: <html>" << 1 << 1;
        QTest::newRow("vLLM error event") << "error-event.sse" << WarmUpOutcome::ErrorPayload
                                          << "line 3: the stream carries an error: EngineCore" << 1 << 1;
        QTest::newRow("usage only") << "no-tokens.sse" << WarmUpOutcome::NoTokens << "without a single generated token"
                                    << 0 << 0;
        QTest::newRow("neither choices nor usage") << "neither-choices-nor-usage.sse" << WarmUpOutcome::Malformed
                                                   << "line 1: an event with neither choices nor usage" << 0 << 0;
        QTest::newRow("empty 200") << "empty.sse" << WarmUpOutcome::EmptyOk << "empty body" << 0 << 0;
    }
    void stream()
    {
        QFETCH(QString, file);
        QFETCH(WarmUpOutcome, outcome);
        QFETCH(QString, detail);
        QFETCH(int, chunks);
        QFETCH(int, tokens);
        const QByteArray body = fixture(file);

        CompletionStreamReader whole;
        whole.feed(body, 10);
        const CompletionVerdict a = whole.finish();
        QCOMPARE(warmUpOutcomeName(a.outcome), warmUpOutcomeName(outcome));
        QVERIFY2(a.detail.contains(detail), qPrintable(a.detail));
        if (outcome != WarmUpOutcome::Ok)
            QVERIFY(!a.detail.isEmpty());
        QCOMPARE(a.chunks, chunks);
        QCOMPARE(a.tokens, tokens);

        // The same bytes one at a time (network reads can split anywhere, even inside "\r\n").
        CompletionStreamReader bytewise;
        for (qsizetype i = 0; i < body.size(); ++i)
            bytewise.feed(QByteArrayView(body.constData() + i, 1), double(i));
        const CompletionVerdict b = bytewise.finish();
        QCOMPARE(warmUpOutcomeName(b.outcome), warmUpOutcomeName(outcome));
        QCOMPARE(b.detail, a.detail);
        QCOMPARE(b.chunks, chunks);
    }

    void timesFromArrival()
    {
        const QByteArray body = fixture(QStringLiteral("ok-completions.sse"));
        const QList<QByteArray> events = body.split('\n');
        CompletionStreamReader r;
        // Line i arrives at 100 + 50 * (i / 2) ms: the content chunks at 100, 150 and 200 ms.
        for (int i = 0; i < events.size(); ++i)
            r.feed(QByteArray(events.at(i) + (i + 1 < events.size() ? "\n" : "")), 100.0 + 50.0 * (i / 2));
        const CompletionVerdict v = r.finish();
        QCOMPARE(v.outcome, WarmUpOutcome::Ok);
        QCOMPARE(v.ttftMs, 100.0);
        // usage says 4 tokens over 3 chunks (one step emitted two, as MTP does): (200 - 100) / 3.
        QCOMPARE(v.tpotMs, 100.0 / 3);
    }

    void tooLongLine()
    {
        CompletionStreamReader r;
        r.feed("data: {\"id\":\"x\",\"choices\":[{\"text\":\"", 1);
        r.feed(QByteArray(CompletionStreamReader::kMaxLine + 10, 'a'), 2);
        const CompletionVerdict v = r.finish();
        QCOMPARE(v.outcome, WarmUpOutcome::Malformed);
        QVERIFY2(v.detail.startsWith(QLatin1String("line 1: longer than")), qPrintable(v.detail));
    }

    void body_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<WarmUpOutcome>("outcome");
        QTest::addColumn<int>("tokens");
        QTest::newRow("ok") << QByteArray(
            R"({"id":"c","choices":[{"index":0,"text":"w0 w1 w2","finish_reason":"length"}],"usage":{"prompt_tokens":8,"completion_tokens":3}})")
                            << WarmUpOutcome::Ok << 3;
        QTest::newRow("chat ok") << QByteArray(R"({"choices":[{"message":{"role":"assistant","content":"hi"}}]})")
                                 << WarmUpOutcome::Ok << 1;
        QTest::newRow("empty") << QByteArray() << WarmUpOutcome::EmptyOk << 0;
        QTest::newRow("whitespace") << QByteArray("\r\n") << WarmUpOutcome::EmptyOk << 0;
        QTest::newRow("truncated JSON") << QByteArray(
            "{\"id\":\"c\",\"choices\":[{\"index\":0,\"te") // escaped: Qt 6.4's moc misreads a raw string with an odd
                                                            // number of quotes and drops the slots after it
                                        << WarmUpOutcome::Malformed << 0;
        QTest::newRow("error object") << QByteArray(R"({"error":{"message":"upstream error"}})")
                                      << WarmUpOutcome::ErrorPayload << 0;
        QTest::newRow("no choices") << QByteArray(R"({"id":"c","choices":[]})") << WarmUpOutcome::Malformed << 0;
        QTest::newRow("empty text") << QByteArray(R"({"choices":[{"text":""}],"usage":{"completion_tokens":0}})")
                                    << WarmUpOutcome::NoTokens << 0;
        // Hostile bodies: a bad byte sequence, numbers past double and int, NaN where JSON has none.
        QTest::newRow("invalid UTF-8") << textBody(QByteArray::fromHex("fffe"))
                                       << WarmUpOutcome::Malformed << 0;
        QTest::newRow("token count past double")
            << QByteArray(R"({"choices":[{"text":"hi"}],"usage":{"completion_tokens":1e999}})")
            << WarmUpOutcome::Malformed << 0;
        QTest::newRow("NaN token count") << QByteArray(R"({"choices":[{"text":"hi"}],"usage":{"completion_tokens":NaN}})")
                                         << WarmUpOutcome::Malformed << 0;
        QTest::newRow("10 MB of text") << textBody(QByteArray(10 * 1024 * 1024, 'x'))
                                       << WarmUpOutcome::Ok << 1;
    }
    void body()
    {
        QFETCH(QByteArray, body);
        QFETCH(WarmUpOutcome, outcome);
        QFETCH(int, tokens);
        const CompletionVerdict v = classifyCompletionBody(body);
        QCOMPARE(warmUpOutcomeName(v.outcome), warmUpOutcomeName(outcome));
        QCOMPARE(v.tokens, tokens);
        QCOMPARE(v.detail.isEmpty(), outcome == WarmUpOutcome::Ok);
    }

    void totals()
    {
        WarmUpResult r;
        r.options.count = 103;
        for (int i = 0; i < 100; ++i) {
            WarmUpSample s;
            s.index = i;
            s.ttftMs = i + 1; // 1..100
            s.tpotMs = 20;
            s.e2eMs = 1000 + i;
            r.samples << s;
        }
        WarmUpSample bad;
        bad.index = 100;
        bad.outcome = WarmUpOutcome::EmptyOk;
        bad.detail = QStringLiteral("HTTP 200 with an empty body");
        bad.ttftMs = 100000; // never in the percentiles
        r.samples << bad;
        bad.index = 101;
        bad.detail = QStringLiteral("another");
        r.samples << bad;
        WarmUpSample cancelled;
        cancelled.index = 102;
        cancelled.outcome = WarmUpOutcome::Cancelled;
        r.samples << cancelled;
        summarizeWarmUp(r);
        QCOMPARE(r.ok(), 100);
        QCOMPARE(r.counts[int(WarmUpOutcome::EmptyOk)], 2);
        QCOMPARE(r.examples[int(WarmUpOutcome::EmptyOk)], QStringLiteral("#101: HTTP 200 with an empty body"));
        QCOMPARE(r.completed(), 102);
        QCOMPARE(r.failed(), 2);
        QCOMPARE(r.successRate(), 100.0 / 102);
        QVERIFY(!r.allOk());
        QCOMPARE(r.ttft.count, 100);
        // Prometheus quantile(): rank q * (n - 1), linear between neighbours.
        QCOMPARE(r.ttft.p50, 50.5);
        QVERIFY(qAbs(r.ttft.p90 - 90.1) < 1e-4);
        QVERIFY(qAbs(r.ttft.p99 - 99.01) < 1e-4);
        QCOMPARE(r.ttft.max, 100.0);
        QCOMPARE(r.tpot.p99, 20.0);

        const QString table = warmUpTable(r);
        QVERIFY2(table.contains(QLatin1String("success 100/102 (98.0 %)")), qPrintable(table));
        QVERIFY(table.contains(QLatin1String("empty-200               2  #101: HTTP 200 with an empty body")));
        QVERIFY(!table.contains(QLatin1String("no-done")));
        const QString line = warmUpSummaryLine(r);
        QVERIFY2(line.startsWith(QLatin1String("ok 100/102 (98.0 %); empty-200 2; cancelled 1; TTFT p50 50.5 ms")),
            qPrintable(line));

        const auto json = warmUpJson(r);
        QCOMPARE(json["counts"]["empty-200"].get<int>(), 2);
        QCOMPARE(json["ttft_ms"]["p50"].get<double>(), 50.5);
        QVERIFY(json["samples"][102]["ttft_ms"].is_null());
    }

    void csv()
    {
        WarmUpResult r;
        WarmUpSample s;
        s.index = 0;
        s.outcome = WarmUpOutcome::HttpError;
        s.httpStatus = 500;
        s.e2eMs = 12.5;
        s.detail = QStringLiteral("HTTP 500: {\"error\": \"a, b\"}");
        r.samples << s;
        const QByteArray csv = warmUpCsv(r);
        const QList<QByteArray> lines = csv.split('\n');
        QCOMPARE(lines.value(0),
            QByteArray("index,started_ms,outcome,http_status,ttft_ms,tpot_ms,e2e_ms,tokens,chunks,detail"));
        QCOMPARE(
            lines.value(1), QByteArray(R"(1,0.000,http-error,500,,,12.500,0,0,"HTTP 500: {""error"": ""a, b""}")"));
    }

    void options()
    {
        WarmUpOptions o;
        QVERIFY(o.validate().isEmpty());
        o.concurrency = 0;
        QCOMPARE(o.validate(), QStringLiteral("concurrency must be 1..64, got 0"));
        o = WarmUpOptions();
        o.count = 0;
        QVERIFY(o.validate().startsWith(QLatin1String("count must be")));
    }

    void prompts()
    {
        WarmUpOptions o;
        o.promptTokens = 64;
        const QString a = WarmUpRun::prompt(o, 0);
        const QString b = WarmUpRun::prompt(o, 1);
        QCOMPARE(a.size(), 256);
        QVERIFY(a.startsWith(QLatin1String("warm-up request #0:")));
        QVERIFY(a.mid(0, 128) != b.mid(0, 128));
        QCOMPARE(WarmUpRun::prompt(o, 1), b); // deterministic
        const auto body = nlohmann::json::parse(WarmUpRun::requestBody(o, QStringLiteral("m"), 3).toStdString());
        QVERIFY(body["model"] == "m");
        QCOMPARE(body["max_tokens"].get<int>(), o.maxTokens);
        QCOMPARE(body["ignore_eos"].get<bool>(), true);
        QCOMPARE(body["stream_options"]["include_usage"].get<bool>(), true);
    }
};

QTEST_GUILESS_MAIN(TestWarmUpClassify)
#include "tst_warmupclassify.moc"
