// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scaletypes.h"
#include "state/enginestate.h"

#include <QHash>
#include <QStringList>

// "Scale the decode pool to N": which stopped engines of the profile start (rank order), which
// members leave (least loaded first, never a WAITING one), the in-flight requests that affects,
// and the guardrails (last instance, P:D ratio, read-only). The ranks of a coupled DP group start and
// leave only as a whole group (docs/scaling.md): a target no set of whole groups reaches is refused,
// naming the sizes that are reachable.
namespace pd {

class MembershipReconciler;

struct ScalePlan {
    Role role = Role::Decode;
    int current = 0;               // serving (active and answering) + waiting members of the pool now
    QStringList deadInProxy;       // listed members whose engine does not answer: not counted
    int draining = 0; // engines draining out of the proxy (not members)
    // Of toStart, engines the proxy still drains (a scale-in being undone): the add step first waits for
    // the proxy to finalise their drain, then takes the confirmed way out (ScaleSettings::restartProxyForDrains).
    QStringList returningDrains;
    int target = 0;
    QList<EngineRef> toStart;      // rank order
    QList<EngineRef> toRemove;     // least loaded first
    QStringList groupsToStart;     // coupled DP groups whose ranks in toStart start together (group ids)
    QStringList groupsToRemove;    // coupled DP groups whose ranks in toRemove leave together
    QHash<QString, QList<EngineRef>> groupRanks; // every rank of those groups (rank order), listed or not
    double affectedRequests = 0;   // requests running on the engines that leave (they finish first)
    QStringList warnings;          // P:D ratio, engines with unknown load, ...
    QString blocked;               // non-empty: the plan cannot be applied as is
    bool needsOverride = false;    // empties the pool: needs the explicit last-instance override
    // Set when the proxy has no /instances API: the plan is applied by restarting the proxy with the new
    // lists (ProxyRestartScale); describe() says so instead of the per-engine add/remove wording.
    bool byProxyRestart = false;
    QStringList listAfterRestart;  // the role's list the proxy restarts with

    bool isNoop() const { return toStart.isEmpty() && toRemove.isEmpty(); }
    bool canApply(bool overrideGiven) const { return blocked.isEmpty() && (!needsOverride || overrideGiven); }
    // Several lines an operator reads before confirming.
    QString describe() const;
};

// loads: the engines' own /metrics (by EngineRef::id); an engine without a reading counts as the
// most loaded (it leaves last). groups: the profile's DP groups (empty: every engine independent).
// Coupled groups start in profile order and leave least loaded first (summed over their ranks); a group
// with a WAITING or DRAINING rank is never removed; one whose ranks all left the proxy, some still draining
// out of it, may start again (returningDrains), after the groups and ranks that are wholly out.
// notAnswering: listed members whose engine does not answer at all (EngineProbe::poolReadings). They do
// not serve, so they do not count toward the pool's size: a scale-out starts other engines in their
// place, and the plan names them (take them out of the proxy, or restart them).
ScalePlan planPoolScale(Role role, int target, const QList<EngineRef> &profileEngines, const DpGroups &groups,
                        const MembershipReconciler &membership, const QHash<QString, EngineLoad> &loads,
                        const ScaleSettings &settings, const QSet<QString> &notAnswering = {});

// Refusal text when `target` is no pool size whole groups reach ("decode can be 0 or 64: ..."), empty
// when it is or when the role has no coupled group. Needs only the profile: pdctl checks it before it connects to anything.
QString unreachablePoolSize(const DpGroups &groups, Role role, int target);

} // namespace pd
