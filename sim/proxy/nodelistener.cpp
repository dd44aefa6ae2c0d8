// SPDX-License-Identifier: MIT
#include "nodelistener.h"

#include "backendcall.h"
#include "proxytext.h"

#include <QTimer>

#include <cmath>

namespace pd::sim {

NodeListener::NodeListener(ProxyScheduler &scheduler, ProxyLog log, QObject *parent)
    : QObject(parent)
    , m_scheduler(scheduler)
    , m_log(std::move(log))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &NodeListener::round);
}

void NodeListener::start()
{
    m_timer->start(0);
}

void NodeListener::round()
{
    if (m_dead)
        return;
    m_queue = m_scheduler.waitingNodes();
    probeNext();
}

void NodeListener::probeNext()
{
    while (!m_queue.isEmpty()) {
        const ProxyScheduler::WaitingNode node = m_queue.takeFirst();
        if (!m_scheduler.isWaiting(node.key))
            continue; // removed since the round began
        m_log.print(QStringLiteral("Checking instance %1...").arg(node.key));
        auto *call = new BackendCall(node.address.host, node.address.port, "GET", "/v1/models",
                                     {{"Authorization", "Bearer " + m_apiKey.toUtf8()}}, {}, this);
        call->setTimeout(m_probeTimeoutMs);
        const QString key = node.key;
        connect(call, &BackendCall::finished, this, [this, call, key] {
            call->deleteLater();
            probeDone(key, call->status() >= 200 && call->status() < 300);
        });
        connect(call, &BackendCall::failed, this, [this, call, key] {
            call->deleteLater();
            probeDone(key, false);
        });
        m_probe = call;
        call->start();
        return;
    }
    finishRound();
}

void NodeListener::probeDone(const QString &key, bool ok)
{
    m_probe = nullptr;
    if (ok) {
        switch (m_scheduler.activate(key)) {
        case ProxyScheduler::Activation::Activated:
        case ProxyScheduler::Activation::NotWaiting:
            break;
        case ProxyScheduler::Activation::TaintedNotInPool:
            if (m_crashDefect) {
                crash(key);
                return;
            }
            m_scheduler.dropTaintedWaiting(key);
            m_log.print(QStringLiteral("Instance %1 was not added to the proxy.").arg(key));
            break;
        }
    } else if (m_scheduler.isWaiting(key)) {
        if (m_scheduler.recordFailedProbe(key) >= m_maxRetries) {
            m_scheduler.removeWaiting(key);
            m_log.print(QStringLiteral("Instance %1 was not added to the proxy.").arg(key));
        }
    }
    probeNext();
}

void NodeListener::finishRound()
{
    for (const ProxyRole role : {ProxyRole::Prefill, ProxyRole::Decode}) {
        const QStringList removed = m_scheduler.finalizeDrain(role);
        if (removed.isEmpty())
            continue;
        m_log.log(ProxyLogLevel::Info,
                  QStringLiteral("Remove %1 instances after drain: %2. prefill=%3 decode=%4")
                      .arg(roleName(role), pythonListRepr(removed),
                           pythonListRepr(m_scheduler.instances(ProxyRole::Prefill)),
                           pythonListRepr(m_scheduler.instances(ProxyRole::Decode))));
    }
    ++m_rounds;
    Q_EMIT roundFinished();
    const double ms = m_intervalSeconds * 1000.0;
    m_timer->start(std::isfinite(ms) && ms > 1 ? int(std::min(ms, 2.0e9)) : 1);
}

void NodeListener::crash(const QString &key)
{
    m_dead = true;
    m_log.raw(QStringLiteral("Exception in thread Thread-1 (_run):"));
    m_log.raw(QStringLiteral("Traceback (most recent call last):"));
    m_log.raw(QStringLiteral("  File \"/usr/lib/python3.11/threading.py\", line 1045, in _bootstrap_inner"));
    m_log.raw(QStringLiteral("    self.run()"));
    m_log.raw(QStringLiteral("  File \"load_balance_proxy_server_example.py\", in _run"));
    m_log.raw(QStringLiteral("    self._activate_node(key)"));
    m_log.raw(QStringLiteral("KeyError: %1").arg(pythonRepr(key)));
    Q_EMIT crashed(key);
}

} // namespace pd::sim
