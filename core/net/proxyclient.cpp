// SPDX-License-Identifier: MIT
#include "net/proxyclient.h"

#include "cluster/strictjson.h"
#include "net/httprequest.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <utility>

namespace pd {

namespace {

constexpr qint64 kMaxProxyAnswerBody = 4 << 20;

struct Raw {
    int status = 0;
    QByteArray body;
    QString transportError; // empty when an HTTP answer arrived
    bool refused = false; // nothing listened: the proxy's process was not running
};

Raw readRaw(QNetworkReply *reply, int timeoutMs, bool tooLarge)
{
    Raw raw;
    raw.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (tooLarge) {
        raw.transportError = QStringLiteral("answer larger than %1 bytes").arg(kMaxProxyAnswerBody);
        raw.status = 0;
        return raw;
    }
    if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError) {
        raw.transportError = reply->property("pdDeadline").toBool()
            ? QStringLiteral("no whole answer within %1 ms (it kept trickling in)").arg(2 * timeoutMs)
            : QStringLiteral("no answer within %1 ms").arg(timeoutMs);
        raw.status = 0;
        return raw;
    }
    if (raw.status == 0) {
        raw.transportError = reply->errorString();
        raw.refused = reply->error() == QNetworkReply::ConnectionRefusedError;
    }
    raw.body = reply->readAll();
    return raw;
}

std::optional<QStringList> stringList(const nlohmann::ordered_json &v)
{
    if (!v.is_array())
        return std::nullopt;
    QStringList out;
    for (const auto &item : v) {
        if (!item.is_string())
            return std::nullopt;
        out.append(QString::fromStdString(item.get<std::string>()));
    }
    return out;
}

QString bodyExcerpt(const QByteArray &body)
{
    QByteArray b = body.left(200).simplified();
    return QString::fromUtf8(b) + (body.size() > 200 ? QStringLiteral("...") : QString());
}

} // namespace

QString ProxyCapabilities::generationLabel() const
{
    if (!reachable)
        return QStringLiteral("unreachable");
    if (!hasInstancesApi)
        return QStringLiteral("pre-v0.13 or layerwise (no /instances API)");
    if (!hasRequestNum)
        return QStringLiteral("v0.13-v0.20 (synchronous add)");
    if (!hasModels)
        return QStringLiteral("v0.21-v0.26 (no /v1/models)");
    return QStringLiteral("main (with /v1/models)");
}

bool ProxyCapabilities::scalesByRestart() const
{
    return reachable && instancesApiDecided && !hasInstancesApi && declared != ProxyGeneration::Main;
}

QString ProxyCapabilities::generationMismatch() const
{
    if (!reachable || !instancesApiDecided || hasInstancesApi || declared != ProxyGeneration::Main)
        return {};
    return QStringLiteral(
        "the profile says this proxy runs generation main, but it has no /instances API (/instances/add "
        "answers 404): another program on its port, or a v0.9.1-dev proxy (then set proxy.generation to "
        "v0.9.1-dev, and pools scale by restarting it)");
}

QString describeHttpFailure(const QString &path, int httpStatus, const QByteArray &body, const QString &transportError)
{
    if (httpStatus == 0)
        return QStringLiteral("%1: %2").arg(path, transportError);
    if (httpStatus == 401 || httpStatus == 403)
        return QStringLiteral("%1 answered HTTP %2: the proxy (or a gateway in front of it) refused the bearer token")
            .arg(path).arg(httpStatus);
    if (httpStatus == 404)
        return QStringLiteral("%1 answered HTTP 404: this proxy has no such endpoint").arg(path);
    return QStringLiteral("%1 answered HTTP %2: %3").arg(path).arg(httpStatus).arg(bodyExcerpt(body));
}

ProxyReply parseInstancesReply(int httpStatus, const QByteArray &body, const QString &path)
{
    ProxyReply r;
    r.httpStatus = httpStatus;
    if (httpStatus != 200) {
        r.error = describeHttpFailure(path, httpStatus, body, QString());
        if (httpStatus == 500 && body.trimmed() == "Internal Server Error")
            r.error += QStringLiteral(" (the proxy rejects instances without a port, IPv6 literals and non-JSON bodies)");
        return r;
    }
    const StrictJsonResult json = parseStrictJson(body);
    if (!json.ok) {
        r.error = json.line > 0 ? QStringLiteral("%1: answer is not JSON (%2:%3: %4)").arg(path).arg(json.line).arg(json.column).arg(json.message)
                                : QStringLiteral("%1: %2: %3").arg(path, json.pointer, json.message);
        return r;
    }
    const auto &v = json.value;
    if (!v.is_object()) {
        r.error = QStringLiteral("%1: answer is not a JSON object").arg(path);
        return r;
    }
    if (const auto it = v.find("error"); it != v.end()) {
        r.error = QStringLiteral("%1: the proxy refused: %2").arg(path, it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                                                       : QString::fromStdString(it->dump()));
        return r;
    }
    const auto m = v.find("message");
    const auto p = v.find("current_prefill_instances");
    const auto d = v.find("current_decode_instances");
    if (m == v.end() || !m->is_string()) {
        r.error = QStringLiteral("%1: \"message\" is missing or not a string").arg(path);
        return r;
    }
    r.message = QString::fromStdString(m->get<std::string>());
    std::optional<QStringList> prefill = p != v.end() ? stringList(*p) : std::nullopt;
    std::optional<QStringList> decode = d != v.end() ? stringList(*d) : std::nullopt;
    if (!prefill || !decode) {
        r.error = QStringLiteral("%1: \"%2\" is missing or not a list of \"host:port\" strings")
                      .arg(path, !prefill ? QStringLiteral("current_prefill_instances") : QStringLiteral("current_decode_instances"));
        return r;
    }
    r.lists = ProxyLists{*prefill, *decode};
    r.ok = true;
    return r;
}

ProxyClient::ProxyClient(QObject *parent)
    : ProxyClient(static_cast<QNetworkAccessManager *>(nullptr), parent)
{
}

ProxyClient::ProxyClient(QNetworkAccessManager *transport, QObject *parent)
    : QObject(parent)
    , m_network(transport ? transport : new QNetworkAccessManager(this))
{
    if (!transport)
        m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

void ProxyClient::setEndpoint(const ProxyEndpoint &endpoint)
{
    abortAll();
    m_endpoint = endpoint;
    m_capabilities.reset();
}

void ProxyClient::abortAll()
{
    ++m_generation;
    // Only this client's replies: a borrowed transport may carry other clients' requests too.
    const QList<QPointer<QNetworkReply>> replies = std::exchange(m_inFlight, {});
    for (const QPointer<QNetworkReply> &reply : replies)
        if (reply)
            reply->abort();
}

QNetworkReply *ProxyClient::send(const QByteArray &method, const QString &path, const QByteArray &body)
{
    QUrl url = m_endpoint.base;
    url.setPath(path);
    const QNetworkRequest request
        = makeHttpRequest(HttpRequestSpec(url)
                              .withTimeout(m_endpoint.timeoutMs)
                              .withBearerToken(m_endpoint.bearerToken)
                              .withExtraCas(m_endpoint.extraCaCertificates)
                              .withContentType(body.isNull() ? QByteArray() : QByteArrayLiteral("application/json")));
    QNetworkReply *reply = method == "GET" ? m_network->get(request) : m_network->sendCustomRequest(request, method, body);
    m_inFlight.removeIf([](const QPointer<QNetworkReply> &r) { return r.isNull(); });
    m_inFlight.append(reply);
    armDeadline(reply, 2 * m_endpoint.timeoutMs); // a drip-fed answer ends too (the timeout is inactivity)
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxProxyAnswerBody) {
            reply->setProperty("pdTooLarge", true);
            reply->abort();
        }
    });
    return reply;
}

void ProxyClient::healthcheck(HealthCallback done)
{
    QNetworkReply *reply = send("GET", QStringLiteral("/healthcheck"), QByteArray());
    const quint64 gen = m_generation;
    const int timeout = m_endpoint.timeoutMs;
    connect(reply, &QNetworkReply::finished, this, [this, reply, gen, timeout, done = std::move(done)] {
        reply->deleteLater();
        if (gen != m_generation)
            return;
        const Raw raw = readRaw(reply, timeout, reply->property("pdTooLarge").toBool());
        ProxyHealth health;
        if (raw.status != 200) {
            health.error = describeHttpFailure(QStringLiteral("/healthcheck"), raw.status, raw.body, raw.transportError);
        } else {
            QString error;
            if (auto parsed = parseProxyHealth(raw.body, &error))
                health = *parsed;
            else
                health.error = error;
        }
        health.when = QDateTime::currentDateTimeUtc();
        done(health);
    });
}

void ProxyClient::instances(const QString &path, Role role, const QStringList &list, ReplyCallback done)
{
    nlohmann::ordered_json body{{"type", roleName(role).toStdString()}, {"instances", nlohmann::ordered_json::array()}};
    for (const QString &i : list)
        body["instances"].push_back(i.toStdString());
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    QNetworkReply *reply = send("POST", path, QByteArray::fromStdString(body.dump()));
    const quint64 gen = m_generation;
    const int timeout = m_endpoint.timeoutMs;
    connect(reply, &QNetworkReply::finished, this, [this, reply, gen, timeout, path, timer, done = std::move(done)] {
        reply->deleteLater();
        if (gen != m_generation)
            return;
        const Raw raw = readRaw(reply, timeout, reply->property("pdTooLarge").toBool());
        ProxyReply r;
        if (raw.status == 0) {
            r.error = describeHttpFailure(path, 0, {}, raw.transportError);
            r.refused = raw.refused;
        } else {
            r = parseInstancesReply(raw.status, raw.body, path);
        }
        r.elapsedMs = timer->elapsed();
        done(r);
    });
}

void ProxyClient::addInstances(Role role, const QStringList &list, ReplyCallback done)
{
    instances(QStringLiteral("/instances/add"), role, list, std::move(done));
}

void ProxyClient::removeInstances(Role role, const QStringList &list, ReplyCallback done)
{
    instances(QStringLiteral("/instances/remove"), role, list, std::move(done));
}

void ProxyClient::listInstances(ReplyCallback done)
{
    instances(QStringLiteral("/instances/add"), Role::Decode, {}, std::move(done));
}

void ProxyClient::currentCapabilities(CapabilitiesCallback done)
{
    // Kept once the proxy answered and its API was decided; an undecided one is asked again.
    if (m_capabilities && m_capabilities->reachable && m_capabilities->instancesApiDecided)
        done(*m_capabilities);
    else
        detectCapabilities(std::move(done));
}

void ProxyClient::detectCapabilities(CapabilitiesCallback done)
{
    auto caps = std::make_shared<ProxyCapabilities>();
    auto pending = std::make_shared<int>(3);
    auto finish = [this, caps, pending, done = std::move(done)] {
        if (--*pending > 0)
            return;
        m_capabilities = *caps;
        done(*caps);
    };
    healthcheck([caps, finish](const ProxyHealth &h) {
        caps->reachable = h.reachable;
        caps->hasRequestNum = h.requestNum.has_value();
        if (!h.reachable)
            caps->error = h.error;
        finish();
    });
    QNetworkReply *reply = send("GET", QStringLiteral("/v1/models"), QByteArray());
    const quint64 gen = m_generation;
    const int timeout = m_endpoint.timeoutMs;
    connect(reply, &QNetworkReply::finished, this, [this, reply, gen, timeout, caps, finish] {
        reply->deleteLater();
        if (gen != m_generation)
            return;
        const Raw raw = readRaw(reply, timeout, reply->property("pdTooLarge").toBool());
        // 200 (a backend answered) and 503 (no backend could) both mean the endpoint exists (§2.6).
        caps->hasModels = raw.status == 200 || raw.status == 503;
        finish();
    });
    caps->declared = m_endpoint.declaredGeneration;
    listForCapabilities(caps, 0, finish);
}

void ProxyClient::listForCapabilities(
    std::shared_ptr<ProxyCapabilities> caps, int attempt, std::function<void()> finish)
{
    const quint64 gen = m_generation;
    listInstances([this, caps, attempt, gen, finish = std::move(finish)](const ProxyReply &r) {
        if (gen != m_generation)
            return;
        // Evidence: 200 with the lists (it has the API), 404 or 405 (it has not: v0.9.1-dev, pre-v0.13).
        if (r.ok || r.httpStatus == 404 || r.httpStatus == 405) {
            caps->hasInstancesApi = r.ok;
            caps->instancesApiDecided = true;
            return finish();
        }
        // A 5xx, a timeout, a cut or malformed answer says nothing about the API: asked again, a little
        // later (a proxy restarting, a worker busy), unless nothing listens at all.
        constexpr int kAttempts = 3;
        if (attempt + 1 < kAttempts && !r.refused) {
            QTimer::singleShot(300 * (attempt + 1), this,
                [this, caps, attempt, finish] { listForCapabilities(caps, attempt + 1, finish); });
            return;
        }
        caps->instancesApiDecided = false;
        caps->hasInstancesApi = caps->declared != ProxyGeneration::V091Dev;
        if (caps->error.isEmpty() && !r.refused)
            caps->error
                = QStringLiteral("%1 (%2 attempts; its /instances API is taken from the profile's generation, %3)")
                      .arg(r.error)
                      .arg(attempt + 1)
                      .arg(caps->declared == ProxyGeneration::V091Dev ? QStringLiteral("v0.9.1-dev")
                                                                      : QStringLiteral("main"));
        finish();
    });
}

} // namespace pd
