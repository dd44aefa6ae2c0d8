// SPDX-License-Identifier: MIT
#pragma once

#include "proxylog.h"
#include "proxyscheduler.h"

#include <QList>
#include <QObject>
#include <QPointer>

class QTimer;

namespace pd::sim {

class BackendCall;

// The proxy's NodeListener thread as an event-driven loop (spec §3): each round probes every waiting
// node in turn (GET /v1/models, Bearer key, 5 s timeout, "Checking instance <key>..." on stdout),
// activates it on a 2xx or drops it after maxWaitingRetries failures, then finalises drains when no
// request is in flight, then waits `interval` before the next round. With the §8.1 defect on, a probe
// that succeeds for a node tainted while waiting kills the listener for good.
class NodeListener final : public QObject {
    Q_OBJECT
public:
    NodeListener(ProxyScheduler &scheduler, ProxyLog log, QObject *parent = nullptr);

    void setInterval(double seconds) { m_intervalSeconds = seconds; }
    void setMaxWaitingRetries(int retries) { m_maxRetries = retries; }
    void setApiKey(const QString &key) { m_apiKey = key; }
    void setCrashDefect(bool enabled) { m_crashDefect = enabled; }

    void start();      // first round at once, like the thread started with the app
    bool isAlive() const { return !m_dead; }
    int rounds() const { return m_rounds; }

Q_SIGNALS:
    void roundFinished();
    void crashed(const QString &key);

private:
    void round();
    void probeNext();
    void probeDone(const QString &key, bool ok);
    void finishRound();
    void crash(const QString &key);

    ProxyScheduler &m_scheduler;
    ProxyLog m_log;
    QTimer *m_timer;
    QList<ProxyScheduler::WaitingNode> m_queue;
    QPointer<BackendCall> m_probe;
    double m_intervalSeconds = 10.0;
    int m_maxRetries = 3;
    int m_probeTimeoutMs = 5000;
    QString m_apiKey = QStringLiteral("None");
    bool m_crashDefect = true;
    bool m_dead = false;
    int m_rounds = 0;
};

} // namespace pd::sim
