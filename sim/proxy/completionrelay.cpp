// SPDX-License-Identifier: MIT
#include "completionrelay.h"

#include "backendcall.h"

#include <QTimer>
#include <QUuid>

#include <cmath>

namespace pd::sim {

namespace {

const QByteArray kTextPlain = QByteArrayLiteral("text/plain; charset=utf-8");
const QByteArray kEventStream = QByteArrayLiteral("text/event-stream; charset=utf-8");

std::optional<OrderedJson> parseJson(const QByteArray &bytes)
{
    try {
        return OrderedJson::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
}

// Python truthiness of a decoded JSON value.
bool truthy(const OrderedJson &v)
{
    switch (v.type()) {
    case OrderedJson::value_t::null: return false;
    case OrderedJson::value_t::boolean: return v.get<bool>();
    case OrderedJson::value_t::number_integer:
    case OrderedJson::value_t::number_unsigned: return v.get<qint64>() != 0;
    case OrderedJson::value_t::number_float: return v.get<double>() != 0.0;
    case OrderedJson::value_t::string:
    case OrderedJson::value_t::array:
    case OrderedJson::value_t::object: return !v.empty();
    default: return false;
    }
}

void setCachedTokens(OrderedJson &object, qint64 cachedTokens)
{
    OrderedJson &usage = object["usage"];
    if (!usage["prompt_tokens_details"].is_object())
        usage["prompt_tokens_details"] = OrderedJson::object();
    usage["prompt_tokens_details"]["cached_tokens"] = cachedTokens;
}

} // namespace

CompletionRelay::CompletionRelay(ProxyScheduler &scheduler, Settings settings, ProxyLog log,
                                 HttpRequest request, HttpResponderPtr responder, QObject *parent)
    : QObject(parent)
    , m_scheduler(scheduler)
    , m_settings(std::move(settings))
    , m_log(std::move(log))
    , m_request(std::move(request))
    , m_responder(std::move(responder))
{
}

CompletionRelay::~CompletionRelay()
{
    if (m_call)
        m_call->abort();
}

OrderedJson CompletionRelay::prefillBody(const OrderedJson &original, ProxyGeneration generation)
{
    OrderedJson body = original;
    body["kv_transfer_params"] = OrderedJson{{"do_remote_decode", true},
                                             {"do_remote_prefill", false},
                                             {"remote_engine_id", nullptr},
                                             {"remote_block_ids", nullptr},
                                             {"remote_host", nullptr},
                                             {"remote_port", nullptr}};
    body["stream"] = false;
    body["max_tokens"] = 1;
    if (generation == ProxyGeneration::Main)
        body["min_tokens"] = 1;
    if (body.contains("max_completion_tokens"))
        body["max_completion_tokens"] = 1;
    body.erase("stream_options");
    return body;
}

CompletionRelay::ReadResult CompletionRelay::processDecoderRead(const QByteArray &read, bool stream,
                                                                qint64 cachedTokens)
{
    if (!stream) {
        auto object = parseJson(read);
        if (!object || !object->is_object() || !object->contains("usage") || !(*object)["usage"].is_object())
            return {read, false};
        setCachedTokens(*object, cachedTokens);
        return {pythonJsonDumps(*object), false};
    }
    if (!read.startsWith("data:"))
        return {read, false};
    const QByteArray payload = read.mid(5).trimmed();
    if (payload.contains('\n') || payload == "[DONE]")
        return {read, false}; // several events in one read pass through untouched
    auto object = parseJson(payload);
    if (!object || !object->is_object())
        return {read, false};
    const auto choices = object->find("choices");
    const bool noChoices = choices == object->end() || !truthy(*choices);
    if (noChoices && object->contains("usage") && (*object)["usage"].is_object()) {
        setCachedTokens(*object, cachedTokens);
        return {"data: " + pythonJsonDumps(*object) + "\n\n", false};
    }
    if (noChoices || !choices->is_array())
        return {{}, true}; // choices[0] on an empty list
    return {read, false};
}

int CompletionRelay::attempts() const
{
    return std::max(1, m_settings.maxRetries);
}

int CompletionRelay::retryDelayMs(int attempt) const
{
    const double ms = m_settings.retryDelay * std::pow(2.0, attempt - 1) * 1000.0;
    return std::isfinite(ms) && ms > 0 ? int(std::min(ms, 2.0e9)) : 0;
}

bool CompletionRelay::retryable(Failure failure, int status, int attempt) const
{
    if (attempt >= attempts())
        return false;
    return !(failure == Failure::Http && status == 400 && m_settings.generation == ProxyGeneration::Main);
}

BackendCall *CompletionRelay::newCall(const BackendAddress &address, const QByteArray &body)
{
    auto *call = new BackendCall(address.host, address.port, "POST", m_request.path,
                                 {{"Content-Type", "application/json"},
                                  {"Authorization", "Bearer " + m_settings.apiKey.toUtf8()},
                                  {"X-Request-Id", m_requestId}},
                                 body, this);
    call->setTimeout(m_settings.backendTimeoutMs);
    m_call = call;
    return call;
}

void CompletionRelay::start()
{
    connect(m_responder.get(), &HttpResponder::clientGone, this, &CompletionRelay::onClientGone);
    const auto body = parseJson(m_request.body);
    if (!body || !body->is_object()) {
        m_log.log(ProxyLogLevel::Error, QStringLiteral("Error occurred in disagg prefill proxy server - invalid JSON body"));
        answerError(500, kTextPlain, "Internal Server Error");
        return;
    }
    m_body = *body;
    m_stream = m_body.contains("stream") && truthy(m_body["stream"]);
    m_prefillScore = ProxyScheduler::prefillScore(m_request.body.size());
    m_decodeScore = ProxyScheduler::decodeScore(m_request.body.size());
    m_prefill = m_scheduler.beginRequest(m_prefillScore);
    if (!m_prefill) {
        m_log.log(ProxyLogLevel::Error, QStringLiteral("Error occurred in disagg prefill proxy server - RuntimeError: No available prefill servers"));
        answerError(500, kTextPlain, "Internal Server Error");
        return;
    }
    m_counted = true;
    m_requestId = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    sendPrefill(1);
}

void CompletionRelay::sendPrefill(int attempt)
{
    m_responseBody.clear();
    BackendCall *call = newCall(m_prefill->address, compactJson(prefillBody(m_body, m_settings.generation)));
    connect(call, &BackendCall::bodyRead, this, [this](const QByteArray &data) { m_responseBody += data; });
    connect(call, &BackendCall::finished, this, [this, call, attempt] {
        call->deleteLater();
        const int status = call->status();
        if (status >= 200 && status < 300) {
            prefillSucceeded(m_responseBody);
            return;
        }
        if (retryable(Failure::Http, status, attempt)) {
            QTimer::singleShot(retryDelayMs(attempt), this, [this, attempt] {
                if (!m_finished)
                    sendPrefill(attempt + 1);
            });
            return;
        }
        prefillFailed(Failure::Http, status, m_responseBody,
                      QStringLiteral("HTTP %1 from prefiller").arg(status));
    });
    connect(call, &BackendCall::failed, this, [this, call, attempt](const QString &reason) {
        call->deleteLater();
        if (retryable(Failure::Transport, 0, attempt)) {
            QTimer::singleShot(retryDelayMs(attempt), this, [this, attempt] {
                if (!m_finished)
                    sendPrefill(attempt + 1);
            });
            return;
        }
        prefillFailed(Failure::Transport, 0, {}, reason);
    });
    call->start();
}

void CompletionRelay::prefillFailed(Failure failure, int status, const QByteArray &body, const QString &reason)
{
    m_log.log(ProxyLogLevel::Error, QStringLiteral("Error occurred in disagg prefill proxy server - prefill %1: %2")
                                        .arg(m_prefill->address.displayName(), reason));
    // Un-count the request and release its load before answering.
    m_scheduler.releasePrefill(m_prefill->key, m_prefillScore);
    m_prefillReleased = true;
    m_scheduler.endRequest();
    m_counted = false;
    if (failure == Failure::Http && m_settings.generation == ProxyGeneration::Main) {
        const auto parsed = parseJson(body);
        if (parsed) {
            answerError(status, kJsonContentType, compactJson(*parsed));
        } else {
            const QString text = body.isEmpty() ? QStringLiteral("upstream error") : QString::fromUtf8(body);
            answerError(status, kJsonContentType, compactJson(OrderedJson{{"error", {{"message", text.toStdString()}}}}));
        }
        return;
    }
    answerError(500, kTextPlain, "Internal Server Error");
}

void CompletionRelay::prefillSucceeded(const QByteArray &body)
{
    const auto answer = parseJson(body);
    if (!answer || !answer->is_object()) {
        prefillFailed(Failure::Transport, 0, {}, QStringLiteral("invalid JSON from prefiller"));
        return;
    }
    const auto kv = answer->find("kv_transfer_params");
    if (kv != answer->end() && truthy(*kv))
        m_body["kv_transfer_params"] = *kv;
    m_cachedTokens = 0;
    const auto usage = answer->find("usage");
    if (usage != answer->end() && usage->is_object()) {
        const auto details = usage->find("prompt_tokens_details");
        if (details != usage->end() && details->is_object()) {
            const auto cached = details->find("cached_tokens");
            if (cached != details->end() && cached->is_number())
                m_cachedTokens = cached->get<qint64>();
        }
    }
    m_decode = m_scheduler.pickDecoder(m_decodeScore);
    if (!m_decode) {
        m_log.log(ProxyLogLevel::Error, QStringLiteral("Error occurred in disagg prefill proxy server - RuntimeError: No available decode servers"));
        answerError(500, kTextPlain, "Internal Server Error");
        return;
    }
    if (m_settings.emptyOkOnDecoderFailure)
        commitHeaders(); // StreamingResponse: 200 goes out before the decoder is contacted
    sendDecode(1);
}

void CompletionRelay::commitHeaders()
{
    if (m_committed)
        return;
    m_committed = true;
    m_responder->beginChunked(200, m_stream ? kEventStream : kJsonContentType);
}

void CompletionRelay::sendDecode(int attempt)
{
    m_decodeBody.clear();
    BackendCall *call = newCall(m_decode->address, compactJson(m_body));
    connect(call, &BackendCall::responseStarted, this, [this](int status) {
        if (status >= 200 && status < 300)
            commitHeaders();
    });
    connect(call, &BackendCall::bodyRead, this, [this, call](const QByteArray &data) {
        if (call->status() >= 200 && call->status() < 300)
            decoderRead(data);
        else
            m_decodeBody += data;
    });
    connect(call, &BackendCall::finished, this, [this, call, attempt] {
        call->deleteLater();
        if (m_finished)
            return;
        const int status = call->status();
        if (status >= 200 && status < 300) {
            if (m_committed)
                m_responder->endChunked();
            finish();
            return;
        }
        decodeFailed(Failure::Http, status, m_decodeBody,
                     QStringLiteral("Server error '%1' for url 'http://%2%3'")
                         .arg(status)
                         .arg(m_decode->address.displayName(), QString::fromUtf8(m_request.path)),
                     attempt);
    });
    connect(call, &BackendCall::failed, this, [this, call, attempt](const QString &reason) {
        call->deleteLater();
        if (!m_finished)
            decodeFailed(Failure::Transport, 0, {}, reason, attempt);
    });
    call->start();
}

void CompletionRelay::decodeFailed(Failure failure, int status, const QByteArray &body, const QString &reason,
                                   int attempt)
{
    // A stream is never replayed once output has been relayed.
    if (!m_relayed && retryable(failure, status, attempt)) {
        QTimer::singleShot(retryDelayMs(attempt), this, [this, attempt] {
            if (!m_finished)
                sendDecode(attempt + 1);
        });
        return;
    }
    decoderGaveUp(failure, status, body, reason);
}

void CompletionRelay::decoderGaveUp(Failure failure, int status, const QByteArray &body, const QString &reason)
{
    m_log.log(ProxyLogLevel::Error, QStringLiteral("Error during streaming from decoder %1: %2")
                                        .arg(m_decode->address.displayName(), reason));
    if (m_settings.emptyOkOnDecoderFailure) {
        m_responder->endChunked(); // the client sees 200 and an empty or truncated body
    } else if (m_committed) {
        m_responder->abort(); // an incomplete chunked body: the client knows the answer broke
    } else if (failure == Failure::Http) {
        const auto parsed = parseJson(body);
        m_responder->respond(status, kJsonContentType,
                             parsed ? compactJson(*parsed)
                                    : compactJson(OrderedJson{{"error", {{"message", reason.toStdString()}}}}));
    } else {
        const QString text = QStringLiteral("decoder %1 failed: %2").arg(m_decode->address.displayName(), reason);
        m_responder->respond(502, kJsonContentType, compactJson(OrderedJson{{"error", {{"message", text.toStdString()}}}}));
    }
    finish();
}

void CompletionRelay::decoderRead(const QByteArray &data)
{
    if (m_finished || data.isEmpty())
        return;
    if (!m_prefillReleased) {
        m_scheduler.releasePrefill(m_prefill->key, m_prefillScore);
        m_prefillReleased = true;
    }
    QByteArray out = data;
    if (m_settings.generation == ProxyGeneration::Main) {
        const ReadResult result = processDecoderRead(data, m_stream, m_cachedTokens);
        if (result.indexError && m_settings.emptyOkOnDecoderFailure) {
            if (m_call)
                m_call->abort();
            decoderGaveUp(Failure::Transport, 0, {}, QStringLiteral("list index out of range"));
            return;
        }
        if (!result.indexError)
            out = result.bytes;
    }
    m_relayed = true;
    m_responder->writeChunk(out);
}

void CompletionRelay::answerError(int status, const QByteArray &contentType, const QByteArray &body)
{
    m_responder->respond(status, contentType, body);
    finish();
}

void CompletionRelay::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_call)
        m_call->abort();
    if (m_prefill && !m_prefillReleased) {
        m_scheduler.releasePrefill(m_prefill->key, m_prefillScore);
        m_prefillReleased = true;
    }
    if (m_decode)
        m_scheduler.releaseDecoder(m_decode->key, m_decodeScore);
    if (m_counted) {
        m_scheduler.endRequest();
        m_counted = false;
    }
    Q_EMIT done();
}

void CompletionRelay::onClientGone()
{
    finish();
}

} // namespace pd::sim
