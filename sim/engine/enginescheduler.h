// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <queue>
#include <vector>

// One wake-up timer for every simulated engine of a thread. Engines ask to be woken at a monotonic
// deadline; the scheduler keeps a min-heap and arms its single timer for the earliest one. Nothing
// ticks while no engine has work. Thread contract: lives in one thread with its clients, which
// unregister before they are destroyed.
namespace pd::sim {

class EngineScheduler final : public QObject {
    Q_OBJECT
public:
    using ClientId = int;
    class Client {
    public:
        virtual void wake() = 0;

    protected:
        ~Client() = default;
    };

    explicit EngineScheduler(QObject *parent = nullptr);

    ClientId registerClient(Client *client);
    void unregisterClient(ClientId id);
    // Wake the client in `ms` real milliseconds (replaces an earlier request of that client).
    void wakeIn(ClientId id, qint64 ms);
    void cancel(ClientId id);
    qint64 nowMs() const { return m_clock.elapsed(); }
    int pendingWakeups() const;

private:
    struct Entry {
        qint64 due;
        ClientId id;
        quint64 generation;
        bool operator>(const Entry &o) const { return due > o.due; }
    };
    struct Slot {
        Client *client = nullptr;
        quint64 generation = 0;
        qint64 due = -1; // -1: nothing pending
    };
    void onTimeout();
    void rearm();

    QElapsedTimer m_clock;
    QTimer m_timer;
    std::vector<Slot> m_slots;
    std::vector<ClientId> m_freeSlots;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> m_heap;
    qint64 m_armedFor = -1;
};

} // namespace pd::sim
