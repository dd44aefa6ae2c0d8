// SPDX-License-Identifier: MIT
#include "audit/auditintent.h"

namespace pd {

AuditEntry intentAuditEntry(Role role, const QString &engineId, const QString &node, int dpRank,
                            OperatorIntent intent, const QString &detail)
{
    AuditEntry e;
    e.action = QStringLiteral("intent.") + operatorIntentName(intent);
    e.target = QStringLiteral("%1 %2").arg(roleName(role), engineId);
    e.params = {{"node", node.toStdString()}, {"dp_rank", dpRank}};
    e.result = QStringLiteral("ok");
    e.detail = detail;
    return e;
}

} // namespace pd
