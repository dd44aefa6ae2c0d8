// SPDX-License-Identifier: MIT
#include "audit/auditintent.h"

namespace pd {

AuditEntry engineAuditEntry(const QString &action, Role role, const QString &engineId, const QString &node, int dpRank,
                            const QString &result, const QString &detail)
{
    AuditEntry e;
    e.action = action;
    e.target = QStringLiteral("%1 %2").arg(roleName(role), engineId);
    e.params = {{"node", node.toStdString()}, {"dp_rank", dpRank}};
    e.result = result;
    e.detail = detail;
    return e;
}

AuditEntry intentAuditEntry(Role role, const QString &engineId, const QString &node, int dpRank,
                            OperatorIntent intent, const QString &detail)
{
    return engineAuditEntry(QStringLiteral("intent.") + operatorIntentName(intent), role, engineId, node, dpRank,
                            QStringLiteral("ok"), detail);
}

} // namespace pd
