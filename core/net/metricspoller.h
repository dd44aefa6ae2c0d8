// SPDX-License-Identifier: MIT
#pragma once

#include "net/polltypes.h"

#include <QObject>

#include <memory>

// The GUI-thread face of the engine poller: give it the engines, get one batch per round.
// The network, the parsing and the batching run on the poller's own thread (PollLoop: the poller's
// own HTTP/1.1 keep-alive client for engines at numeric addresses, libcurl for host names); batches
// arrive here through one queued call per round and are dropped when they belong to an older target
// list. Destroying the poller stops its thread.
namespace pd {

class PollLoop;

class MetricsPoller final : public QObject {
    Q_OBJECT
public:
    explicit MetricsPoller(MetricsBodyParser parser, QObject *parent = nullptr);
    ~MetricsPoller() override;

    void setTargets(const QList<PollTarget> &targets);
    void setInterval(int ms);
    void setTimeout(int ms);
    void setSpread(bool spread); // see PollLoop::setSpread
    void setTransport(PollTransport transport); // see PollLoop::setTransport
    void start();
    void stop();

    int effectiveIntervalMs() const;
    double cpuSeconds() const;
    quint64 completedPolls() const;

Q_SIGNALS:
    void batchReady(const pd::PollBatch &batch);

private:
    std::unique_ptr<PollLoop> m_loop;
    quint64 m_generation = 0;
};

} // namespace pd
