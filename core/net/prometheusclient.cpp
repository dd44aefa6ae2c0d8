// SPDX-License-Identifier: MIT
#include "net/prometheusclient.h"

#include "net/httprequest.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>

namespace pd {

namespace {

QByteArray formValue(const QString &v)
{
    return QUrl::toPercentEncoding(v);
}

QString secondsText(std::int64_t ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 3);
}

} // namespace

PrometheusClient::PrometheusClient(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
{
}

void PrometheusClient::setEndpoint(const PrometheusEndpoint &endpoint)
{
    abortAll();
    m_endpoint = endpoint;
}

int PrometheusClient::pending() const
{
    return int(m_network->findChildren<QNetworkReply *>().size());
}

void PrometheusClient::abortAll()
{
    ++m_generation;
    const QList<QNetworkReply *> replies = m_network->findChildren<QNetworkReply *>();
    for (QNetworkReply *reply : replies) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void PrometheusClient::prepare(QNetworkReply *reply)
{
    const qint64 limit = m_endpoint.maxAnswerBytes;
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply, limit](qint64 received, qint64) {
        if (received > limit) {
            reply->setProperty("pdTooLarge", true);
            reply->abort();
        }
    });
}

QNetworkRequest PrometheusClient::request(const QString &path, const QString &query) const
{
    QUrl url = m_endpoint.base;
    QString prefix = url.path();
    while (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    url.setPath(prefix + path);
    url.setQuery(query);
    return makeHttpRequest(HttpRequestSpec(url)
                               .withTimeout(m_endpoint.timeoutMs)
                               .withBearerToken(m_endpoint.bearerToken)
                               .withExtraCas(m_endpoint.extraCaCertificates));
}

QNetworkReply *PrometheusClient::post(const QString &path, const QByteArray &form)
{
    QNetworkRequest r = request(path, QString());
    r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/x-www-form-urlencoded"));
    QNetworkReply *reply = m_network->post(r, form);
    prepare(reply);
    return reply;
}

QNetworkReply *PrometheusClient::get(const QString &path, const QString &query)
{
    QNetworkReply *reply = m_network->get(request(path, query));
    prepare(reply);
    return reply;
}

PrometheusClient::Raw PrometheusClient::read(QNetworkReply *reply) const
{
    Raw raw;
    raw.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->property("pdTooLarge").toBool()) {
        raw.status = 0;
        raw.transportError = tr("answer larger than %1 MB").arg(m_endpoint.maxAnswerBytes / (1024 * 1024));
        return raw;
    }
    if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError) {
        raw.status = 0;
        raw.transportError = tr("no answer within %1 ms").arg(m_endpoint.timeoutMs);
        return raw;
    }
    if (raw.status == 0)
        raw.transportError = reply->errorString();
    raw.body = reply->readAll();
    return raw;
}

template<class Answer, class Decode>
void PrometheusClient::deliver(QNetworkReply *reply, const QString &what, Decode decode,
    std::function<void(const Answer &, qint64 answerBytes)> done)
{
    const quint64 gen = m_generation;
    connect(reply, &QNetworkReply::finished, this, [this, reply, what, decode, done, gen] {
        reply->deleteLater();
        if (gen != m_generation)
            return;
        const Raw raw = read(reply);
        Answer answer;
        if (!raw.transportError.isEmpty()) {
            answer.outcome = PromApiAnswer::Outcome::Http;
            answer.error = PrometheusClient::tr("%1: %2").arg(what, raw.transportError);
        } else {
            answer = decode(raw.status, std::string_view(raw.body.constData(), std::size_t(raw.body.size())));
            if (!answer.ok())
                answer.error = PrometheusClient::tr("%1: %2").arg(what, answer.error);
        }
        done(answer, raw.body.size());
    });
}

void PrometheusClient::deliverQuery(QNetworkReply *reply, const QString &what, const QueryCallback &done)
{
    const auto decode = [](int status, std::string_view body) {
        PromApiAnswer answer = decodePromQueryAnswer(status, body);
        if (!answer.ok() && (status == 401 || status == 403))
            answer.error += tr(" (check the bearer token)");
        return answer;
    };
    deliver<PromApiAnswer>(reply, what, decode, done);
}

void PrometheusClient::query(const std::string &promql, QueryCallback done, std::int64_t timeMs)
{
    QByteArray form = "query=" + formValue(QString::fromStdString(promql));
    if (timeMs > 0)
        form += "&time=" + secondsText(timeMs).toLatin1();
    deliverQuery(post(QStringLiteral("/api/v1/query"), form),
        m_endpoint.base.toDisplayString() + QStringLiteral("/api/v1/query"), done);
}

void PrometheusClient::queryRange(
    const std::string &promql, std::int64_t startMs, std::int64_t endMs, std::int64_t stepMs, QueryCallback done)
{
    const QByteArray form = "query=" + formValue(QString::fromStdString(promql))
        + "&start=" + secondsText(startMs).toLatin1() + "&end=" + secondsText(endMs).toLatin1()
        + "&step=" + secondsText(stepMs).toLatin1();
    deliverQuery(post(QStringLiteral("/api/v1/query_range"), form),
        m_endpoint.base.toDisplayString() + QStringLiteral("/api/v1/query_range"), done);
}

void PrometheusClient::targets(TargetsCallback done)
{
    deliver<PromTargetsAnswer>(get(QStringLiteral("/api/v1/targets"), QStringLiteral("state=active")),
        m_endpoint.base.toDisplayString() + QStringLiteral("/api/v1/targets"), decodePromTargetsAnswer,
        [done = std::move(done)](const PromTargetsAnswer &answer, qint64) { done(answer); });
}

} // namespace pd
