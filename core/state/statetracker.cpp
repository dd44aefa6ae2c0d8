// SPDX-License-Identifier: MIT
#include "state/statetracker.h"

#include "cluster/clusterstore.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <utility>

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
    QList<int> all;
    for (int i = 0; i < engineCount(); ++i) {
        rederiveOwn(i, now);
        all.append(i);
    }
    const QList<int> changed = settle(all, now);
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
    flushEvents();
    Q_EMIT roundDerived();
}

void StateTracker::rebuild()
{
    m_batchedEngines.clear(); // indexes of the previous profile
    m_engines.assign(std::size_t(m_store->engines().size()), Tracked {});
    m_groups = m_store->hasProfile() ? DpGroups(m_store->profile()) : DpGroups();
    m_groupStates = QList<GroupState>(m_groups.groups().size());
    m_groupOf.assign(m_engines.size(), -1);
    for (int g = 0; g < m_groups.groups().size(); ++g) {
        for (int engine : m_groups.groups().at(g).engines) {
            if (engine >= 0 && engine < engineCount())
                m_groupOf[std::size_t(engine)] = g;
        }
    }
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
            f.membershipSinceMs = now;
        }
    }
    for (int i = 0; i < engineCount(); ++i) {
        Tracked &t = m_engines[std::size_t(i)];
        t.own = deriveState(t.facts, now, m_thresholds, DeriveDetail::StateOnly).state;
        t.ownSinceMs = now;
    }
    for (int g = 0; g < groupCount(); ++g) {
        const DpGroup &group = m_groups.groups().at(g);
        QList<GroupRankInput> ranks;
        for (int engine : group.engines)
            ranks.append(rankInput(engine));
        m_groupStates[g] = deriveGroupState(group.coupled, ranks);
    }
    for (int i = 0; i < engineCount(); ++i) {
        Tracked &t = m_engines[std::size_t(i)];
        const int g = m_groupOf[std::size_t(i)];
        t.state = g < 0 ? t.own : rankStateInGroup(t.own, m_groups.groups().at(g).coupled, m_groupStates.at(g).health);
        t.sinceMs = now;
    }
    Q_EMIT reset();
}

std::array<int, kEngineStateCount> StateTracker::stateCounts() const
{
    std::array<int, kEngineStateCount> counts {};
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

bool StateTracker::isGroupBroken(const QString &groupId) const
{
    for (int g = 0; g < groupCount(); ++g)
        if (m_groups.groups().at(g).id == groupId)
            return m_groupStates.at(g).health == GroupHealth::Broken;
    return false;
}

int StateTracker::groupOf(int engine) const
{
    return engine >= 0 && engine < engineCount() ? m_groupOf[std::size_t(engine)] : -1;
}

GroupRankInput StateTracker::rankInput(int engine) const
{
    const Tracked &t = m_engines[std::size_t(engine)];
    const EngineFacts &f = t.facts;
    GroupRankInput r;
    r.state = t.own;
    r.sinceMs = t.ownSinceMs;
    r.ranBefore = f.lastOkMs > 0 || f.process == ProcessFact::Exited;
    // When it went down: the process exit SSH saw after the last good poll, else the first failed poll of
    // the current run (an older "exited" fact says nothing about this death).
    if (t.own == EngineState::Stopped && f.process == ProcessFact::Exited && f.processAtMs > f.lastOkMs)
        r.diedAtMs = f.processAtMs;
    else if ((t.own == EngineState::Stopped || isFailureState(t.own)) && f.failingSinceMs > 0)
        r.diedAtMs = std::min(f.failingSinceMs, t.ownSinceMs);
    return r;
}

QString StateTracker::groupBrokenReason(int group) const
{
    if (group < 0 || group >= groupCount())
        return {};
    const GroupState &g = m_groupStates.at(group);
    if (g.health != GroupHealth::Broken || g.dead.isEmpty())
        return {};
    const DpGroup &dp = m_groups.groups().at(group);
    QStringList deaths;
    for (const GroupDeadRank &d : g.dead) {
        const int engine = dp.engines.at(d.rank);
        deaths.append(tr("%1 %2 since %3")
                          .arg(engineLabel(engine), engineStateWord(d.state),
                              QDateTime::fromMSecsSinceEpoch(d.sinceMs).toString(QStringLiteral("HH:mm:ss"))));
    }
    return deaths.join(QStringLiteral("; "));
}

DerivedState StateTracker::derived(int engine) const
{
    return derivedAt(engine, m_now(), DeriveDetail::Full);
}

DerivedState StateTracker::derivedAt(int engine, std::int64_t now, DeriveDetail detail) const
{
    const Tracked &t = m_engines[std::size_t(engine)];
    DerivedState d = deriveState(t.facts, now, m_thresholds, detail);
    if (t.state != EngineState::GroupBroken || d.state == EngineState::GroupBroken)
        return d;
    // A live rank of a broken coupled group: what the group says first, then the rank's own picture.
    const int g = m_groupOf[std::size_t(engine)];
    const DerivedState own = d;
    d.state = EngineState::GroupBroken;
    if (detail == DeriveDetail::Full && g >= 0) {
        const DpGroup &dp = m_groups.groups().at(g);
        d.reason = tr("DP group %1 is broken (%2): its collectives cannot complete, so this rank makes no progress")
                       .arg(dp.id, groupBrokenReason(g));
        d.evidence = QStringList { tr("own state %1: %2").arg(engineStateWord(own.state), own.reason) } + own.evidence;
    }
    return d;
}

void StateTracker::rederiveOwn(int engine, std::int64_t now)
{
    Tracked &t = m_engines[std::size_t(engine)];
    const EngineState own = deriveState(t.facts, now, m_thresholds, DeriveDetail::StateOnly).state;
    if (own != t.own) {
        t.own = own;
        t.ownSinceMs = now;
    }
}

QList<int> StateTracker::settle(const QList<int> &touched, std::int64_t now)
{
    // The candidates: the touched engines and every rank of their groups whose state changed.
    std::vector<char> candidate(m_engines.size(), 0);
    std::vector<char> groupSeen(std::size_t(groupCount()), 0);
    for (int engine : touched) {
        if (engine < 0 || engine >= engineCount())
            continue;
        candidate[std::size_t(engine)] = 1;
        const int g = m_groupOf[std::size_t(engine)];
        if (g < 0 || groupSeen[std::size_t(g)])
            continue;
        groupSeen[std::size_t(g)] = 1;
        const DpGroup &group = m_groups.groups().at(g);
        QList<GroupRankInput> ranks;
        ranks.reserve(group.engines.size());
        for (int e : group.engines)
            ranks.append(rankInput(e));
        GroupState next = deriveGroupState(group.coupled, ranks);
        if (next.health != m_groupStates.at(g).health) {
            for (int e : group.engines)
                candidate[std::size_t(e)] = 1;
        }
        m_groupStates[g] = std::move(next);
    }
    QList<int> changed;
    for (int engine = 0; engine < engineCount(); ++engine) {
        if (!candidate[std::size_t(engine)])
            continue;
        Tracked &t = m_engines[std::size_t(engine)];
        const int g = m_groupOf[std::size_t(engine)];
        const EngineState shown
            = g < 0 ? t.own : rankStateInGroup(t.own, m_groups.groups().at(g).coupled, m_groupStates.at(g).health);
        if (shown == t.state)
            continue;
        const EngineState from = t.state;
        t.state = shown; // derivedAt() reads it for the words
        DerivedState next = derivedAt(engine, now, DeriveDetail::Full);
        StateEvent event;
        event.atMs = now;
        event.kind = StateEvent::Kind::State;
        event.engine = engine;
        event.node = m_store->engines().at(engine).nodeIndex;
        event.from = from;
        event.to = shown;
        event.where = engineLabel(engine);
        event.what = QStringLiteral("%1 → %2").arg(engineStateWord(event.from), engineStateWord(event.to));
        event.reason = next.reason;
        event.evidence = next.evidence;
        appendEvent(std::move(event));
        t.sinceMs = now;
        changed.append(engine);
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
    QList<int> touched;
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
        if (f.http == HttpFact::Ok && o.lastGood) { // the latest outcome's own metrics
            f.httpError.clear();
            f.consecutiveFailures = 0;
            f.failingSinceMs = 0;
            f.lastOkMs = now;
            const EngineMetrics &m = *o.lastGood;
            const ProgressCounters counters { counter(m.generationTokens), counter(m.promptTokens),
                counter(m.requestSuccess) };
            const double running = counter(m.running);
            const double waiting = counter(m.waiting);
            const bool moved = !f.hasCounters || !(counters == f.counters);
            if (moved || (running <= 0 && waiting <= 0)) {
                f.frozenPolls = 0;
                if (moved)
                    f.lastProgressMs = now;
            } else {
                ++f.frozenPolls;
            }
            f.counters = counters;
            f.hasCounters = true;
            f.running = running;
            f.waiting = waiting;
            f.kvUsage = m.kvUsage >= 0 ? m.kvUsage : -1;
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
        // Stopped on purpose, then down, then answering: started again by something else than this console.
        Tracked &t = m_engines[std::size_t(engine)];
        if (f.intent == OperatorIntent::Stop) {
            if (f.http != HttpFact::Ok)
                t.downSinceIntent = true;
            else if (t.downSinceIntent)
                changeIntent(engine, OperatorIntent::None, QString(), tr("it answers again after it was stopped"), now);
        }
        rederiveOwn(engine, now);
        touched.append(engine);
    }
    const QList<int> changed = settle(touched, now);
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

StateTracker::FactBatch::FactBatch(StateTracker *tracker)
    : m_tracker(tracker)
{
    ++m_tracker->m_factBatchDepth;
}

StateTracker::FactBatch::~FactBatch()
{
    if (--m_tracker->m_factBatchDepth == 0)
        m_tracker->endFactBatch();
}

void StateTracker::endFactBatch()
{
    if (m_batchedEngines.isEmpty())
        return;
    QList<int> touched = std::exchange(m_batchedEngines, {});
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const QList<int> changed = settle(touched, std::exchange(m_batchedAt, 0));
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
    flushEvents();
    Q_EMIT roundDerived();
}

void StateTracker::factChanged(int engine, std::int64_t now)
{
    rederiveOwn(engine, now);
    if (m_factBatchDepth > 0) {
        m_batchedEngines.append(engine);
        m_batchedAt = std::max(m_batchedAt, now);
        return;
    }
    const QList<int> changed = settle({ engine }, now);
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
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
    Tracked &t = m_engines[std::size_t(engine)];
    if (f.intent == OperatorIntent::Stop && process == ProcessFact::Exited)
        t.downSinceIntent = true;
    else if (f.intent == OperatorIntent::Stop && process == ProcessFact::Running && t.downSinceIntent
             && f.process != ProcessFact::Running)
        changeIntent(engine, OperatorIntent::None, QString(), tr("its process runs again after it was stopped"), now);
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
    // Added to the proxy again (by anyone): the operator's drain is over.
    if (f.intent == OperatorIntent::Drain && f.membership != membership
        && (membership == MembershipFact::Active || membership == MembershipFact::Waiting))
        changeIntent(engine, OperatorIntent::None, QString(), tr("added to the proxy again"), now);
    if (f.membership != membership || f.membershipSinceMs == 0)
        f.membershipSinceMs = now;
    f.membership = membership;
    f.membershipDetail = detail;
    f.membershipAtMs = now;
    factChanged(engine, now);
}

void StateTracker::setIntent(int engine, OperatorIntent intent, const QString &detail, std::int64_t atMs)
{
    if (engine < 0 || engine >= engineCount())
        return;
    const std::int64_t now = atMs > 0 ? atMs : m_now();
    changeIntent(engine, intent, detail, detail, now);
    factChanged(engine, now);
}

void StateTracker::changeIntent(int engine, OperatorIntent intent, const QString &detail, const QString &why, std::int64_t now)
{
    Tracked &t = m_engines[std::size_t(engine)];
    EngineFacts &f = t.facts;
    if (f.intent != intent)
        appendFactEvent(engine, StateEvent::Kind::Action,
                        tr("operator intent %1 → %2").arg(operatorIntentName(f.intent), operatorIntentName(intent)), why, now);
    f.intent = intent;
    f.intentAtMs = intent == OperatorIntent::None ? 0 : now;
    f.intentDetail = intent == OperatorIntent::None ? QString() : detail;
    t.downSinceIntent = false;
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
    // Two readers feed this (the health poller and the membership reconciler): an answer older than
    // the one held says nothing new.
    if (m_proxyKnown && health.when.isValid() && m_proxy.when.isValid() && health.when < m_proxy.when)
        return;
    const std::int64_t now = m_now();
    const QString where = m_store->hasProfile()
        ? tr("proxy %1:%2").arg(m_store->profile().proxy.address).arg(m_store->profile().proxy.port)
        : tr("proxy");
    // `to`: how the proxy is after the event (Serving: it answers, Unreachable: it does not), so a
    // recovery does not read like the outage on the timeline.
    auto event = [&](const QString &what, const QString &reason) {
        StateEvent e;
        e.atMs = now;
        e.kind = StateEvent::Kind::Proxy;
        e.to = health.reachable ? EngineState::Serving : EngineState::Unreachable;
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
