// SPDX-License-Identifier: MIT
// Conformance of the simulated proxy's completion path (spec §2.5, §5, §7, §8.2): routing order, the
// bodies P and D receive, retries, upstream errors, cached_tokens rewrite, decoder failures.
#include "tst_simproxyfixture.h"

using namespace pd::sim;
using namespace pd::sim::test;

class TestSimProxyRouting final : public ProxyTestBase {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

    void routingAndBodies();
    void nonStreamAnswer();
    void streamAnswer();
    void chatPath();
    void decoderDown_data();
    void decoderDown();
    void decoderErrorEventTruncates();
    void decoderDiesMidStream();
    void prefillErrors();
    void clientAbortReleases();
    void hungBackendHangsClient();
};

void TestSimProxyRouting::routingAndBodies()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *p2 = engine(QStringLiteral("p2"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    startProxy({p1, p2}, {d1, d2});
    for (int i = 0; i < 4; ++i) {
        const Reply r = post(QStringLiteral("/v1/completions"),
                             R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":4})");
        QCOMPARE(r.status, 200);
    }
    // Sequential traffic: always the first P and the first D.
    QCOMPARE(p1->completions(), 4);
    QCOMPARE(d1->completions(), 4);
    QCOMPARE(p2->completions() + d2->completions(), 0);

    const HttpRequest &pre = p1->completionRequests().first();
    const HttpRequest &dec = d1->completionRequests().first();
    QCOMPARE(pre.path, QByteArray("/v1/completions"));
    QCOMPARE(pre.body, QByteArray(R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":1,)"
                                  R"("kv_transfer_params":{"do_remote_decode":true,"do_remote_prefill":false,"remote_engine_id":null,)"
                                  R"("remote_block_ids":null,"remote_host":null,"remote_port":null},"stream":false,"min_tokens":1})"));
    QCOMPARE(dec.body, QByteArray(R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":4,)"
                                  R"("kv_transfer_params":{"do_remote_prefill":true,"do_remote_decode":false,"remote_engine_id":"engine-p1",)"
                                  R"("remote_block_ids":[1,2,3],"remote_host":"127.0.0.1","remote_port":10100}})"));
    QCOMPARE(pre.header("Authorization"), QByteArray("Bearer dummy"));
    QCOMPARE(dec.header("authorization"), QByteArray("Bearer dummy"));
    QCOMPARE(pre.header("X-Request-Id").size(), 36);
    QCOMPARE(pre.header("X-Request-Id"), dec.header("X-Request-Id"));
    QVERIFY(p1->completionRequests().at(1).header("X-Request-Id") != pre.header("X-Request-Id"));

    // Concurrent traffic spreads: two held streams go to d1 then d2.
    d1->hold = true;
    d2->hold = true;
    QNetworkReply *a = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"a","max_tokens":2,"stream":true})");
    QTRY_COMPARE(d1->completions(), 5);
    QNetworkReply *b = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"b","max_tokens":2,"stream":true})");
    QTRY_COMPARE(d2->completions(), 1);
    QCOMPARE(healthInt("request_num"), 2);
    d1->release();
    d2->release();
    QCOMPARE(finish(a).status, 200);
    QCOMPARE(finish(b).status, 200);
    QTRY_COMPARE(healthInt("request_num"), 0);
}

void TestSimProxyRouting::nonStreamAnswer()
{
    startProxy({engine(QStringLiteral("p1"))}, {engine(QStringLiteral("d1"))});
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":4})");
    QCOMPARE(r.status, 200);
    QCOMPARE(r.contentType, QByteArray("application/json"));
    QCOMPARE(r.transferEncoding, QByteArray("chunked"));
    // Re-serialised by the proxy (Python spacing) with the prefiller's cached_tokens.
    QCOMPARE(r.body, QByteArray(R"({"id": "cmpl-d", "object": "text_completion", "choices": [{"index": 0, "text": "w0@d1 w1@d1 w2@d1 w3@d1", "finish_reason": "length"}], )"
                                R"("usage": {"prompt_tokens": 4, "completion_tokens": 4, "total_tokens": 8, "prompt_tokens_details": {"cached_tokens": 7}}})"));
}

void TestSimProxyRouting::streamAnswer()
{
    startProxy({engine(QStringLiteral("p1"))}, {engine(QStringLiteral("d1"))});
    const Reply r = post(QStringLiteral("/v1/completions"),
                         R"({"model":"fake-model","prompt":"The quick brown fox","max_tokens":3,"stream":true,"stream_options":{"include_usage":true}})");
    QCOMPARE(r.status, 200);
    QCOMPARE(r.contentType, QByteArray("text/event-stream; charset=utf-8"));
    QCOMPARE(r.transferEncoding, QByteArray("chunked"));
    const QList<QByteArray> events = r.body.split('\n');
    QByteArray expected;
    expected += "data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\"w0@d1\"}]}\n\n";
    expected += "data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\" w1@d1\"}]}\n\n";
    expected += "data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\" w2@d1\"}]}\n\n";
    expected += "data: {\"id\": \"cmpl-d\", \"choices\": [], \"usage\": {\"prompt_tokens\": 4, \"completion_tokens\": 3, \"total_tokens\": 7, \"prompt_tokens_details\": {\"cached_tokens\": 7}}}\n\n";
    expected += "data: [DONE]\n\n";
    QCOMPARE(r.body, expected);
}

void TestSimProxyRouting::chatPath()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    startProxy({p1}, {d1});
    const Reply r = post(QStringLiteral("/v1/chat/completions"),
                         R"({"model":"fake-model","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":5,"max_tokens":2})");
    QCOMPARE(r.status, 200);
    QCOMPARE(p1->completionRequests().first().path, QByteArray("/v1/chat/completions"));
    QCOMPARE(d1->completionRequests().first().path, QByteArray("/v1/chat/completions"));
    const QJsonObject pre = QJsonDocument::fromJson(p1->completionRequests().first().body).object();
    QCOMPARE(pre.value(QStringLiteral("max_completion_tokens")).toInt(), 1);
    QCOMPARE(pre.value(QStringLiteral("max_tokens")).toInt(), 1);
}

void TestSimProxyRouting::decoderDown_data()
{
    QTest::addColumn<bool>("stream");
    QTest::addColumn<bool>("defect");
    QTest::newRow("non-stream") << false << true;
    QTest::newRow("stream") << true << true;
    QTest::newRow("non-stream --no-defect-empty-200") << false << false;
    QTest::newRow("stream --no-defect-empty-200") << true << false;
}

void TestSimProxyRouting::decoderDown()
{
    QFETCH(bool, stream);
    QFETCH(bool, defect);
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    d1->stop();
    QStringList args;
    if (!defect)
        args << QStringLiteral("--no-defect-empty-200");
    startProxy({engine(QStringLiteral("p1"))}, {d1, d2}, args);
    const Reply r = post(QStringLiteral("/v1/completions"),
                         stream ? QByteArray(R"({"prompt":"x","max_tokens":2,"stream":true})") : QByteArray(R"({"prompt":"x","max_tokens":2})"));
    if (defect) {
        QCOMPARE(r.status, 200);
        QCOMPARE(r.transferEncoding, QByteArray("chunked"));
        QCOMPARE(r.body, QByteArray());
    } else {
        QCOMPARE(r.status, 502);
        QVERIFY(r.body.contains("decoder"));
    }
    QCOMPARE(d2->completions(), 0); // no failover, and the dead one stays in rotation
    QCOMPARE(healthInt("decode_instances"), 2);
    QCOMPARE(healthInt("request_num"), 0);
    QVERIFY(m_stderr.filter(QStringLiteral("Error during streaming from decoder %1").arg(d1->address())).size() == 1);
    // Decoder HTTP error: retried on the same decoder, then the same outcome.
    FakeEngine *p = engine(QStringLiteral("p9"));
    FakeEngine *bad = engine(QStringLiteral("d9"));
    bad->mode = FakeEngine::Mode::Status500;
    startProxy({p}, {bad}, args);
    const Reply e = post(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":2})");
    QCOMPARE(bad->completions(), 3);
    QCOMPARE(e.status, defect ? 200 : 500);
    QCOMPARE(e.body.isEmpty(), defect);
}

void TestSimProxyRouting::decoderErrorEventTruncates()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    d1->mode = FakeEngine::Mode::ErrorEvent;
    startProxy({engine(QStringLiteral("p1"))}, {d1});
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":3,"stream":true})");
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\"w0@d1\"}]}\n\n"));
    QVERIFY(!m_stderr.filter(QStringLiteral("list index out of range")).isEmpty());
    QCOMPARE(healthInt("request_num"), 0);
}

void TestSimProxyRouting::decoderDiesMidStream()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    d1->mode = FakeEngine::Mode::DropMidStream;
    startProxy({engine(QStringLiteral("p1"))}, {d1});
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":3,"stream":true})");
    QCOMPARE(r.status, 200);
    QVERIFY(!r.error);
    QCOMPARE(r.body, QByteArray("data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\"w0@d1\"}]}\n\n"));
    QCOMPARE(d1->completions(), 1); // never replayed after output started
    QCOMPARE(healthInt("request_num"), 0);
}

void TestSimProxyRouting::prefillErrors()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *p2 = engine(QStringLiteral("p2"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    startProxy({p1, p2}, {d1});
    p1->mode = FakeEngine::Mode::Status400;
    Reply r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QCOMPARE(r.status, 400);
    QCOMPARE(r.contentType, QByteArray("application/json"));
    QCOMPARE(r.body, QByteArray(R"({"object":"error","message":"fake engine p1 says 400","type":"BadRequestError","param":null,"code":400})"));
    QCOMPARE(p1->completions(), 1); // 400 is never retried

    p1->mode = FakeEngine::Mode::Status500;
    r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.body, QByteArray(R"({"object":"error","message":"fake engine p1 says 500","type":"InternalServerError","param":null,"code":500})"));
    QCOMPARE(p1->completions(), 4); // 3 attempts on the same prefiller
    QCOMPARE(p2->completions(), 0);
    QCOMPARE(d1->completions(), 0);
    QCOMPARE(healthInt("request_num"), 0);

    p1->stop(); // down but still in the pool: 500 text, no failover
    r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.contentType, QByteArray("text/plain; charset=utf-8"));
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(p2->completions(), 0);

    r = post(QStringLiteral("/v1/completions"), "not json");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(healthInt("request_num"), 0);
}

void TestSimProxyRouting::clientAbortReleases()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    d1->hold = true;
    startProxy({engine(QStringLiteral("p1"))}, {d1});
    QNetworkReply *reply = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":4,"stream":true})");
    QTRY_COMPARE(d1->completions(), 1);
    // Relayed as it arrives: the first event reaches the client while the decoder holds the rest.
    QTRY_VERIFY(reply->bytesAvailable() > 0);
    QCOMPARE(reply->readAll(), QByteArray("data: {\"id\":\"cmpl-d\",\"choices\":[{\"index\":0,\"text\":\"w0@d1\"}]}\n\n"));
    QCOMPARE(healthInt("request_num"), 1);
    reply->abort();
    reply->deleteLater();
    QTRY_COMPARE(healthInt("request_num"), 0);
    d1->release();
}

void TestSimProxyRouting::hungBackendHangsClient()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    p1->mode = FakeEngine::Mode::Hang;
    startProxy({p1}, {engine(QStringLiteral("d1"))});
    // No backend timeout (§8.10): the client waits as long as the prefiller does.
    QNetworkReply *reply = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(!finished.wait(1500));
    QCOMPARE(healthInt("request_num"), 1);
    reply->abort();
    reply->deleteLater();
    QTRY_COMPARE(healthInt("request_num"), 0);

    // --backend-timeout turns the defect off: each attempt times out, then 500 text.
    FakeEngine *p2 = engine(QStringLiteral("p2"));
    p2->mode = FakeEngine::Mode::Hang;
    startProxy({p2}, {engine(QStringLiteral("d2"))},
               {QStringLiteral("--backend-timeout"), QStringLiteral("0.2"), QStringLiteral("--max-retries"), QStringLiteral("2")});
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(p2->completions(), 2);
}

QTEST_GUILESS_MAIN(TestSimProxyRouting)
#include "tst_simproxyrouting.moc"
