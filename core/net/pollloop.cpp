// SPDX-License-Identifier: MIT
#include "net/pollloop.h"

#include "net/httpgetclient.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <queue>
#include <string>
#include <unordered_set>
#include <vector>

namespace pd {

namespace {

constexpr int kTargetsPerMulti = 64;
// vLLM exposes 40-60 KB; a body a hundred times larger is a misbehaving endpoint, not metrics.
constexpr std::size_t kMaxMetricsBody = 4u * 1024u * 1024u;
constexpr int kFleetForRelax = 1024;
// kDefaultHealthEvery (polltypes.h): /health is 200 on a hung engine and tells little more than /metrics does, but it
// is the only sign of a dead engine core whose API server still serves /metrics (500 on /health only). Every second
// poll keeps that within two poll intervals (the triage target) at a quarter fewer requests
// than probing every poll (a request costs about as much CPU as parsing a body).
constexpr int kHealthEvery = kDefaultHealthEvery;

qint64 monotonicMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

qint64 threadCpuMicros()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

const QString kTooLarge = QStringLiteral("the body exceeds 4 MiB (vLLM exposes 40-60 KB)");

} // namespace

QString pollStatusName(PollStatus status)
{
    static constexpr const char *kNames[] = { "ok", "refused", "timeout", "http-error", "malformed", "failed" };
    return enumName(status, kNames, nullptr);
}

struct PollLoop::Impl {
    struct Multi;

    // What epoll_event.data.ptr points at (the wake-up descriptor has nullptr).
    struct EpollTag {
        enum class Kind { Curl, Http } kind;
    };

    struct Target : EpollTag {
        Target()
            : EpollTag { Kind::Http }
        {
        }
        PollTarget target;
        std::size_t index = 0;
        // The own client (numeric address) ...
        std::unique_ptr<HttpGetClient> http;
        // ... or libcurl.
        CURL *easy = nullptr;
        Multi *multi = nullptr;
        std::string body;
        bool overflow = false;
        char errorBuffer[CURL_ERROR_SIZE] = {};
        std::string metricsUrl;
        std::string healthUrl;
        enum class Phase { Idle, Metrics, Health } phase = Phase::Idle;
        qint64 dueMs = 0;
        int delayMs = 0;
        qint64 startedMs = 0;
        quint64 polls = 0;
        quint32 timerSeq = 0; // the one live heap entry of this target carries this number
        int lastHealth = 0; // carried between /health probes
        PollOutcome pending;
    };

    struct Multi {
        Impl *owner = nullptr;
        CURLM *handle = nullptr;
        qint64 deadlineMs = -1;
    };

    struct SocketSlot : EpollTag {
        SocketSlot(Multi *m, curl_socket_t f)
            : EpollTag { Kind::Curl }
            , multi(m)
            , fd(f)
        {
        }
        Multi *multi;
        curl_socket_t fd;
    };

    // A target's next poll (idle) or its request's deadline (own client, busy).
    struct Timer {
        qint64 atMs;
        std::size_t target;
        quint32 seq;
        bool operator>(const Timer &o) const { return atMs > o.atMs; }
    };

    // What one request came back with, whichever client made it.
    struct Fetched {
        PollStatus failure = PollStatus::Ok; // Ok: an answer with `status` and `body`
        int status = 0;
        std::string_view body;
        QString error;
    };

    MetricsBodyParser parser;
    BatchSink sink;
    std::unordered_set<SocketSlot *> slots; // the sockets libcurl watches through epoll
    // Slots libcurl forgot while a batch of epoll events was being handled: later events of the same batch
    // may still point at them, so they are freed only after the batch (see run()).
    std::vector<SocketSlot *> retired;
    int epoll = -1;
    int wakeFd = -1;

    std::mutex mutex; // guards the fields below up to `running`
    QList<PollTarget> nextTargets;
    quint64 nextGeneration = 0;
    bool targetsChanged = false;
    int baseIntervalMs = 1000;
    int timeoutMs = 2000;
    std::size_t fleetSize = 0; // 0: this loop's own targets (several loops share one fleet: MetricsPoller)
    qint64 clockOrigin = 0;    // steady clock ms of the poller clock's zero; 0: when the loop starts
    bool spread = true;
    PollTransport transport = PollTransport::Native;
    std::atomic<int> healthEvery { kHealthEvery }; // read by the loop thread as each /metrics completes
    bool stopRequested = false;

    std::vector<std::unique_ptr<Target>> targets;
    std::vector<std::unique_ptr<Multi>> multis;
    std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers;
    int requestTimeoutMs = 2000; // loop-thread copy of timeoutMs
    bool onGrid = false; // rounds on a grid from gridStartMs (setSpread(false))
    qint64 gridStartMs = 0;
    quint64 generation = 0;
    quint64 completed = 0;
    PollBatch batch;
    qint64 nextBatchMs = 0;
    qint64 epochMs = 0;

    ~Impl()
    {
        clearTargets();
        if (epoll >= 0)
            ::close(epoll);
        if (wakeFd >= 0)
            ::close(wakeFd);
    }

    void wake() const
    {
        const quint64 one = 1;
        [[maybe_unused]] const auto n = ::write(wakeFd, &one, sizeof one);
    }

    static int onSocket(CURL *, curl_socket_t fd, int what, void *userp, void *socketp)
    {
        auto *multi = static_cast<Multi *>(userp);
        auto *slot = static_cast<SocketSlot *>(socketp);
        if (what == CURL_POLL_REMOVE) {
            if (slot) {
                epoll_ctl(multi->owner->epoll, EPOLL_CTL_DEL, fd, nullptr);
                curl_multi_assign(multi->handle, fd, nullptr);
                multi->owner->slots.erase(slot);
                slot->multi = nullptr; // events already fetched for it are skipped
                multi->owner->retired.push_back(slot);
            }
            return 0;
        }
        epoll_event ev {};
        ev.events = (what == CURL_POLL_IN ? EPOLLIN : what == CURL_POLL_OUT ? EPOLLOUT : EPOLLIN | EPOLLOUT);
        if (!slot) {
            slot = new SocketSlot(multi, fd);
            multi->owner->slots.insert(slot);
            curl_multi_assign(multi->handle, fd, slot);
            ev.data.ptr = static_cast<EpollTag *>(slot);
            epoll_ctl(multi->owner->epoll, EPOLL_CTL_ADD, fd, &ev);
        } else {
            ev.data.ptr = static_cast<EpollTag *>(slot);
            epoll_ctl(multi->owner->epoll, EPOLL_CTL_MOD, fd, &ev);
        }
        return 0;
    }

    static int onTimer(CURLM *, long timeoutMs, void *userp)
    {
        auto *multi = static_cast<Multi *>(userp);
        multi->deadlineMs = timeoutMs < 0 ? -1 : monotonicMs() + timeoutMs;
        return 0;
    }

    static size_t onWrite(char *data, size_t size, size_t count, void *userp)
    {
        auto *t = static_cast<Target *>(userp);
        const size_t n = size * count;
        if (t->body.size() + n > kMaxMetricsBody) {
            t->overflow = true;
            return 0; // aborts the transfer
        }
        t->body.append(data, n);
        return n;
    }

    int intervalFor(std::size_t fleet) const
    {
        // Relax the period once the fleet is larger than one poller round can serve comfortably.
        return std::max(baseIntervalMs, int(std::max(fleet, fleetSize) * 1000 / kFleetForRelax));
    }

    void schedule(Target &t, qint64 atMs) { timers.push(Timer { atMs, t.index, ++t.timerSeq }); }

    void clearTargets()
    {
        for (auto &t : targets) {
            if (t->easy) {
                if (t->phase != Target::Phase::Idle && t->multi)
                    curl_multi_remove_handle(t->multi->handle, t->easy);
                curl_easy_cleanup(t->easy);
            }
        }
        targets.clear(); // closes the own clients' connections
        timers = {};
        for (auto &m : multis)
            curl_multi_cleanup(m->handle);
        multis.clear();
        for (SocketSlot *slot : slots) {
            epoll_ctl(epoll, EPOLL_CTL_DEL, slot->fd, nullptr);
            delete slot;
        }
        slots.clear();
        freeRetired();
    }

    void freeRetired()
    {
        for (SocketSlot *slot : retired)
            delete slot;
        retired.clear();
    }

    Multi *curlMulti()
    {
        if (multis.empty() || curlTargetsInLast >= kTargetsPerMulti) {
            auto m = std::make_unique<Multi>();
            m->owner = this;
            m->handle = curl_multi_init();
            curl_multi_setopt(m->handle, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
            curl_multi_setopt(m->handle, CURLMOPT_SOCKETDATA, m.get());
            curl_multi_setopt(m->handle, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
            curl_multi_setopt(m->handle, CURLMOPT_TIMERDATA, m.get());
            curl_multi_setopt(m->handle, CURLMOPT_MAXCONNECTS, long(kTargetsPerMulti));
            multis.push_back(std::move(m));
            curlTargetsInLast = 0;
        }
        ++curlTargetsInLast;
        return multis.back().get();
    }
    int curlTargetsInLast = 0;

    void setUpCurl(Target &t)
    {
        const PollTarget &p = t.target;
        t.multi = curlMulti();
        const std::string host = p.host.contains(':') ? "[" + p.host.toStdString() + "]" : p.host.toStdString();
        const std::string base = (p.https ? "https://" : "http://") + host + ":" + std::to_string(p.port);
        t.metricsUrl = base + "/metrics";
        t.healthUrl = base + "/health";
        t.body.reserve(64 * 1024);
        t.easy = curl_easy_init();
        CURL *e = t.easy;
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
        curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.errorBuffer);
        curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
        curl_easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, -1L);
        curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 64L * 1024L);
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
        curl_easy_setopt(e, CURLOPT_PROXY, ""); // never through an http_proxy from the environment
        if (p.https) {
            curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
            curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
            if (!p.caFile.isEmpty())
                curl_easy_setopt(e, CURLOPT_CAINFO, p.caFile.constData()); // kept alive by t.target
        }
    }

    void applyTargets(const QList<PollTarget> &list, qint64 now, int interval, PollTransport use, bool spreadFirst)
    {
        clearTargets();
        curlTargetsInLast = 0;
        onGrid = !spreadFirst;
        // The grid's ticks count from the poller clock's zero, so sibling loops sharing that clock
        // (MetricsPoller's shards) fire their targets at the same ticks.
        gridStartMs = onGrid ? epochMs + ((now - epochMs) / interval + 1) * interval : now;
        batch = PollBatch();
        batch.generation = generation;
        batch.outcomes.reserve(list.size());
        targets.reserve(std::size_t(list.size()));
        for (qsizetype i = 0; i < list.size(); ++i) {
            auto t = std::make_unique<Target>();
            t->target = list.at(i);
            t->index = std::size_t(i);
            sockaddr_storage address {};
            socklen_t length = 0;
            const QByteArray &host = t->target.host;
            if (use == PollTransport::Native && !t->target.https
                && HttpGetClient::parseAddress(
                    std::string_view(host.constData(), std::size_t(host.size())), t->target.port, &address, &length)) {
                const bool v6 = address.ss_family == AF_INET6;
                std::string hostHeader
                    = (v6 ? "[" : "") + host.toStdString() + (v6 ? "]:" : ":") + std::to_string(t->target.port);
                if (v6 && host.startsWith('['))
                    hostHeader = host.toStdString() + ":" + std::to_string(t->target.port);
                t->http = std::make_unique<HttpGetClient>(
                    address, length, std::move(hostHeader), kMaxMetricsBody, epoll, static_cast<EpollTag *>(t.get()));
            } else {
                t->kind = EpollTag::Kind::Curl; // never registered with epoll itself; libcurl's sockets are
                setUpCurl(*t);
            }
            // Spread the first round over the interval so 1,000 engines do not start in one burst.
            t->dueMs = onGrid ? gridStartMs : now + (spreadFirst && list.size() > 1 ? (interval * i) / list.size() : 0);
            t->delayMs = interval;
            schedule(*t, t->dueMs);
            targets.push_back(std::move(t));
        }
    }

    // Starts the phase's request; finishes at once when the own client failed without waiting.
    void launch(Target &t, Target::Phase phase, qint64 now, int interval)
    {
        t.phase = phase;
        if (phase == Target::Phase::Metrics) {
            t.startedMs = now;
            t.pending = PollOutcome();
            t.pending.engine = t.target.engine;
            t.pending.startedAtMs = now - epochMs;
        }
        const char *path = phase == Target::Phase::Metrics ? "/metrics" : "/health";
        if (t.http) {
            const qint64 deadline = now + requestTimeoutMs;
            const HttpGetClient::Result r = t.http->get(path, now, deadline);
            if (r == HttpGetClient::Result::Pending)
                schedule(t, deadline);
            else
                finishHttp(t, r, now, interval);
            return;
        }
        t.body.clear();
        t.overflow = false;
        t.errorBuffer[0] = 0;
        curl_easy_setopt(
            t.easy, CURLOPT_URL, phase == Target::Phase::Metrics ? t.metricsUrl.c_str() : t.healthUrl.c_str());
        curl_easy_setopt(t.easy, CURLOPT_TIMEOUT_MS, long(requestTimeoutMs));
        curl_easy_setopt(t.easy, CURLOPT_CONNECTTIMEOUT_MS, long(requestTimeoutMs));
        curl_multi_add_handle(t.multi->handle, t.easy);
    }

    void finishHttp(Target &t, HttpGetClient::Result r, qint64 now, int interval)
    {
        Fetched f;
        switch (r) {
        case HttpGetClient::Result::Answered:
            f.status = t.http->status();
            f.body = t.http->body();
            break;
        case HttpGetClient::Result::Refused:
            f.failure = PollStatus::Refused;
            break;
        case HttpGetClient::Result::Timeout:
            f.failure = PollStatus::Timeout;
            break;
        case HttpGetClient::Result::TooLarge:
            f.failure = PollStatus::Malformed;
            break;
        case HttpGetClient::Result::Failed:
        case HttpGetClient::Result::Pending:
            f.failure = PollStatus::Failed;
            break;
        }
        if (f.failure != PollStatus::Ok)
            f.error = r == HttpGetClient::Result::TooLarge ? kTooLarge : QString::fromStdString(t.http->error());
        finish(t, f, now, interval);
    }

    void finishCurl(Target &t, CURLcode code, qint64 now, int interval)
    {
        curl_multi_remove_handle(t.multi->handle, t.easy);
        long status = 0;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        Fetched f;
        if (code == CURLE_OK) {
            f.status = int(status);
            f.body = t.body;
        } else {
            f.failure = t.overflow                 ? PollStatus::Malformed
                : code == CURLE_COULDNT_CONNECT    ? PollStatus::Refused
                : code == CURLE_OPERATION_TIMEDOUT ? PollStatus::Timeout
                                                   : PollStatus::Failed;
            f.error = t.overflow ? kTooLarge
                                 : QString::fromUtf8(t.errorBuffer[0] ? t.errorBuffer : curl_easy_strerror(code));
        }
        finish(t, f, now, interval);
    }

    void finish(Target &t, const Fetched &f, qint64 now, int interval)
    {
        PollOutcome &o = t.pending;
        if (t.phase == Target::Phase::Metrics) {
            o.latencyMs = double(now - t.startedMs);
            o.httpStatus = f.status;
            o.bodyBytes = qint64(f.body.size());
            if (f.failure == PollStatus::Ok && f.status == 200) {
                QString error;
                o.metrics.emplace();
                if (!parser || parser(f.body, &*o.metrics, &error)) {
                    o.status = PollStatus::Ok;
                } else {
                    o.metrics.reset();
                    o.status = PollStatus::Malformed;
                    o.error = QStringLiteral("/metrics: %1").arg(error);
                }
            } else if (f.failure == PollStatus::Ok) {
                o.status = PollStatus::HttpError;
                o.error = QStringLiteral("/metrics answered HTTP %1").arg(f.status);
            } else {
                o.status = f.failure;
                o.error = QStringLiteral("/metrics: %1").arg(f.error);
            }
            // /health on the same connection every healthEvery polls, and at once when /metrics failed
            // over HTTP; not when the engine is plainly not there (refused, timed out).
            const bool reachable = o.status != PollStatus::Refused && o.status != PollStatus::Timeout;
            const int every = healthEvery.load(std::memory_order_relaxed);
            if (reachable && ((every > 0 && t.polls % quint64(every) == 0) || o.status != PollStatus::Ok)) {
                launch(t, Target::Phase::Health, now, interval);
                return;
            }
            if (!reachable)
                t.lastHealth = 0;
            o.healthStatus = t.lastHealth;
        } else {
            t.lastHealth = f.failure == PollStatus::Ok ? f.status : 0;
            o.healthStatus = t.lastHealth;
        }
        ++t.polls;
        o.finishedAtMs = now - epochMs;
        const bool failed = o.status != PollStatus::Ok;
        t.delayMs = failed ? std::min(std::max(t.delayMs, interval) * 2, interval * 8) : interval;
        t.dueMs = now + t.delayMs;
        if (onGrid) // the first tick after the reply, or as many ticks later as the back-off says
            t.dueMs = gridStartMs + ((now + t.delayMs - interval - gridStartMs) / interval + 1) * interval;
        t.phase = Target::Phase::Idle;
        schedule(t, t.dueMs);
        batch.outcomes.append(std::move(o));
        ++completed;
    }

    // Launches the targets that are due and times out the own client's requests whose time is up.
    void runTimers(qint64 now, int interval)
    {
        while (!timers.empty() && timers.top().atMs <= now) {
            const Timer timer = timers.top();
            timers.pop();
            Target &t = *targets[timer.target];
            if (timer.seq != t.timerSeq)
                continue; // superseded
            if (t.phase == Target::Phase::Idle)
                launch(t, Target::Phase::Metrics, now, interval);
            else if (t.http)
                finishHttp(t, t.http->onDeadline(now), now, interval);
        }
    }
};

PollLoop::PollLoop(MetricsBodyParser parser, BatchSink sink)
    : d(std::make_unique<Impl>())
{
    static CurlGlobal global;
    d->parser = std::move(parser);
    d->sink = std::move(sink);
    d->epoll = epoll_create1(EPOLL_CLOEXEC);
    d->wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.ptr = nullptr; // the wake-up descriptor
    epoll_ctl(d->epoll, EPOLL_CTL_ADD, d->wakeFd, &ev);
}

PollLoop::~PollLoop()
{
    stop();
}

void PollLoop::setTargets(const QList<PollTarget> &targets, quint64 generation)
{
    {
        std::lock_guard lock(d->mutex);
        d->nextTargets = targets;
        d->nextGeneration = generation;
        d->targetsChanged = true;
    }
    d->wake();
}

void PollLoop::setInterval(int ms)
{
    {
        std::lock_guard lock(d->mutex);
        d->baseIntervalMs = std::max(50, ms);
    }
    d->wake();
}

void PollLoop::setTimeout(int ms)
{
    std::lock_guard lock(d->mutex);
    d->timeoutMs = std::max(50, ms);
}

void PollLoop::setFleetSize(std::size_t engines)
{
    {
        std::lock_guard lock(d->mutex);
        d->fleetSize = engines;
    }
    d->wake();
}

void PollLoop::setClockOrigin(qint64 steadyMs)
{
    std::lock_guard lock(d->mutex);
    d->clockOrigin = steadyMs;
}

qint64 PollLoop::steadyNowMs()
{
    return monotonicMs();
}

void PollLoop::setSpread(bool spread)
{
    std::lock_guard lock(d->mutex);
    d->spread = spread;
}

void PollLoop::setHealthEvery(int polls)
{
    d->healthEvery.store(std::max(0, polls), std::memory_order_relaxed);
}

void PollLoop::setTransport(PollTransport transport)
{
    std::lock_guard lock(d->mutex);
    d->transport = transport;
}

void PollLoop::start()
{
    if (m_thread.joinable())
        return;
    {
        std::lock_guard lock(d->mutex);
        d->stopRequested = false;
    }
    m_thread = std::thread([this] { run(); });
}

void PollLoop::stop()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(d->mutex);
        d->stopRequested = true;
    }
    d->wake();
    m_thread.join();
}

void PollLoop::run()
{
    Impl &s = *d;
    const qint64 cpuStart = threadCpuMicros();
    {
        std::lock_guard lock(s.mutex);
        s.epochMs = s.clockOrigin > 0 ? s.clockOrigin : monotonicMs();
    }
    s.nextBatchMs = s.epochMs + s.baseIntervalMs;
    std::vector<epoll_event> events(256);
    for (;;) {
        int interval = 0;
        {
            std::lock_guard lock(s.mutex);
            if (s.stopRequested)
                break;
            interval
                = s.intervalFor(std::size_t(s.targetsChanged ? s.nextTargets.size() : qsizetype(s.targets.size())));
            s.requestTimeoutMs = s.timeoutMs;
            if (s.targetsChanged) {
                s.generation = s.nextGeneration;
                s.targetsChanged = false;
                const QList<PollTarget> list = s.nextTargets;
                s.applyTargets(list, monotonicMs(), interval, s.transport, s.spread);
            }
        }
        m_effectiveInterval = interval;
        qint64 now = monotonicMs();

        s.runTimers(now, interval);
        for (auto &m : s.multis) {
            int running = 0;
            if (m->deadlineMs >= 0 && m->deadlineMs <= now) {
                m->deadlineMs = -1;
                curl_multi_socket_action(m->handle, CURL_SOCKET_TIMEOUT, 0, &running);
            }
        }

        qint64 wakeAt = s.nextBatchMs;
        if (!s.timers.empty())
            wakeAt = std::min(wakeAt, s.timers.top().atMs);
        for (const auto &m : s.multis)
            if (m->deadlineMs >= 0)
                wakeAt = std::min(wakeAt, m->deadlineMs);
        const int waitMs = int(std::clamp<qint64>(wakeAt - monotonicMs(), 0, 1000));
        const int n = epoll_wait(s.epoll, events.data(), int(events.size()), waitMs);
        now = monotonicMs();
        for (int i = 0; i < n; ++i) {
            const epoll_event &ev = events[std::size_t(i)];
            auto *tag = static_cast<Impl::EpollTag *>(ev.data.ptr);
            if (!tag) {
                quint64 drain = 0;
                [[maybe_unused]] const auto r = ::read(s.wakeFd, &drain, sizeof drain);
                continue;
            }
            if (tag->kind == Impl::EpollTag::Kind::Http) {
                auto *t = static_cast<Impl::Target *>(tag);
                const bool busy = t->http->isBusy();
                const HttpGetClient::Result r = t->http->onEvents(ev.events, now);
                if (busy && r != HttpGetClient::Result::Pending)
                    s.finishHttp(*t, r, now, interval);
                continue;
            }
            auto *slot = static_cast<Impl::SocketSlot *>(tag);
            if (!slot->multi)
                continue; // libcurl removed this socket while handling an earlier event of this batch
            int flags = 0;
            if (ev.events & EPOLLIN)
                flags |= CURL_CSELECT_IN;
            if (ev.events & EPOLLOUT)
                flags |= CURL_CSELECT_OUT;
            if (ev.events & (EPOLLERR | EPOLLHUP))
                flags |= CURL_CSELECT_ERR;
            int running = 0;
            curl_multi_socket_action(slot->multi->handle, slot->fd, flags, &running);
        }

        s.freeRetired();
        now = monotonicMs();
        for (auto &m : s.multis) {
            int queued = 0;
            while (CURLMsg *msg = curl_multi_info_read(m->handle, &queued)) {
                if (msg->msg != CURLMSG_DONE)
                    continue;
                Impl::Target *t = nullptr;
                curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
                s.finishCurl(*t, msg->data.result, now, interval);
            }
        }
        if (now >= s.nextBatchMs) {
            s.batch.roundAtMs = now - s.epochMs;
            s.batch.generation = s.generation;
            PollBatch out = std::move(s.batch);
            s.batch = PollBatch();
            s.batch.outcomes.reserve(qsizetype(s.targets.size()));
            s.nextBatchMs = now + interval;
            m_completed = s.completed;
            m_cpuMicros = threadCpuMicros() - cpuStart;
            if (s.sink)
                s.sink(std::move(out));
        }
    }
    std::lock_guard lock(s.mutex);
    s.clearTargets();
}

} // namespace pd
