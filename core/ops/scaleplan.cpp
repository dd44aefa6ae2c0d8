// SPDX-License-Identifier: MIT
#include "ops/scaleplan.h"

#include "net/membershipreconciler.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace pd {

namespace {

// The plan as the operator reads it (the Scale dialog; pdctl, which installs no translator, prints
// it in English).
struct Tr {
    Q_DECLARE_TR_FUNCTIONS(pd::ScaleOps)
};

QString roleWord(Role role)
{
    return role == Role::Prefill ? Tr::tr("prefill") : Tr::tr("decode");
}

bool isMember(MembershipFact f)
{
    return f == MembershipFact::Active || f == MembershipFact::Waiting;
}

} // namespace

QString ScalePlan::describe() const
{
    QStringList lines;
    lines << Tr::tr("Scale the %1 pool from %2 to %3 instance(s).").arg(roleWord(role)).arg(current).arg(target);
    if (isNoop())
        lines << Tr::tr("Nothing to do.");
    for (const EngineRef &e : toStart)
        lines << Tr::tr("  start and add  %1 (node %2, rank %3)").arg(e.id, e.node).arg(e.dpRank);
    for (const EngineRef &e : toRemove)
        lines << Tr::tr("  remove and stop %1 (node %2, rank %3)").arg(e.id, e.node).arg(e.dpRank);
    if (!toRemove.isEmpty())
        lines << Tr::tr("%1 request(s) running on the leaving engines finish before they stop; new requests go elsewhere.")
                     .arg(affectedRequests);
    for (const QString &w : warnings)
        lines << Tr::tr("Warning: %1").arg(w);
    if (needsOverride)
        lines << Tr::tr("This removes the last %1 instance: every request fails until one is added. Needs the override.").arg(roleWord(role));
    if (!blocked.isEmpty())
        lines << Tr::tr("Cannot apply: %1").arg(blocked);
    return lines.join(QLatin1Char('\n'));
}

ScalePlan planPoolScale(Role role, int target, const QList<EngineRef> &profileEngines,
                        const MembershipReconciler &membership, const QHash<QString, EngineLoad> &loads,
                        const ScaleSettings &settings)
{
    ScalePlan plan;
    plan.role = role;
    plan.target = target;
    QList<EngineRef> members;
    QList<EngineRef> candidates;
    int waiting = 0;
    for (const EngineRef &e : profileEngines) {
        if (e.role != role)
            continue;
        const MembershipFact f = membership.fact(e.id, role);
        if (isMember(f)) {
            ++plan.current;
            if (f == MembershipFact::Active)
                members.append(e);
            else
                ++waiting;
        } else if (f != MembershipFact::Draining) {
            candidates.append(e);
        }
    }
    // Members the proxy has that the profile does not name count too (they are in the pool).
    for (const InstanceRecord &r : membership.records()) {
        if (r.role != role || r.configured || !isMember(r.fact))
            continue;
        ++plan.current;
        if (r.fact == MembershipFact::Active)
            members.append({r.id, role, QString(), -1});
        else
            ++waiting;
    }
    if (settings.readOnly)
        plan.blocked = Tr::tr("read-only mode");
    if (target < 0) {
        plan.blocked = Tr::tr("a pool cannot have fewer than 0 instances");
        return plan;
    }
    if (target > plan.current) {
        std::stable_sort(candidates.begin(), candidates.end(), [](const EngineRef &a, const EngineRef &b) { return a.dpRank < b.dpRank; });
        const int need = target - plan.current;
        if (need > candidates.size())
            plan.blocked = Tr::tr("the profile has only %1 more %2 engine(s) that are not in the proxy")
                               .arg(candidates.size()).arg(roleWord(role));
        plan.toStart = candidates.mid(0, need);
    } else if (target < plan.current) {
        const int leave = plan.current - target;
        if (leave > members.size())
            plan.blocked = Tr::tr("%1 instance(s) are still waiting to be activated; they cannot be removed now (§8.1)").arg(waiting);
        auto loadOf = [&loads](const EngineRef &e) {
            const auto it = loads.constFind(e.id);
            return it == loads.constEnd() ? std::numeric_limits<double>::infinity() : it->running + it->waiting;
        };
        std::stable_sort(members.begin(), members.end(), [&](const EngineRef &a, const EngineRef &b) {
            const double la = loadOf(a), lb = loadOf(b);
            return la != lb ? la < lb : a.dpRank > b.dpRank; // equal load: the highest rank leaves first
        });
        plan.toRemove = members.mid(0, leave);
        for (const EngineRef &e : std::as_const(plan.toRemove)) {
            const double l = loadOf(e);
            if (std::isinf(l))
                plan.warnings << Tr::tr("no load reading for %1").arg(e.id);
            else
                plan.affectedRequests += loads.value(e.id).running + loads.value(e.id).waiting;
        }
        if (target == 0)
            plan.needsOverride = true;
    }
    // P:D ratio after the plan.
    if (settings.minPrefillPerDecode > 0 || settings.maxPrefillPerDecode > 0) {
        const int p = role == Role::Prefill ? target : membership.activeCount(Role::Prefill);
        const int d = role == Role::Decode ? target : membership.activeCount(Role::Decode);
        const double ratio = d > 0 ? double(p) / d : std::numeric_limits<double>::infinity();
        if ((settings.minPrefillPerDecode > 0 && ratio < settings.minPrefillPerDecode)
            || (settings.maxPrefillPerDecode > 0 && ratio > settings.maxPrefillPerDecode))
            plan.warnings << Tr::tr("P:D would be %1:%2 (%3), outside the profile's bounds %4-%5")
                                 .arg(p).arg(d).arg(ratio, 0, 'f', 2)
                                 .arg(settings.minPrefillPerDecode, 0, 'f', 2).arg(settings.maxPrefillPerDecode, 0, 'f', 2);
    }
    return plan;
}

} // namespace pd
