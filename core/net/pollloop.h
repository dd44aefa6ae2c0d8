// SPDX-License-Identifier: MIT
#pragma once

#include "net/polltypes.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

// The engine poller's engine room: one thread, one epoll loop, keep-alive connections.
// Which client serves which target:
//  - http:// targets at a numeric IPv4/IPv6 address (every engine of a profile, normally): the
//    poller's own HTTP/1.1 client (HttpGetClient, one kept-alive connection per target, bodies read
//    into a buffer reused from poll to poll; a whole engine poll, parse included, measured 57-90 µs of
//    this thread against 107-166 µs with libcurl in the same runs, docs/performance.md);
//  - targets given by host name, and every target when the transport is PollTransport::Curl: libcurl
//    multi handles of at most 64 transfers each on the same epoll loop (libcurl resolves names without
//    blocking the loop; it would also be the path for https:// should targets ever carry a scheme).
// Each target is fetched (GET /metrics; GET /health on the same connection every second poll and after
// an HTTP failure), its body parsed on this thread, and re-armed one interval after the reply or the
// timeout: requests never stack. Failures back off exponentially up to 8 intervals. Every interval the
// finished outcomes go out as one batch. Timers (next poll, request deadline) sit in one heap, so a
// wake-up costs O(log targets), not a walk over the fleet.
// Thread contract: the public methods may be called from any thread; the sink runs on the loop thread.
namespace pd {

class PollLoop final {
public:
    using BatchSink = std::function<void(PollBatch &&)>;

    PollLoop(MetricsBodyParser parser, BatchSink sink);
    ~PollLoop();
    PollLoop(const PollLoop &) = delete;
    PollLoop &operator=(const PollLoop &) = delete;

    void setTargets(const QList<PollTarget> &targets, quint64 generation);
    void setInterval(int ms); // base interval; relaxed for large fleets (effectiveIntervalMs)
    void setTimeout(int ms);
    // When several loops share one fleet (MetricsPoller's shards): the whole fleet's size, so that every
    // loop relaxes its interval as one poller of that fleet would; 0 (default): this loop's targets.
    void setFleetSize(std::size_t engines);
    // The steady-clock time (steadyNowMs()) that the poller clock of outcomes and batches counts from,
    // shared by sibling loops so that their outcomes merge into one round; 0 (default): the loop's start.
    // Takes effect with the next start().
    void setClockOrigin(qint64 steadyMs);
    static qint64 steadyNowMs();
    // true (default): the first round is spread over the interval and every target is re-armed one
    // interval after its reply (the fleet's phases stay spread); false: rounds on a grid, every target
    // due at the same tick of the interval (the next tick after its reply; back-off skips ticks), for
    // benchmarks that time a whole round. Takes effect with the next setTargets().
    void setSpread(bool spread);
    // Native (default) or libcurl for every target. Takes effect with the next setTargets().
    void setTransport(PollTransport transport);
    // /health with every n-th poll of a target (default kDefaultHealthEvery, polltypes.h); 0: only
    // after /metrics failed over HTTP (for benchmarks that time /metrics alone).
    void setHealthEvery(int polls);
    void start();
    void stop(); // joins the thread

    int effectiveIntervalMs() const { return m_effectiveInterval.load(); }
    // Loop-thread CPU time and number of completed engine polls since start (for benchmarks).
    double cpuSeconds() const { return m_cpuMicros.load() / 1e6; }
    quint64 completedPolls() const { return m_completed.load(); }

private:
    struct Impl;
    void run();

    std::unique_ptr<Impl> d;
    std::thread m_thread;
    std::atomic<int> m_effectiveInterval { 1000 };
    std::atomic<qint64> m_cpuMicros { 0 };
    std::atomic<quint64> m_completed { 0 };
};

} // namespace pd
