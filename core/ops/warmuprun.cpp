// SPDX-License-Identifier: MIT
#include "ops/warmuprun.h"

#include "audit/auditlog.h"
#include "net/httprequest.h"
#include "ops/completionstreamreader.h"
#include "ops/warmupreport.h"

#include <QCoreApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <random>

namespace pd {

namespace {

// A sample's verdict detail, shown in the warm-up dialog; the run's error and its audit line stay
// English.
struct WarmupRunTr {
    Q_DECLARE_TR_FUNCTIONS(pd::WarmUp)
};

constexpr qint64 kMaxCompletionBody = 4 << 20; // a non-streamed answer of a small completion is a few KB
constexpr qint64 kMaxErrorBody = 64 << 10;

double elapsedMs(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

QNetworkRequest proxyRequest(const ProxyEndpoint &endpoint, const QString &path, int timeoutMs)
{
    QUrl url = endpoint.base;
    url.setPath(path);
    return makeHttpRequest(HttpRequestSpec(url)
                               .withTimeout(timeoutMs)
                               .withBearerToken(endpoint.bearerToken)
                               .withExtraCas(endpoint.extraCaCertificates));
}

// The first model id of a /v1/models answer.
QString firstModel(const QByteArray &body)
{
    const auto j = nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!j.is_object() || !j.contains("data") || !j["data"].is_array() || j["data"].empty())
        return {};
    const auto &first = j["data"].front();
    if (!first.is_object() || !first.contains("id") || !first["id"].is_string())
        return {};
    return QString::fromStdString(first["id"].get<std::string>());
}

} // namespace

struct WarmUpRun::Lane {
    QNetworkAccessManager *network = nullptr;
    QPointer<QNetworkReply> reply;
    QTimer timer;
    QElapsedTimer clock;
    CompletionStreamReader reader;
    QByteArray body;
    int index = -1;
    double startedMs = 0;
    bool timedOut = false;
    bool cancelled = false;
    bool tooLarge = false;
};

WarmUpRun::WarmUpRun(ProxyEndpoint endpoint, WarmUpOptions options, AuditLog *audit, QObject *parent)
    : WarmUpRun(std::move(endpoint), std::move(options), audit, static_cast<QNetworkAccessManager *>(nullptr), parent)
{
}

WarmUpRun::WarmUpRun(
    ProxyEndpoint endpoint, WarmUpOptions options, AuditLog *audit, QNetworkAccessManager *transport, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_audit(audit)
    , m_transport(transport)
{
    m_result.options = std::move(options);
    m_result.proxy = m_endpoint.base.toString();
}

WarmUpRun::~WarmUpRun()
{
    m_completed = true; // no finished() from a destructor
    for (const auto &lane : m_lanes) {
        if (!lane->reply)
            continue;
        lane->reply->disconnect(this);
        lane->reply->abort();
        delete lane->reply;
    }
}

QString WarmUpRun::prompt(const WarmUpOptions &options, int index)
{
    // Random lower-case words: no two requests share a prefix, so the engines' prefix caches fold
    // nothing together and every prefill is real work (a warm-up that hits the cache warms nothing).
    std::mt19937_64 random(options.seed * 1000003u + quint64(index));
    std::uniform_int_distribution<int> letter('a', 'z');
    QString text = options.trafficTag.isEmpty() ? QStringLiteral("warm-up request #%1:").arg(index)
                                                : QStringLiteral("%1 request #%2:").arg(options.trafficTag).arg(index);
    const qsizetype length = qsizetype(options.promptTokens) * 4;
    text.reserve(length);
    while (text.size() < length)
        text += (text.size() % 6 == 5) ? QLatin1Char(' ') : QLatin1Char(char(letter(random)));
    return text.left(std::max<qsizetype>(length, text.indexOf(QLatin1Char(':')) + 1));
}

QByteArray WarmUpRun::requestBody(const WarmUpOptions &options, const QString &model, int index)
{
    nlohmann::ordered_json body { { "model", model.toStdString() }, { "prompt", prompt(options, index).toStdString() },
        { "max_tokens", options.maxTokens }, { "ignore_eos", true }, { "temperature", 0 },
        { "stream", options.stream } };
    if (options.stream)
        body["stream_options"] = { { "include_usage", true } };
    if (!options.trafficTag.isEmpty())
        body["user"] = options.trafficTag.toStdString();
    return QByteArray::fromStdString(body.dump());
}

void WarmUpRun::start()
{
    if (m_started)
        return;
    m_started = true;
    m_running = true;
    m_result.started = QDateTime::currentDateTimeUtc();
    m_clock.start();
    const QString invalid = m_result.options.validate();
    if (!invalid.isEmpty()) {
        // Asynchronous like every other end: callers connect after start() as well as before.
        QTimer::singleShot(0, this, [this, invalid] { complete(invalid); });
        return;
    }
    const int lanes = std::min(m_result.options.concurrency, m_result.options.count);
    for (int i = 0; i < lanes; ++i) {
        auto lane = std::make_unique<Lane>();
        if (m_transport) {
            lane->network = m_transport;
        } else {
            lane->network = new QNetworkAccessManager(this);
            lane->network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
        }
        lane->timer.setSingleShot(true);
        Lane *raw = lane.get();
        connect(&lane->timer, &QTimer::timeout, this, [raw] {
            raw->timedOut = true;
            if (raw->reply)
                raw->reply->abort();
        });
        m_lanes.push_back(std::move(lane));
    }
    if (!m_result.options.model.isEmpty())
        QTimer::singleShot(0, this, [this] { beginSending(m_result.options.model, QStringLiteral("option")); });
    else
        resolveModel();
}

void WarmUpRun::resolveModel()
{
    QNetworkReply *reply
        = m_lanes.front()->network->get(proxyRequest(m_endpoint, QStringLiteral("/v1/models"), m_endpoint.timeoutMs));
    m_lanes.front()->reply = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        m_lanes.front()->reply = nullptr;
        if (m_cancelled) {
            complete();
            return;
        }
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->read(kMaxErrorBody);
        const QString model = status == 200 ? firstModel(body) : QString();
        if (!model.isEmpty()) {
            beginSending(model, QStringLiteral("proxy /v1/models"));
            return;
        }
        if (!m_result.options.fallbackModel.isEmpty()) {
            beginSending(m_result.options.fallbackModel, QStringLiteral("profile"));
            return;
        }
        const QString why = status == 0 ? reply->errorString()
            : status == 200             ? QStringLiteral("no model in %1").arg(completionExcerpt(body))
                                        : QStringLiteral("HTTP %1 %2").arg(status).arg(completionExcerpt(body));
        complete(QStringLiteral(
            "no model to ask for: the proxy's /v1/models gave none (%1) and the profile names no served model")
                     .arg(why));
    });
}

void WarmUpRun::beginSending(const QString &model, const QString &source)
{
    if (m_cancelled) {
        complete();
        return;
    }
    m_result.model = model;
    m_result.modelSource = source;
    Q_EMIT modelResolved(model, source);
    for (const auto &lane : m_lanes)
        launch(*lane);
}

void WarmUpRun::launch(Lane &lane)
{
    if (m_cancelled || m_next >= m_result.options.count) {
        const bool busy
            = std::any_of(m_lanes.cbegin(), m_lanes.cend(), [](const auto &l) { return l->reply != nullptr; });
        if (!busy)
            complete();
        return;
    }
    lane.index = m_next++;
    lane.reader = CompletionStreamReader();
    lane.body.clear();
    lane.timedOut = lane.cancelled = lane.tooLarge = false;
    QNetworkRequest request = proxyRequest(m_endpoint, QStringLiteral("/v1/completions"), 0);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (m_result.options.stream)
        request.setRawHeader("Accept", "text/event-stream");
    if (!m_result.options.trafficTag.isEmpty())
        request.setRawHeader("X-PD-Traffic", m_result.options.trafficTag.toUtf8());
    const QByteArray body = requestBody(m_result.options, m_result.model, lane.index);
    lane.startedMs = elapsedMs(m_clock);
    lane.clock.start();
    QNetworkReply *reply = lane.network->post(request, body);
    lane.reply = reply;
    lane.timer.start(m_result.options.requestTimeoutMs);
    connect(reply, &QNetworkReply::readyRead, this, [this, &lane] { onData(lane); });
    connect(reply, &QNetworkReply::finished, this, [this, &lane] { onFinished(lane); });
}

void WarmUpRun::onData(Lane &lane)
{
    QNetworkReply *reply = lane.reply;
    if (!reply || !reply->isOpen())
        return; // aborted: nothing more to read
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray data = reply->readAll();
    if (status == 200 && m_result.options.stream) {
        lane.reader.feed(data, elapsedMs(lane.clock));
        return;
    }
    lane.body += data;
    const qint64 limit = status == 200 ? kMaxCompletionBody : kMaxErrorBody;
    if (lane.body.size() > limit) {
        lane.body.truncate(limit);
        if (status == 200) {
            lane.tooLarge = true;
            reply->abort();
        }
    }
}

void WarmUpRun::onFinished(Lane &lane)
{
    QNetworkReply *reply = lane.reply;
    if (!reply)
        return;
    lane.timer.stop();
    onData(lane); // whatever arrived with the end
    lane.reply = nullptr;
    reply->deleteLater();

    WarmUpSample s;
    s.index = lane.index;
    s.startedMs = lane.startedMs;
    s.e2eMs = elapsedMs(lane.clock);
    s.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = reply->error();
    const int timeout = m_result.options.requestTimeoutMs;
    if (lane.cancelled) {
        s.outcome = WarmUpOutcome::Cancelled;
        s.detail = WarmupRunTr::tr("cancelled after %1 ms").arg(qRound64(s.e2eMs));
    } else if (lane.timedOut) {
        s.outcome = WarmUpOutcome::Timeout;
        const int chunks = lane.reader.contentChunks();
        if (s.httpStatus == 0)
            s.detail = WarmupRunTr::tr("no answer within %1 ms").arg(timeout);
        else if (!m_result.options.stream || s.httpStatus != 200)
            s.detail = WarmupRunTr::tr("HTTP %1 but the body did not end within %2 ms").arg(s.httpStatus).arg(timeout);
        else if (chunks == 0)
            s.detail = WarmupRunTr::tr("HTTP 200 but no token within %1 ms").arg(timeout);
        else
            s.detail
                = WarmupRunTr::tr("stream stalled: %1 content chunk(s), first after %2 ms, then nothing until %3 ms")
                      .arg(chunks)
                      .arg(qRound64(lane.reader.firstContentMs()))
                      .arg(timeout);
        s.chunks = chunks;
    } else if (s.httpStatus == 0) {
        s.outcome = WarmUpOutcome::ConnectionFailed;
        s.detail = error == QNetworkReply::RemoteHostClosedError
            ? WarmupRunTr::tr("the proxy closed the connection before answering")
            : reply->errorString();
    } else if (s.httpStatus != 200) {
        s.outcome = WarmUpOutcome::HttpError;
        s.detail = QStringLiteral("HTTP %1: %2").arg(s.httpStatus).arg(completionExcerpt(lane.body));
    } else if (lane.tooLarge) {
        s.outcome = WarmUpOutcome::Malformed;
        s.detail = WarmupRunTr::tr("the answer is larger than %1 bytes").arg(kMaxCompletionBody);
    } else {
        const CompletionVerdict v = m_result.options.stream ? lane.reader.finish() : classifyCompletionBody(lane.body);
        s.outcome = v.outcome;
        s.detail = v.detail;
        s.ttftMs = v.ttftMs;
        s.tpotMs = v.tpotMs;
        s.tokens = v.tokens;
        s.chunks = v.chunks;
        if (v.outcome != WarmUpOutcome::Ok && error != QNetworkReply::NoError)
            s.detail += WarmupRunTr::tr(" (connection: %1)").arg(reply->errorString());
        else if (v.outcome == WarmUpOutcome::Ok && error != QNetworkReply::NoError) {
            // A complete-looking answer on a broken connection is not counted as a success.
            s.outcome = WarmUpOutcome::NoDone;
            s.detail = WarmupRunTr::tr("the connection broke: %1").arg(reply->errorString());
        }
    }
    m_result.samples.append(s);
    ++m_done;
    Q_EMIT sampleFinished(s);
    Q_EMIT progress(m_done, m_result.options.count);
    launch(lane);
}

void WarmUpRun::cancel()
{
    if (!m_running || m_cancelled)
        return;
    m_cancelled = true;
    QList<QPointer<QNetworkReply>> inFlight;
    for (const auto &lane : m_lanes) {
        if (lane->reply) {
            lane->cancelled = true;
            inFlight << lane->reply;
        }
    }
    for (const QPointer<QNetworkReply> &reply : inFlight)
        if (reply)
            reply->abort(); // finished() follows, the lane sees m_cancelled and stops
    if (inFlight.isEmpty())
        QTimer::singleShot(0, this, [this] { complete(); });
}

void WarmUpRun::complete(const QString &error)
{
    if (m_completed)
        return;
    m_completed = true;
    m_running = false;
    m_result.error = error;
    m_result.cancelled = m_cancelled;
    m_result.durationMs = m_clock.elapsed();
    std::sort(m_result.samples.begin(), m_result.samples.end(),
        [](const WarmUpSample &a, const WarmUpSample &b) { return a.index < b.index; });
    summarizeWarmUp(m_result);
    writeAudit();
    Q_EMIT finished(m_result);
}

void WarmUpRun::writeAudit()
{
    if (!m_audit)
        return;
    const WarmUpOptions &o = m_result.options;
    AuditEntry e;
    e.action = QStringLiteral("warmup");
    e.target = QStringLiteral("proxy %1").arg(m_result.proxy);
    e.params = { { "count", o.count }, { "concurrency", o.concurrency }, { "prompt_tokens", o.promptTokens },
        { "max_tokens", o.maxTokens }, { "stream", o.stream }, { "model", m_result.model.toStdString() },
        { "timeout_ms", o.requestTimeoutMs }, { "sent", m_result.sent() } };
    e.result = !m_result.error.isEmpty() ? QStringLiteral("failed")
        : m_result.cancelled             ? QStringLiteral("cancelled")
        : m_result.allOk()               ? QStringLiteral("ok")
                                         : QStringLiteral("failed");
    e.detail = m_result.error.isEmpty() ? warmUpSummaryLine(m_result) : m_result.error;
    e.durationMs = m_result.durationMs;
    QString error;
    if (!m_audit->append(e, &error))
        m_result.auditError = error;
}

} // namespace pd
