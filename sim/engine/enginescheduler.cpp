// SPDX-License-Identifier: MIT
#include "enginescheduler.h"

namespace pd::sim {

EngineScheduler::EngineScheduler(QObject *parent) : QObject(parent)
{
    m_clock.start();
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &EngineScheduler::onTimeout);
}

EngineScheduler::ClientId EngineScheduler::registerClient(Client *client)
{
    if (!m_freeSlots.empty()) {
        const ClientId id = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_slots[std::size_t(id)].client = client;
        m_slots[std::size_t(id)].due = -1;
        return id;
    }
    m_slots.push_back({client, 0, -1});
    return ClientId(m_slots.size() - 1);
}

void EngineScheduler::unregisterClient(ClientId id)
{
    if (id < 0 || std::size_t(id) >= m_slots.size())
        return;
    Slot &s = m_slots[std::size_t(id)];
    s.client = nullptr;
    ++s.generation;
    s.due = -1;
    m_freeSlots.push_back(id);
}

void EngineScheduler::wakeIn(ClientId id, qint64 ms)
{
    if (id < 0 || std::size_t(id) >= m_slots.size() || !m_slots[std::size_t(id)].client)
        return;
    Slot &s = m_slots[std::size_t(id)];
    const qint64 due = nowMs() + std::max<qint64>(0, ms);
    if (s.due == due)
        return;
    ++s.generation; // the older heap entry becomes stale
    s.due = due;
    m_heap.push({due, id, s.generation});
    rearm();
}

void EngineScheduler::cancel(ClientId id)
{
    if (id < 0 || std::size_t(id) >= m_slots.size())
        return;
    ++m_slots[std::size_t(id)].generation;
    m_slots[std::size_t(id)].due = -1;
}

int EngineScheduler::pendingWakeups() const
{
    int n = 0;
    for (const Slot &s : m_slots)
        n += s.client && s.due >= 0 ? 1 : 0;
    return n;
}

void EngineScheduler::rearm()
{
    while (!m_heap.empty()) {
        const Entry &top = m_heap.top();
        const Slot &s = m_slots[std::size_t(top.id)];
        if (s.client && s.generation == top.generation)
            break;
        m_heap.pop();
    }
    if (m_heap.empty()) {
        m_timer.stop();
        m_armedFor = -1;
        return;
    }
    const qint64 due = m_heap.top().due;
    if (m_timer.isActive() && m_armedFor == due)
        return;
    m_armedFor = due;
    m_timer.start(int(std::clamp<qint64>(due - nowMs(), 0, 24 * 3600 * 1000)));
}

void EngineScheduler::onTimeout()
{
    m_armedFor = -1;
    const qint64 now = nowMs();
    std::vector<ClientId> due;
    while (!m_heap.empty() && m_heap.top().due <= now) {
        const Entry e = m_heap.top();
        m_heap.pop();
        Slot &s = m_slots[std::size_t(e.id)];
        if (!s.client || s.generation != e.generation)
            continue;
        s.due = -1;
        due.push_back(e.id);
    }
    for (ClientId id : due) {
        // A client may unregister another one (or itself) while being woken.
        if (Client *c = m_slots[std::size_t(id)].client)
            c->wake();
    }
    rearm();
}

} // namespace pd::sim
