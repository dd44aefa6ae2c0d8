// SPDX-License-Identifier: MIT
#include "watch/webhooksender.h"

#include "net/httprequest.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace pd {

WebhookSender::WebhookSender(WebhookSettings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_network(new QNetworkAccessManager(this))
    , m_retry(new QTimer(this))
{
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &WebhookSender::pump);
    connect(m_network, &QNetworkAccessManager::finished, this, &WebhookSender::finished);
}

WebhookSender::~WebhookSender() = default;

void WebhookSender::send(const QByteArray &json)
{
    if (!m_settings.url.isValid())
        return;
    // The head of the queue may be in flight: a full queue pushes out the oldest message waiting.
    const int waitingAt = m_inFlight ? 1 : 0;
    if (m_queue.size() >= std::max(1, m_settings.queueCapacity) && m_queue.size() > waitingAt) {
        m_queue.removeAt(waitingAt);
        ++m_dropped;
    }
    m_queue.enqueue(json);
    if (!m_inFlight && !m_retry->isActive())
        pump();
}

void WebhookSender::pump()
{
    if (m_inFlight || m_queue.isEmpty())
        return;
    const QNetworkRequest request = makeHttpRequest(HttpRequestSpec(m_settings.url)
                                                        .withTimeout(m_settings.timeoutMs)
                                                        .withContentType(QByteArrayLiteral("application/json"))
                                                        .followingSafeRedirects());
    m_inFlight = true;
    ++m_attempt;
    m_network->post(request, m_queue.head());
}

void WebhookSender::finished(QNetworkReply *reply)
{
    reply->deleteLater();
    m_inFlight = false;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300) {
        m_queue.dequeue();
        m_attempt = 0;
        ++m_delivered;
        Q_EMIT deliveredOne();
        pump();
        return;
    }
    m_lastError = status > 0 ? QStringLiteral("webhook %1: HTTP %2").arg(m_settings.url.toDisplayString()).arg(status)
                             : QStringLiteral("webhook %1: %2").arg(m_settings.url.toDisplayString(), reply->errorString());
    if (m_attempt >= m_settings.maxAttempts) {
        m_queue.dequeue();
        m_attempt = 0;
        ++m_dropped;
        Q_EMIT failedOne(m_lastError);
        pump();
        return;
    }
    m_retry->start(m_settings.firstRetryDelayMs << std::min(m_attempt - 1, 6));
}

} // namespace pd
