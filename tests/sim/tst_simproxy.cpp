// SPDX-License-Identifier: MIT
// Conformance of the simulated proxy over HTTP against spec proxy-api.md: /healthcheck, /instances/*,
// waiting -> active and taint -> drain timing, the §8.1 listener crash, /v1/models, /reset_prefix_cache,
// the v0.9.1-dev generation.
#include "tst_simproxyfixture.h"

using namespace pd::sim;
using namespace pd::sim::test;

class TestSimProxy final : public ProxyTestBase {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

    void healthcheckShape();
    void notFoundAndMethod();
    void waitingBecomesActive();
    void duplicateAndAliasAdds();
    void deadInstanceIsDropped();
    void adminErrors();
    void idleRemoveAndEmptyPools();
    void busyRemoveTaintsThenDrains();
    void listenerCrash_data();
    void listenerCrash();
    void modelsPassThrough();
    void resetPrefixCache();
    void v091Generation();
};

void TestSimProxy::healthcheckShape()
{
    startProxy({engine(QStringLiteral("p1")), engine(QStringLiteral("p2"))},
               {engine(QStringLiteral("d1")), engine(QStringLiteral("d2"))});
    const Reply r = get(QStringLiteral("/healthcheck"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.contentType, QByteArray("application/json"));
    QCOMPARE(r.body, QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":2,"request_num":0})"));
}

void TestSimProxy::notFoundAndMethod()
{
    startProxy({engine(QStringLiteral("p1"))}, {engine(QStringLiteral("d1"))});
    for (const char *path : {"/metrics", "/health", "/status", "/instances", "/v1/embeddings"}) {
        const Reply r = get(QLatin1String(path));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.body, QByteArray(R"({"detail":"Not Found"})"));
    }
    const Reply r = get(QStringLiteral("/instances/add"));
    QCOMPARE(r.status, 405);
    QCOMPARE(r.body, QByteArray(R"({"detail":"Method Not Allowed"})"));
}

void TestSimProxy::waitingBecomesActive()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    FakeEngine *fresh = engine(QStringLiteral("d3"));
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    startProxy({p1}, {d1, d2}, {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.3")});
    const Reply r = post(QStringLiteral("/instances/add"), addBody("decode", {fresh->address()}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QStringLiteral(R"({"message":"Instances ['%1'] are waiting to be added.","current_prefill_instances":["%2"],"current_decode_instances":["%3","%4"]})")
                         .arg(fresh->address(), p1->address(), d1->address(), d2->address()).toUtf8());
    QCOMPARE(healthInt("decode_instances"), 2); // not counted while waiting
    QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 3, 10000);
    // Activated by the listener's first check (one /v1/models asked, one "Checking" line), not after
    // retries: that is the listener interval at work, without timing a loaded machine.
    QVERIFY(m_stdout.contains(QStringLiteral("Checking instance %1...").arg(fresh->key())));
    QCOMPARE(fresh->modelsRequests(), 1);
    const Reply list = post(QStringLiteral("/instances/add"), addBody("decode", {}));
    QCOMPARE(decodeList(list), (QStringList{d1->address(), d2->address(), fresh->address()}));
}

void TestSimProxy::duplicateAndAliasAdds()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    startProxy({engine(QStringLiteral("p1"))}, {d1}, {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.2")});
    for (const QString &spelling : {d1->address(), d1->alias(), d1->key()}) {
        const Reply r = post(QStringLiteral("/instances/add"), addBody("decode", {spelling}));
        QCOMPARE(r.status, 200);
        QCOMPARE(message(r), QStringLiteral("add decode instances: %1.").arg(pyList({spelling})));
        QCOMPARE(decodeList(r), QStringList{d1->address()});
    }
    // Adding a waiting instance again (in either role) is a no-op with the same success-looking text.
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("decode", {d2->address()}))),
             QStringLiteral("Instances %1 are waiting to be added.").arg(pyList({d2->address()})));
    QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("prefill", {d2->alias()}))),
             QStringLiteral("add prefill instances: %1.").arg(pyList({d2->alias()})));
    QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 2, 3000);
    QCOMPARE(healthInt("prefill_instances"), 1);
}

void TestSimProxy::deadInstanceIsDropped()
{
    FakeEngine *gone = engine(QStringLiteral("gone"));
    const QString address = gone->address();
    const QString key = gone->key();
    gone->stop();
    startProxy({engine(QStringLiteral("p1"))}, {engine(QStringLiteral("d1"))},
               {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.1")});
    QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("decode", {address}))),
             QStringLiteral("Instances %1 are waiting to be added.").arg(pyList({address})));
    const QString dropped = QStringLiteral("Instance %1 was not added to the proxy.").arg(key);
    QTRY_VERIFY_WITH_TIMEOUT(m_stdout.contains(dropped), 5000);
    QCOMPARE(m_stdout.count(QStringLiteral("Checking instance %1...").arg(key)), 3);
    QCOMPARE(m_stdout.indexOf(dropped), m_stdout.size() - 1);
    QCOMPARE(healthInt("decode_instances"), 1);
    // No longer waiting: a new add queues it again.
    QVERIFY(message(post(QStringLiteral("/instances/add"), addBody("decode", {address}))).startsWith(QLatin1String("Instances")));
}

void TestSimProxy::adminErrors()
{
    startProxy({engine(QStringLiteral("p1"))}, {engine(QStringLiteral("d1"))});
    const Reply wrongType = post(QStringLiteral("/instances/add"), R"({"type":"decoder","instances":["127.0.0.1:9203"]})");
    QCOMPARE(wrongType.status, 200);
    QCOMPARE(wrongType.contentType, QByteArray("application/json"));
    QCOMPARE(wrongType.body, QByteArray(R"({"error":"Instance type 'decoder' is not supported. Only 'prefill' and 'decode' are allowed."})"));
    for (const QByteArray &body : {QByteArray(R"({"type":"decode","instances":["127.0.0.1"]})"),
                                   QByteArray(R"({"type":"decode","instances":["::1:9000"]})"),
                                   QByteArray(R"({"type":"decoder","instances":["h"]})"),
                                   QByteArray("not json")}) {
        for (const char *path : {"/instances/add", "/instances/remove"}) {
            const Reply r = post(QLatin1String(path), body);
            QCOMPARE(r.status, 500);
            QCOMPARE(r.contentType, QByteArray("text/plain; charset=utf-8"));
            QCOMPARE(r.body, QByteArray("Internal Server Error"));
        }
    }
    const Reply noInstances = post(QStringLiteral("/instances/add"), R"({"type":"decode"})");
    QCOMPARE(message(noInstances), QStringLiteral("add decode instances: []."));
}

void TestSimProxy::idleRemoveAndEmptyPools()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *p2 = engine(QStringLiteral("p2"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    startProxy({p1, p2}, {d1, d2});
    Reply r = post(QStringLiteral("/instances/remove"), QStringLiteral(R"({"type":"decode","instances":"%1"})").arg(d2->address()).toUtf8());
    QCOMPARE(r.body, QStringLiteral(R"({"message":"remove decode instances: ['%1'].","current_prefill_instances":["%2","%3"],"current_decode_instances":["%4"]})")
                         .arg(d2->address(), p1->address(), p2->address(), d1->address()).toUtf8());
    r = post(QStringLiteral("/instances/remove"), addBody("decode", {QStringLiteral("127.0.0.1:9555")}));
    QCOMPARE(message(r), QStringLiteral("remove decode instances: ['127.0.0.1:9555']."));
    QCOMPARE(decodeList(r), QStringList{d1->address()});
    r = post(QStringLiteral("/instances/remove"), addBody("decode", {d1->alias()}));
    QCOMPARE(decodeList(r), QStringList());
    QCOMPARE(get(QStringLiteral("/healthcheck")).body, QByteArray(R"({"status":"ok","prefill_instances":2,"decode_instances":0,"request_num":0})"));

    // Decode pool empty: 500 text, after the prefill work was done.
    r = post(QStringLiteral("/v1/completions"), R"({"model":"fake-model","prompt":"hi","max_tokens":2})");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.contentType, QByteArray("text/plain; charset=utf-8"));
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(p1->completions(), 1);
    QCOMPARE(healthInt("request_num"), 0);

    // Prefill pool empty too: 500 text, nothing sent.
    post(QStringLiteral("/instances/remove"), addBody("prefill", {p1->address(), p2->address()}));
    r = post(QStringLiteral("/v1/completions"), R"({"prompt":"hi"})");
    QCOMPARE(r.status, 500);
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(p1->completions() + p2->completions(), 1);
    QCOMPARE(healthInt("request_num"), 0);
}

void TestSimProxy::busyRemoveTaintsThenDrains()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    startProxy({p1}, {d1, d2}, {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.3")});
    d1->hold = true;
    QNetworkReply *stream = startPost(QStringLiteral("/v1/completions"),
                                      R"({"model":"fake-model","prompt":"slow","max_tokens":3,"stream":true})");
    QTRY_COMPARE(d1->completions(), 1);
    QCOMPARE(healthInt("request_num"), 1);

    const Reply r = post(QStringLiteral("/instances/remove"), addBody("decode", {d1->address()}));
    QCOMPARE(r.body, QStringLiteral(R"({"message":"Instances ['%1'] are isolated and waiting to be removed.","current_prefill_instances":["%2"],"current_decode_instances":["%1","%3"]})")
                         .arg(d1->address(), p1->address(), d2->address()).toUtf8());
    QVERIFY(m_stderr.contains(QStringLiteral("INFO Start to taint decode instances ['%1'].").arg(d1->key())));
    QCOMPARE(get(QStringLiteral("/healthcheck")).body, QByteArray(R"({"status":"ok","prefill_instances":1,"decode_instances":2,"request_num":1})"));
    // Re-adding does not cancel the drain.
    QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("decode", {d1->address()}))),
             QStringLiteral("add decode instances: %1.").arg(pyList({d1->address()})));
    // A new request during the drain goes to the other decoder.
    const Reply during = post(QStringLiteral("/v1/completions"), R"({"prompt":"fast","max_tokens":2})");
    QCOMPARE(during.status, 200);
    QVERIFY(during.body.contains("w0@d2"));
    // Still listed while the stream runs, across several listener rounds.
    QSignalSpy rounds(m_proxy, &SimProxy::listenerRoundFinished);
    QVERIFY(rounds.wait(2000));
    QCOMPARE(healthInt("decode_instances"), 2);

    d1->release();
    const Reply streamed = finish(stream);
    QCOMPARE(streamed.status, 200);
    QVERIFY(streamed.body.contains("w2@d1"));
    QVERIFY(streamed.body.endsWith("data: [DONE]\n\n"));
    QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 1, 3000);
    QCOMPARE(healthInt("request_num"), 0);
    QVERIFY(m_stderr.contains(QStringLiteral("INFO Remove decode instances after drain: ['%1']. prefill=['%2'] decode=['%3']")
                                  .arg(d1->key(), p1->address(), d2->address())));
}

void TestSimProxy::listenerCrash_data()
{
    QTest::addColumn<bool>("defect");
    QTest::newRow("defect on (default)") << true;
    QTest::newRow("--no-defect-listener-crash") << false;
}

void TestSimProxy::listenerCrash()
{
    QFETCH(bool, defect);
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *extra = engine(QStringLiteral("d3"));
    FakeEngine *later = engine(QStringLiteral("d4"));
    QStringList args = {QStringLiteral("--waiting-retry-interval"), QStringLiteral("0.5")};
    if (!defect)
        args << QStringLiteral("--no-defect-listener-crash");
    startProxy({p1}, {d1}, args);
    QSignalSpy crashed(m_proxy, &SimProxy::listenerCrashed);
    QSignalSpy rounds(m_proxy, &SimProxy::listenerRoundFinished);

    d1->hold = true;
    QNetworkReply *stream = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"busy","max_tokens":2,"stream":true})");
    QTRY_COMPARE(d1->completions(), 1);
    // Right after a listener round: add, then remove while busy, before the next probe.
    QVERIFY(rounds.wait(2000));
    QVERIFY(message(post(QStringLiteral("/instances/add"), addBody("decode", {extra->address()}))).startsWith(QLatin1String("Instances")));
    QCOMPARE(message(post(QStringLiteral("/instances/remove"), addBody("decode", {extra->address()}))),
             QStringLiteral("Instances %1 are isolated and waiting to be removed.").arg(pyList({extra->address()})));
    QVERIFY(rounds.wait(2000) || !crashed.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(extra->modelsRequests(), 1, 2000);

    if (defect) {
        QTRY_COMPARE(crashed.size(), 1);
        QCOMPARE(crashed.at(0).at(0).toString(), extra->key());
        QVERIFY(!m_proxy->isListenerAlive());
        QVERIFY(m_stderr.contains(QStringLiteral("Exception in thread Thread-1 (_run):")));
        QCOMPARE(m_stderr.last(), QStringLiteral("KeyError: '%1'").arg(extra->key()));
        // From now on no add is activated, and the stuck key answers like a duplicate.
        QVERIFY(message(post(QStringLiteral("/instances/add"), addBody("decode", {later->address()}))).startsWith(QLatin1String("Instances")));
        QCOMPARE(message(post(QStringLiteral("/instances/add"), addBody("decode", {extra->address()}))),
                 QStringLiteral("add decode instances: %1.").arg(pyList({extra->address()})));
        d1->release();
        QCOMPARE(finish(stream).status, 200);
        QCOMPARE(healthInt("request_num"), 0);
        // Three would-be intervals pass without a listener round: nothing is ever activated.
        rounds.clear();
        QVERIFY(!rounds.wait(1600));
        QCOMPARE(later->modelsRequests(), 0);
        QCOMPARE(get(QStringLiteral("/healthcheck")).body, QByteArray(R"({"status":"ok","prefill_instances":1,"decode_instances":1,"request_num":0})"));
    } else {
        QTRY_VERIFY(m_stdout.contains(QStringLiteral("Instance %1 was not added to the proxy.").arg(extra->key())));
        QVERIFY(crashed.isEmpty());
        QVERIFY(m_proxy->isListenerAlive());
        d1->release();
        QCOMPARE(finish(stream).status, 200);
        QVERIFY(message(post(QStringLiteral("/instances/add"), addBody("decode", {later->address()}))).startsWith(QLatin1String("Instances")));
        QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 2, 3000);
    }
}

void TestSimProxy::modelsPassThrough()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    startProxy({p1}, {d1});
    Reply r = get(QStringLiteral("/v1/models"));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.contentType, QByteArray("application/json"));
    QCOMPARE(r.body, QByteArray(R"({"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"p1"}]})"));
    p1->modelsStatus = 500;
    r = get(QStringLiteral("/v1/models"));
    QVERIFY(r.body.contains("\"owned_by\":\"d1\""));
    d1->modelsStatus = 404;
    r = get(QStringLiteral("/v1/models"));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.body, QStringLiteral(R"({"error":"All backend instances failed to serve /v1/models","failed":["%1","%2"]})")
                         .arg(p1->address(), d1->address()).toUtf8());
    post(QStringLiteral("/instances/remove"), addBody("prefill", {p1->address()}));
    post(QStringLiteral("/instances/remove"), addBody("decode", {d1->address()}));
    r = get(QStringLiteral("/v1/models"));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.body, QByteArray(R"({"error":"No available backend instances"})"));
}

void TestSimProxy::resetPrefixCache()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    FakeEngine *d2 = engine(QStringLiteral("d2"));
    startProxy({p1}, {d1, d2});
    Reply r = post(QStringLiteral("/reset_prefix_cache"), {});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray());
    p1->resetStatus = 500;
    d2->stop();
    r = post(QStringLiteral("/reset_prefix_cache"), {});
    QCOMPARE(r.status, 500);
    QCOMPARE(r.body, QStringLiteral("{\"failed\":[\"http://%1\",\"http://%2\"]}").arg(p1->address(), d2->address()).toUtf8());
}

void TestSimProxy::v091Generation()
{
    FakeEngine *p1 = engine(QStringLiteral("p1"));
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    startProxy({p1}, {d1}, {QStringLiteral("--generation"), QStringLiteral("v0.9.1-dev")});
    QCOMPARE(get(QStringLiteral("/healthcheck")).body, QByteArray(R"({"status":"ok","prefill_instances":1,"decode_instances":1})"));
    for (const char *path : {"/instances/add", "/instances/remove", "/reset_prefix_cache"})
        QCOMPARE(post(QLatin1String(path), addBody("decode", {})).status, 404);
    QCOMPARE(get(QStringLiteral("/v1/models")).body, QByteArray(R"({"detail":"Not Found"})"));
    p1->mode = FakeEngine::Mode::Status400;
    const Reply r = post(QStringLiteral("/v1/completions"), R"({"prompt":"x"})");
    QCOMPARE(r.status, 500); // before upstream error forwarding
    QCOMPARE(r.body, QByteArray("Internal Server Error"));
    QCOMPARE(p1->completions(), 3); // and before "no retry on 400"
    p1->mode = FakeEngine::Mode::Ok;
    QCOMPARE(post(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":2})").status, 200);
}

QTEST_GUILESS_MAIN(TestSimProxy)
#include "tst_simproxy.moc"
