// SPDX-License-Identifier: MIT
#pragma once

#include "engineoptions.h"
#include "enginestats.h"
#include "simclock.h"

#include <QByteArray>
#include <QList>
#include <QSet>

#include <deque>
#include <limits>
#include <random>
#include <unordered_map>
#include <vector>

// The timing model of one vLLM engine (realistic-load.md §2), as a step-driven state machine over a
// SimClock. No timers, no I/O: the owner asks nextEventTime(), wakes up then and calls advance(), which
// runs every engine step that ended by now and returns what the clients must see. Every observation
// lands in the EngineStats the model was given.
namespace pd::sim {

struct RequestSpec {
    int promptTokens = 1;
    int maxTokens = 16;
    int targetTokens = 16;          // tokens before EOS; >= maxTokens means "finish by length"
    int n = 1;
    int cachedTokens = 0;           // local prefix-cache hit (tokens)
    bool remotePrefill = false;     // KV comes from a prefill engine: pull instead of compute
    QByteArray remoteEngineId;      // the first pull from an engine pays the connection set-up
    bool holdKvForRemoteDecode = false; // prefill for a decoder: blocks stay until the pull is done
};

struct ModelEvent {
    quint64 id = 0;
    int newTokens = 0;
    int generated = 0;
    bool firstToken = false;
    bool finished = false;
    FinishReason reason = FinishReason::Stop;
};

struct ModelSnapshot {
    int running = 0;
    int waiting = 0;       // including KV pulls in flight
    int pulling = 0;
    double kvUsage = 0;
    quint64 steps = 0;
};

class LoadModel final {
public:
    static constexpr double kNever = std::numeric_limits<double>::infinity();

    LoadModel(const EngineOptions &options, const SimClock &clock, EngineStats &stats, quint64 seed);

    quint64 submit(const RequestSpec &spec);
    // Client gone or request cancelled: counted as finished_reason="abort". False if unknown.
    bool abort(quint64 id);
    QList<ModelEvent> advance();
    double nextEventTime() const;

    // A stalled engine keeps its requests but no step ever ends (the hung engine of §2.10).
    void setStalled(bool stalled);
    // KV pulls never complete while set (the decoder whose KV never arrives): pulled requests stay
    // waiting, running ones finish; cleared, the pulls resume shifted by the time they stood still.
    void setKvTransfersStuck(bool stuck);
    // The KV cache reports at least 99 % used while set (blocks never freed); used with setStalled.
    void setKvPinned(bool pinned) { m_kvPinned = pinned; }

    void refreshGauges();
    ModelSnapshot snapshot() const;
    bool isIdle() const;

    int sampleOutputLength();           // lognormal mean 1,100 sd 500 (§2.1)
    QList<int> blockIdsOf(quint64 id) const;

    // Step time in seconds for a step with these prefill chunks and decode contexts (no jitter).
    double stepTime(const std::vector<int> &prefillChunks, const std::vector<int> &decodeContexts) const;
    double kvPullTime(int promptTokens, bool firstContact) const;

private:
    enum class State { Waiting, Pulling, Running };
    struct Request {
        quint64 id = 0;
        RequestSpec spec;
        State state = State::Waiting;
        double arrival = 0, scheduled = -1, firstToken = -1, lastToken = -1, pullEnd = 0;
        int promptRemaining = 0;
        int generated = 0;
        int firstBlock = 0;
        double alpha = 0.8;
    };
    struct StepItem {
        quint64 id;
        int prefillChunk; // 0: a decode item
    };
    struct HeldBlocks {
        double releaseAt;
        int blocks;
    };

    void admit(double t);
    void startStep(double t);
    void finishStep(double t, QList<ModelEvent> &events);
    void completePull(Request &r, double t);
    void emitFirstToken(Request &r, double t, QList<ModelEvent> &events, double &iterTokens);
    void finish(Request &r, double t, FinishReason reason, QList<ModelEvent> &events);
    void recordFinished(Request &r, double t, FinishReason reason);
    void removeFromLists(quint64 id);
    void maybePreempt();
    int blocksFor(int tokens) const;
    int usedBlocks() const;
    void pruneHeld(double now);
    int targetOf(const Request &r) const;

    EngineOptions m_options;
    const SimClock &m_clock;
    EngineStats &m_stats;
    std::mt19937_64 m_rng;
    std::unordered_map<quint64, Request> m_requests;
    std::deque<quint64> m_waiting;
    std::vector<quint64> m_pulling;
    std::vector<quint64> m_running;
    std::vector<StepItem> m_step;
    std::deque<HeldBlocks> m_held;
    QSet<QByteArray> m_knownRemotes;
    bool m_stepActive = false;
    double m_stepEnd = 0;
    quint64 m_steps = 0;
    quint64 m_nextId = 1;
    int m_nextBlock = 0;
    bool m_stalled = false;
    double m_stallStart = 0;
    bool m_pullsStuck = false;
    double m_pullsStuckStart = 0;
    bool m_kvPinned = false;
    double kvUsageNow() const;
};

} // namespace pd::sim
