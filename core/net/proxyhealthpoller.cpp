// SPDX-License-Identifier: MIT
#include "net/proxyhealthpoller.h"

#include "net/httprequest.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace pd {

namespace {
constexpr qint64 kMaxHealthBody = 1 << 20;
}

ProxyHealthPoller::ProxyHealthPoller(QObject *parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ProxyHealthPoller::poll);
}

void ProxyHealthPoller::setTarget(const QUrl &baseUrl)
{
    m_base = baseUrl;
    ++m_serial;
    m_last = ProxyHealth();
    m_delayMs = m_intervalMs;
    if (m_running) {
        m_timer->stop();
        if (!m_base.isEmpty())
            poll();
    }
}

void ProxyHealthPoller::setInterval(int ms)
{
    m_intervalMs = qMax(50, ms);
}

void ProxyHealthPoller::setTimeout(int ms)
{
    m_timeoutMs = qMax(50, ms);
}

void ProxyHealthPoller::start()
{
    if (m_running)
        return;
    m_running = true;
    if (!m_base.isEmpty())
        poll();
}

void ProxyHealthPoller::stop()
{
    m_running = false;
    ++m_serial;
    m_timer->stop();
}

void ProxyHealthPoller::poll()
{
    if (!m_running || m_base.isEmpty())
        return;
    QUrl url = m_base;
    url.setPath(QStringLiteral("/healthcheck"));
    QNetworkReply *reply
        = m_network->get(makeHttpRequest(HttpRequestSpec(url).withTimeout(m_timeoutMs).withExtraCas(m_extraCas)));
    const quint64 serial = m_serial;
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxHealthBody)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, serial] { finished(reply, serial); });
}

void ProxyHealthPoller::finished(QNetworkReply *reply, quint64 serial)
{
    reply->deleteLater();
    if (serial != m_serial)
        return; // a different target or a stop since this request left
    ProxyHealth health;
    health.when = QDateTime::currentDateTimeUtc();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() == QNetworkReply::OperationCanceledError) {
        health.error = QStringLiteral("no answer within %1 ms (or the answer exceeded 1 MiB)").arg(m_timeoutMs);
    } else if (reply->error() != QNetworkReply::NoError && status == 0) {
        health.error = reply->errorString();
    } else if (status != 200) {
        health.error = QStringLiteral("/healthcheck answered HTTP %1").arg(status);
    } else {
        QString error;
        if (auto parsed = parseProxyHealth(reply->readAll(), &error)) {
            health = *parsed;
            health.when = QDateTime::currentDateTimeUtc();
        } else {
            health.error = error;
        }
    }
    m_last = health;
    Q_EMIT updated(health);
    schedule(!health.reachable);
}

void ProxyHealthPoller::schedule(bool failed)
{
    if (!m_running)
        return;
    m_delayMs = failed ? qMin(m_delayMs * 2, m_intervalMs * 8) : m_intervalMs;
    m_timer->start(m_delayMs);
}

} // namespace pd
