// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/dpgroups.h"
#include "net/proxyhealth.h"
#include "state/derivestate.h"
#include "state/groupstate.h"
#include "state/stateevent.h"

#include <QList>
#include <QObject>

#include <array>
#include <functional>
#include <vector>

// Keeps every engine's facts, derives their states and records each change as an event.
// Fed by ClusterStore::enginesObserved (one call per poll round) and the proxy's /healthcheck; the
// SSH and scaling parts call the fact setters. GUI thread.
//
// What views consume (the topology canvas, the engines table, triage):
//   state(i), derived(i) (reason + evidence), stateSinceMs(i), facts(i)
//   statesChanged(engines): once per round, the engines whose derived state changed
//   roundDerived(): once per round after every engine was re-derived (reasons and ages move)
//   eventsAppended(added, dropped): the event log grew (oldest dropped when full)
//   groups(), groupState(g), groupOf(i): the profile's DP groups and each one's derived state; the
//   live ranks of a broken coupled group show EngineState::GroupBroken (groupstate.h), ownState(i)
//   keeps what the rank's facts alone say
namespace pd {

class ClusterStore;

class StateTracker final : public QObject {
    Q_OBJECT
public:
    explicit StateTracker(ClusterStore *store, QObject *parent = nullptr);

    void setThresholds(const StateThresholds &thresholds); // re-derives every engine
    const StateThresholds &thresholds() const { return m_thresholds; }
    // The clock (ms since the epoch); tests give a fake one.
    void setClock(std::function<std::int64_t()> nowMs);
    std::int64_t nowMs() const { return m_now(); }

    int engineCount() const { return int(m_engines.size()); }
    const EngineFacts &facts(int engine) const { return m_engines[std::size_t(engine)].facts; }
    // The engine's current facts derived now, with reason and evidence (computed on each call).
    DerivedState derived(int engine) const;
    EngineState state(int engine) const { return m_engines[std::size_t(engine)].state; }
    // The state the engine's own facts give, before its DP group is considered.
    EngineState ownState(int engine) const { return m_engines[std::size_t(engine)].own; }
    std::int64_t ownSinceMs(int engine) const { return m_engines[std::size_t(engine)].ownSinceMs; }
    std::int64_t stateSinceMs(int engine) const { return m_engines[std::size_t(engine)].sinceMs; }
    // How many engines are in each state (indexed by int(EngineState)).
    std::array<int, kEngineStateCount> stateCounts() const;
    // "d1 · 127.0.0.7:9003 (DP 19)"
    QString engineLabel(int engine) const;

    // DP groups (recomputed with every state change of their ranks).
    const DpGroups &groups() const { return m_groups; }
    int groupCount() const { return int(m_groups.groups().size()); }
    const GroupState &groupState(int group) const { return m_groupStates.at(group); }
    int groupOf(int engine) const; // -1: none
    bool isGroupBroken(const QString &groupId) const; // that group's health is Broken (false: no such group)
    // Why a group is broken, in the operator's words: which rank(s) died and when (empty when it is not).
    QString groupBrokenReason(int group) const;

    // The proxy's /healthcheck as last seen; proxyKnown() false before the first answer.
    bool proxyKnown() const { return m_proxyKnown; }
    const ProxyHealth &proxyHealth() const { return m_proxy; }
    std::int64_t proxySinceMs() const { return m_proxySinceMs; } // reachability last changed

    const EventLog &events() const { return m_log; }

    // Fact setters (SSH, scaling, /v1/models probes). atMs 0: now.
    void setProcess(int engine, ProcessFact process, const QString &detail = {}, std::int64_t atMs = 0);
    void setMembership(int engine, MembershipFact membership, const QString &detail = {}, std::int64_t atMs = 0);
    void setModelsReady(int engine, bool ready, std::int64_t atMs = 0);
    // What the operator asked through this console's operations (OperatorIntent): an engine stopped or
    // taken out of the proxy on purpose derives Stopped / Draining instead of a failure. Cleared here
    // with None (the console starts or adds it again), and by the tracker itself when the engine answers
    // again after it went down, or is added to the proxy again (something else started or added it).
    void setIntent(int engine, OperatorIntent intent, const QString &detail = {}, std::int64_t atMs = 0);
    // Many fact changes as one: while a FactBatch lives, each setter records its fact, its event and the
    // engine's own state at once, and the groups are settled and statesChanged / roundDerived emitted
    // once when the last batch ends. A membership reconciliation of 1,024 engines, set one by one, made
    // 1,024 rounds for every listener (triage recomputes all problems each time: 200 ms at start-up).
    class FactBatch {
    public:
        explicit FactBatch(StateTracker *tracker);
        ~FactBatch();
        FactBatch(const FactBatch &) = delete;
        FactBatch &operator=(const FactBatch &) = delete;

    private:
        StateTracker *m_tracker;
    };
    // Records something the operator did (engine or node; -1 for neither) on the timeline.
    void recordAction(int engine, int node, const QString &what);
    // A known error signature seen in a log (engine, or node with engine -1): a timeline event, and the
    // engine's diagnosis fact (a triage problem until the engine is started again).
    void recordDiagnosis(int engine, int node, const QString &title, const QString &line, int repeats = 1);

    void applyProxyHealth(const pd::ProxyHealth &health);
    // Applies the store's observations of these engines (ClusterStore::enginesObserved).
    void applyObservations(const QList<int> &engines);

Q_SIGNALS:
    void reset(); // a profile was opened: every engine is new
    void statesChanged(const QList<int> &engines);
    void roundDerived();
    void proxyChanged();
    void eventsAppended(int added, int dropped);
    void diagnosed(int engine); // recordDiagnosis() changed an engine's diagnosis fact

private:
    struct Tracked {
        EngineFacts facts;
        EngineState state = EngineState::Unknown; // shown, of the last derivation, to see changes
        std::int64_t sinceMs = 0;
        EngineState own = EngineState::Unknown; // from the engine's facts alone
        std::int64_t ownSinceMs = 0;
        bool downSinceIntent = false; // a failed poll or an exit seen after the operator stopped it
    };
    void rebuild();
    // Re-derives one engine's own state (no event: settle() decides what is shown).
    void rederiveOwn(int engine, std::int64_t now);
    // After own states moved: recomputes the groups of these engines and every shown state that may have
    // changed with them; appends an event per change and returns the changed engines, ascending.
    QList<int> settle(const QList<int> &touched, std::int64_t now);
    GroupRankInput rankInput(int engine) const;
    DerivedState derivedAt(int engine, std::int64_t now, DeriveDetail detail) const;
    void appendEvent(StateEvent event);
    // One engine's fact moved (a setter): its event, then re-derive and announce.
    void appendFactEvent(int engine, StateEvent::Kind kind, const QString &what, const QString &detail, std::int64_t now);
    void factChanged(int engine, std::int64_t now);
    void endFactBatch();
    // The intent fact and its timeline event; the caller re-derives.
    void changeIntent(int engine, OperatorIntent intent, const QString &detail, const QString &why, std::int64_t now);
    void flushEvents();

    int m_factBatchDepth = 0;
    QList<int> m_batchedEngines; // own state re-derived, not settled yet
    std::int64_t m_batchedAt = 0;

    ClusterStore *m_store;
    DpGroups m_groups;
    QList<GroupState> m_groupStates;
    std::vector<int> m_groupOf; // engine -> group index, -1: none
    StateThresholds m_thresholds;
    std::function<std::int64_t()> m_now;
    std::vector<Tracked> m_engines;
    EventLog m_log;
    int m_pendingAdded = 0;
    int m_pendingDropped = 0;
    ProxyHealth m_proxy;
    bool m_proxyKnown = false;
    std::int64_t m_proxySinceMs = 0;
};

} // namespace pd
