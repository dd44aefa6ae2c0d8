// SPDX-License-Identifier: MIT
// The simulated proxy in front of real simulated engines (sim/engine): the kv_transfer_params round
// trip P -> proxy -> D, streamed and not; an engine still loading is activated by the NodeListener once
// it answers /v1/models; a crashed decoder gives the client 200 with an empty body.
#include "engine/simengine.h"
#include "tst_simproxyfixture.h"

using namespace pd::sim;
using namespace pd::sim::test;

class TestSimProxyEngine final : public ProxyTestBase {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

    void roundTrip();
    void loadingEngineIsActivatedWhenReady();
    void crashedDecoderGivesEmpty200();

private:
    SimEngine *simEngine(EngineRole role, double startupSeconds = 0.0);
    SimProxy *startWith(const QList<SimEngine *> &prefill, const QList<SimEngine *> &decode,
                        const QStringList &extra = {});
};

SimEngine *TestSimProxyEngine::simEngine(EngineRole role, double startupSeconds)
{
    EngineOptions options;
    options.role = role;
    options.model = QStringLiteral("deepseek_r1");
    options.timeScale = 50.0; // fast, ratios unchanged
    options.startupSeconds = startupSeconds;
    options.timing.jitter = false;
    auto *engine = new SimEngine(options, nullptr, m_scope.get());
    if (!engine->start() && startupSeconds == 0.0)
        qFatal("engine cannot listen");
    return engine;
}

SimProxy *TestSimProxyEngine::startWith(const QList<SimEngine *> &prefill, const QList<SimEngine *> &decode,
                                        const QStringList &extra)
{
    return startProxyOn(portsOf(prefill), portsOf(decode), extra, ApiKey::None);
}

void TestSimProxyEngine::roundTrip()
{
    SimEngine *p = simEngine(EngineRole::Prefill);
    SimEngine *d1 = simEngine(EngineRole::Decode);
    SimEngine *d2 = simEngine(EngineRole::Decode);
    startWith({p}, {d1, d2});

    const Reply plain = post(QStringLiteral("/v1/completions"),
                             R"({"model":"deepseek_r1","prompt":"The quick brown fox jumps over the lazy dog","max_tokens":8})");
    QCOMPARE(plain.status, 200);
    QCOMPARE(plain.transferEncoding, QByteArray("chunked"));
    const QJsonObject answer = QJsonDocument::fromJson(plain.body).object();
    QVERIFY2(!answer.value(QStringLiteral("choices")).toArray().isEmpty(), plain.body.constData());
    QCOMPARE(answer.value(QStringLiteral("usage")).toObject().value(QStringLiteral("completion_tokens")).toInt(), 8);

    const Reply streamed = post(QStringLiteral("/v1/chat/completions"),
                                R"({"model":"deepseek_r1","messages":[{"role":"user","content":"hello there"}],"max_tokens":5,"stream":true,"stream_options":{"include_usage":true}})");
    QCOMPARE(streamed.status, 200);
    QCOMPARE(streamed.contentType, QByteArray("text/event-stream; charset=utf-8"));
    QVERIFY2(streamed.body.endsWith("data: [DONE]\n\n"), streamed.body.right(200).constData());
    // The engine writes the usage chunk and [DONE] back to back: one read, passed through unrewritten
    // (spec §2.5 step 12).
    QVERIFY(streamed.body.contains("\"choices\":[],\"usage\":"));

    // Both requests went through the first decoder (sequential traffic) and left nothing running.
    QTRY_COMPARE(d1->state().finished, 2.0);
    QCOMPARE(d2->state().finished, 0.0);
    QCOMPARE(p->state().finished, 2.0);
    QCOMPARE(healthInt("request_num"), 0);
}

void TestSimProxyEngine::loadingEngineIsActivatedWhenReady()
{
    SimEngine *p = simEngine(EngineRole::Prefill);
    SimEngine *d1 = simEngine(EngineRole::Decode);
    startWith({p}, {d1}, {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.2"),
                          QStringLiteral("--max-waiting-retries"), QStringLiteral("30")});
    // A decoder still "loading weights" (nothing listening yet) on a known port.
    EngineOptions options;
    options.role = EngineRole::Decode;
    options.timeScale = 50.0;
    options.startupSeconds = 25.0; // 0.5 s real
    options.port = 0;
    SimEngine *probe = simEngine(EngineRole::Decode); // find a free port, then give it back
    const quint16 port = probe->port();
    probe->stop();
    options.port = port;
    auto *loading = new SimEngine(options, nullptr, m_scope.get());
    loading->start();
    QSignalSpy ready(loading, &SimEngine::ready);
    const QString address = QStringLiteral("127.0.0.1:%1").arg(port);
    QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("decode", {address}))),
             QStringLiteral("Instances ['%1'] are waiting to be added.").arg(address));
    QVERIFY(ready.wait(5000));
    QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 2, 3000);
    QVERIFY(m_stdout.count(QStringLiteral("Checking instance 0.0.0.0:%1...").arg(port)) >= 2);
}

void TestSimProxyEngine::crashedDecoderGivesEmpty200()
{
    SimEngine *p = simEngine(EngineRole::Prefill);
    SimEngine *d1 = simEngine(EngineRole::Decode);
    startWith({p}, {d1});
    d1->stop();
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"model":"deepseek_r1","prompt":"x","max_tokens":4})");
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray());
    QCOMPARE(p->state().finished, 1.0); // the prefill work was done and wasted
    QCOMPARE(healthInt("decode_instances"), 1);
}

QTEST_GUILESS_MAIN(TestSimProxyEngine)
#include "tst_simproxyengine.moc"
