// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "util/enumnames.h"

#include <QList>
#include <QString>

#include <cstdint>

// The state of one DP group, derived from its ranks' own states (docs/state-and-triage.md, "Groups").
// On a MoE model the ranks of a group sync in every forward pass (docs/specs/dp-groups.md §3): when one dies
// the others block in the next collective, still answering /health 200 but producing no token. So a
// coupled group with a dead rank is broken as a whole, and its live ranks show GroupBroken. Pure.
namespace pd {

enum class GroupHealth {
    Unknown,  // no rank observed yet
    Stopped,  // no rank alive: every rank stopped (or down: then `dead` names the ones that failed)
    Starting, // ranks coming up, none dead
    Serving,  // every rank up (serving, ready, draining, ...)
    Degraded, // independent ranks only: some dead, the others serve on
    Broken,   // a coupled group with a dead rank and live ranks that hang
};
// Broken is the last value: a value after it moves this count.
template<> inline constexpr std::size_t enumCount<GroupHealth> = std::size_t(GroupHealth::Broken) + 1;

// What the group derivation needs of one rank.
struct GroupRankInput {
    EngineState state = EngineState::Unknown; // the rank's own derived state (deriveState, no group overlay)
    std::int64_t sinceMs = 0;   // when that state began
    bool ranBefore = false;     // it answered once, or its process was seen to exit: gone, not "never started"
    std::int64_t diedAtMs = 0;  // the best known time it went down (first failed poll, process exit); 0: sinceMs
};

struct GroupDeadRank {
    int rank = -1; // position in the group's rank list (DpGroup::engines order)
    EngineState state = EngineState::Unknown;
    std::int64_t sinceMs = 0; // when it went down
    bool operator==(const GroupDeadRank &) const = default;
};

struct GroupState {
    GroupHealth health = GroupHealth::Unknown;
    QList<GroupDeadRank> dead; // in rank order
    std::int64_t brokenSinceMs = 0; // the first death, when health is Broken or Degraded
    int live = 0; // ranks still up or starting: the survivors that hang when a coupled group is broken
    bool operator==(const GroupState &) const = default;
};

// A rank counts as dead when it is unreachable or unhealthy, or stopped while the group runs: another rank
// is up, or the group is starting and the rank went down after that start began (it crashed during
// start-up). A rank that is stopped and never ran while the others start is only not started yet.
// Independent groups: only unreachable and unhealthy ranks are dead (stopping one is a choice).
GroupState deriveGroupState(bool coupled, const QList<GroupRankInput> &ranks);

// Whether a rank in this state is alive and so held by a broken coupled group: it shows GroupBroken.
bool isLiveRankState(EngineState state);
// The state a rank shows: GroupBroken for the live ranks of a broken coupled group, its own state otherwise.
EngineState rankStateInGroup(EngineState own, bool coupled, GroupHealth health);

QString groupHealthName(GroupHealth health); // "serving", "broken", ... (stable ids, pdctl --json)
QString groupHealthLabel(GroupHealth health); // translated

} // namespace pd
