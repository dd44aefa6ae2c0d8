// SPDX-License-Identifier: MIT
#include "ops/scaleplan.h"

#include "net/membershipreconciler.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace pd {

namespace {

// The plan as the operator reads it (the Scale dialog; pdctl, which installs no translator, prints
// it in English).
struct ScalePlanTr {
    Q_DECLARE_TR_FUNCTIONS(pd::ScaleOps)
};

QString roleWord(Role role)
{
    return role == Role::Prefill ? ScalePlanTr::tr("prefill") : ScalePlanTr::tr("decode");
}

bool isMember(MembershipFact f)
{
    return f == MembershipFact::Active || f == MembershipFact::Waiting;
}

// "0, 8, 16 or 24": every reachable size when there are few, else the ones around `wanted`.
QString sizeList(const QList<int> &sizes, int wanted)
{
    QList<int> shown = sizes;
    if (shown.size() > 10) {
        qsizetype at = 0;
        while (at < shown.size() && shown.at(at) < wanted)
            ++at;
        const qsizetype from = std::clamp<qsizetype>(at - 4, 0, shown.size() - 8);
        shown = shown.mid(from, 8);
    }
    QStringList words;
    for (int s : shown)
        words << QString::number(s);
    if (words.size() == 1)
        return words.first();
    const QString last = words.takeLast();
    return ScalePlanTr::tr("%1 or %2", "a list of pool sizes").arg(words.join(QStringLiteral(", ")), last);
}

// Units (whole coupled groups) in order of preference, `need` instances wanted, and up to `flex`
// independent ranks that fill the rest: the indices of the units taken, earliest preferred, or nullopt
// when no subset of the units plus at most `flex` ranks makes exactly `need`.
std::optional<QList<int>> pickUnits(const QList<int> &sizes, int need, int flex)
{
    if (need < 0)
        return std::nullopt;
    // suffix[i][s]: some subset of units i.. sums to s.
    const int n = int(sizes.size());
    std::vector<std::vector<char>> suffix(size_t(n) + 1, std::vector<char>(size_t(need) + 1, 0));
    suffix[size_t(n)][0] = 1;
    for (int i = n - 1; i >= 0; --i) {
        suffix[size_t(i)] = suffix[size_t(i) + 1];
        for (int s = need; s >= sizes.at(i); --s)
            if (suffix[size_t(i) + 1][size_t(s - sizes.at(i))])
                suffix[size_t(i)][size_t(s)] = 1;
    }
    const auto feasible = [&](int remaining, int from) {
        for (int s = std::max(0, remaining - flex); s <= remaining; ++s)
            if (suffix[size_t(from)][size_t(s)])
                return true;
        return false;
    };
    if (!feasible(need, 0))
        return std::nullopt;
    QList<int> taken;
    int remaining = need;
    for (int i = 0; i < n; ++i) {
        if (sizes.at(i) <= remaining && feasible(remaining - sizes.at(i), i + 1)) {
            taken << i;
            remaining -= sizes.at(i);
        }
    }
    return taken;
}

// One coupled group of the pool as the plan sees it now.
struct GroupState {
    const DpGroup *group = nullptr;
    QList<EngineRef> ranks;   // rank order
    int members = 0;          // active + waiting
    int waiting = 0;
    int draining = 0;
    int dead = 0;             // listed ranks whose engine does not answer
};

} // namespace

QString ScalePlan::describe() const
{
    QStringList lines;
    lines << ScalePlanTr::tr("Scale the %1 pool from %2 to %3 instance(s).").arg(roleWord(role)).arg(current).arg(target);
    if (isNoop())
        lines << ScalePlanTr::tr("Nothing to do.");
    QSet<QString> grouped; // ranks covered by a group line
    for (const QList<EngineRef> &ranks : groupRanks)
        for (const EngineRef &e : ranks)
            grouped.insert(e.id);
    for (const QString &g : groupsToStart)
        lines << ScalePlanTr::tr("  start DP group %1: all %2 ranks at once, wait until every rank serves (one deadline), then add all")
                     .arg(g).arg(groupRanks.value(g).size());
    for (const EngineRef &e : toStart)
        if (!grouped.contains(e.id))
            lines << (byProxyRestart ? ScalePlanTr::tr("  start %1 (node %2, rank %3), listed when the proxy restarts")
                                     : ScalePlanTr::tr("  start and add  %1 (node %2, rank %3)"))
                         .arg(e.id, e.node).arg(e.dpRank);
    for (const QString &g : groupsToRemove)
        lines << ScalePlanTr::tr("  remove DP group %1: all %2 ranks out of the proxy, drained, then stopped together")
                     .arg(g).arg(groupRanks.value(g).size());
    for (const EngineRef &e : toRemove)
        if (!grouped.contains(e.id))
            lines << (byProxyRestart ? ScalePlanTr::tr("  stop %1 (node %2, rank %3) once the restarted proxy no longer lists it")
                                     : ScalePlanTr::tr("  remove and stop %1 (node %2, rank %3)"))
                         .arg(e.id, e.node).arg(e.dpRank);
    if (byProxyRestart && !isNoop()) {
        lines << ScalePlanTr::tr("This proxy cannot change its membership at runtime (no /instances API): applying RESTARTS it with the %1 "
                        "list [%2] (%3 instance(s)). Every new request fails while it restarts (seconds); it first waits until "
                        "no request is in flight.")
                     .arg(roleWord(role), listAfterRestart.join(QStringLiteral(", ")))
                     .arg(listAfterRestart.size());
    } else if (!toRemove.isEmpty()) {
        lines << ScalePlanTr::tr("%1 request(s) running on the leaving engines finish before they stop; new requests go elsewhere.")
                     .arg(affectedRequests);
    }
    if (!returningDrains.isEmpty())
        lines << ScalePlanTr::tr(
            "%n engine(s) to start are still draining out of the proxy, which ignores an add until the drain "
            "ends (only when no request is in flight). If that moment does not come, the proxy is restarted "
            "with its current lists, where allowed: the requests in flight then fail.",
            nullptr, int(returningDrains.size()));
    for (const QString &w : warnings)
        lines << ScalePlanTr::tr("Warning: %1").arg(w);
    if (needsOverride)
        lines << ScalePlanTr::tr("This removes the last %1 instance: every request fails until one is added. Needs the override.").arg(roleWord(role));
    if (!blocked.isEmpty())
        lines << ScalePlanTr::tr("Cannot apply: %1").arg(blocked);
    return lines.join(QLatin1Char('\n'));
}

QString unreachablePoolSize(const DpGroups &groups, Role role, int target)
{
    const QList<const DpGroup *> ofRole = groups.ofRole(role);
    if (std::none_of(ofRole.cbegin(), ofRole.cend(), [](const DpGroup *g) { return g->coupled; }))
        return {}; // independent ranks: the per-rank plan says what is missing
    const QList<int> sizes = groups.reachableSizes(role);
    if (target < 0 || sizes.contains(target))
        return {};
    const auto [below, above] = groups.nearestReachable(role, target);
    QString nearest;
    if (below >= 0 && above >= 0)
        nearest = ScalePlanTr::tr("the nearest are %1 and %2").arg(below).arg(above);
    else
        nearest = ScalePlanTr::tr("the nearest is %1").arg(below >= 0 ? below : above);
    return ScalePlanTr::tr("%1 can be %2: its coupled DP groups start and stop only as whole groups; %3")
        .arg(roleWord(role), sizeList(sizes, target), nearest);
}

namespace {

// The pool as it stands, read from the profile and the proxy's membership.
struct PoolPicture {
    QList<EngineRef> members;    // independent ranks active in the proxy
    QList<EngineRef> candidates; // independent ranks not in it
    QList<EngineRef> draining; // independent ranks draining out of it (they may come back, last)
    QList<GroupState> coupled;   // profile order
    QHash<QString, int> groupIndex;
    int waiting = 0;             // independent ranks WAITING in the proxy
};

// Counts the pool's members into plan (current, draining, dead in the proxy) and sorts its engines.
PoolPicture readPool(Role role, const QList<EngineRef> &profileEngines, const DpGroups &groups,
                     const MembershipReconciler &membership, const QSet<QString> &notAnswering, ScalePlan &plan)
{
    PoolPicture pool;
    QList<EngineRef> &members = pool.members;
    QList<EngineRef> &candidates = pool.candidates;
    QList<GroupState> &coupled = pool.coupled;
    QHash<QString, int> &groupIndex = pool.groupIndex;
    for (const DpGroup *g : groups.ofRole(role)) {
        if (!g->coupled)
            continue;
        groupIndex.insert(g->id, int(coupled.size()));
        coupled.append({g, {}, 0, 0, 0, 0});
    }
    int &waiting = pool.waiting;
    for (const EngineRef &e : profileEngines) {
        if (e.role != role)
            continue;
        const MembershipFact f = membership.fact(e.id, role);
        const bool dead = f == MembershipFact::Active && notAnswering.contains(e.id);
        if (dead)
            plan.deadInProxy << e.id;
        if (isMember(f) && !dead)
            ++plan.current;
        plan.draining += f == MembershipFact::Draining;
        const DpGroup *g = groups.groupOfEngine(e.id);
        if (g && g->coupled && groupIndex.contains(g->id)) {
            GroupState &st = coupled[groupIndex.value(g->id)];
            st.ranks.append(e);
            st.members += isMember(f);
            st.waiting += f == MembershipFact::Waiting;
            st.draining += f == MembershipFact::Draining;
            st.dead += dead;
            continue;
        }
        if (f == MembershipFact::Active && !dead)
            members.append(e);
        else if (f == MembershipFact::Active)
            continue; // listed but dead: neither a member to remove nor an engine to start here
        else if (f == MembershipFact::Waiting)
            ++waiting;
        else if (f == MembershipFact::Draining)
            pool.draining.append(e);
        else
            candidates.append(e);
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
    for (GroupState &st : coupled)
        std::stable_sort(st.ranks.begin(), st.ranks.end(), [](const EngineRef &a, const EngineRef &b) { return a.dpRank < b.dpRank; });
    return pool;
}

double loadOf(const QHash<QString, EngineLoad> &loads, const EngineRef &e)
{
    const auto it = loads.constFind(e.id);
    return it == loads.constEnd() ? std::numeric_limits<double>::infinity() : it->running + it->waiting;
}

// Why no whole-group plan exists from here although the target is a reachable size.
QString noWholeGroupPlan(const PoolPicture &pool, Role role, int current, int target, bool growing)
{
    QStringList why;
    for (const GroupState &st : std::as_const(pool.coupled)) {
        if (st.dead > 0)
            why << ScalePlanTr::tr("DP group %1 has %2 rank(s) that do not answer: the group is broken, restart the whole group")
                       .arg(st.group->id).arg(st.dead);
        else if (st.members > 0 && st.members < st.ranks.size())
            why << ScalePlanTr::tr("DP group %1 is partly in the proxy (%2 of %3 ranks)").arg(st.group->id).arg(st.members).arg(st.ranks.size());
        else if (!growing && st.waiting > 0)
            why << ScalePlanTr::tr("DP group %1 has %2 rank(s) still WAITING in the proxy").arg(st.group->id).arg(st.waiting);
        else if (st.draining > 0)
            why << ScalePlanTr::tr("DP group %1 has %2 rank(s) draining").arg(st.group->id).arg(st.draining);
    }
    QString text = ScalePlanTr::tr("no set of whole DP groups takes the %1 pool from %2 to %3 now").arg(roleWord(role)).arg(current).arg(target);
    if (!why.isEmpty())
        text += QStringLiteral(": ") + why.join(QStringLiteral("; "));
    return text;
}

// More instances: independent ranks by rank, or whole groups none of whose ranks is in the proxy.
void planGrowth(ScalePlan &plan, PoolPicture &pool, Role role, int target, const MembershipReconciler &membership,
    const QString &unreachable)
{
    const auto byRank = [](const EngineRef &a, const EngineRef &b) { return a.dpRank < b.dpRank; };
    std::stable_sort(pool.candidates.begin(), pool.candidates.end(), byRank);
    std::stable_sort(pool.draining.begin(), pool.draining.end(), byRank);
    pool.candidates << pool.draining; // a drained engine comes back only when no other can start
    const int need = target - plan.current;
    if (pool.coupled.isEmpty()) {
        if (need > pool.candidates.size())
            plan.blocked = ScalePlanTr::tr("the profile has only %1 more %2 engine(s) that are not in the proxy")
                               .arg(pool.candidates.size())
                               .arg(roleWord(role));
        plan.toStart = pool.candidates.mid(0, need);
    } else {
        // Whole groups none of whose ranks is in the proxy can start: first those wholly out, then those
        // still draining out of it (undoing a scale-in).
        QList<const GroupState *> startable;
        QList<int> sizes;
        for (const bool drainingToo : { false, true })
            for (const GroupState &st : std::as_const(pool.coupled))
                if (st.members == 0 && (st.draining > 0) == drainingToo) {
                    startable << &st;
                    sizes << int(st.ranks.size());
                }
        const std::optional<QList<int>> picked = pickUnits(sizes, need, int(pool.candidates.size()));
        if (!picked) {
            plan.blocked = !unreachable.isEmpty() ? unreachable : noWholeGroupPlan(pool, role, plan.current, target, true);
        } else {
            int fromGroups = 0;
            for (int i : *picked) {
                plan.groupsToStart << startable.at(i)->group->id;
                plan.toStart << startable.at(i)->ranks;
                plan.groupRanks.insert(startable.at(i)->group->id, startable.at(i)->ranks);
                fromGroups += sizes.at(i);
            }
            plan.toStart << pool.candidates.mid(0, need - fromGroups);
        }
    }
    for (const EngineRef &e : std::as_const(plan.toStart))
        if (membership.fact(e.id, role) == MembershipFact::Draining)
            plan.returningDrains << e.id;
}

// Fewer instances: the least loaded leave first, independent ranks or whole groups.
void planShrink(ScalePlan &plan, PoolPicture &pool, Role role, int target, const MembershipReconciler &membership,
                const QHash<QString, EngineLoad> &loads, const QString &unreachable)
{
    const int leave = plan.current - target;
    std::stable_sort(pool.members.begin(), pool.members.end(), [&](const EngineRef &a, const EngineRef &b) {
        const double la = loadOf(loads, a), lb = loadOf(loads, b);
        return la != lb ? la < lb : a.dpRank > b.dpRank; // equal load: the highest rank leaves first
    });
    if (pool.coupled.isEmpty()) {
        if (leave > pool.members.size())
            plan.blocked = ScalePlanTr::tr("%1 instance(s) are still waiting to be activated; they cannot be removed now").arg(pool.waiting);
        plan.toRemove = pool.members.mid(0, leave);
    } else {
        // Groups wholly in the proxy with every rank active can leave, least loaded first; a partly
        // listed group (a rank routed around) leaves with the ranks it has in the proxy.
        QList<const GroupState *> removable;
        for (const GroupState &st : std::as_const(pool.coupled))
            if (st.members > 0 && st.waiting == 0 && st.draining == 0)
                removable << &st;
        auto groupLoad = [&](const GroupState *st) {
            double sum = 0;
            for (const EngineRef &e : st->ranks)
                if (membership.fact(e.id, role) == MembershipFact::Active)
                    sum += loadOf(loads, e);
            return sum;
        };
        std::stable_sort(removable.begin(), removable.end(), [&](const GroupState *a, const GroupState *b) {
            const double la = groupLoad(a), lb = groupLoad(b);
            return la != lb ? la < lb : pool.groupIndex.value(a->group->id) > pool.groupIndex.value(b->group->id);
        });
        QList<int> sizes;
        for (const GroupState *st : std::as_const(removable))
            sizes << st->members;
        const std::optional<QList<int>> picked = pickUnits(sizes, leave, int(pool.members.size()));
        if (!picked) {
            plan.blocked = !unreachable.isEmpty() ? unreachable : noWholeGroupPlan(pool, role, plan.current, target, false);
        } else {
            int fromGroups = 0;
            for (int i : *picked) {
                const GroupState *st = removable.at(i);
                plan.groupsToRemove << st->group->id;
                plan.groupRanks.insert(st->group->id, st->ranks);
                for (const EngineRef &e : st->ranks)
                    if (membership.fact(e.id, role) == MembershipFact::Active)
                        plan.toRemove << e;
                fromGroups += sizes.at(i);
            }
            plan.toRemove << pool.members.mid(0, leave - fromGroups);
        }
    }
    for (const EngineRef &e : std::as_const(plan.toRemove)) {
        const double l = loadOf(loads, e);
        if (std::isinf(l))
            plan.warnings << ScalePlanTr::tr("no load reading for %1").arg(e.id);
        else
            plan.affectedRequests += loads.value(e.id).running + loads.value(e.id).waiting;
    }
    if (target == 0)
        plan.needsOverride = true;
}

// The P:D ratio after the plan, against the profile's bounds.
void warnRatio(ScalePlan &plan, Role role, int target, const MembershipReconciler &membership, const ScaleSettings &settings)
{
    if (settings.minPrefillPerDecode <= 0 && settings.maxPrefillPerDecode <= 0)
        return;
    const int p = role == Role::Prefill ? target : membership.activeCount(Role::Prefill);
    const int d = role == Role::Decode ? target : membership.activeCount(Role::Decode);
    const double ratio = d > 0 ? double(p) / d : std::numeric_limits<double>::infinity();
    if ((settings.minPrefillPerDecode > 0 && ratio < settings.minPrefillPerDecode)
        || (settings.maxPrefillPerDecode > 0 && ratio > settings.maxPrefillPerDecode))
        plan.warnings << ScalePlanTr::tr("P:D would be %1:%2 (%3), outside the profile's bounds %4-%5")
                             .arg(p).arg(d).arg(ratio, 0, 'f', 2)
                             .arg(settings.minPrefillPerDecode, 0, 'f', 2).arg(settings.maxPrefillPerDecode, 0, 'f', 2);
}

} // namespace

ScalePlan planPoolScale(Role role, int target, const QList<EngineRef> &profileEngines, const DpGroups &groups,
                        const MembershipReconciler &membership, const QHash<QString, EngineLoad> &loads,
                        const ScaleSettings &settings, const QSet<QString> &notAnswering)
{
    ScalePlan plan;
    plan.role = role;
    plan.target = target;
    PoolPicture pool = readPool(role, profileEngines, groups, membership, notAnswering, plan);
    if (settings.profileErrors > 0)
        plan.blocked = ScalePlanTr::tr("the profile has %1 validation error(s): fix them first").arg(settings.profileErrors);
    else if (settings.readOnly)
        plan.blocked = ScalePlanTr::tr("read-only mode");
    if (target < 0) {
        plan.blocked = ScalePlanTr::tr("a pool cannot have fewer than 0 instances");
        return plan;
    }
    const QString unreachable = pool.coupled.isEmpty() ? QString() : unreachablePoolSize(groups, role, target);
    if (target > plan.current)
        planGrowth(plan, pool, role, target, membership, unreachable);
    else if (target < plan.current)
        planShrink(plan, pool, role, target, membership, loads, unreachable);
    if (!plan.deadInProxy.isEmpty())
        plan.warnings << ScalePlanTr::tr("%n listed instance(s) do not answer and are not counted (dead in the proxy, which keeps routing to "
                                "them): %1. Take them out with Remove from proxy, or restart them", nullptr, int(plan.deadInProxy.size()))
                             .arg(plan.deadInProxy.join(QStringLiteral(", ")));
    warnRatio(plan, role, target, membership, settings);
    return plan;
}

} // namespace pd
