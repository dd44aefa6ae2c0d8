// SPDX-License-Identifier: MIT
#include "state/statetracker.h"

#include "cluster/clusterstore.h"

#include <QDateTime>

#include <cmath>

namespace pd {

namespace {

HttpFact httpFactOf(const PollOutcome &o)
{
    switch (o.status) {
    case PollStatus::Ok:
        return HttpFact::Ok;
    case PollStatus::Refused:
        return HttpFact::Refused;
    case PollStatus::Timeout:
        return HttpFact::Timeout;
    case PollStatus::HttpError:
        return o.httpStatus >= 500 ? HttpFact::ServerError : HttpFact::ClientError;
    case PollStatus::Malformed:
        return HttpFact::Malformed;
    case PollStatus::Failed:
        return HttpFact::Failed;
    }
    return HttpFact::Failed;
}

double counter(double v)
{
    return std::isnan(v) ? 0.0 : v;
}

} // namespace

StateTracker::StateTracker(ClusterStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    connect(store, &ClusterStore::profileChanged, this, &StateTracker::rebuild);
    connect(store, &ClusterStore::enginesObserved, this, &StateTracker::applyObservations);
    rebuild();
}

void StateTracker::setClock(std::function<std::int64_t()> nowMs)
{
    m_now = std::move(nowMs);
}

void StateTracker::setThresholds(const StateThresholds &thresholds)
{
    m_thresholds = thresholds;
    const std::int64_t now = m_now();
    QList<int> changed;
    for (int i = 0; i < engineCount(); ++i) {
        if (rederive(i, now))
            changed.append(i);
    }
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
    flushEvents();
    Q_EMIT roundDerived();
}

void StateTracker::rebuild()
{
    m_engines.assign(std::size_t(m_store->engines().size()), Tracked {});
    m_log.clear();
    m_pendingAdded = m_pendingDropped = 0;
    m_proxy = ProxyHealth();
    m_proxyKnown = false;
    m_proxySinceMs = 0;
    const std::int64_t now = m_now();
    // Membership as the console knows it at start: the proxy's start command lists the instances it
    // routes to; everything else in the profile is configured but not in the proxy.
    if (m_store->hasProfile()) {
        const Profile &profile = m_store->profile();
        const QStringList prefill = profile.proxyInstances(Role::Prefill);
        const QStringList decode = profile.proxyInstances(Role::Decode);
        for (int i = 0; i < engineCount(); ++i) {
            const Engine &e = m_store->engines().at(i);
            const bool listed = (e.role == Role::Prefill ? prefill : decode).contains(e.id());
            EngineFacts &f = m_engines[std::size_t(i)].facts;
            f.membership = listed ? MembershipFact::Active : MembershipFact::Configured;
            f.membershipDetail = listed ? tr("listed in the proxy's start command")
                                        : tr("not in the proxy's start command");
            f.membershipAtMs = now;
        }
    }
    for (int i = 0; i < engineCount(); ++i) {
        Tracked &t = m_engines[std::size_t(i)];
        t.state = deriveState(t.facts, now, m_thresholds, DeriveDetail::StateOnly).state;
        t.sinceMs = now;
    }
    Q_EMIT reset();
}

std::array<int, 10> StateTracker::stateCounts() const
{
    std::array<int, 10> counts {};
    for (const Tracked &t : m_engines)
        ++counts[std::size_t(t.state)];
    return counts;
}

QString StateTracker::engineLabel(int engine) const
{
    if (engine < 0 || engine >= m_store->engines().size())
        return {};
    const Engine &e = m_store->engines().at(engine);
    const QString node
        = e.nodeIndex < m_store->profile().nodes.size() ? m_store->profile().nodes.at(e.nodeIndex).name : QString();
    return QStringLiteral("%1 · %2 (DP %3)").arg(node, e.id()).arg(e.dpRank);
}

DerivedState StateTracker::derived(int engine) const
{
    return deriveState(m_engines[std::size_t(engine)].facts, m_now(), m_thresholds);
}

bool StateTracker::rederive(int engine, std::int64_t now)
{
    Tracked &t = m_engines[std::size_t(engine)];
    const EngineState state = deriveState(t.facts, now, m_thresholds, DeriveDetail::StateOnly).state;
    const bool changed = state != t.state;
    if (changed) {
        DerivedState next = deriveState(t.facts, now, m_thresholds); // the words, for the event
        StateEvent event;
        event.atMs = now;
        event.kind = StateEvent::Kind::State;
        event.engine = engine;
        event.node = m_store->engines().at(engine).nodeIndex;
        event.from = t.state;
        event.to = next.state;
        event.where = engineLabel(engine);
        event.what = QStringLiteral("%1 → %2").arg(engineStateWord(event.from), engineStateWord(event.to));
        event.reason = next.reason;
        event.evidence = next.evidence;
        appendEvent(std::move(event));
        t.sinceMs = now;
        t.state = state;
    }
    return changed;
}

void StateTracker::appendEvent(StateEvent event)
{
    m_pendingDropped += m_log.append(std::move(event));
    ++m_pendingAdded;
}

void StateTracker::flushEvents()
{
    if (m_pendingAdded == 0)
        return;
    const int added = m_pendingAdded;
    const int dropped = m_pendingDropped;
    m_pendingAdded = m_pendingDropped = 0;
    Q_EMIT eventsAppended(added, dropped);
}

void StateTracker::applyObservations(const QList<int> &engines)
{
    const std::int64_t now = m_now();
    const QList<EngineObservation> &observations = m_store->observations();
    QList<int> changed;
    for (int engine : engines) {
        if (engine < 0 || engine >= engineCount() || engine >= observations.size())
            continue;
        const EngineObservation &o = observations.at(engine);
        if (!o.polled)
            continue;
        EngineFacts &f = m_engines[std::size_t(engine)].facts;
        f.http = httpFactOf(o.last);
        f.httpAtMs = now;
        f.httpStatus = o.last.httpStatus;
        if (o.last.healthStatus != 0 && o.last.healthStatus != f.healthStatus) {
            f.healthStatus = o.last.healthStatus;
            f.healthAtMs = now;
        }
        if (f.http == HttpFact::Ok && o.last.metrics) {
            f.httpError.clear();
            f.consecutiveFailures = 0;
            f.failingSinceMs = 0;
            f.lastOkMs = now;
            const EngineMetrics &m = *o.last.metrics;
            const ProgressCounters counters { counter(m.generationTokens), counter(m.promptTokens),
                counter(m.requestSuccess) };
            const double running = counter(m.running);
            const bool moved = !f.hasCounters || !(counters == f.counters);
            if (moved || running <= 0) {
                f.frozenPolls = 0;
                if (moved)
                    f.lastProgressMs = now;
            } else {
                ++f.frozenPolls;
            }
            f.counters = counters;
            f.hasCounters = true;
            f.running = running;
            f.waiting = counter(m.waiting);
        } else {
            if (f.consecutiveFailures == 0)
                f.failingSinceMs = now;
            ++f.consecutiveFailures;
            f.httpError = o.last.error.isEmpty() ? pollStatusName(o.last.status) : o.last.error;
            f.lastError = f.httpError;
            f.lastErrorAtMs = now;
            // No scrape, no verdict on progress either way: the frozen count stands, so one poll a busy host
            // misses neither ends a stall nor restarts its count.
        }
        if (rederive(engine, now))
            changed.append(engine);
    }
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
    flushEvents();
    Q_EMIT roundDerived();
}

void StateTracker::appendFactEvent(int engine, StateEvent::Kind kind, const QString &what, const QString &detail,
                                   std::int64_t now)
{
    StateEvent event;
    event.atMs = now;
    event.kind = kind;
    event.engine = engine;
    event.node = m_store->engines().at(engine).nodeIndex;
    event.where = engineLabel(engine);
    event.what = what;
    event.reason = detail;
    appendEvent(std::move(event));
}

void StateTracker::factChanged(int engine, std::int64_t now)
{
    if (rederive(engine, now))
        Q_EMIT statesChanged({ engine });
    flushEvents();
    Q_EMIT roundDerived();
}

void StateTracker::setProcess(int engine, ProcessFact process, const QString &detail, std::int64_t atMs)
{
    if (engine < 0 || engine >= engineCount())
        return;
    const std::int64_t now = atMs > 0 ? atMs : m_now();
    EngineFacts &f = m_engines[std::size_t(engine)].facts;
    if (f.process != process) {
        appendFactEvent(engine, StateEvent::Kind::Process, tr("process %1").arg(processFactName(process)), detail, now);
    }
    // A start after the diagnosis: the error belongs to the previous run.
    if (process == ProcessFact::Running && f.process != ProcessFact::Running && f.diagnosisAtMs > 0 && f.diagnosisAtMs <= now)
        f.diagnosis.clear();
    f.process = process;
    f.processDetail = detail;
    f.processAtMs = now;
    factChanged(engine, now);
}

void StateTracker::setMembership(int engine, MembershipFact membership, const QString &detail, std::int64_t atMs)
{
    if (engine < 0 || engine >= engineCount())
        return;
    const std::int64_t now = atMs > 0 ? atMs : m_now();
    EngineFacts &f = m_engines[std::size_t(engine)].facts;
    if (f.membership != membership) {
        appendFactEvent(engine, StateEvent::Kind::Membership,
                        tr("proxy membership %1 → %2").arg(membershipFactName(f.membership), membershipFactName(membership)),
                        detail, now);
    }
    f.membership = membership;
    f.membershipDetail = detail;
    f.membershipAtMs = now;
    factChanged(engine, now);
}

void StateTracker::setModelsReady(int engine, bool ready, std::int64_t atMs)
{
    if (engine < 0 || engine >= engineCount())
        return;
    const std::int64_t now = atMs > 0 ? atMs : m_now();
    EngineFacts &f = m_engines[std::size_t(engine)].facts;
    f.modelsKnown = true;
    f.modelsReady = ready;
    f.modelsAtMs = now;
    factChanged(engine, now);
}

void StateTracker::recordDiagnosis(int engine, int node, const QString &title, const QString &line, int repeats)
{
    StateEvent event;
    event.atMs = m_now();
    event.kind = StateEvent::Kind::Diagnosis;
    event.engine = engine >= 0 && engine < engineCount() ? engine : -1;
    event.node = event.engine >= 0 ? m_store->engines().at(event.engine).nodeIndex : node;
    event.where = event.engine >= 0                             ? engineLabel(event.engine)
        : (node >= 0 && node < m_store->profile().nodes.size()) ? m_store->profile().nodes.at(node).name
                                                                : tr("proxy");
    event.what = repeats > 1 ? tr("%1 (%2 lines)").arg(title).arg(repeats) : title;
    event.reason = line.left(300);
    if (event.engine >= 0) {
        EngineFacts &f = m_engines[std::size_t(event.engine)].facts;
        f.diagnosis = title;
        f.diagnosisLine = line.left(300);
        f.diagnosisRepeats = repeats;
        f.diagnosisAtMs = event.atMs;
    }
    appendEvent(std::move(event));
    flushEvents();
    Q_EMIT diagnosed(engine);
}

void StateTracker::recordAction(int engine, int node, const QString &what)
{
    StateEvent event;
    event.atMs = m_now();
    event.kind = StateEvent::Kind::Action;
    event.engine = engine >= 0 && engine < engineCount() ? engine : -1;
    event.node = event.engine >= 0 ? m_store->engines().at(event.engine).nodeIndex : node;
    event.where = event.engine >= 0                             ? engineLabel(event.engine)
        : (node >= 0 && node < m_store->profile().nodes.size()) ? m_store->profile().nodes.at(node).name
                                                                : tr("cluster");
    event.what = what;
    appendEvent(std::move(event));
    flushEvents();
}

void StateTracker::applyProxyHealth(const ProxyHealth &health)
{
    const std::int64_t now = m_now();
    const QString where = m_store->hasProfile()
        ? tr("proxy %1:%2").arg(m_store->profile().proxy.address).arg(m_store->profile().proxy.port)
        : tr("proxy");
    auto event = [&](const QString &what, const QString &reason) {
        StateEvent e;
        e.atMs = now;
        e.kind = StateEvent::Kind::Proxy;
        e.where = where;
        e.what = what;
        e.reason = reason;
        appendEvent(std::move(e));
    };
    if (!m_proxyKnown || health.reachable != m_proxy.reachable) {
        m_proxySinceMs = now;
        if (!health.reachable)
            event(tr("proxy unreachable"), health.error);
        else if (m_proxyKnown)
            event(tr("proxy reachable again"), QString());
    }
    if (health.reachable && m_proxyKnown && m_proxy.reachable
        && (health.prefillInstances != m_proxy.prefillInstances || health.decodeInstances != m_proxy.decodeInstances))
        event(tr("proxy counts %1/%2 → %3/%4 (prefill/decode)")
                  .arg(m_proxy.prefillInstances)
                  .arg(m_proxy.decodeInstances)
                  .arg(health.prefillInstances)
                  .arg(health.decodeInstances),
            QString());
    m_proxy = health;
    m_proxyKnown = true;
    flushEvents();
    Q_EMIT proxyChanged();
}

} // namespace pd
