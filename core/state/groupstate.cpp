// SPDX-License-Identifier: MIT
#include "state/groupstate.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace pd {

namespace {

struct GroupStateTr {
    Q_DECLARE_TR_FUNCTIONS(pd::GroupState)
};

bool isUp(EngineState s)
{
    switch (s) {
    case EngineState::ReadyNotInProxy:
    case EngineState::WaitingInProxy:
    case EngineState::Serving:
    case EngineState::Draining:
    case EngineState::Stalled:
    case EngineState::GroupBroken: // an overlaid state given back: the process is alive
        return true;
    default:
        return false;
    }
}

bool isFailed(EngineState s)
{
    return s == EngineState::Unreachable || s == EngineState::Unhealthy;
}

std::int64_t diedAt(const GroupRankInput &r)
{
    return r.diedAtMs > 0 ? r.diedAtMs : r.sinceMs;
}

} // namespace

bool isLiveRankState(EngineState state)
{
    return isUp(state) || state == EngineState::Starting;
}

EngineState rankStateInGroup(EngineState own, bool coupled, GroupHealth health)
{
    if (coupled && health == GroupHealth::Broken && isLiveRankState(own))
        return EngineState::GroupBroken;
    return own;
}

GroupState deriveGroupState(bool coupled, const QList<GroupRankInput> &ranks)
{
    GroupState g;
    int up = 0, starting = 0, stopped = 0, unknown = 0;
    // When the current start began: the earliest rank now starting.
    std::int64_t startedAt = std::numeric_limits<std::int64_t>::max();
    for (const GroupRankInput &r : ranks) {
        if (isUp(r.state))
            ++up;
        else if (r.state == EngineState::Starting) {
            ++starting;
            startedAt = std::min(startedAt, r.sinceMs);
        } else if (r.state == EngineState::Stopped)
            ++stopped;
        else if (r.state == EngineState::Unknown)
            ++unknown;
    }
    g.live = up + starting;
    if (ranks.isEmpty() || unknown == ranks.size())
        return g;
    if (stopped == ranks.size()) {
        g.health = GroupHealth::Stopped;
        return g;
    }

    for (int i = 0; i < ranks.size(); ++i) {
        const GroupRankInput &r = ranks.at(i);
        bool dead = isFailed(r.state);
        if (coupled && r.state == EngineState::Stopped)
            dead = up > 0 || (starting > 0 && r.ranBefore && diedAt(r) >= startedAt);
        if (dead)
            g.dead.append({ i, r.state, diedAt(r) });
    }
    if (!g.dead.isEmpty()) {
        g.brokenSinceMs = g.dead.first().sinceMs;
        for (const GroupDeadRank &d : std::as_const(g.dead))
            g.brokenSinceMs = std::min(g.brokenSinceMs, d.sinceMs);
        // Broken needs a survivor that hangs; with every rank down the group is simply not running.
        g.health = g.live == 0 ? GroupHealth::Stopped : coupled ? GroupHealth::Broken : GroupHealth::Degraded;
        return g;
    }
    if (up == ranks.size())
        g.health = GroupHealth::Serving;
    else if (starting > 0 || (coupled && up > 0))
        g.health = GroupHealth::Starting; // a coupled group serves only once every rank has joined
    else if (up > 0)
        g.health = GroupHealth::Serving; // independent: the up ranks serve, the stopped ones are a choice
    else
        g.health = GroupHealth::Unknown; // stopped and not yet observed ranks only
    return g;
}

QString groupHealthName(GroupHealth health)
{
    static constexpr const char *names[] = { "unknown", "stopped", "starting", "serving", "degraded", "broken" };
    return enumName(health, names, "unknown");
}

QString groupHealthLabel(GroupHealth health)
{
    switch (health) {
    case GroupHealth::Unknown:
        return GroupStateTr::tr("Unknown");
    case GroupHealth::Stopped:
        return GroupStateTr::tr("Stopped");
    case GroupHealth::Starting:
        return GroupStateTr::tr("Starting");
    case GroupHealth::Serving:
        return GroupStateTr::tr("Serving");
    case GroupHealth::Degraded:
        return GroupStateTr::tr("Degraded");
    case GroupHealth::Broken:
        return GroupStateTr::tr("Broken");
    }
    return GroupStateTr::tr("Unknown");
}

} // namespace pd
