// SPDX-License-Identifier: MIT
#include "simengine.h"

#include "dpsteppace.h"
#include "loadmodel.h"
#include "metricsexposition.h"
#include "openaiformat.h"
#include "simclock.h"
#include "simlog/enginelog.h"

#include <QDateTime>
#include <QPointer>
#include <QUuid>

#include <cmath>

namespace pd::sim {

using openai::Json;

namespace {


double wallNow()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// The engines of a thread answer one request at a time and a body is handed to the kernel before
// respond() returns, so they share one buffer for /metrics bodies: it stays warm in the cache and keeps
// its capacity from answer to answer (one ~50 KB allocation per thread, none per request).
constexpr qsizetype kMetricsBufferKeepBytes = 1024 * 1024;

QByteArray &metricsBuffer()
{
    thread_local QByteArray buffer;
    return buffer;
}

QByteArray handlerOf(const QByteArray &path)
{
    static const QByteArray known[] = {"/v1/completions", "/v1/chat/completions", "/v1/models",
                                       "/reset_prefix_cache", "/tokenize", "/detokenize"};
    for (const QByteArray &k : known) {
        if (path == k)
            return k;
    }
    return QByteArrayLiteral("none");
}

bool excludedFromHttpMetrics(const QByteArray &path)
{
    return path == "/metrics" || path == "/health" || path == "/load" || path == "/ping"
           || path == "/version" || path == "/server_info" || path.startsWith("/sim/");
}

} // namespace

struct SimEngine::Active {
    HttpResponderPtr res;
    QByteArray path;
    QByteArray method;
    qsizetype requestBytes = 0;
    qsizetype responseBytes = 0;
    bool chat = false;
    bool stream = false;
    bool includeUsage = false;
    bool roleSent = false;
    QByteArray completionId;
    qint64 created = 0;
    QByteArray text;
    int promptTokens = 0;
    int cachedTokens = 0;
    int generated = 0;
    double arrival = 0;
    Json kvParamsOut; // null unless a prefill for a remote decoder
    quint64 textSeed = 0;
};

SimEngine::SimEngine(const EngineOptions &options, EngineScheduler *scheduler, QObject *parent)
    : QObject(parent), m_options(options), m_scheduler(scheduler)
{
    if (!m_scheduler) {
        m_ownScheduler = std::make_unique<EngineScheduler>();
        m_scheduler = m_ownScheduler.get();
    }
    m_clientId = m_scheduler->registerClient(this);
    m_server = new HttpServer(this);
    m_server->setHandler([this](const HttpRequest &req, const HttpResponderPtr &res) { handle(req, res); });
    m_startupTimer.setSingleShot(true);
    connect(&m_startupTimer, &QTimer::timeout, this, &SimEngine::listenNow);
    m_graceTimer.setSingleShot(true);
    connect(&m_graceTimer, &QTimer::timeout, this, &SimEngine::stop);
    resetSimulation();
    if (!m_options.logPath.isEmpty()) {
        m_log = std::make_unique<EngineLog>(m_options, m_scheduler, [this] {
            const ModelSnapshot snap = m_model->snapshot();
            EngineLogSample s;
            s.promptTokens = m_stats->promptTokens;
            s.generationTokens = m_stats->generationTokens;
            s.running = snap.running;
            s.waiting = snap.waiting;
            s.kvUsage = snap.kvUsage;
            s.prefixQueries = m_stats->prefixQueries;
            s.prefixHits = m_stats->prefixHits;
            s.specDrafts = m_stats->specDrafts;
            s.specDraftTokens = m_stats->specDraftTokens;
            s.specAccepted = m_stats->specAccepted;
            return s;
        });
        if (!m_log->open(&m_logError))
            m_log.reset();
    }
}

SimEngine::~SimEngine()
{
    if (m_log && m_status != Status::Stopped)
        m_log->stopped(); // the process ends (pdsim cluster terminated): its shutdown lines
    m_log.reset(); // unregisters its scheduler client while the scheduler is certainly alive
    m_scheduler->unregisterClient(m_clientId);
    m_active.clear();
    m_server->setHandler({});
    m_server->close();
}

void SimEngine::resetSimulation()
{
    m_active.clear();
    m_clock = std::make_unique<ScaledClock>(m_options.timeScale);
    m_stats = std::make_unique<EngineStats>(m_options.maxModelLen,
                                            m_options.timing.speculativeTokens);
    const quint64 seed = m_options.seed ? m_options.seed
                                        : (quint64(m_options.port) << 20) ^ quint64(m_options.dpRank + 1)
                                              ^ quint64(m_options.role == EngineRole::Prefill) << 40;
    m_model = std::make_unique<LoadModel>(m_options, *m_clock, *m_stats, seed);
    m_exposition = std::make_unique<MetricsExposition>(m_options, *m_stats);
    m_prefixCache.clear();
    m_startWall = wallNow();
    m_stats->processStart = std::floor(m_startWall * 100.0) / 100.0;
    m_stats->processMaxFds = 65535;
}

bool SimEngine::start()
{
    if (m_status == Status::Ready || m_status == Status::Starting)
        return true;
    if (!m_logError.isEmpty()) {
        Q_EMIT failed(m_logError);
        return false;
    }
    if (m_status == Status::Crashed || m_status == Status::Stopped)
        resetSimulation();
    if (m_log)
        m_log->processStarted();
    m_status = Status::Starting;
    m_fault = FaultKind::None;
    m_groupBlocked = false;
    m_awaitingGroup = m_groupGated;
    if (m_awaitingGroup)
        return true; // in the rendezvous: the port opens only after the group formed and the model loaded
    beginStartup();
    return m_status == Status::Ready || m_status == Status::Starting;
}

void SimEngine::groupFormed()
{
    if (m_status != Status::Starting || !m_awaitingGroup)
        return;
    m_awaitingGroup = false;
    beginStartup();
}

void SimEngine::beginStartup()
{
    const double startupMs = m_options.startupSeconds / std::max(1e-9, m_options.timeScale) * 1000.0;
    if (startupMs >= 1.0) {
        m_startupTimer.start(int(std::min(startupMs, 2e9)));
        return;
    }
    listenNow();
}

void SimEngine::listenNow()
{
    if (m_status != Status::Starting)
        return;
    if (!m_server->listen(m_options.host, m_options.port)) {
        m_status = Status::Stopped;
        Q_EMIT failed(QStringLiteral("cannot listen on %1:%2: %3")
                          .arg(m_options.host.toString())
                          .arg(m_options.port)
                          .arg(m_server->errorString()));
        return;
    }
    m_status = Status::Ready;
    const QByteArray who = m_options.host.toString().toUtf8() + ':'
                           + QByteArray::number(m_server->port()) + ":dp"
                           + QByteArray::number(m_options.dpRank);
    m_engineId = QUuid::createUuidV5(QUuid(), who).toByteArray(QUuid::WithoutBraces);
    m_stats->created = wallNow();
    m_stats->httpHighrCreated = m_stats->created;
    if (m_log)
        m_log->listening(m_server->port());
    if (m_options.fault != FaultKind::None)
        setFault(m_options.fault, m_options.faultMs);
    Q_EMIT ready();
}

quint16 SimEngine::port() const
{
    return m_server->port();
}

void SimEngine::abortAll()
{
    auto active = std::move(m_active);
    m_active.clear();
    for (auto &[id, a] : active) {
        m_model->abort(id);
        if (a->res)
            a->res->disconnect(this);
    }
}

void SimEngine::stop()
{
    m_startupTimer.stop();
    m_graceTimer.stop();
    m_scheduler->cancel(m_clientId);
    abortAll();
    m_server->close();
    m_awaitingGroup = false;
    if (m_options.stepPace)
        m_options.stepPace->idle(m_options.stepPaceSlot);
    const bool wasRunning = m_status != Status::Stopped;
    m_status = Status::Stopped;
    if (wasRunning && m_log)
        m_log->stopped();
    if (wasRunning)
        Q_EMIT stopped();
}

void SimEngine::shutdown(int graceMs)
{
    if (m_status == Status::Starting || m_status == Status::Crashed || m_status == Status::Stopped) {
        stop();
        return;
    }
    m_status = Status::Draining;
    if (m_log)
        m_log->shutdownBegin(m_server->busyConnectionCount() > 0);
    m_server->stopListening();
    m_graceTimer.start(std::max(0, graceMs));
    checkDrained();
}

void SimEngine::checkDrained()
{
    if (m_status == Status::Draining && m_active.empty() && m_server->busyConnectionCount() == 0)
        QTimer::singleShot(0, this, &SimEngine::stop); // after the last answer was written
}

void SimEngine::setFault(FaultKind kind, int ms)
{
    const FaultKind old = m_fault;
    m_fault = kind;
    m_faultMs = std::max(0, ms);
    const bool frozen = kind == FaultKind::Hang || kind == FaultKind::Stall || kind == FaultKind::KvPinned;
    if (old != kind) {
        m_model->setStalled(frozen || m_groupBlocked);
        m_model->setKvTransfersStuck(kind == FaultKind::KvStuck);
        m_model->setKvPinned(kind == FaultKind::KvPinned);
        scheduleWake();
        if (m_log)
            m_log->faultChanged(kind);
    }
    if (kind == FaultKind::Crash)
        die();
}

void SimEngine::die()
{
    m_startupTimer.stop();
    m_graceTimer.stop();
    m_scheduler->cancel(m_clientId);
    auto active = std::move(m_active);
    m_active.clear();
    m_server->close(); // every connection dropped without an answer
    m_awaitingGroup = false;
    if (m_options.stepPace)
        m_options.stepPace->idle(m_options.stepPaceSlot);
    m_status = Status::Crashed;
    Q_EMIT crashed();
}

void SimEngine::setGroupBlocked(bool blocked)
{
    if (blocked == m_groupBlocked)
        return;
    m_groupBlocked = blocked;
    m_model->setStalled(blocked || m_fault == FaultKind::Hang || m_fault == FaultKind::Stall || m_fault == FaultKind::KvPinned);
    scheduleWake();
}

void SimEngine::exitJoinTimeout(int timeoutSeconds, int joined, int size, const QString &master)
{
    if (m_status == Status::Stopped || m_status == Status::Crashed)
        return;
    if (m_log)
        m_log->dpJoinTimedOut(timeoutSeconds, joined, size, master.toUtf8());
    die();
}

void SimEngine::exitWatchdog(int timeoutSeconds, int deadRank)
{
    if (m_status == Status::Stopped || m_status == Status::Crashed)
        return;
    if (m_log) {
        // The collective's sequence number: one all-reduce per forward pass, roughly one pass per token.
        const qint64 seq = 1 + qint64(m_stats->generationTokens) + qint64(m_stats->promptTokens > 0);
        const qint64 timeoutMs = qint64(timeoutSeconds) * 1000;
        m_log->dpWatchdogFired(seq, timeoutMs, timeoutMs + 47 + (seq % 200), deadRank);
    }
    die();
}

EngineState SimEngine::state() const
{
    EngineState s;
    const ModelSnapshot snap = m_model->snapshot();
    s.listening = m_server->isListening();
    s.running = snap.running;
    s.waiting = snap.waiting;
    s.kvUsage = snap.kvUsage;
    s.finishedStop = m_stats->success[0];
    s.finishedLength = m_stats->success[1];
    s.finishedAbort = m_stats->success[2];
    s.finishedError = m_stats->success[3];
    s.finished = m_stats->finishedRequests();
    s.promptTokens = m_stats->promptTokens;
    s.generationTokens = m_stats->generationTokens;
    s.fault = m_fault;
    s.awaitingGroup = m_awaitingGroup;
    s.groupBlocked = m_groupBlocked;
    s.openStreams = int(m_active.size());
    s.simTime = m_clock->now();
    return s;
}

QByteArray SimEngine::renderMetrics()
{
    QByteArray out;
    renderMetricsInto(out);
    return out;
}

void SimEngine::renderMetricsInto(QByteArray &out)
{
    m_model->refreshGauges();
    EngineStats &s = *m_stats;
    const double uptime = std::max(0.0, wallNow() - m_startWall);
    const double finished = s.finishedRequests();
    s.processVirtual = 4.6261317632e10;
    s.processResident = 3.1273e9 + std::floor(finished) * 4096.0;
    s.processCpu = std::round((uptime * 0.42 + finished * 0.002) * 100.0) / 100.0;
    s.processOpenFds = 64 + m_server->connectionCount();
    s.gcCollected = {std::floor(1300.0 * finished + uptime * 90), std::floor(230.0 * finished),
                     std::floor(50.0 * finished)};
    s.gcCollections = {std::floor(10.0 * finished + uptime), std::floor(finished + uptime / 11),
                       std::floor(finished / 15 + uptime / 180)};
    out.resize(0); // keeps the capacity
    m_exposition->renderInto(out);
    if (m_fault == FaultKind::BigMetrics)
        out += cardinalityRunaway(m_options.dpRank);
    if (m_fault == FaultKind::MalformedMetrics) {
        // Cut in the middle of a sample line and garble: unbalanced braces, a bad number, no newline.
        out.truncate(out.size() * 3 / 5);
        out += "\nvllm:num_requests_running{engine=\"" + QByteArray::number(m_options.dpRank)
               + "\",model_name=\"x 1.0\n# TYPE vllm:bogus histogram\nvllm:bogus_bucket{le=\"0.1\"} NaNx\n"
                 "\x01\x02garbage";
    }
}

void SimEngine::recordHttp(const QByteArray &path, const QByteArray &method, int status,
                           qsizetype requestBytes, qsizetype responseBytes, double seconds)
{
    if (excludedFromHttpMetrics(path))
        return;
    EngineStats &s = *m_stats;
    const QByteArray handler = handlerOf(path);
    const QByteArray cls = QByteArray::number(status / 100) + "xx";
    const double now = wallNow();
    auto r = std::find_if(s.httpRequests.begin(), s.httpRequests.end(), [&](const HttpSeries &x) {
        return x.handler == handler && x.method == method && x.status == cls;
    });
    if (r == s.httpRequests.end()) {
        s.httpRequests.push_back({handler, method, cls, 0, now});
        r = s.httpRequests.end() - 1;
    }
    r->requests += 1;
    auto h = std::find_if(s.httpHandlers.begin(), s.httpHandlers.end(),
                          [&](const HttpHandlerStats &x) { return x.handler == handler && x.method == method; });
    if (h == s.httpHandlers.end()) {
        HttpHandlerStats n;
        n.handler = handler;
        n.method = method;
        n.created = now;
        s.httpHandlers.push_back(std::move(n));
        h = s.httpHandlers.end() - 1;
    }
    h->requestSizeCount += 1;
    h->requestSizeSum += double(requestBytes);
    h->responseSizeCount += 1;
    h->responseSizeSum += double(responseBytes);
    h->duration.observe(seconds);
    s.httpHighr.observe(seconds);
}

void SimEngine::reply(const HttpRequest &req, const HttpResponderPtr &res, int status,
                      const QByteArray &contentType, const QByteArray &body)
{
    recordHttp(req.path, req.method, status, req.body.size(), body.size(), 0.0005);
    res->respond(status, contentType, body);
}

void SimEngine::handle(const HttpRequest &req, const HttpResponderPtr &res)
{
    if (req.path.startsWith("/sim/")) {
        handleFault(req, res);
        return;
    }
    if (m_log) {
        QByteArray target = req.query.isEmpty() ? req.path : req.path + '?' + req.query;
        res->setHeadObserver([log = QPointer<EngineLog>(m_log.get()), peer = res->peer(), method = req.method,
                                 target = std::move(target)](int status) {
            if (log)
                log->access(peer, method, target, status);
        });
    }
    switch (m_fault) {
    case FaultKind::Hang:
    case FaultKind::Crash:
        return; // never answered: the responder stays with the connection until the client leaves
    case FaultKind::Slow:
        if (m_faultMs > 0) {
            QTimer::singleShot(m_faultMs, this, [this, req, res] {
                if (res->isOpen())
                    route(req, res);
            });
            return;
        }
        break;
    default:
        break;
    }
    route(req, res);
}

void SimEngine::route(const HttpRequest &req, const HttpResponderPtr &res)
{
    const QByteArray &p = req.path;
    const bool get = req.method == "GET" || req.method == "HEAD";
    const bool post = req.method == "POST";
    if (p.startsWith("/v1/") && !m_options.apiKey.isEmpty()
        && req.header("authorization") != "Bearer " + m_options.apiKey) {
        reply(req, res, 401, kJsonContentType, QByteArrayLiteral("{\"error\":\"Unauthorized\"}"));
        return;
    }
    if (p == "/health" || (p == "/ping" && (get || post))) {
        if (m_fault == FaultKind::Http500)
            reply(req, res, 500, {}, {});
        else
            reply(req, res, 200, {}, {});
        return;
    }
    if (p == "/metrics" && get) {
        QByteArray &body = metricsBuffer();
        renderMetricsInto(body);
        reply(req, res, 200, MetricsExposition::contentType(), body);
        if (body.capacity() > kMetricsBufferKeepBytes)
            body = QByteArray(); // a big-metrics answer's 6 MiB are not kept for the thread's life
        if (m_log && m_fault == FaultKind::MalformedMetrics)
            m_log->metricsServed();
        return;
    }
    if (p == "/version" && get) {
        reply(req, res, 200, kJsonContentType, QByteArrayLiteral("{\"version\":\"0.9.1\"}"));
        return;
    }
    if (p == "/load" && get) {
        reply(req, res, 200, kJsonContentType,
              "{\"server_load\":" + QByteArray::number(qulonglong(m_active.size())) + '}');
        return;
    }
    if (p == "/v1/models" && get) {
        const QByteArray root = (m_options.modelPath.isEmpty() ? m_options.model : m_options.modelPath).toUtf8();
        reply(req, res, 200, kJsonContentType,
              openai::modelsBody(m_options.model.toUtf8(), root, qint64(m_stats->created),
                                 m_options.maxModelLen));
        return;
    }
    if (p == "/reset_prefix_cache" && post) {
        m_prefixCache.clear();
        reply(req, res, 200, {}, {});
        return;
    }
    if ((p == "/v1/completions" || p == "/v1/chat/completions") && post) {
        if (m_fault == FaultKind::Http500) {
            reply(req, res, 500, kJsonContentType, openai::errorBody(500, "EngineCore encountered an issue."));
            return;
        }
        handleGeneration(req, res, p == "/v1/chat/completions");
        return;
    }
    const bool knownPath = p == "/health" || p == "/metrics" || p == "/version" || p == "/v1/models"
                           || p == "/v1/completions" || p == "/v1/chat/completions"
                           || p == "/reset_prefix_cache" || p == "/load";
    if (knownPath)
        reply(req, res, 405, kJsonContentType, QByteArrayLiteral("{\"detail\":\"Method Not Allowed\"}"));
    else
        reply(req, res, 404, kJsonContentType, QByteArrayLiteral("{\"detail\":\"Not Found\"}"));
}

int SimEngine::prefixCacheHits(const QByteArray &promptText)
{
    // vLLM hashes full KV blocks chained on their prefix; the simulator hashes 512-byte (128-token)
    // slices of the prompt text the same way.
    constexpr qsizetype kBlockBytes = 512;
    const int blockTokens = std::max(1, m_options.blockSize);
    int hits = 0;
    bool matching = true;
    size_t h = 0;
    for (qsizetype off = 0; off + kBlockBytes <= promptText.size(); off += kBlockBytes) {
        h = qHash(QByteArrayView(promptText.constData() + off, kBlockBytes), h);
        if (matching && m_prefixCache.contains(h))
            hits += blockTokens;
        else
            matching = false;
        m_prefixCache.insert(h);
    }
    if (m_prefixCache.size() > m_options.effectiveNumGpuBlocks() * 4)
        m_prefixCache.clear(); // crude eviction: the cache is bounded by the KV capacity
    return hits;
}

void SimEngine::handleGeneration(const HttpRequest &req, const HttpResponderPtr &res, bool chat)
{
    const Json body = Json::parse(req.body.constData(), req.body.constData() + req.body.size(),
                                  nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
        reply(req, res, 400, kJsonContentType, openai::errorBody(400, "Invalid JSON body"));
        return;
    }
    auto active = std::make_unique<Active>();
    RequestSpec spec;
    try {
        if (body.contains("model") && body["model"].is_string()) {
            const QString model = QString::fromStdString(body["model"].get<std::string>());
            if (model != m_options.model && model != m_options.modelPath) {
                reply(req, res, 404, kJsonContentType,
                      openai::errorBody(404, "The model `" + model.toUtf8() + "` does not exist."));
                return;
            }
        }
        const auto [promptTokens, promptText] = openai::promptOf(body, chat);
        if (promptTokens <= 0) {
            reply(req, res, 400, kJsonContentType,
                  openai::errorBody(400, chat ? "messages must be a non-empty list"
                                              : "prompt must be a string or a list"));
            return;
        }
        int maxTokens = m_options.maxModelLen - promptTokens;
        for (const char *key : {"max_tokens", "max_completion_tokens"}) {
            if (body.contains(key) && body[key].is_number_integer())
                maxTokens = body[key].get<int>();
        }
        if (maxTokens < 1 || promptTokens + maxTokens > m_options.maxModelLen) {
            reply(req, res, 400, kJsonContentType,
                  openai::errorBody(
                      400, "This model's maximum context length is "
                               + QByteArray::number(m_options.maxModelLen) + " tokens. However, you requested "
                               + QByteArray::number(promptTokens + maxTokens) + " tokens ("
                               + QByteArray::number(promptTokens) + " in the messages, "
                               + QByteArray::number(maxTokens)
                               + " in the completion). Please reduce the length of the messages or "
                                 "completion."));
            return;
        }
        const bool ignoreEos = body.value("ignore_eos", false);
        const int minTokens = body.value("min_tokens", 0);
        spec.promptTokens = promptTokens;
        spec.maxTokens = maxTokens;
        spec.targetTokens = ignoreEos ? maxTokens : std::max(minTokens, m_model->sampleOutputLength());
        spec.n = body.value("n", 1);
        active->stream = body.value("stream", false);
        if (body.contains("stream_options") && body["stream_options"].is_object())
            active->includeUsage = body["stream_options"].value("include_usage", false);
        const auto kv = body.find("kv_transfer_params");
        if (kv != body.end() && kv->is_object()) {
            if (kv->value("do_remote_decode", false)) {
                spec.holdKvForRemoteDecode = true;
                active->kvParamsOut = Json::object();
            }
            if (kv->value("do_remote_prefill", false)) {
                spec.remotePrefill = true;
                const auto eid = kv->find("remote_engine_id");
                if (eid != kv->end() && eid->is_string())
                    spec.remoteEngineId = QByteArray::fromStdString(eid->get<std::string>());
            }
        }
        if (!spec.remotePrefill)
            spec.cachedTokens = std::min(prefixCacheHits(QByteArray::fromStdString(promptText)),
                                         promptTokens - 1);
    } catch (const nlohmann::json::exception &e) {
        reply(req, res, 400, kJsonContentType, openai::errorBody(400, QByteArray(e.what())));
        return;
    }

    const quint64 id = m_model->submit(spec);
    if (m_log)
        m_log->activity();
    const QByteArray rid = req.header("x-request-id");
    active->res = res;
    active->path = req.path;
    active->method = req.method;
    active->requestBytes = req.body.size();
    active->chat = chat;
    active->completionId = (chat ? "chatcmpl-" : "cmpl-")
                           + (rid.isEmpty() ? QByteArray::number(++m_completionSeq, 16).rightJustified(32, '0')
                                            : rid);
    active->created = qint64(wallNow());
    active->promptTokens = spec.promptTokens;
    active->cachedTokens = spec.cachedTokens;
    active->arrival = m_clock->now();
    active->textSeed = id;
    if (spec.holdKvForRemoteDecode) {
        Json blocks = Json::array();
        for (int b : m_model->blockIdsOf(id))
            blocks.push_back(b);
        Json &kv = active->kvParamsOut;
        kv["do_remote_prefill"] = true;
        kv["do_remote_decode"] = false;
        kv["remote_engine_id"] = m_engineId.toStdString();
        kv["remote_block_ids"] = blocks;
        kv["remote_host"] = m_options.host.toString().toStdString();
        kv["remote_port"] = m_options.kvPort ? m_options.kvPort : m_server->port();
    }
    if (active->stream)
        res->beginChunked(200, QByteArrayLiteral("text/event-stream; charset=utf-8"));
    connect(res.get(), &HttpResponder::clientGone, this, [this, id] {
        const auto it = m_active.find(id);
        if (it == m_active.end())
            return;
        recordHttp(it->second->path, it->second->method, 200, it->second->requestBytes, 0,
                   m_clock->now() - it->second->arrival);
        m_active.erase(it);
        m_model->abort(id);
        scheduleWake();
        checkDrained();
    });
    m_active.emplace(id, std::move(active));
    processEvents();
    scheduleWake();
}

void SimEngine::processEvents()
{
    const QList<ModelEvent> events = m_model->advance();
    if (events.isEmpty())
        return;
    QSet<quint64> finishing;
    for (const ModelEvent &e : events) {
        if (e.finished)
            finishing.insert(e.id);
    }
    for (const ModelEvent &e : events) {
        const auto it = m_active.find(e.id);
        if (it == m_active.end())
            continue;
        Active &a = *it->second;
        if (e.newTokens > 0) {
            QByteArray piece;
            for (int i = 0; i < e.newTokens; ++i)
                piece += openai::tokenText(a.textSeed, a.generated + i);
            a.generated += e.newTokens;
            if (a.stream) {
                // The finish reason rides on the last text chunk, as in vLLM.
                const char *reason = nullptr;
                if (finishing.contains(e.id)) {
                    for (const ModelEvent &f : events) {
                        if (f.id == e.id && f.finished)
                            reason = f.reason == FinishReason::Length ? "length" : "stop";
                    }
                }
                const QByteArray chunk = openai::streamChunk(a.completionId, a.created,
                                                             m_options.model.toUtf8(), a.chat, piece,
                                                             reason, a.chat && !a.roleSent);
                a.roleSent = true;
                a.responseBytes += chunk.size();
                a.res->writeChunk(chunk);
                if (m_fault == FaultKind::CutStream) {
                    cutOff(it->second.get(), e.id);
                    m_active.erase(it);
                    continue;
                }
            } else {
                a.text += piece;
            }
        }
        if (!e.finished)
            continue;
        if (m_fault == FaultKind::CutStream) { // a whole answer lost before it was written
            cutOff(it->second.get(), e.id);
            m_active.erase(it);
            continue;
        }
        const openai::Usage usage{a.promptTokens, a.generated, a.cachedTokens};
        const char *reason = e.reason == FinishReason::Length ? "length" : "stop";
        const double seconds = m_clock->now() - a.arrival;
        if (a.stream) {
            if (a.includeUsage)
                a.res->writeChunk(openai::streamUsageChunk(a.completionId, a.created,
                                                           m_options.model.toUtf8(), a.chat, usage));
            a.res->writeChunk(QByteArrayLiteral("data: [DONE]\n\n"));
            a.res->endChunked();
            recordHttp(a.path, a.method, 200, a.requestBytes, 0, seconds); // streamed: no length
        } else {
            const QByteArray body = openai::completionBody(
                a.completionId, a.created, m_options.model.toUtf8(), a.chat, a.text, reason, usage,
                a.kvParamsOut.is_null() ? Json(nullptr) : a.kvParamsOut);
            recordHttp(a.path, a.method, 200, a.requestBytes, body.size(), seconds);
            a.res->respond(200, kJsonContentType, body);
        }
        a.res->disconnect(this);
        m_active.erase(it);
    }
    checkDrained();
}

void SimEngine::cutOff(Active *a, quint64 id)
{
    m_model->abort(id); // the client is gone as far as the engine knows: finished_reason="abort"
    a->res->disconnect(this);
    a->res->cutOff();
    recordHttp(a->path, a->method, 200, a->requestBytes, 0, m_clock->now() - a->arrival);
}

void SimEngine::scheduleWake()
{
    const double t = m_model->nextEventTime();
    if (!std::isfinite(t) || m_status == Status::Crashed || m_status == Status::Stopped) {
        m_scheduler->cancel(m_clientId);
        return;
    }
    m_scheduler->wakeIn(m_clientId, m_clock->realMsUntil(t));
}

void SimEngine::wake()
{
    processEvents();
    scheduleWake();
}

} // namespace pd::sim
