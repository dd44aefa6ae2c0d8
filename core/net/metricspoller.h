// SPDX-License-Identifier: MIT
#pragma once

#include "net/polltypes.h"

#include <QObject>

#include <memory>
#include <vector>

// The GUI-thread face of the engine poller: give it the engines, get one batch per round.
// The network, the parsing and the batching run off the GUI thread in PollLoops (the poller's own
// HTTP/1.1 keep-alive client for engines at numeric addresses, libcurl for host names). A large fleet
// is split over several loops, one thread each (engine i to loop i mod n), so that the parsing of a
// 1,024-engine round uses every core; their batches of one interval are merged here into one round, so
// the store and the views see one batch per round whatever the number of loops. Batches arrive through
// one queued call per loop and round and are dropped when they belong to an older target list.
// Destroying the poller stops its threads.
namespace pd {

class PollLoop;

class MetricsPoller final : public QObject {
    Q_OBJECT
public:
    // Automatic loop count: one loop per this many engines, at most one per hardware thread, at most kMaxLoops.
    static constexpr int kEnginesPerLoop = 256;
    static constexpr int kMaxLoops = 4;

    explicit MetricsPoller(MetricsBodyParser parser, QObject *parent = nullptr);
    ~MetricsPoller() override;

    void setTargets(const QList<PollTarget> &targets);
    void setInterval(int ms);
    void setTimeout(int ms);
    void setSpread(bool spread); // see PollLoop::setSpread
    void setTransport(PollTransport transport); // see PollLoop::setTransport
    void setHealthEvery(int polls); // see PollLoop::setHealthEvery
    // 0 (default): automatic (see kEnginesPerLoop); n > 0: exactly n loops. Takes effect with the next setTargets().
    void setLoopCount(int loops);
    void start();
    void stop();

    int loopCount() const { return int(m_loops.size()); }
    // The automatic loop count for a fleet of `engines` on a machine with `hardwareThreads`.
    static int automaticLoops(int engines, int hardwareThreads);

    int effectiveIntervalMs() const;
    double cpuSeconds() const;       // summed over the loops
    quint64 completedPolls() const;  // summed over the loops

Q_SIGNALS:
    void batchReady(const pd::PollBatch &batch);

private:
    void rebuildLoops(int count);
    void onLoopBatch(int loop, PollBatch &&batch);
    void flushPending();
    void clearPending(); // no loop has given its batch of the round yet

    MetricsBodyParser m_parser;
    std::vector<std::unique_ptr<PollLoop>> m_loops;
    int m_wantedLoops = 0;
    int m_intervalMs = 1000;
    int m_timeoutMs = 2000;
    bool m_spread = true;
    int m_healthEvery = kDefaultHealthEvery;
    PollTransport m_transport = PollTransport::Native;
    bool m_running = false;
    quint64 m_generation = 0;
    // The round being merged from the loops' batches: which loops have given theirs.
    PollBatch m_pending;
    std::vector<bool> m_given;
    int m_givenCount = 0;
};

} // namespace pd
