// SPDX-License-Identifier: MIT
#pragma once

#include "net/polltypes.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

// The engine poller's engine room: one thread, one epoll loop, libcurl multi handles of at most 64
// transfers each (libcurl walks its caches per transfer; measured 63-70 µs per 43 KB fetch when tuned,
// see guides/measurements.md), keep-alive connections, one kept easy handle per target.
// Each target is fetched (GET /metrics; GET /health on the same connection every second poll and after
// an HTTP failure), its body parsed on
// this thread, and re-armed one interval after the reply or the timeout: requests never stack. Failures
// back off exponentially up to 8 intervals. Every interval the finished outcomes go out as one batch.
// Thread contract: the public methods may be called from any thread; the sink runs on the loop thread.
namespace pd {

class CurlPollLoop final {
public:
    using BatchSink = std::function<void(PollBatch &&)>;

    CurlPollLoop(MetricsBodyParser parser, BatchSink sink);
    ~CurlPollLoop();
    CurlPollLoop(const CurlPollLoop &) = delete;
    CurlPollLoop &operator=(const CurlPollLoop &) = delete;

    void setTargets(const QList<PollTarget> &targets, quint64 generation);
    void setInterval(int ms);       // base interval; relaxed for large fleets (effectiveIntervalMs)
    void setTimeout(int ms);
    // true (default): the first round is spread over the interval; false: every target starts at once
    // (for benchmarks that time a whole round). Takes effect with the next setTargets().
    void setSpread(bool spread);
    void start();
    void stop();                    // joins the thread

    int effectiveIntervalMs() const { return m_effectiveInterval.load(); }
    // Loop-thread CPU time and number of completed engine polls since start (for benchmarks).
    double cpuSeconds() const { return m_cpuMicros.load() / 1e6; }
    quint64 completedPolls() const { return m_completed.load(); }

private:
    struct Impl;
    void run();

    std::unique_ptr<Impl> d;
    std::thread m_thread;
    std::atomic<int> m_effectiveInterval{1000};
    std::atomic<qint64> m_cpuMicros{0};
    std::atomic<quint64> m_completed{0};
};

} // namespace pd
