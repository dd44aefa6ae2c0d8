// SPDX-License-Identifier: MIT
#include "ops/scaleprobe.h"

#include "metrics/promparser.h"
#include "net/httprequest.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>

#include <memory>

namespace pd {

namespace {

constexpr qint64 kMaxEngineAnswer = 8 << 20;

// An HTTP answer came, then the transfer failed (reset, timeout, size cap, bad framing): the body is
// not whole. An HTTP error status (Qt's Content* and server error codes) leaves the body whole.
bool bodyBrokeOff(QNetworkReply::NetworkError error)
{
    return error != QNetworkReply::NoError
        && (error < QNetworkReply::ContentAccessDenied || error == QNetworkReply::ProtocolFailure);
}

class LoadVisitor final : public PromVisitor {
public:
    bool wantsSample(std::string_view name) override
    {
        return name == "vllm:num_requests_running" || name == "vllm:num_requests_waiting"
            || name == "vllm:prompt_tokens_total" || name == "vllm:generation_tokens_total";
    }
    void sample(const PromSample &s) override
    {
        if (s.name == "vllm:num_requests_running") {
            load.running += s.value;
            sawRunning = true;
        } else if (s.name == "vllm:num_requests_waiting") {
            load.waiting += s.value;
        } else {
            load.tokens += s.value;
        }
    }
    EngineLoad load;
    bool sawRunning = false;
};

} // namespace

std::optional<EngineLoad> parseEngineLoad(const QByteArray &body, QString *error)
{
    LoadVisitor visitor;
    const PromParser::Result result = PromParser::parse(std::string_view(body.constData(), size_t(body.size())), visitor);
    if (!result.ok()) {
        *error = QStringLiteral("/metrics: %1").arg(QString::fromStdString(result.error.toString()));
        return std::nullopt;
    }
    if (!visitor.sawRunning) {
        *error = QStringLiteral("/metrics has no vllm:num_requests_running");
        return std::nullopt;
    }
    return visitor.load;
}

EngineProbe::EngineProbe(QObject *parent)
    : EngineProbe(static_cast<QNetworkAccessManager *>(nullptr), parent)
{
}

EngineProbe::EngineProbe(QNetworkAccessManager *transport, QObject *parent)
    : QObject(parent)
    , m_network(transport ? transport : new QNetworkAccessManager(this))
{
}

void EngineProbe::get(const EngineRef &engine, const QString &path,
                      std::function<void(int, const QByteArray &, const QString &)> done)
{
    QUrl url = engine.baseUrl();
    if (m_https)
        url.setScheme(QStringLiteral("https"));
    url.setPath(path);
    QNetworkReply *reply = m_network->get(makeHttpRequest(
        HttpRequestSpec(url).withTimeout(m_timeoutMs).withBearerToken(m_token).withExtraCas(m_extraCas)));
    const int timeout = m_timeoutMs;
    armDeadline(reply, 2 * timeout); // a drip-fed answer ends too (the timeout above is inactivity)
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxEngineAnswer) {
            reply->setProperty("pdTooLarge", true);
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [reply, url, timeout, done = std::move(done)] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError failure = reply->error();
        const bool canceled = failure == QNetworkReply::OperationCanceledError;
        QString error;
        if (reply->property("pdTooLarge").toBool())
            error = QStringLiteral("%1: answer larger than %2 bytes").arg(url.toString()).arg(kMaxEngineAnswer);
        else if (reply->property("pdDeadline").toBool())
            error = QStringLiteral("%1: no whole answer within %2 ms (it kept trickling in)")
                        .arg(url.toString())
                        .arg(2 * timeout);
        else if (status == 0)
            error = canceled ? QStringLiteral("%1: no answer within %2 ms").arg(url.toString()).arg(timeout)
                             : QStringLiteral("%1: %2").arg(url.toString(), reply->errorString());
        else if (bodyBrokeOff(failure))
            error = QStringLiteral("%1: HTTP %2, then the body broke off (%3)")
                        .arg(url.toString())
                        .arg(status)
                        .arg(canceled ? QStringLiteral("nothing for %1 ms").arg(timeout) : reply->errorString());
        // Only a whole body is handed on: a /metrics cut at a line end still parses, with values missing.
        done(status, status && error.isEmpty() ? reply->readAll() : QByteArray(), error);
    });
}

void EngineProbe::readiness(const EngineRef &engine, std::function<void(const EngineReadiness &)> done)
{
    auto result = std::make_shared<EngineReadiness>();
    auto pending = std::make_shared<int>(2);
    auto finish = [result, pending, done = std::move(done)] {
        if (--*pending == 0)
            done(*result);
    };
    get(engine, QStringLiteral("/v1/models"), [result, finish](int status, const QByteArray &, const QString &error) {
        result->listening = result->listening || status != 0;
        result->models = status == 200;
        if (status != 200)
            result->detail += (status ? QStringLiteral("/v1/models HTTP %1").arg(status) : error) + QLatin1Char(' ');
        finish();
    });
    get(engine, QStringLiteral("/health"), [result, finish](int status, const QByteArray &, const QString &error) {
        result->listening = result->listening || status != 0;
        result->health = status == 200;
        if (status != 200)
            result->detail += (status ? QStringLiteral("/health HTTP %1").arg(status) : error) + QLatin1Char(' ');
        finish();
    });
}

void EngineProbe::load(const EngineRef &engine, std::function<void(std::optional<EngineLoad>, const QString &)> done)
{
    get(engine, QStringLiteral("/metrics"),
        [done = std::move(done)](int status, const QByteArray &body, const QString &error) {
            if (status != 200 || !error.isEmpty()) {
                done(std::nullopt, !error.isEmpty() ? error : QStringLiteral("/metrics answered HTTP %1").arg(status));
                return;
            }
            QString why;
            auto load = parseEngineLoad(body, &why);
            done(load, why);
        });
}

void EngineProbe::loads(const QList<EngineRef> &engines, std::function<void(const QHash<QString, EngineLoad> &)> done)
{
    auto result = std::make_shared<QHash<QString, EngineLoad>>();
    auto pending = std::make_shared<int>(int(engines.size()));
    if (engines.isEmpty()) {
        done(*result);
        return;
    }
    for (const EngineRef &e : engines) {
        load(e, [id = e.id, result, pending, done](std::optional<EngineLoad> l, const QString &) {
            if (l)
                result->insert(id, *l);
            if (--*pending == 0)
                done(*result);
        });
    }
}

void EngineProbe::poolReadings(const QList<EngineRef> &engines, std::function<void(const PoolReadings &)> done)
{
    auto result = std::make_shared<PoolReadings>();
    auto pending = std::make_shared<int>(int(engines.size()));
    if (engines.isEmpty()) {
        done(*result);
        return;
    }
    QPointer<EngineProbe> self(this);
    for (const EngineRef &e : engines) {
        load(e, [self, e, result, pending, done](std::optional<EngineLoad> l, const QString &) {
            if (l || !self) {
                if (l)
                    result->loads.insert(e.id, *l);
                if (--*pending == 0)
                    done(*result);
                return;
            }
            self->readiness(e, [id = e.id, result, pending, done](const EngineReadiness &r) {
                if (!r.listening)
                    result->notAnswering.insert(id);
                if (--*pending == 0)
                    done(*result);
            });
        });
    }
}

} // namespace pd
