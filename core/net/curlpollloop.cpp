// SPDX-License-Identifier: MIT
#include "net/curlpollloop.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <unordered_set>
#include <vector>

namespace pd {

namespace {

constexpr int kTargetsPerMulti = 64;
// vLLM exposes 40-60 KB; a body a hundred times larger is a misbehaving endpoint, not metrics.
constexpr std::size_t kMaxBody = 4u * 1024u * 1024u;
constexpr int kFleetForRelax = 1024;
// /health is 200 on a hung engine and tells little more than /metrics does, but it is the only sign
// of a dead engine core whose API server still serves /metrics (500 on /health only). Every second
// poll keeps that within two poll intervals (issue 5's triage target) at a quarter fewer requests
// than probing every poll (a request costs about as much CPU as parsing a body).
constexpr quint64 kHealthEvery = 2;

qint64 monotonicMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

qint64 threadCpuMicros()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

struct CurlGlobal {
    CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

} // namespace

QString pollStatusName(PollStatus status)
{
    switch (status) {
    case PollStatus::Ok: return QStringLiteral("ok");
    case PollStatus::Refused: return QStringLiteral("refused");
    case PollStatus::Timeout: return QStringLiteral("timeout");
    case PollStatus::HttpError: return QStringLiteral("http-error");
    case PollStatus::Malformed: return QStringLiteral("malformed");
    case PollStatus::Failed: return QStringLiteral("failed");
    }
    return QString();
}

struct CurlPollLoop::Impl {
    struct Multi;

    struct Target {
        PollTarget target;
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
        int lastHealth = 0;           // carried between /health probes
        PollOutcome pending;
    };

    struct Multi {
        Impl *owner = nullptr;
        CURLM *handle = nullptr;
        qint64 deadlineMs = -1;
    };

    struct SocketSlot {
        Multi *multi;
        curl_socket_t fd;
    };

    MetricsBodyParser parser;
    BatchSink sink;
    std::unordered_set<SocketSlot *> slots; // the sockets libcurl watches through epoll
    // Slots libcurl forgot while a batch of epoll events was being handled: later events of the same batch
    // may still point at them, so they are freed only after the batch (see run()).
    std::vector<SocketSlot *> retired;
    int epoll = -1;
    int wakeFd = -1;

    std::mutex mutex;                 // guards the fields below up to `running`
    QList<PollTarget> nextTargets;
    quint64 nextGeneration = 0;
    bool targetsChanged = false;
    int baseIntervalMs = 1000;
    int timeoutMs = 2000;
    bool spread = true;
    bool stopRequested = false;

    std::vector<std::unique_ptr<Target>> targets;
    std::vector<std::unique_ptr<Multi>> multis;
    quint64 generation = 0;
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
        epoll_event ev{};
        ev.events = (what == CURL_POLL_IN ? EPOLLIN : what == CURL_POLL_OUT ? EPOLLOUT : EPOLLIN | EPOLLOUT);
        if (!slot) {
            slot = new SocketSlot{multi, fd};
            multi->owner->slots.insert(slot);
            curl_multi_assign(multi->handle, fd, slot);
            ev.data.ptr = slot;
            epoll_ctl(multi->owner->epoll, EPOLL_CTL_ADD, fd, &ev);
        } else {
            ev.data.ptr = slot;
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
        if (t->body.size() + n > kMaxBody) {
            t->overflow = true;
            return 0; // aborts the transfer
        }
        t->body.append(data, n);
        return n;
    }

    int intervalFor(std::size_t fleet) const
    {
        // Relax the period once the fleet is larger than one poller round can serve comfortably.
        return std::max(baseIntervalMs, int(fleet * 1000 / kFleetForRelax));
    }

    void clearTargets()
    {
        for (auto &t : targets) {
            if (t->phase != Target::Phase::Idle && t->multi)
                curl_multi_remove_handle(t->multi->handle, t->easy);
            curl_easy_cleanup(t->easy);
        }
        targets.clear();
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

    void applyTargets(const QList<PollTarget> &list, qint64 now, int interval)
    {
        clearTargets();
        batch = PollBatch();
        batch.generation = generation;
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (i % kTargetsPerMulti == 0) {
                auto m = std::make_unique<Multi>();
                m->owner = this;
                m->handle = curl_multi_init();
                curl_multi_setopt(m->handle, CURLMOPT_SOCKETFUNCTION, &Impl::onSocket);
                curl_multi_setopt(m->handle, CURLMOPT_SOCKETDATA, m.get());
                curl_multi_setopt(m->handle, CURLMOPT_TIMERFUNCTION, &Impl::onTimer);
                curl_multi_setopt(m->handle, CURLMOPT_TIMERDATA, m.get());
                curl_multi_setopt(m->handle, CURLMOPT_MAXCONNECTS, long(kTargetsPerMulti));
                multis.push_back(std::move(m));
            }
            auto t = std::make_unique<Target>();
            t->target = list.at(i);
            t->multi = multis.back().get();
            const std::string host = list.at(i).host.contains(':') ? "[" + list.at(i).host.toStdString() + "]"
                                                                    : list.at(i).host.toStdString();
            const std::string base = "http://" + host + ":" + std::to_string(list.at(i).port);
            t->metricsUrl = base + "/metrics";
            t->healthUrl = base + "/health";
            t->body.reserve(64 * 1024);
            t->easy = curl_easy_init();
            CURL *e = t->easy;
            curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Impl::onWrite);
            curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
            curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
            curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errorBuffer);
            curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
            curl_easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, -1L);
            curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 64L * 1024L);
            curl_easy_setopt(e, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_1_1));
            curl_easy_setopt(e, CURLOPT_PROXY, "");   // never through an http_proxy from the environment
            // Spread the first round over the interval so 1,000 engines do not start in one burst.
            t->dueMs = now + (spread && list.size() > 1 ? (interval * i) / list.size() : 0);
            t->delayMs = interval;
            targets.push_back(std::move(t));
        }
    }

    void launch(Target &t, Target::Phase phase, qint64 now)
    {
        t.phase = phase;
        t.body.clear();
        t.overflow = false;
        t.errorBuffer[0] = 0;
        curl_easy_setopt(t.easy, CURLOPT_URL, phase == Target::Phase::Metrics ? t.metricsUrl.c_str() : t.healthUrl.c_str());
        curl_easy_setopt(t.easy, CURLOPT_TIMEOUT_MS, long(timeoutMs));
        curl_easy_setopt(t.easy, CURLOPT_CONNECTTIMEOUT_MS, long(timeoutMs));
        if (phase == Target::Phase::Metrics) {
            t.startedMs = now;
            t.pending = PollOutcome();
            t.pending.engine = t.target.engine;
        }
        curl_multi_add_handle(t.multi->handle, t.easy);
    }

    void finish(Target &t, CURLcode code, qint64 now, int interval)
    {
        curl_multi_remove_handle(t.multi->handle, t.easy);
        long status = 0;
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
        PollOutcome &o = t.pending;
        if (t.phase == Target::Phase::Metrics) {
            o.latencyMs = double(now - t.startedMs);
            o.httpStatus = int(status);
            o.bodyBytes = qint64(t.body.size());
            if (code == CURLE_OK && status == 200) {
                EngineMetrics m;
                QString error;
                if (!parser || parser(t.body, &m, &error)) {
                    o.status = PollStatus::Ok;
                    o.metrics = m;
                } else {
                    o.status = PollStatus::Malformed;
                    o.error = QStringLiteral("/metrics: %1").arg(error);
                }
            } else if (code == CURLE_OK) {
                o.status = PollStatus::HttpError;
                o.error = QStringLiteral("/metrics answered HTTP %1").arg(status);
            } else {
                o.status = t.overflow                        ? PollStatus::Malformed
                         : code == CURLE_COULDNT_CONNECT     ? PollStatus::Refused
                         : code == CURLE_OPERATION_TIMEDOUT ? PollStatus::Timeout
                                                            : PollStatus::Failed;
                const char *why = t.overflow ? "the body exceeds 4 MiB (vLLM exposes 40-60 KB)" : (t.errorBuffer[0] ? t.errorBuffer : curl_easy_strerror(code));
                o.error = QStringLiteral("/metrics: %1").arg(QString::fromUtf8(why));
            }
            // /health on the same connection every kHealthEvery polls, and at once when /metrics failed
            // over HTTP; not when the engine is plainly not there (refused, timed out).
            const bool reachable = o.status != PollStatus::Refused && o.status != PollStatus::Timeout;
            if (reachable && (t.polls % kHealthEvery == 0 || o.status != PollStatus::Ok)) {
                launch(t, Target::Phase::Health, now);
                return;
            }
            if (!reachable)
                t.lastHealth = 0;
            o.healthStatus = t.lastHealth;
        } else {
            t.lastHealth = code == CURLE_OK ? int(status) : 0;
            o.healthStatus = t.lastHealth;
        }
        ++t.polls;
        o.finishedAtMs = now - epochMs;
        const bool failed = o.status != PollStatus::Ok;
        t.delayMs = failed ? std::min(std::max(t.delayMs, interval) * 2, interval * 8) : interval;
        t.dueMs = now + t.delayMs;
        t.phase = Target::Phase::Idle;
        batch.outcomes.append(std::move(o));
    }
};

CurlPollLoop::CurlPollLoop(MetricsBodyParser parser, BatchSink sink)
    : d(std::make_unique<Impl>())
{
    static CurlGlobal global;
    d->parser = std::move(parser);
    d->sink = std::move(sink);
    d->epoll = epoll_create1(EPOLL_CLOEXEC);
    d->wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = nullptr; // the wake-up descriptor
    epoll_ctl(d->epoll, EPOLL_CTL_ADD, d->wakeFd, &ev);
}

CurlPollLoop::~CurlPollLoop()
{
    stop();
}

void CurlPollLoop::setTargets(const QList<PollTarget> &targets, quint64 generation)
{
    {
        std::lock_guard lock(d->mutex);
        d->nextTargets = targets;
        d->nextGeneration = generation;
        d->targetsChanged = true;
    }
    d->wake();
}

void CurlPollLoop::setInterval(int ms)
{
    {
        std::lock_guard lock(d->mutex);
        d->baseIntervalMs = std::max(50, ms);
    }
    d->wake();
}

void CurlPollLoop::setTimeout(int ms)
{
    std::lock_guard lock(d->mutex);
    d->timeoutMs = std::max(50, ms);
}

void CurlPollLoop::setSpread(bool spread)
{
    std::lock_guard lock(d->mutex);
    d->spread = spread;
}

void CurlPollLoop::start()
{
    if (m_thread.joinable())
        return;
    {
        std::lock_guard lock(d->mutex);
        d->stopRequested = false;
    }
    m_thread = std::thread([this] { run(); });
}

void CurlPollLoop::stop()
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

void CurlPollLoop::run()
{
    Impl &s = *d;
    const qint64 cpuStart = threadCpuMicros();
    s.epochMs = monotonicMs();
    s.nextBatchMs = s.epochMs + s.baseIntervalMs;
    std::vector<epoll_event> events(256);
    for (;;) {
        int interval = 0;
        {
            std::lock_guard lock(s.mutex);
            if (s.stopRequested)
                break;
            interval = s.intervalFor(std::size_t(s.targetsChanged ? s.nextTargets.size() : qsizetype(s.targets.size())));
            if (s.targetsChanged) {
                s.generation = s.nextGeneration;
                s.targetsChanged = false;
                const QList<PollTarget> list = s.nextTargets;
                s.applyTargets(list, monotonicMs(), interval);
            }
        }
        m_effectiveInterval = interval;
        qint64 now = monotonicMs();

        for (auto &t : s.targets) {
            if (t->phase == Impl::Target::Phase::Idle && t->dueMs <= now)
                s.launch(*t, Impl::Target::Phase::Metrics, now);
        }
        for (auto &m : s.multis) {
            int running = 0;
            if (m->deadlineMs >= 0 && m->deadlineMs <= now) {
                m->deadlineMs = -1;
                curl_multi_socket_action(m->handle, CURL_SOCKET_TIMEOUT, 0, &running);
            }
        }

        qint64 wakeAt = s.nextBatchMs;
        for (const auto &t : s.targets)
            if (t->phase == Impl::Target::Phase::Idle)
                wakeAt = std::min(wakeAt, t->dueMs);
        for (const auto &m : s.multis)
            if (m->deadlineMs >= 0)
                wakeAt = std::min(wakeAt, m->deadlineMs);
        const int waitMs = int(std::clamp<qint64>(wakeAt - monotonicMs(), 0, 1000));
        const int n = epoll_wait(s.epoll, events.data(), int(events.size()), waitMs);
        for (int i = 0; i < n; ++i) {
            auto *slot = static_cast<Impl::SocketSlot *>(events[std::size_t(i)].data.ptr);
            if (!slot) {
                quint64 drain = 0;
                [[maybe_unused]] const auto r = ::read(s.wakeFd, &drain, sizeof drain);
                continue;
            }
            if (!slot->multi)
                continue; // libcurl removed this socket while handling an earlier event of this batch
            int flags = 0;
            if (events[std::size_t(i)].events & EPOLLIN)
                flags |= CURL_CSELECT_IN;
            if (events[std::size_t(i)].events & EPOLLOUT)
                flags |= CURL_CSELECT_OUT;
            if (events[std::size_t(i)].events & (EPOLLERR | EPOLLHUP))
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
                const CURLcode code = msg->data.result;
                s.finish(*t, code, now, interval);
                if (t->phase == Impl::Target::Phase::Idle)
                    ++m_completed;
            }
        }
        if (now >= s.nextBatchMs) {
            s.batch.roundAtMs = now - s.epochMs;
            s.batch.generation = s.generation;
            PollBatch out = std::move(s.batch);
            s.batch = PollBatch();
            s.nextBatchMs = now + interval;
            m_cpuMicros = threadCpuMicros() - cpuStart;
            if (s.sink)
                s.sink(std::move(out));
        }
    }
    std::lock_guard lock(s.mutex);
    s.clearTargets();
}

} // namespace pd
