// SPDX-License-Identifier: MIT
#include "clustersim/epolleventdispatcher.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTimerEvent>

#include <algorithm>
#include <chrono>

#include <cerrno>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace pd::sim {

namespace {

constexpr int kMaxEvents = 64;
constexpr std::uint32_t kReadEvents = EPOLLIN | EPOLLHUP | EPOLLERR; // what Qt's Unix dispatcher reads as
constexpr std::uint32_t kWriteEvents = EPOLLOUT | EPOLLERR; // readable, writable, exceptional
constexpr std::uint32_t kExceptionEvents = EPOLLPRI;

qint64 nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::uint64_t tag(int fd, std::uint32_t serial)
{
    return (std::uint64_t(serial) << 32) | std::uint32_t(fd);
}

} // namespace

EpollEventDispatcher::EpollEventDispatcher(QObject *parent)
    : QAbstractEventDispatcher(parent)
    , m_epoll(epoll_create1(EPOLL_CLOEXEC))
    , m_wakeFd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.u64 = tag(m_wakeFd, 0); // serial 0: the wake-up descriptor
    if (m_epoll < 0 || m_wakeFd < 0 || epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev) != 0)
        qFatal("EpollEventDispatcher: epoll or eventfd unavailable (errno %d)", errno);
}

EpollEventDispatcher::~EpollEventDispatcher()
{
    ::close(m_wakeFd);
    ::close(m_epoll);
}

void EpollEventDispatcher::updateWatch(int fd, Watch &watch)
{
    std::uint32_t events = 0;
    if (watch.read)
        events |= EPOLLIN;
    if (watch.write)
        events |= EPOLLOUT;
    if (watch.exception)
        events |= EPOLLPRI;
    if (events == watch.events)
        return;
    epoll_event ev {};
    ev.events = events;
    ev.data.u64 = tag(fd, watch.serial);
    if (events == 0) {
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
        watch = Watch();
        return;
    }
    int result = epoll_ctl(m_epoll, watch.events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
    if (result != 0 && errno == ENOENT) // closed without a word and the number reused: watch it anew
        result = epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    if (result != 0)
        qWarning("EpollEventDispatcher: cannot watch descriptor %d (errno %d)", fd, errno);
    watch.events = events;
}

void EpollEventDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    if (fd < 0)
        return;
    if (std::size_t(fd) >= m_watches.size())
        m_watches.resize(std::size_t(fd) + 64);
    Watch &watch = m_watches[std::size_t(fd)];
    if (watch.serial == 0) {
        if (++m_nextSerial == 0) // 0: no watch, and the tag of the wake-up descriptor
            ++m_nextSerial;
        watch.serial = m_nextSerial;
    }
    switch (notifier->type()) {
    case QSocketNotifier::Read:
        watch.read = notifier;
        break;
    case QSocketNotifier::Write:
        watch.write = notifier;
        break;
    case QSocketNotifier::Exception:
        watch.exception = notifier;
        break;
    }
    updateWatch(fd, watch);
}

void EpollEventDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    if (fd < 0 || std::size_t(fd) >= m_watches.size() || m_watches[std::size_t(fd)].serial == 0)
        return;
    Watch &watch = m_watches[std::size_t(fd)];
    if (watch.read == notifier)
        watch.read = nullptr;
    if (watch.write == notifier)
        watch.write = nullptr;
    if (watch.exception == notifier)
        watch.exception = nullptr;
    updateWatch(fd, watch);
}

void EpollEventDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    m_timers.push_back({ timerId, std::max<qint64>(0, interval), timerType, object, nowMs() + interval });
}

bool EpollEventDispatcher::unregisterTimer(int timerId)
{
    const auto it
        = std::find_if(m_timers.begin(), m_timers.end(), [timerId](const Timer &t) { return t.id == timerId; });
    if (it == m_timers.end())
        return false;
    m_timers.erase(it);
    return true;
}

bool EpollEventDispatcher::unregisterTimers(QObject *object)
{
    const auto n = std::erase_if(m_timers, [object](const Timer &t) { return t.object == object; });
    return n > 0;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollEventDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> list;
    for (const Timer &t : m_timers) {
        if (t.object == object)
            list.append(TimerInfo(t.id, int(t.intervalMs), t.type));
    }
    return list;
}

int EpollEventDispatcher::remainingTime(int timerId)
{
    for (const Timer &t : m_timers) {
        if (t.id == timerId)
            return int(std::max<qint64>(0, t.dueMs - nowMs()));
    }
    return -1;
}

void EpollEventDispatcher::wakeUp()
{
    const std::uint64_t one = 1;
    while (::write(m_wakeFd, &one, sizeof one) < 0 && errno == EINTR) { }
}

void EpollEventDispatcher::interrupt()
{
    m_interrupted.store(true);
    wakeUp();
}

// Only after a wait: the next round starts with the posted events, so a post made before the drain
// is sent then, and one made after it leaves the descriptor readable.
void EpollEventDispatcher::drainWakeUps()
{
    std::uint64_t count = 0;
    while (::read(m_wakeFd, &count, sizeof count) < 0 && errno == EINTR) { }
}

int EpollEventDispatcher::waitMs(bool canWait) const
{
    if (!canWait)
        return 0;
    if (m_timers.empty())
        return -1;
    qint64 due = m_timers.front().dueMs;
    for (const Timer &t : m_timers)
        due = std::min(due, t.dueMs);
    return int(std::clamp<qint64>(due - nowMs(), 0, 24 * 3600 * 1000));
}

bool EpollEventDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false);
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();

    const bool canWait = flags.testFlag(QEventLoop::WaitForMoreEvents) && !m_interrupted.load();
    if (canWait)
        Q_EMIT aboutToBlock();
    if (m_interrupted.load())
        return false;
    epoll_event events[kMaxEvents];
    int ready = epoll_wait(m_epoll, events, kMaxEvents, waitMs(canWait));
    if (ready < 0)
        ready = 0; // EINTR
    // Level-triggered: sockets not handled now (interrupted, excluded) are reported again next time.
    if (m_interrupted.load() || flags.testFlag(QEventLoop::ExcludeSocketNotifiers)) {
        for (int i = 0; i < ready; ++i) {
            if (std::uint32_t(events[i].data.u64 >> 32) == 0)
                drainWakeUps();
        }
        if (m_interrupted.load())
            return false;
        ready = 0;
    }

    int activated = activateSockets(events, ready);
    if (!flags.testFlag(QEventLoop::X11ExcludeTimers))
        activated += activateTimers();
    return activated > 0;
}

EpollEventDispatcher::Watch *EpollEventDispatcher::watchOf(int fd, std::uint32_t serial)
{
    if (fd < 0 || std::size_t(fd) >= m_watches.size() || m_watches[std::size_t(fd)].serial != serial)
        return nullptr;
    return &m_watches[std::size_t(fd)];
}

int EpollEventDispatcher::activateSockets(const epoll_event *events, int count)
{
    int activated = 0;
    // Each notifier is looked up again before it is told: an earlier one of this batch may have
    // disabled or deleted it, or closed its descriptor and another socket got the same number.
    const auto notifierFor = [this](int fd, std::uint32_t serial, QSocketNotifier *Watch::*which) {
        const Watch *watch = watchOf(fd, serial);
        return watch ? watch->*which : nullptr;
    };
    for (int i = 0; i < count; ++i) {
        const int fd = int(std::uint32_t(events[i].data.u64));
        const auto serial = std::uint32_t(events[i].data.u64 >> 32);
        const std::uint32_t ev = events[i].events;
        if (serial == 0) {
            drainWakeUps();
            continue;
        }
        const struct {
            std::uint32_t mask;
            QSocketNotifier *Watch::*which;
        } kinds[] = { { kReadEvents, &Watch::read }, { kWriteEvents, &Watch::write },
            { kExceptionEvents, &Watch::exception } };
        for (const auto &kind : kinds) {
            if (!(ev & kind.mask))
                continue;
            if (QSocketNotifier *notifier = notifierFor(fd, serial, kind.which)) {
                QEvent activation(QEvent::SockAct);
                QCoreApplication::sendEvent(notifier, &activation);
                ++activated;
            }
        }
    }
    return activated;
}

int EpollEventDispatcher::activateTimers()
{
    const qint64 now = nowMs();
    m_dueIds.clear();
    for (const Timer &t : m_timers) {
        if (t.dueMs <= now)
            m_dueIds.push_back(t.id);
    }
    int activated = 0;
    for (const int id : m_dueIds) {
        // Looked up again: an earlier timer's handler may have stopped this one or deleted its object.
        const auto it = std::find_if(m_timers.begin(), m_timers.end(), [id](const Timer &t) { return t.id == id; });
        if (it == m_timers.end())
            continue;
        // The next period on the same grid; one missed altogether is not made up for.
        it->dueMs = std::max(it->dueMs + it->intervalMs, now + std::min<qint64>(it->intervalMs, 1));
        QObject *object = it->object;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(object, &event);
        ++activated;
    }
    return activated;
}

} // namespace pd::sim
