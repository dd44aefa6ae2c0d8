// SPDX-License-Identifier: MIT
#pragma once
// Shared by the proxy conformance tests: fake engines on pdsim's HttpServer, a SimProxy in the test
// process (its stdout/stderr lines captured) and a QNetworkAccessManager client.
#include "http/httpserver.h"
#include "proxy/simproxy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

namespace pd::sim::test {

// A fake vLLM engine: /v1/models, /reset_prefix_cache, and completions that answer prefill requests
// with kv_transfer_params and decode requests with words labelled by the engine's name.
class FakeEngine final : public QObject {
public:
    enum class Mode { Ok, Status400, Status500, ErrorEvent, DropMidStream, Hang };

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
        if (mode == Mode::Hang) {
            m_hung << responder; // accepted, never answered
            return;
        }
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
    QList<HttpResponderPtr> m_hung;
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

// The ports of fake or simulated engines, in order.
template<typename Engine> QList<quint16> portsOf(const QList<Engine *> &engines)
{
    QList<quint16> out;
    for (const Engine *e : engines)
        out << e->port();
    return out;
}

class ProxyTestBase : public QObject {
protected:
    void setUp();
    void tearDown();
    FakeEngine *engine(const QString &name);
    SimProxy *startProxy(const QList<FakeEngine *> &prefill, const QList<FakeEngine *> &decode,
                         const QStringList &extra = {});
    // The proxy on 127.0.0.1 in front of engines on these ports, listening; its output kept in m_stdout
    // and m_stderr. With ApiKey::Dummy it sends "Authorization: Bearer dummy" as the example script does.
    enum class ApiKey { None, Dummy };
    SimProxy *startProxyOn(
        const QList<quint16> &prefillPorts, const QList<quint16> &decodePorts, const QStringList &extra, ApiKey apiKey);
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

inline void ProxyTestBase::setUp()
{
    m_scope = std::make_unique<QObject>();
    m_nam = std::make_unique<QNetworkAccessManager>();
    m_proxy = nullptr;
    m_stdout.clear();
    m_stderr.clear();
}

inline void ProxyTestBase::tearDown()
{
    m_nam.reset();
    m_scope.reset();
}

inline FakeEngine *ProxyTestBase::engine(const QString &name)
{
    auto *e = new FakeEngine(name, m_scope.get());
    if (!e->start())
        qFatal("fake engine cannot listen");
    return e;
}

inline SimProxy *ProxyTestBase::startProxy(const QList<FakeEngine *> &prefill, const QList<FakeEngine *> &decode,
                                   const QStringList &extra)
{
    return startProxyOn(portsOf(prefill), portsOf(decode), extra, ApiKey::Dummy);
}

inline SimProxy *ProxyTestBase::startProxyOn(
    const QList<quint16> &prefillPorts, const QList<quint16> &decodePorts, const QStringList &extra, ApiKey apiKey)
{
    QStringList args = {QStringLiteral("--host"), QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("0")};
    auto list = [&](const char *hosts, const char *ports, const QList<quint16> &engines) {
        if (engines.isEmpty())
            return;
        args << QLatin1String(hosts);
        for (qsizetype i = 0; i < engines.size(); ++i)
            args << QStringLiteral("127.0.0.1");
        args << QLatin1String(ports);
        for (const quint16 port : engines)
            args << QString::number(port);
    };
    list("--prefiller-hosts", "--prefiller-ports", prefillPorts);
    list("--decoder-hosts", "--decoder-ports", decodePorts);
    args << extra;
    QString error;
    auto options = ProxyOptions::fromArguments(args, &error);
    if (!options)
        qFatal("bad options: %s", qPrintable(error));
    if (apiKey == ApiKey::Dummy)
        options->apiKey = QStringLiteral("dummy");
    m_proxy = new SimProxy(*options, m_scope.get());
    connect(m_proxy, &SimProxy::output, m_scope.get(), [this](ProxyStream stream, const QString &line) {
        (stream == ProxyStream::Stdout ? m_stdout : m_stderr) << line;
    });
    if (!m_proxy->listen(&error))
        qFatal("proxy cannot listen: %s", qPrintable(error));
    return m_proxy;
}

inline QUrl ProxyTestBase::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_proxy->port()).arg(path));
}

inline Reply ProxyTestBase::finish(QNetworkReply *reply)
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

inline Reply ProxyTestBase::get(const QString &path)
{
    return finish(m_nam->get(QNetworkRequest(url(path))));
}

inline QNetworkReply *ProxyTestBase::startPost(const QString &path, const QByteArray &body)
{
    QNetworkRequest request(url(path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return m_nam->post(request, body);
}

inline Reply ProxyTestBase::post(const QString &path, const QByteArray &body)
{
    return finish(startPost(path, body));
}

inline QJsonObject ProxyTestBase::health()
{
    return QJsonDocument::fromJson(get(QStringLiteral("/healthcheck")).body).object();
}

inline QByteArray addBody(const char *type, const QStringList &instances)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                                     {QStringLiteral("instances"), QJsonArray::fromStringList(instances)}})
        .toJson(QJsonDocument::Compact);
}

inline QString message(const Reply &r)
{
    return QJsonDocument::fromJson(r.body).object().value(QStringLiteral("message")).toString();
}

inline QStringList decodeList(const Reply &r)
{
    QStringList out;
    for (const auto &v : QJsonDocument::fromJson(r.body).object().value(QStringLiteral("current_decode_instances")).toArray())
        out << v.toString();
    return out;
}

inline QString pyList(const QStringList &items)
{
    QStringList quoted;
    for (const QString &i : items)
        quoted << QLatin1Char('\'') + i + QLatin1Char('\'');
    return QLatin1Char('[') + quoted.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace pd::sim::test
