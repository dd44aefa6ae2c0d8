// SPDX-License-Identifier: MIT
#include "ops/restoreplan.h"

#include "cluster/instancekey.h"

#include <QSet>

namespace pd {

namespace {

QSet<QString> keysOf(const QStringList &list)
{
    QSet<QString> keys;
    for (const QString &id : list)
        keys.insert(proxyInstanceKey(id));
    return keys;
}

// The profile's engine behind a list entry, or one the profile does not name.
EngineRef refOf(const ScaleContext &context, const QString &id, Role role)
{
    const QString key = proxyInstanceKey(id);
    for (const EngineRef &e : context.engines)
        if (e.role == role && proxyInstanceKey(e.id) == key)
            return e;
    return EngineRef { id, role, QString(), -1 };
}

QString intentWord(OperatorIntent intent)
{
    return intent == OperatorIntent::Stop ? QStringLiteral("stopped") : QStringLiteral("taken out of the proxy");
}

} // namespace

int RestorePlan::addedInstances() const
{
    int n = 0;
    for (const RestoreUnit &u : toAdd)
        n += int(u.ranks.size());
    return n;
}

QString RestorePlan::describe() const
{
    QStringList lines;
    if (isNoop())
        lines << QStringLiteral(
            "Nothing to restore: the restarted proxy routes what it routed before, less what was taken "
            "out on purpose.");
    for (const RestoreUnit &u : toAdd) {
        if (u.groupId.isEmpty())
            lines << QStringLiteral("  add back %1 %2 (started first if it does not run)")
                         .arg(roleName(u.ranks.first().role), u.ranks.first().id);
        else
            lines << QStringLiteral(
                "  add back DP group %1: all %2 ranks together (started together first if none runs)")
                         .arg(u.groupId)
                         .arg(u.ranks.size());
    }
    for (const EngineRef &e : toRemove)
        lines << QStringLiteral("  take %1 %2 out of the proxy (not routed before the restart; left running)")
                     .arg(roleName(e.role), e.id);
    for (const QString &k : keptOut)
        lines << QStringLiteral("  kept out: %1").arg(k);
    return lines.join(QLatin1Char('\n'));
}

RestorePlan planRestore(const ProxyLists &previous, const ProxyLists &now, const ScaleContext &context,
    const std::function<OperatorIntent(const QString &)> &intentOf)
{
    RestorePlan plan;
    const auto intent = [&intentOf](const EngineRef &e) { return intentOf ? intentOf(e.id) : OperatorIntent::None; };
    for (const Role role : { Role::Prefill, Role::Decode }) {
        const QSet<QString> before = keysOf(previous.of(role));
        const QSet<QString> listed = keysOf(now.of(role));
        QSet<QString> doneGroups;
        for (const QString &id : previous.of(role)) {
            if (listed.contains(proxyInstanceKey(id)))
                continue;
            const EngineRef e = refOf(context, id, role);
            const DpGroup *g = context.groups.groupOfEngine(e.id);
            if (!g || !g->coupled) {
                if (const OperatorIntent i = intent(e); i != OperatorIntent::None)
                    plan.keptOut
                        << QStringLiteral("%1 %2: the operator %3 it").arg(roleName(role), e.id, intentWord(i));
                else
                    plan.toAdd << RestoreUnit { QString(), { e } };
                continue;
            }
            if (doneGroups.contains(g->id))
                continue;
            doneGroups.insert(g->id);
            RestoreUnit unit { g->id, {} };
            int missing = 0, listedRanks = 0;
            QStringList onPurpose;
            for (const QString &rank : g->engineIds) {
                const EngineRef r = refOf(context, rank, role);
                unit.ranks << r;
                const QString key = proxyInstanceKey(rank);
                missing += before.contains(key) && !listed.contains(key);
                listedRanks += listed.contains(key);
                if (intent(r) != OperatorIntent::None)
                    onPurpose << r.id;
            }
            if (!onPurpose.isEmpty())
                plan.keptOut << QStringLiteral("DP group %1: the operator took %2 of its ranks out on purpose (%3)")
                                    .arg(g->id)
                                    .arg(onPurpose.size())
                                    .arg(onPurpose.join(QStringLiteral(", ")));
            else if (listedRanks > 0 || missing < g->size())
                plan.keptOut << QStringLiteral(
                    "DP group %1: only %2 of its %3 ranks are missing; a rank alone cannot rejoin a "
                    "group: restart the group, then add it")
                                    .arg(g->id)
                                    .arg(missing)
                                    .arg(g->size());
            else
                plan.toAdd << unit;
        }
        // What the restarted proxy lists but did not route before leaves it, rank by rank as it was before.
        for (const QString &id : now.of(role))
            if (!before.contains(proxyInstanceKey(id)))
                plan.toRemove << refOf(context, id, role);
    }
    return plan;
}

} // namespace pd
