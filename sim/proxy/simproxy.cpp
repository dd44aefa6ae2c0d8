// SPDX-License-Identifier: MIT
#include "simproxy.h"

#include "backendcall.h"
#include "completionrelay.h"
#include "instanceadmin.h"
#include "nodelistener.h"
#include "proxytext.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QPointer>

#include <cmath>
#include <memory>

namespace pd::sim {

namespace {


int timeoutMs(double seconds)
{
    const double ms = seconds * 1000.0;
    return std::isfinite(ms) && ms > 0 ? int(std::min(ms, 2.0e9)) : 0;
}

// GET /v1/models: every pool member in order (prefill, then decode, tainted included), 3 s each,
// one at a time; the first 2xx body is returned verbatim.
struct ModelsQuery {
    QList<BackendAddress> backends;
    qsizetype next = 0;
    QStringList failed;
    HttpResponderPtr responder;
    QByteArray apiKey;
    QByteArray body;
};

void tryNextModels(QObject *context, const std::shared_ptr<ModelsQuery> &query)
{
    if (query->next >= query->backends.size()) {
        OrderedJson body;
        body["error"] = "All backend instances failed to serve /v1/models";
        body["failed"] = OrderedJson::array();
        for (const QString &f : std::as_const(query->failed))
            body["failed"].push_back(f.toStdString());
        query->responder->respond(503, kJsonContentType, compactJson(body));
        return;
    }
    const BackendAddress backend = query->backends.at(query->next++);
    auto *call = new BackendCall(backend.host, backend.port, "GET", "/v1/models",
                                 {{"Authorization", "Bearer " + query->apiKey}}, {}, context);
    call->setTimeout(3000);
    query->body.clear();
    QObject::connect(call, &BackendCall::bodyRead, context, [query](const QByteArray &data) { query->body += data; });
    QObject::connect(call, &BackendCall::finished, context, [context, call, query, backend] {
        call->deleteLater();
        if (call->status() >= 200 && call->status() < 300) {
            query->responder->respond(200, kJsonContentType, query->body);
            return;
        }
        query->failed << backend.displayName();
        tryNextModels(context, query);
    });
    QObject::connect(call, &BackendCall::failed, context, [context, call, query, backend] {
        call->deleteLater();
        query->failed << backend.displayName();
        tryNextModels(context, query);
    });
    call->start();
}

} // namespace

SimProxy::SimProxy(ProxyOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_server(new HttpServer(this))
{
    m_log.level = proxyLogLevel(m_options.logLevel);
    m_log.write = [this](ProxyStream stream, const QString &line) { Q_EMIT output(stream, line); };
    for (const BackendAddress &address : std::as_const(m_options.prefillers))
        m_scheduler.addServer(ProxyRole::Prefill, address);
    for (const BackendAddress &address : std::as_const(m_options.decoders))
        m_scheduler.addServer(ProxyRole::Decode, address);
    m_server->setHandler([this](const HttpRequest &request, const HttpResponderPtr &responder) {
        handle(request, responder);
    });
    if (m_options.generation == ProxyGeneration::Main) {
        m_listener = new NodeListener(m_scheduler, m_log, this);
        m_listener->setInterval(m_options.waitingRetryInterval);
        m_listener->setMaxWaitingRetries(m_options.maxWaitingRetries);
        m_listener->setApiKey(m_options.apiKey);
        m_listener->setCrashDefect(m_options.listenerCrashDefect);
        connect(m_listener, &NodeListener::roundFinished, this, &SimProxy::listenerRoundFinished);
        connect(m_listener, &NodeListener::crashed, this, &SimProxy::listenerCrashed);
    }
}

SimProxy::~SimProxy()
{
    // Children use m_scheduler and m_log: end them while the members still exist (QObject would
    // delete them only after the members are gone). Relays first, then the server (whose closing
    // sockets would otherwise report clientGone to them), then the listener.
    qDeleteAll(findChildren<CompletionRelay *>(Qt::FindDirectChildrenOnly));
    delete m_server;
    m_server = nullptr;
    delete m_listener;
    m_listener = nullptr;
    qDeleteAll(findChildren<BackendCall *>(Qt::FindDirectChildrenOnly));
}

bool SimProxy::listen(QString *error)
{
    QHostAddress address;
    if (m_options.host == QLatin1String("localhost"))
        address = QHostAddress::LocalHost;
    else if (m_options.host == QLatin1String("0.0.0.0"))
        address = QHostAddress::AnyIPv4;
    else if (m_options.host == QLatin1String("::"))
        address = QHostAddress::AnyIPv6;
    else if (!address.setAddress(m_options.host)) {
        if (error)
            *error = QStringLiteral("cannot bind to %1: not an IP address").arg(m_options.host);
        return false;
    }
    if (m_options.port < 0 || m_options.port > 65535) {
        if (error)
            *error = QStringLiteral("port %1 out of range").arg(m_options.port);
        return false;
    }
    if (!m_server->listen(address, quint16(m_options.port))) {
        if (error)
            *error = m_server->errorString();
        return false;
    }
    if (m_listener)
        m_listener->start();
    return true;
}

quint16 SimProxy::port() const
{
    return m_server ? m_server->port() : 0;
}

void SimProxy::close()
{
    if (m_server)
        m_server->close();
}

bool SimProxy::isListenerAlive() const
{
    return m_listener && m_listener->isAlive();
}

QStringList SimProxy::startupLines() const
{
    return { QStringLiteral("INFO:     Started server process [%1]").arg(QCoreApplication::applicationPid()),
        QStringLiteral("INFO:     Waiting for application startup."),
        QStringLiteral("INFO:     Application startup complete."),
        QStringLiteral("INFO:     Uvicorn running on http://%1:%2 (Press CTRL+C to quit)").arg(m_options.host).arg(port()) };
}

QStringList SimProxy::shutdownLines() const
{
    return { QStringLiteral("INFO:     Shutting down"), QStringLiteral("INFO:     Waiting for application shutdown."),
        QStringLiteral("INFO:     Application shutdown complete."),
        QStringLiteral("INFO:     Finished server process [%1]").arg(QCoreApplication::applicationPid()) };
}

void SimProxy::handle(const HttpRequest &request, const HttpResponderPtr &responder)
{
    if (m_options.accessLog) {
        const QByteArray target = request.query.isEmpty() ? request.path : request.path + '?' + request.query;
        responder->setHeadObserver([self = QPointer<SimProxy>(this), peer = responder->peer(),
                                       method = request.method, target](int status) {
            if (!self)
                return;
            Q_EMIT self->accessLine(
                QStringLiteral("INFO:     %1 - \"%2 %3 HTTP/1.1\" %4 %5")
                    .arg(QString::fromUtf8(peer), QString::fromUtf8(method), QString::fromUtf8(target))
                    .arg(status)
                    .arg(QString::fromUtf8(HttpServer::reasonPhrase(status))));
        });
    }
    const bool main = m_options.generation == ProxyGeneration::Main;
    struct Route {
        const char *path;
        const char *method;
        bool available;
    };
    const Route routes[] = {
        {"/healthcheck", "GET", true},
        {"/instances/add", "POST", main},
        {"/instances/remove", "POST", main},
        {"/v1/completions", "POST", true},
        {"/v1/chat/completions", "POST", true},
        {"/v1/models", "GET", main},
        {"/reset_prefix_cache", "POST", main},
    };
    for (const Route &route : routes) {
        if (!route.available || request.path != route.path)
            continue;
        if (request.method != route.method) {
            responder->respond(405, kJsonContentType, QByteArrayLiteral("{\"detail\":\"Method Not Allowed\"}"),
                               {{"allow", route.method}});
            return;
        }
        const QByteArray path = request.path;
        if (path == "/healthcheck") {
            healthcheck(responder);
        } else if ((path == "/instances/add" || path == "/instances/remove") && m_adminErrors > 0) {
            --m_adminErrors;
            responder->respond(
                500, QByteArrayLiteral("text/plain; charset=utf-8"), QByteArrayLiteral("Internal Server Error"));
        } else if (path == "/instances/add" || path == "/instances/remove") {
            const AdminReply reply = path == "/instances/add" ? InstanceAdmin::add(m_scheduler, request.body)
                                                              : InstanceAdmin::remove(m_scheduler, request.body);
            for (const QString &line : reply.logLines)
                m_log.log(ProxyLogLevel::Info, line);
            responder->respond(reply.status, reply.contentType, reply.body);
        } else if (path == "/v1/models") {
            models(responder);
        } else if (path == "/reset_prefix_cache") {
            resetPrefixCache(request, responder);
        } else {
            relay(request, responder);
        }
        return;
    }
    responder->respond(404, kJsonContentType, QByteArrayLiteral("{\"detail\":\"Not Found\"}"));
}

void SimProxy::healthcheck(const HttpResponderPtr &responder)
{
    OrderedJson body;
    body["status"] = "ok";
    body["prefill_instances"] = m_scheduler.instanceCount(ProxyRole::Prefill);
    body["decode_instances"] = m_scheduler.instanceCount(ProxyRole::Decode);
    if (m_options.generation == ProxyGeneration::Main)
        body["request_num"] = m_scheduler.requestCount();
    responder->respond(200, kJsonContentType, compactJson(body));
}

void SimProxy::models(const HttpResponderPtr &responder)
{
    auto query = std::make_shared<ModelsQuery>();
    query->backends = m_scheduler.addresses(ProxyRole::Prefill) + m_scheduler.addresses(ProxyRole::Decode);
    query->responder = responder;
    query->apiKey = m_options.apiKey.toUtf8();
    if (query->backends.isEmpty()) {
        responder->respond(503, kJsonContentType, QByteArrayLiteral("{\"error\":\"No available backend instances\"}"));
        return;
    }
    tryNextModels(this, query);
}

void SimProxy::resetPrefixCache(const HttpRequest &request, const HttpResponderPtr &responder)
{
    struct State {
        QList<BackendAddress> backends;
        QList<bool> ok;
        qsizetype pending = 0;
    };
    auto state = std::make_shared<State>();
    state->backends = m_scheduler.addresses(ProxyRole::Prefill) + m_scheduler.addresses(ProxyRole::Decode);
    state->ok = QList<bool>(state->backends.size(), false);
    state->pending = state->backends.size();
    auto answer = [state, responder] {
        OrderedJson failed = OrderedJson::array();
        for (qsizetype i = 0; i < state->backends.size(); ++i) {
            if (!state->ok.at(i))
                failed.push_back(QString(QStringLiteral("http://") + state->backends.at(i).displayName()).toStdString());
        }
        if (failed.empty())
            responder->respond(200, {}, {});
        else
            responder->respond(500, kJsonContentType, compactJson(OrderedJson{{"failed", failed}}));
    };
    if (state->pending == 0) {
        answer();
        return;
    }
    const QByteArray target = request.query.isEmpty() ? QByteArrayLiteral("/reset_prefix_cache")
                                                      : "/reset_prefix_cache?" + request.query;
    for (qsizetype i = 0; i < state->backends.size(); ++i) {
        const BackendAddress backend = state->backends.at(i);
        auto *call = new BackendCall(backend.host, backend.port, "POST", target,
                                     {{"Authorization", "Bearer " + m_options.apiKey.toUtf8()}}, {}, this);
        auto settle = [state, answer, i](bool ok) {
            state->ok[i] = ok;
            if (--state->pending == 0)
                answer();
        };
        connect(call, &BackendCall::finished, this, [call, settle] {
            call->deleteLater();
            settle(call->status() >= 200 && call->status() < 300);
        });
        connect(call, &BackendCall::failed, this, [call, settle] {
            call->deleteLater();
            settle(false);
        });
        call->start();
    }
}

void SimProxy::relay(const HttpRequest &request, const HttpResponderPtr &responder)
{
    CompletionRelay::Settings settings;
    settings.generation = m_options.generation;
    settings.maxRetries = m_options.maxRetries;
    settings.retryDelay = m_options.retryDelay;
    settings.emptyOkOnDecoderFailure = m_options.emptyOkOnDecoderFailure;
    settings.backendTimeoutMs = timeoutMs(m_options.backendTimeout);
    settings.apiKey = m_options.apiKey;
    auto *relay = new CompletionRelay(m_scheduler, settings, m_log, request, responder, this);
    connect(relay, &CompletionRelay::done, relay, &QObject::deleteLater);
    relay->start();
}

} // namespace pd::sim
