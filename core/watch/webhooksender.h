// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QQueue>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

// Posts alert JSON to an operator's webhook (Slack/Feishu/Alertmanager-style receivers take a POST of
// application/json). Never blocks the caller: send() queues and returns. One request at a time, in
// order, each with a timeout; a failed one (no answer, or not 2xx) is retried with a doubling delay up
// to `maxAttempts`, then dropped and counted. The queue is bounded: when full, the oldest message goes
// (counted as dropped), so a dead receiver costs memory once, not forever.
namespace pd {

struct WebhookSettings {
    QUrl url;
    int timeoutMs = 5000;
    int maxAttempts = 4;
    int firstRetryDelayMs = 1000;
    int queueCapacity = 500;
};

class WebhookSender final : public QObject {
    Q_OBJECT
public:
    explicit WebhookSender(WebhookSettings settings, QObject *parent = nullptr);
    ~WebhookSender() override;

    const WebhookSettings &settings() const { return m_settings; }
    void send(const QByteArray &json);

    int queued() const { return int(m_queue.size()); } // the one in flight included
    int delivered() const { return m_delivered; }
    int dropped() const { return m_dropped; } // given up after maxAttempts, or pushed out of a full queue
    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void deliveredOne();
    void failedOne(const QString &error); // one message given up

private:
    void pump();
    void finished(QNetworkReply *reply);

    WebhookSettings m_settings;
    QNetworkAccessManager *m_network;
    QTimer *m_retry;
    QQueue<QByteArray> m_queue;
    bool m_inFlight = false;
    int m_attempt = 0; // of the message at the head of the queue
    int m_delivered = 0;
    int m_dropped = 0;
    QString m_lastError;
};

} // namespace pd
