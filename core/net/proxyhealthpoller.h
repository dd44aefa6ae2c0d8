// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyhealth.h"

#include <QObject>
#include <QSslCertificate>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

// Polls the proxy's /healthcheck on the thread it lives in (the GUI thread is fine: one small request
// per interval through QNetworkAccessManager, asynchronous). A single-shot timer is re-armed after each
// reply or timeout, so requests never stack; failures back off exponentially up to 8 intervals.
namespace pd {

class ProxyHealthPoller final : public QObject {
    Q_OBJECT
public:
    explicit ProxyHealthPoller(QObject *parent = nullptr);

    void setTarget(const QUrl &baseUrl); // http(s)://host:port ; empty stops polling
    void setExtraCaCertificates(const QList<QSslCertificate> &cas) { m_extraCas = cas; } // for an https target
    void setInterval(int ms);
    void setTimeout(int ms);
    void start();
    void stop();

    const ProxyHealth &last() const { return m_last; }
    int currentDelayMs() const { return m_delayMs; }

Q_SIGNALS:
    void updated(const pd::ProxyHealth &health);

private:
    void poll();
    void finished(QNetworkReply *reply, quint64 serial);
    void schedule(bool failed);

    QNetworkAccessManager *m_network;
    QTimer *m_timer;
    QUrl m_base;
    QList<QSslCertificate> m_extraCas;
    ProxyHealth m_last;
    int m_intervalMs = 1000;
    int m_timeoutMs = 2000;
    int m_delayMs = 1000;
    quint64 m_serial = 0;   // replies from an older target are dropped
    bool m_running = false;
};

} // namespace pd
