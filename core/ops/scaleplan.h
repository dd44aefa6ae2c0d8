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
// and the guardrails (last instance, P:D ratio, read-only).
namespace pd {

class MembershipReconciler;

struct ScalePlan {
    Role role = Role::Decode;
    int current = 0;               // active + waiting members of the pool now
    int target = 0;
    QList<EngineRef> toStart;      // rank order
    QList<EngineRef> toRemove;     // least loaded first
    double affectedRequests = 0;   // requests running on the engines that leave (they finish first)
    QStringList warnings;          // P:D ratio, engines with unknown load, ...
    QString blocked;               // non-empty: the plan cannot be applied as is
    bool needsOverride = false;    // empties the pool: needs the explicit last-instance override

    bool isNoop() const { return toStart.isEmpty() && toRemove.isEmpty(); }
    bool canApply(bool overrideGiven) const { return blocked.isEmpty() && (!needsOverride || overrideGiven); }
    // Several lines an operator reads before confirming.
    QString describe() const;
};

// loads: the engines' own /metrics (by EngineRef::id); an engine without a reading counts as the
// most loaded (it leaves last).
ScalePlan planPoolScale(Role role, int target, const QList<EngineRef> &profileEngines,
                        const MembershipReconciler &membership, const QHash<QString, EngineLoad> &loads,
                        const ScaleSettings &settings);

} // namespace pd
