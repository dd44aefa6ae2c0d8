// SPDX-License-Identifier: MIT
#include "net/metricspoller.h"

#include "net/pollloop.h"

#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <thread>

namespace pd {

MetricsPoller::MetricsPoller(MetricsBodyParser parser, QObject *parent)
    : QObject(parent)
    , m_parser(std::move(parser))
{
    rebuildLoops(1);
}

MetricsPoller::~MetricsPoller()
{
    for (auto &loop : m_loops)
        loop->stop();
}

int MetricsPoller::automaticLoops(int engines, int hardwareThreads)
{
    const int byFleet = (std::max(0, engines) + kEnginesPerLoop - 1) / kEnginesPerLoop;
    return std::clamp(std::min(byFleet, std::max(1, hardwareThreads)), 1, kMaxLoops);
}

void MetricsPoller::rebuildLoops(int count)
{
    for (auto &loop : m_loops)
        loop->stop();
    m_loops.clear();
    m_given.assign(std::size_t(count), false);
    clearPending();
    // One poller clock for all loops, so that their outcomes' times compare within a merged round.
    const qint64 origin = PollLoop::steadyNowMs();
    QPointer<MetricsPoller> self(this);
    for (int i = 0; i < count; ++i) {
        auto loop = std::make_unique<PollLoop>(m_parser, [self, i](PollBatch &&batch) {
            // Runs on loop i's thread; the queued call is dropped if the poller is gone by then.
            MetricsPoller *poller = self.data();
            if (!poller)
                return;
            QMetaObject::invokeMethod(poller, [poller, i, b = std::move(batch)]() mutable {
                poller->onLoopBatch(i, std::move(b));
            }, Qt::QueuedConnection);
        });
        loop->setInterval(m_intervalMs);
        loop->setTimeout(m_timeoutMs);
        loop->setSpread(m_spread);
        loop->setTransport(m_transport);
        loop->setHealthEvery(m_healthEvery);
        loop->setClockOrigin(origin);
        m_loops.push_back(std::move(loop));
    }
    if (m_running)
        for (auto &loop : m_loops)
            loop->start();
}

void MetricsPoller::setTargets(const QList<PollTarget> &targets)
{
    const int count = m_wantedLoops > 0
        ? m_wantedLoops
        : automaticLoops(int(targets.size()), int(std::thread::hardware_concurrency()));
    if (count != loopCount())
        rebuildLoops(count);
    ++m_generation;
    clearPending();
    if (count == 1) {
        m_loops.front()->setFleetSize(0);
        m_loops.front()->setTargets(targets, m_generation);
        return;
    }
    std::vector<QList<PollTarget>> parts(static_cast<std::size_t>(count));
    for (qsizetype i = 0; i < targets.size(); ++i)
        parts[std::size_t(i % count)].append(targets.at(i));
    for (int k = 0; k < count; ++k) {
        m_loops[std::size_t(k)]->setFleetSize(std::size_t(targets.size()));
        m_loops[std::size_t(k)]->setTargets(parts[std::size_t(k)], m_generation);
    }
}

void MetricsPoller::onLoopBatch(int loop, PollBatch &&batch)
{
    if (batch.generation != m_generation || loop >= loopCount())
        return;
    if (loopCount() == 1) {
        Q_EMIT batchReady(batch);
        return;
    }
    // A loop that gives a second batch before the others gave their first: the others are late (a
    // busy core, a stuck loop); the round goes out without them rather than wait.
    if (m_given[std::size_t(loop)])
        flushPending();
    if (m_givenCount == 0) {
        m_pending = std::move(batch);
    } else {
        m_pending.roundAtMs = std::max(m_pending.roundAtMs, batch.roundAtMs);
        m_pending.outcomes.append(std::move(batch.outcomes));
    }
    m_given[std::size_t(loop)] = true;
    if (++m_givenCount == loopCount())
        flushPending();
}

void MetricsPoller::flushPending()
{
    if (m_givenCount == 0)
        return;
    PollBatch out = std::move(m_pending);
    clearPending();
    Q_EMIT batchReady(out);
}

void MetricsPoller::clearPending()
{
    m_pending = PollBatch();
    std::fill(m_given.begin(), m_given.end(), false);
    m_givenCount = 0;
}

namespace {

// Keeps a setting for the loops made later and gives it to each loop there is.
template<typename Loops, typename T> void keepAndApply(T &kept, T value, const Loops &loops, void (PollLoop::*set)(T))
{
    kept = value;
    for (const auto &loop : loops)
        ((*loop).*set)(value);
}

} // namespace

void MetricsPoller::setInterval(int ms)
{
    keepAndApply(m_intervalMs, ms, m_loops, &PollLoop::setInterval);
}

void MetricsPoller::setTimeout(int ms)
{
    keepAndApply(m_timeoutMs, ms, m_loops, &PollLoop::setTimeout);
}

void MetricsPoller::setSpread(bool spread)
{
    keepAndApply(m_spread, spread, m_loops, &PollLoop::setSpread);
}

void MetricsPoller::setHealthEvery(int polls)
{
    keepAndApply(m_healthEvery, polls, m_loops, &PollLoop::setHealthEvery);
}

void MetricsPoller::setTransport(PollTransport transport)
{
    keepAndApply(m_transport, transport, m_loops, &PollLoop::setTransport);
}

void MetricsPoller::setLoopCount(int loops)
{
    m_wantedLoops = std::clamp(loops, 0, kMaxLoops);
}

void MetricsPoller::start()
{
    m_running = true;
    for (auto &loop : m_loops)
        loop->start();
}

void MetricsPoller::stop()
{
    m_running = false;
    for (auto &loop : m_loops)
        loop->stop();
}

int MetricsPoller::effectiveIntervalMs() const
{
    return m_loops.front()->effectiveIntervalMs();
}

double MetricsPoller::cpuSeconds() const
{
    double sum = 0;
    for (const auto &loop : m_loops)
        sum += loop->cpuSeconds();
    return sum;
}

quint64 MetricsPoller::completedPolls() const
{
    quint64 sum = 0;
    for (const auto &loop : m_loops)
        sum += loop->completedPolls();
    return sum;
}

} // namespace pd
