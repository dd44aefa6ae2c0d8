// SPDX-License-Identifier: MIT
#include "loadmodel.h"

#include "dpsteppace.h"

#include "simclock.h"

#include <algorithm>
#include <cmath>

namespace pd::sim {

LoadModel::LoadModel(const EngineOptions &options, const SimClock &clock, EngineStats &stats,
                     quint64 seed)
    : m_options(options), m_clock(clock), m_stats(stats), m_rng(seed)
{
}

int LoadModel::blocksFor(int tokens) const
{
    const int bs = std::max(1, m_options.blockSize);
    return (std::max(0, tokens) + bs - 1) / bs;
}

int LoadModel::targetOf(const Request &r) const
{
    return std::max(1, std::min(r.spec.maxTokens, r.spec.targetTokens));
}

int LoadModel::sampleOutputLength()
{
    // lognormal with mean 1100 and sd 500: sigma² = ln(1 + (sd/mean)²)
    const double mean = 1100.0, sd = 500.0;
    const double s2 = std::log(1.0 + (sd * sd) / (mean * mean));
    std::lognormal_distribution<double> dist(std::log(mean) - s2 / 2, std::sqrt(s2));
    return std::clamp(int(std::lround(dist(m_rng))), 32, std::max(32, m_options.maxModelLen));
}

double LoadModel::kvPullTime(int promptTokens, bool firstContact) const
{
    const ModelTiming &tm = m_options.timing;
    return tm.kvTransferBase + promptTokens * tm.kvBytesPerToken / tm.kvBandwidth
           + (firstContact ? tm.kvFirstContact : 0.0);
}

double LoadModel::stepTime(const std::vector<int> &prefillChunks,
                           const std::vector<int> &decodeContexts) const
{
    const ModelTiming &tm = m_options.timing;
    double t = 0;
    if (!prefillChunks.empty()) {
        t += tm.prefillOverhead;
        for (int n : prefillChunks)
            t += n * (1.0 + n / tm.attentionGrowth) / tm.prefillRate;
    }
    if (!decodeContexts.empty()) {
        double ctx = 0;
        for (int c : decodeContexts)
            ctx += c;
        t += tm.decodeBase + tm.decodePerSeq * double(decodeContexts.size())
             + tm.decodePerKContext * ctx / 1000.0;
    }
    return t;
}

quint64 LoadModel::submit(const RequestSpec &spec)
{
    const double now = m_clock.now();
    Request r;
    r.id = m_nextId++;
    r.spec = spec;
    r.spec.promptTokens = std::max(1, spec.promptTokens);
    r.spec.maxTokens = std::max(1, spec.maxTokens);
    r.spec.cachedTokens = std::clamp(spec.cachedTokens, 0, r.spec.promptTokens - 1);
    r.arrival = now;
    r.promptRemaining = r.spec.remotePrefill ? 0 : r.spec.promptTokens - r.spec.cachedTokens;
    r.firstBlock = m_nextBlock;
    m_nextBlock = (m_nextBlock + blocksFor(r.spec.promptTokens + 1))
                  % std::max(1, m_options.effectiveNumGpuBlocks());
    r.alpha = m_options.timing.mtpAcceptance;
    if (m_options.timing.jitter && r.alpha > 0) {
        std::normal_distribution<double> a(r.alpha, 0.05);
        r.alpha = std::clamp(a(m_rng), 0.5, 0.95);
    }
    m_stats.prefixQueries += r.spec.promptTokens;
    m_stats.prefixHits += r.spec.cachedTokens;
    const quint64 id = r.id;
    m_requests.emplace(id, std::move(r));
    m_waiting.push_back(id);
    if (!m_stalled) {
        admit(now);
        if (!m_stepActive)
            startStep(now);
    }
    return id;
}

void LoadModel::admit(double t)
{
    const int maxSeqs = m_options.effectiveMaxNumSeqs();
    const int capacity = m_options.effectiveNumGpuBlocks();
    pruneHeld(t);
    int used = usedBlocks();
    while (!m_waiting.empty()) {
        if (int(m_running.size() + m_pulling.size()) >= maxSeqs)
            break;
        Request &r = m_requests.at(m_waiting.front());
        const int need = blocksFor(r.spec.promptTokens + r.generated + 1);
        if (used + need > capacity && !(m_running.empty() && m_pulling.empty()))
            break;
        used += need;
        m_waiting.pop_front();
        if (r.spec.remotePrefill && r.generated == 0) {
            const bool first = !r.spec.remoteEngineId.isEmpty()
                               && !m_knownRemotes.contains(r.spec.remoteEngineId);
            if (first)
                m_knownRemotes.insert(r.spec.remoteEngineId);
            r.state = State::Pulling;
            r.pullEnd = t + kvPullTime(r.spec.promptTokens, first);
            m_pulling.push_back(r.id);
        } else {
            r.state = State::Running;
            if (r.scheduled < 0)
                r.scheduled = t;
            m_running.push_back(r.id);
        }
    }
}

void LoadModel::completePull(Request &r, double t)
{
    m_pulling.erase(std::find(m_pulling.begin(), m_pulling.end(), r.id));
    r.state = State::Running;
    r.scheduled = t;
    m_running.push_back(r.id);
    // What the decoder's connector records per transfer (NIXL families in the "main" flavour).
    const double bytes = r.spec.promptTokens * m_options.timing.kvBytesPerToken;
    const double xfer = t - (r.pullEnd - kvPullTime(r.spec.promptTokens, false));
    m_stats.nixlXferTime.observe(std::max(0.0, xfer));
    m_stats.nixlPostTime.observe(0.0008 + 0.0002 * blocksFor(r.spec.promptTokens) / 28.0);
    m_stats.nixlBytes.observe(bytes);
    m_stats.nixlDescriptors.observe(double(blocksFor(r.spec.promptTokens)) * 62.0);
}

void LoadModel::startStep(double t)
{
    m_step.clear();
    m_stepActive = false;
    int budget = m_options.effectiveMaxBatchedTokens();
    std::vector<int> prefill;
    std::vector<int> decode;
    for (quint64 id : m_running) {
        const Request &r = m_requests.at(id);
        if (r.promptRemaining > 0) {
            if (budget <= 0)
                continue;
            const int chunk = std::min(r.promptRemaining, budget);
            budget -= chunk;
            prefill.push_back(chunk);
            m_step.push_back({id, chunk});
        } else {
            budget -= 1 + m_options.timing.speculativeTokens;
            decode.push_back(r.spec.promptTokens + r.generated);
            m_step.push_back({id, 0});
        }
    }
    if (m_step.empty()) {
        if (m_options.stepPace)
            m_options.stepPace->idle(m_options.stepPaceSlot);
        return;
    }
    double dt = stepTime(prefill, decode);
    if (m_options.stepPace) // a coupled DP group steps at its slowest rank's pace; jitter stays per rank
        dt = m_options.stepPace->couple(m_options.stepPaceSlot, dt);
    if (m_options.role == EngineRole::Prefill
        && m_steps < quint64(std::max(0, m_options.timing.prefillWarmupSteps)))
        dt *= m_options.timing.prefillWarmupFactor;
    if (m_options.timing.jitter) {
        std::lognormal_distribution<double> factor(0.0, 0.05);
        dt *= factor(m_rng);
        if (std::uniform_real_distribution<double>(0, 1)(m_rng) < 0.002)
            dt += std::uniform_real_distribution<double>(0.2, 1.0)(m_rng);
    }
    m_stepActive = true;
    m_stepEnd = t + dt;
}

void LoadModel::emitFirstToken(Request &r, double t, QList<ModelEvent> &events, double &iterTokens)
{
    r.generated = 1;
    r.firstToken = t;
    r.lastToken = t;
    const int prompt = r.spec.promptTokens;
    m_stats.ttft.observe(t - r.arrival);
    m_stats.promptTokens += prompt;
    m_stats.generationTokens += 1;
    m_stats.requestMaxGenTokens.observe(r.spec.maxTokens);
    m_stats.requestParamsN.observe(r.spec.n);
    if (r.spec.remotePrefill) {
        m_stats.promptBySource[2] += prompt - 1;
        m_stats.promptBySource[0] += 1;
        m_stats.promptCached += prompt - 1;
        m_stats.externalQueries += prompt;
        m_stats.externalHits += prompt - 1;
        m_stats.prefillKvComputed.observe(1);
    } else {
        m_stats.promptBySource[0] += prompt - r.spec.cachedTokens;
        m_stats.promptBySource[1] += r.spec.cachedTokens;
        m_stats.promptCached += r.spec.cachedTokens;
        m_stats.prefillKvComputed.observe(prompt - r.spec.cachedTokens);
    }
    iterTokens += prompt + 1;
    events.append({r.id, 1, 1, true, false, FinishReason::Stop});
}

void LoadModel::finishStep(double t, QList<ModelEvent> &events)
{
    m_stepActive = false;
    ++m_steps;
    double iterTokens = 0;
    std::vector<quint64> done;
    const int k = m_options.timing.speculativeTokens;
    for (const StepItem &item : m_step) {
        const auto it = m_requests.find(item.id);
        if (it == m_requests.end())
            continue; // aborted during the step
        Request &r = it->second;
        if (item.prefillChunk > 0) {
            r.promptRemaining -= item.prefillChunk;
            if (r.promptRemaining > 0 || r.generated > 0)
                continue; // chunked prefill goes on, or a preempted request recomputed its KV
            emitFirstToken(r, t, events, iterTokens);
        } else if (r.generated == 0) {
            emitFirstToken(r, t, events, iterTokens); // a decoder's first step after the KV pull
        } else {
            const int remaining = targetOf(r) - r.generated;
            int emitted = 1;
            if (k > 0 && r.alpha > 0 && remaining >= 2) {
                m_stats.specDrafts += 1;
                m_stats.specDraftTokens += k;
                std::bernoulli_distribution accept(r.alpha);
                for (int pos = 0; pos < k && emitted < remaining; ++pos) {
                    if (!accept(m_rng))
                        break;
                    ++emitted;
                    m_stats.specAccepted += 1;
                    m_stats.specAcceptedPerPos[std::size_t(pos)] += 1;
                }
            }
            m_stats.tpot.observe(t - r.lastToken);
            r.generated += emitted;
            r.lastToken = t;
            m_stats.generationTokens += emitted;
            iterTokens += emitted;
            events.append({r.id, emitted, r.generated, false, false, FinishReason::Stop});
        }
        if (r.generated >= targetOf(r))
            done.push_back(r.id);
    }
    if (!m_step.empty())
        m_stats.iterationTokens.observe(iterTokens);
    m_step.clear();
    for (quint64 id : done) {
        Request &r = m_requests.at(id);
        const bool byLength = r.spec.targetTokens >= r.spec.maxTokens;
        finish(r, t, byLength ? FinishReason::Length : FinishReason::Stop, events);
    }
    maybePreempt();
}

void LoadModel::recordFinished(Request &r, double t, FinishReason reason)
{
    if (r.scheduled < 0)
        r.scheduled = t;
    if (r.firstToken < 0)
        r.firstToken = t;
    if (r.lastToken < 0)
        r.lastToken = t;
    m_stats.success[std::size_t(reason)] += 1;
    const double e2e = t - r.arrival;
    m_stats.e2e.observe(e2e);
    m_stats.queueTime.observe(r.scheduled - r.arrival);
    m_stats.inferenceTime.observe(r.lastToken - r.scheduled);
    m_stats.prefillTime.observe(r.firstToken - r.scheduled);
    m_stats.decodeTime.observe(r.lastToken - r.firstToken);
    m_stats.requestPromptTokens.observe(r.spec.promptTokens);
    m_stats.requestGenerationTokens.observe(r.generated);
    m_stats.requestParamsMaxTokens.observe(r.spec.maxTokens);
    m_stats.requestTpot.observe(r.generated > 1 ? (r.lastToken - r.firstToken) / (r.generated - 1)
                                                : 0.0);
}

void LoadModel::finish(Request &r, double t, FinishReason reason, QList<ModelEvent> &events)
{
    recordFinished(r, t, reason);
    if (r.spec.holdKvForRemoteDecode) {
        // The blocks stay allocated until the decoder pulled them (proxy hop + pull).
        const double release = t + 0.015 + kvPullTime(r.spec.promptTokens, false);
        m_held.push_back({release, blocksFor(r.spec.promptTokens + 1)});
    }
    events.append({r.id, 0, r.generated, false, true, reason});
    removeFromLists(r.id);
    m_requests.erase(r.id);
}

void LoadModel::removeFromLists(quint64 id)
{
    if (const auto it = std::find(m_waiting.begin(), m_waiting.end(), id); it != m_waiting.end())
        m_waiting.erase(it);
    if (const auto it = std::find(m_pulling.begin(), m_pulling.end(), id); it != m_pulling.end())
        m_pulling.erase(it);
    if (const auto it = std::find(m_running.begin(), m_running.end(), id); it != m_running.end())
        m_running.erase(it);
}

bool LoadModel::abort(quint64 id)
{
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return false;
    QList<ModelEvent> ignored;
    finish(it->second, m_clock.now(), FinishReason::Abort, ignored);
    if (!m_stalled && !m_stepActive) {
        admit(m_clock.now());
        startStep(m_clock.now());
    }
    return true;
}

void LoadModel::maybePreempt()
{
    // V1 preempts the newest running request when the KV cache cannot hold the next tokens.
    const int capacity = m_options.effectiveNumGpuBlocks();
    while (m_running.size() > 1 && usedBlocks() > capacity) {
        const quint64 id = m_running.back();
        m_running.pop_back();
        Request &r = m_requests.at(id);
        r.state = State::Waiting;
        r.spec.remotePrefill = false;
        r.promptRemaining = r.spec.promptTokens + r.generated;
        m_waiting.push_front(id);
        m_stats.preemptions += 1;
    }
}

QList<ModelEvent> LoadModel::advance()
{
    QList<ModelEvent> events;
    if (m_stalled)
        return events;
    const double now = m_clock.now();
    for (;;) {
        double tPull = kNever;
        quint64 pullId = 0;
        if (!m_pullsStuck) {
            for (quint64 id : m_pulling) {
                const double e = m_requests.at(id).pullEnd;
                if (e < tPull) {
                    tPull = e;
                    pullId = id;
                }
            }
        }
        const double tStep = m_stepActive ? m_stepEnd : kNever;
        const double t = std::min(tPull, tStep);
        if (t > now)
            break;
        if (tPull <= tStep) {
            completePull(m_requests.at(pullId), tPull);
            if (!m_stepActive)
                startStep(tPull);
        } else {
            finishStep(tStep, events);
            admit(tStep);
            startStep(tStep);
        }
    }
    return events;
}

double LoadModel::nextEventTime() const
{
    if (m_stalled)
        return kNever;
    double t = m_stepActive ? m_stepEnd : kNever;
    if (!m_pullsStuck)
        for (quint64 id : m_pulling)
            t = std::min(t, m_requests.at(id).pullEnd);
    return t;
}

void LoadModel::setKvTransfersStuck(bool stuck)
{
    if (stuck == m_pullsStuck)
        return;
    const double now = m_clock.now();
    if (stuck) {
        m_pullsStuck = true;
        m_pullsStuckStart = now;
        return;
    }
    m_pullsStuck = false;
    for (quint64 id : m_pulling)
        m_requests.at(id).pullEnd += now - m_pullsStuckStart;
}

double LoadModel::kvUsageNow() const
{
    const double used = double(usedBlocks()) / std::max(1, m_options.effectiveNumGpuBlocks());
    return m_kvPinned ? std::max(used, 0.99) : used;
}

void LoadModel::setStalled(bool stalled)
{
    if (stalled == m_stalled)
        return;
    const double now = m_clock.now();
    if (stalled) {
        m_stalled = true;
        m_stallStart = now;
        return;
    }
    // Resume: everything that was in flight is shifted by the time the engine stood still.
    const double d = now - m_stallStart;
    m_stalled = false;
    if (m_stepActive)
        m_stepEnd += d;
    for (quint64 id : m_pulling)
        m_requests.at(id).pullEnd += d;
    for (HeldBlocks &h : m_held)
        h.releaseAt += d;
    admit(now);
    if (!m_stepActive)
        startStep(now);
}

void LoadModel::pruneHeld(double now)
{
    while (!m_held.empty() && m_held.front().releaseAt <= now)
        m_held.pop_front();
}

int LoadModel::usedBlocks() const
{
    int used = 0;
    for (quint64 id : m_running) {
        const Request &r = m_requests.at(id);
        used += blocksFor(r.spec.promptTokens + r.generated + 1);
    }
    for (quint64 id : m_pulling)
        used += blocksFor(m_requests.at(id).spec.promptTokens + 1);
    for (const HeldBlocks &h : m_held)
        used += h.blocks;
    return used;
}

void LoadModel::refreshGauges()
{
    if (!m_stalled)
        pruneHeld(m_clock.now());
    m_stats.running = double(m_running.size());
    m_stats.waiting = double(m_waiting.size() + m_pulling.size());
    m_stats.waitingCapacity = double(m_waiting.size());
    m_stats.waitingDeferred = double(m_pulling.size());
    m_stats.kvUsage = kvUsageNow();
}

ModelSnapshot LoadModel::snapshot() const
{
    ModelSnapshot s;
    s.running = int(m_running.size());
    s.pulling = int(m_pulling.size());
    s.waiting = int(m_waiting.size() + m_pulling.size());
    s.kvUsage = kvUsageNow();
    s.steps = m_steps;
    return s;
}

bool LoadModel::isIdle() const
{
    return m_requests.empty();
}

QList<int> LoadModel::blockIdsOf(quint64 id) const
{
    QList<int> out;
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return out;
    const int capacity = std::max(1, m_options.effectiveNumGpuBlocks());
    const int n = blocksFor(it->second.spec.promptTokens);
    out.reserve(n);
    for (int i = 0; i < n; ++i)
        out.append((it->second.firstBlock + i) % capacity);
    return out;
}

} // namespace pd::sim
