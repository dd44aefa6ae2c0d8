// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractEventDispatcher>

#include <atomic>
#include <cstdint>
#include <vector>

class QSocketNotifier;
struct epoll_event;

// The event loop of a thread of simulated engines, on epoll. Qt's own dispatchers (glib's or the Unix
// one) hand every socket notifier of the thread to poll() on every wake-up: with 64 engines a thread,
// ~130 sockets walked by the kernel for each request answered. Here the sockets stay registered with
// the kernel and a wake-up costs what is ready. Level-triggered like Qt's; timers kept to the
// millisecond (coarse ones as precise); posted events sent at the start of every round, a cross-thread
// wakeUp() through an eventfd.
// Thread contract: created in any thread and given to QThread::setEventDispatcher() before the thread
// starts; wakeUp() and interrupt() from any thread, everything else in that thread.
namespace pd::sim {

class EpollEventDispatcher final : public QAbstractEventDispatcher {
    Q_OBJECT
public:
    explicit EpollEventDispatcher(QObject *parent = nullptr);
    ~EpollEventDispatcher() override;

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;

    void wakeUp() override;
    void interrupt() override;

private:
    // The notifiers of one descriptor, at its number in m_watches; `serial` (0: none) tells a reused
    // descriptor number from the one an event in the same batch was for.
    struct Watch {
        QSocketNotifier *read = nullptr;
        QSocketNotifier *write = nullptr;
        QSocketNotifier *exception = nullptr;
        std::uint32_t serial = 0;
        std::uint32_t events = 0; // as registered with epoll
    };
    struct Timer {
        int id;
        qint64 intervalMs;
        Qt::TimerType type;
        QObject *object;
        qint64 dueMs;
    };

    void updateWatch(int fd, Watch &watch);
    Watch *watchOf(int fd, std::uint32_t serial);
    int activateSockets(const epoll_event *events, int count);
    int activateTimers();
    int waitMs(bool canWait) const;
    void drainWakeUps();

    int m_epoll = -1;
    int m_wakeFd = -1;
    std::atomic<bool> m_interrupted { false };
    std::vector<Watch> m_watches; // by descriptor number
    std::uint32_t m_nextSerial = 1;
    std::vector<Timer> m_timers;
    std::vector<int> m_dueIds; // scratch for activateTimers()
};

} // namespace pd::sim
