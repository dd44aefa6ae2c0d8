// SPDX-License-Identifier: MIT
#include "state/stateevent.h"

#include <algorithm>

namespace pd {

QString eventKindName(StateEvent::Kind kind)
{
    static constexpr const char *names[] = { "state", "membership", "process", "proxy", "action", "diagnosis" };
    return enumName(kind, names, "state");
}

EventLog::EventLog(int capacity)
    : m_capacity(std::max(1, capacity))
{
}

int EventLog::append(StateEvent event)
{
    event.serial = m_nextSerial++;
    m_events.push_back(std::move(event));
    if (int(m_events.size()) > m_capacity) {
        m_events.pop_front();
        return 1;
    }
    return 0;
}

void EventLog::clear()
{
    m_events.clear();
}

QList<StateEvent> EventLog::recent(int engine, int node, int max) const
{
    QList<StateEvent> out;
    for (auto it = m_events.rbegin(); it != m_events.rend() && out.size() < max; ++it) {
        const bool match = engine >= 0 ? it->engine == engine : (it->node == node && node >= 0);
        if (match)
            out.append(*it);
    }
    return out;
}

} // namespace pd
