// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/scalecontext.h"
#include "ops/scaletypes.h"
#include "state/enginestate.h"

#include <QList>
#include <QStringList>

#include <functional>

// "Restore membership" after a proxy restart, as a plan the operator reads and confirms before anything
// runs (docs/scaling.md). The restarted proxy lists its command line; the console remembers what was
// routed before (the last lists read while healthy, less what was draining out: MembershipReconciler's
// restartDetected). The plan:
//   - brings back what was routed before and is missing now: a coupled DP group as one unit (its ranks
//     started together where none runs, then added in one call: DpGroupOperation), an independent rank
//     alone (ScaleOut);
//   - never brings back what the operator took out on purpose (an engine whose intent is Drain or Stop:
//     a scale-in, a stop, a removal), nor a group only part of which is missing (a rank alone cannot
//     rejoin it: restart the group);
//   - takes out of the proxy what it lists now but did not route before (left running: ScaleIn without
//     the stop).
namespace pd {

struct RestoreUnit {
    QString groupId; // a coupled DP group, or empty: one independent engine
    QList<EngineRef> ranks; // the group's ranks in rank order, or the one engine
};

struct RestorePlan {
    QList<RestoreUnit> toAdd;
    QList<EngineRef> toRemove;
    QStringList keptOut; // one line each: what is not brought back, and why

    bool isNoop() const { return toAdd.isEmpty() && toRemove.isEmpty(); }
    int addedInstances() const;
    // Several lines an operator reads before confirming (English: the audit log and pdctl print it too).
    QString describe() const;
};

// intentOf: what the operator asked of an engine (the console's state tracker); unset: no intent known.
RestorePlan planRestore(const ProxyLists &previous, const ProxyLists &now, const ScaleContext &context,
    const std::function<OperatorIntent(const QString &engineId)> &intentOf = {});

} // namespace pd
