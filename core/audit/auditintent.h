// SPDX-License-Identifier: MIT
#pragma once

#include "audit/auditlog.h"
#include "cluster/profile.h"
#include "state/enginestate.h"

// The audit line that says what the operator means for one engine: action "intent.none|drain|stop",
// target "<role> <host:port>", params node and dp_rank, detail the action behind it. Every console that
// follows the same audit log reads it back (AuditIntentFeed), so an engine stopped by pdctl or by
// another console reads as stopped, not as crashed.
namespace pd {

// A line about one engine: target "<role> <host:port>", params node and dp_rank.
AuditEntry engineAuditEntry(const QString &action, Role role, const QString &engineId, const QString &node, int dpRank,
                            const QString &result, const QString &detail);
AuditEntry intentAuditEntry(Role role, const QString &engineId, const QString &node, int dpRank,
                            OperatorIntent intent, const QString &detail);

} // namespace pd
