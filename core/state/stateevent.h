// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "util/enumnames.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <deque>

// What happened to an engine, a node or the proxy, with its evidence: the timeline's rows.
namespace pd {

struct StateEvent {
    enum class Kind : std::uint8_t {
        State, // an engine's derived state changed
        Membership, // the console's view of proxy membership changed
        Process, // SSH saw the process start or exit
        Proxy, // the proxy became (un)reachable or its counts changed
        Action, // something the operator did from the console
        Diagnosis, // a log diagnosis (filled in by the log issue)
    };
    static constexpr int kKindCount = 6;

    std::uint64_t serial = 0; // increasing, unique per log
    std::int64_t atMs = 0; // ms since the epoch
    Kind kind = Kind::State;
    int engine = -1; // index in the profile's engines, -1 when not about one engine
    int node = -1; // index in the profile's nodes, -1 for the proxy or the cluster
    EngineState from = EngineState::Unknown;
    EngineState to = EngineState::Unknown;
    QString where; // "d1 · 127.0.0.7:9003 (DP 19)", "proxy 127.0.0.1:8000"
    QString what; // "serving → stalled"
    QString reason;
    QStringList evidence;
};
template<> inline constexpr std::size_t enumCount<StateEvent::Kind> = std::size_t(StateEvent::kKindCount);

QString eventKindName(StateEvent::Kind kind); // "state", "membership", ...

// A bounded, append-only log: the oldest events fall off when it is full.
class EventLog {
public:
    explicit EventLog(int capacity = 20000);

    int capacity() const { return m_capacity; }
    int size() const { return int(m_events.size()); }
    const StateEvent &at(int i) const { return m_events[std::size_t(i)]; }
    // Appends (assigning the serial); returns how many old events fell off (0 or 1).
    int append(StateEvent event);
    void clear();
    // The newest events about one engine (or node with engine = -1), newest first.
    QList<StateEvent> recent(int engine, int node, int max) const;

private:
    std::deque<StateEvent> m_events;
    int m_capacity;
    std::uint64_t m_nextSerial = 1;
};

} // namespace pd
