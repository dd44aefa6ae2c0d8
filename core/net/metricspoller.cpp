// SPDX-License-Identifier: MIT
#include "net/metricspoller.h"

#include "net/pollloop.h"

#include <QMetaObject>
#include <QPointer>

namespace pd {

MetricsPoller::MetricsPoller(MetricsBodyParser parser, QObject *parent)
    : QObject(parent)
{
    QPointer<MetricsPoller> self(this);
    m_loop = std::make_unique<PollLoop>(std::move(parser), [self](PollBatch &&batch) {
        // Runs on the loop thread; the queued call is dropped if the poller is gone by then.
        MetricsPoller *poller = self.data();
        if (!poller)
            return;
        QMetaObject::invokeMethod(poller, [poller, b = std::move(batch)] {
            if (b.generation == poller->m_generation)
                Q_EMIT poller->batchReady(b);
        }, Qt::QueuedConnection);
    });
}

MetricsPoller::~MetricsPoller()
{
    m_loop->stop();
}

void MetricsPoller::setTargets(const QList<PollTarget> &targets)
{
    m_loop->setTargets(targets, ++m_generation);
}

void MetricsPoller::setInterval(int ms)
{
    m_loop->setInterval(ms);
}

void MetricsPoller::setTimeout(int ms)
{
    m_loop->setTimeout(ms);
}

void MetricsPoller::setSpread(bool spread)
{
    m_loop->setSpread(spread);
}

void MetricsPoller::setTransport(PollTransport transport)
{
    m_loop->setTransport(transport);
}

void MetricsPoller::start()
{
    m_loop->start();
}

void MetricsPoller::stop()
{
    m_loop->stop();
}

int MetricsPoller::effectiveIntervalMs() const
{
    return m_loop->effectiveIntervalMs();
}

double MetricsPoller::cpuSeconds() const
{
    return m_loop->cpuSeconds();
}

quint64 MetricsPoller::completedPolls() const
{
    return m_loop->completedPolls();
}

} // namespace pd
