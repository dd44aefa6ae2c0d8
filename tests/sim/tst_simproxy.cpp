// SPDX-License-Identifier: MIT
// Conformance of the simulated proxy over HTTP against spec proxy-api.md: shapes, texts and status
// codes of every endpoint, routing, retries, waiting -> active and taint -> drain timing, the §8
// defects and their switches. Backends are small fake engines on pdsim's HttpServer.
#include "http/httpserver.h"
#include "proxy/simproxy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace pd::sim;

namespace {

// A fake vLLM engine: /v1/models, /reset_prefix_cache, and completions that answer prefill requests
// with kv_transfer_params and decode requests with words labelled by the engine's name.
class FakeEngine final : public QObject {
public:
    enum class Mode { Ok, Status400, Status500, ErrorEvent, DropMidStream };

    explicit FakeEngine(QString name, QObject *parent = nullptr)
        : QObject(parent), m_name(std::move(name)), m_server(new HttpServer(this))
    {
        m_server->setHandler([this](const HttpRequest &r, const HttpResponderPtr &w) { handle(r, w); });
    }
    bool start()
    {
        const bool ok = m_server->listen(QHostAddress::LocalHost, 0);
        m_port = m_server->port();
        return ok;
    }
    void stop() { m_server->close(); }
    // The port stays known after stop(): a stopped engine refuses connections on it.
    QString address() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }
    QString alias() const { return QStringLiteral("localhost:%1").arg(m_port); }
    QString key() const { return QStringLiteral("0.0.0.0:%1").arg(m_port); }
    quint16 port() const { return m_port; }
    int completions() const { return int(m_completions.size()); }
    const QList<HttpRequest> &completionRequests() const { return m_completions; }
    int modelsRequests() const { return m_models; }

    Mode mode = Mode::Ok;
    int modelsStatus = 200;
    int resetStatus = 200;
    bool hold = false; // streams pause after the first token until release()

    void release()
    {
        hold = false;
        const auto held = std::exchange(m_held, {});
        for (const auto &resume : held)
            resume();
    }

private:
    void handle(const HttpRequest &request, const HttpResponderPtr &responder)
    {
        if (request.path == "/v1/models") {
            ++m_models;
            responder->respond(modelsStatus, "application/json",
                               R"({"object":"list","data":[{"id":"fake-model","object":"model","owned_by":")"
                                   + m_name.toUtf8() + R"("}]})");
            return;
        }
        if (request.path == "/reset_prefix_cache") {
            responder->respond(resetStatus, {}, {});
            return;
        }
        m_completions << request;
        if (mode == Mode::Status400 || mode == Mode::Status500) {
            const int status = mode == Mode::Status400 ? 400 : 500;
            responder->respond(status, "application/json",
                               QStringLiteral(R"({"object":"error","message":"fake engine %1 says %2","type":"%3","param":null,"code":%2})")
                                   .arg(m_name).arg(status)
                                   .arg(status == 400 ? QStringLiteral("BadRequestError") : QStringLiteral("InternalServerError"))
                                   .toUtf8());
            return;
        }
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        if (body.value(QStringLiteral("kv_transfer_params")).toObject().value(QStringLiteral("do_remote_decode")).toBool()) {
            responder->respond(200, "application/json",
                               R"({"id":"cmpl-p","object":"text_completion","choices":[{"index":0,"text":"x","finish_reason":"length"}],)"
                               R"("usage":{"prompt_tokens":4,"completion_tokens":1,"total_tokens":5,"prompt_tokens_details":{"cached_tokens":7}},)"
                               R"("kv_transfer_params":{"do_remote_prefill":true,"do_remote_decode":false,"remote_engine_id":"engine-)"
                                   + m_name.toUtf8() + R"(","remote_block_ids":[1,2,3],"remote_host":"127.0.0.1","remote_port":10100}})");
            return;
        }
        const int n = body.value(QStringLiteral("max_tokens")).toInt(16);
        QStringList words;
        for (int i = 0; i < n; ++i)
            words << QStringLiteral("w%1@%2").arg(i).arg(m_name);
        const QByteArray usage = R"({"prompt_tokens":4,"completion_tokens":)" + QByteArray::number(n)
            + R"(,"total_tokens":)" + QByteArray::number(n + 4) + R"(,"prompt_tokens_details":{"cached_tokens":0}})";
        if (!body.value(QStringLiteral("stream")).toBool()) {
            responder->respond(200, "application/json",
                               R"({"id":"cmpl-d","object":"text_completion","choices":[{"index":0,"text":")"
                                   + words.join(QLatin1Char(' ')).toUtf8() + R"(","finish_reason":"length"}],"usage":)" + usage + "}");
            return;
        }
        QList<QByteArray> events;
        for (int i = 0; i < n; ++i)
            events << R"(data: {"id":"cmpl-d","choices":[{"index":0,"text":")" + (i ? " " : QByteArray()) + words.at(i).toUtf8() + "\"}]}\n\n";
        if (mode == Mode::ErrorEvent)
            events.insert(1, QByteArray(R"(data: {"error":{"object":"error","message":"boom","code":500}})" "\n\n"));
        if (body.value(QStringLiteral("stream_options")).toObject().value(QStringLiteral("include_usage")).toBool())
            events << R"(data: {"id":"cmpl-d","choices":[],"usage":)" + usage + "}\n\n";
        events << "data: [DONE]\n\n";
        responder->beginChunked(200, "text/event-stream; charset=utf-8");
        sendEvents(responder, events, 0);
    }

    // One event per timer tick, so each arrives in its own read at the proxy.
    void sendEvents(const HttpResponderPtr &responder, const QList<QByteArray> &events, qsizetype i)
    {
        if (!responder->isOpen())
            return;
        if (i == events.size()) {
            responder->endChunked();
            return;
        }
        if (i == 1 && mode == Mode::DropMidStream) {
            responder->abort();
            return;
        }
        if (i == 1 && hold) {
            m_held << [this, responder, events, i] { sendEvents(responder, events, i); };
            return;
        }
        responder->writeChunk(events.at(i));
        QTimer::singleShot(5, this, [this, responder, events, i] { sendEvents(responder, events, i + 1); });
    }

    QString m_name;
    HttpServer *m_server;
    QList<HttpRequest> m_completions;
    QList<std::function<void()>> m_held;
    int m_models = 0;
    quint16 m_port = 0;
};

struct Reply {
    int status = 0;
    QByteArray contentType;
    QByteArray transferEncoding;
    QByteArray body;
    bool error = false;
};

} // namespace

class TestSimProxy final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();

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
    void modelsPassThrough();
    void resetPrefixCache();
    void v091Generation();

private:
    FakeEngine *engine(const QString &name);
    SimProxy *startProxy(const QList<FakeEngine *> &prefill, const QList<FakeEngine *> &decode,
                         const QStringList &extra = {});
    QUrl url(const QString &path) const;
    Reply get(const QString &path);
    Reply post(const QString &path, const QByteArray &body);
    QNetworkReply *startPost(const QString &path, const QByteArray &body);
    Reply finish(QNetworkReply *reply);
    QJsonObject health();
    int healthInt(const char *key) { return health().value(QLatin1String(key)).toInt(-1); }

    std::unique_ptr<QObject> m_scope;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    SimProxy *m_proxy = nullptr;
    QStringList m_stdout;
    QStringList m_stderr;
};

void TestSimProxy::init()
{
    m_scope = std::make_unique<QObject>();
    m_nam = std::make_unique<QNetworkAccessManager>();
    m_proxy = nullptr;
    m_stdout.clear();
    m_stderr.clear();
}

void TestSimProxy::cleanup()
{
    m_nam.reset();
    m_scope.reset();
}

FakeEngine *TestSimProxy::engine(const QString &name)
{
    auto *e = new FakeEngine(name, m_scope.get());
    if (!e->start())
        qFatal("fake engine cannot listen");
    return e;
}

SimProxy *TestSimProxy::startProxy(const QList<FakeEngine *> &prefill, const QList<FakeEngine *> &decode,
                                   const QStringList &extra)
{
    QStringList args = {QStringLiteral("--host"), QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("0")};
    auto list = [&](const char *hosts, const char *ports, const QList<FakeEngine *> &engines) {
        if (engines.isEmpty())
            return;
        args << QLatin1String(hosts);
        for (qsizetype i = 0; i < engines.size(); ++i)
            args << QStringLiteral("127.0.0.1");
        args << QLatin1String(ports);
        for (const FakeEngine *e : engines)
            args << QString::number(e->port());
    };
    list("--prefiller-hosts", "--prefiller-ports", prefill);
    list("--decoder-hosts", "--decoder-ports", decode);
    args << extra;
    QString error;
    auto options = ProxyOptions::fromArguments(args, &error);
    if (!options)
        qFatal("bad options: %s", qPrintable(error));
    options->apiKey = QStringLiteral("dummy");
    m_proxy = new SimProxy(*options, m_scope.get());
    connect(m_proxy, &SimProxy::output, m_scope.get(), [this](ProxyStream stream, const QString &line) {
        (stream == ProxyStream::Stdout ? m_stdout : m_stderr) << line;
    });
    if (!m_proxy->listen(&error))
        qFatal("proxy cannot listen: %s", qPrintable(error));
    return m_proxy;
}

QUrl TestSimProxy::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_proxy->port()).arg(path));
}

Reply TestSimProxy::finish(QNetworkReply *reply)
{
    if (!reply->isFinished()) {
        QSignalSpy spy(reply, &QNetworkReply::finished);
        spy.wait(15000);
    }
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.contentType = reply->rawHeader("content-type");
    r.transferEncoding = reply->rawHeader("transfer-encoding");
    r.body = reply->readAll();
    r.error = reply->error() != QNetworkReply::NoError && r.status < 400;
    reply->deleteLater();
    return r;
}

Reply TestSimProxy::get(const QString &path)
{
    return finish(m_nam->get(QNetworkRequest(url(path))));
}

QNetworkReply *TestSimProxy::startPost(const QString &path, const QByteArray &body)
{
    QNetworkRequest request(url(path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return m_nam->post(request, body);
}

Reply TestSimProxy::post(const QString &path, const QByteArray &body)
{
    return finish(startPost(path, body));
}

QJsonObject TestSimProxy::health()
{
    return QJsonDocument::fromJson(get(QStringLiteral("/healthcheck")).body).object();
}

static QByteArray addBody(const char *type, const QStringList &instances)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                                     {QStringLiteral("instances"), QJsonArray::fromStringList(instances)}})
        .toJson(QJsonDocument::Compact);
}

static QString message(const Reply &r)
{
    return QJsonDocument::fromJson(r.body).object().value(QStringLiteral("message")).toString();
}

static QStringList decodeList(const Reply &r)
{
    QStringList out;
    for (const auto &v : QJsonDocument::fromJson(r.body).object().value(QStringLiteral("current_decode_instances")).toArray())
        out << v.toString();
    return out;
}

static QString pyList(const QStringList &items)
{
    QStringList quoted;
    for (const QString &i : items)
        quoted << QLatin1Char('\'') + i + QLatin1Char('\'');
    return QLatin1Char('[') + quoted.join(QStringLiteral(", ")) + QLatin1Char(']');
}

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
    QElapsedTimer timer;
    timer.start();
    QTRY_COMPARE_WITH_TIMEOUT(healthInt("decode_instances"), 3, 3000);
    QVERIFY2(timer.elapsed() < 1500, "activated within one listener interval (+ margin)");
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

void TestSimProxy::routingAndBodies()
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

void TestSimProxy::nonStreamAnswer()
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

void TestSimProxy::streamAnswer()
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

void TestSimProxy::chatPath()
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

void TestSimProxy::decoderDown_data()
{
    QTest::addColumn<bool>("stream");
    QTest::addColumn<bool>("defect");
    QTest::newRow("non-stream") << false << true;
    QTest::newRow("stream") << true << true;
    QTest::newRow("non-stream --no-defect-empty-200") << false << false;
    QTest::newRow("stream --no-defect-empty-200") << true << false;
}

void TestSimProxy::decoderDown()
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

void TestSimProxy::decoderErrorEventTruncates()
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

void TestSimProxy::decoderDiesMidStream()
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

void TestSimProxy::prefillErrors()
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

void TestSimProxy::clientAbortReleases()
{
    FakeEngine *d1 = engine(QStringLiteral("d1"));
    d1->hold = true;
    startProxy({engine(QStringLiteral("p1"))}, {d1});
    QNetworkReply *reply = startPost(QStringLiteral("/v1/completions"), R"({"prompt":"x","max_tokens":4,"stream":true})");
    QTRY_COMPARE(d1->completions(), 1);
    QCOMPARE(healthInt("request_num"), 1);
    reply->abort();
    reply->deleteLater();
    QTRY_COMPARE(healthInt("request_num"), 0);
    d1->release();
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
