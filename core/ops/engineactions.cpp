// SPDX-License-Identifier: MIT
#include "ops/engineactions.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "ops/dpgroupoperation.h"
#include "ops/rollingrestart.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"
#include "ops/scalerunner.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

namespace pd {

namespace {

// The plan in the operator's words (the confirmation dialog, notes). The refusal and the audit
// target stay English: they are written to the audit log.
struct EngineActionsTr {
    Q_DECLARE_TR_FUNCTIONS(pd::EngineActions)
};

bool inProxy(MembershipFact fact)
{
    return fact == MembershipFact::Active || fact == MembershipFact::Waiting || fact == MembershipFact::Draining;
}

QString verb(EngineAction action)
{
    switch (action) {
    case EngineAction::Start: return EngineActionsTr::tr("Start");
    case EngineAction::StartAndAdd: return EngineActionsTr::tr("Start and add");
    case EngineAction::Stop: return EngineActionsTr::tr("Stop");
    case EngineAction::ForceStop: return EngineActionsTr::tr("Force stop");
    case EngineAction::Restart: return EngineActionsTr::tr("Restart");
    case EngineAction::AddToProxy: return EngineActionsTr::tr("Add to the proxy");
    case EngineAction::RemoveFromProxy: return EngineActionsTr::tr("Remove from the proxy");
    case EngineAction::RestartGroup: return EngineActionsTr::tr("Restart whole DP groups:");
    }
    return {};
}

bool startsGroup(EngineAction action)
{
    return action == EngineAction::Start || action == EngineAction::StartAndAdd || action == EngineAction::AddToProxy;
}

bool stopsProcesses(EngineAction action)
{
    return action == EngineAction::Stop || action == EngineAction::ForceStop || action == EngineAction::Restart;
}

// English, for the audit target.
QString countOf(int n)
{
    return n == 1 ? QStringLiteral("1 engine") : QStringLiteral("%1 engines").arg(n);
}

QString countText(int n)
{
    return n == 1 ? EngineActionsTr::tr("1 engine") : EngineActionsTr::tr("%1 engines").arg(n);
}

const char *const kReadOnly = QT_TRANSLATE_NOOP("pd::EngineActions", "the console is in read-only mode");
const char *const kAuditFailed = QT_TRANSLATE_NOOP("pd::EngineActions", "the audit log cannot be written: acknowledge the failure "
                                                                        "in the Operations tab before changing the cluster");

} // namespace

QString engineActionName(EngineAction action)
{
    switch (action) {
    case EngineAction::Start: return QStringLiteral("start");
    case EngineAction::StartAndAdd: return QStringLiteral("start-and-add");
    case EngineAction::Stop: return QStringLiteral("stop");
    case EngineAction::ForceStop: return QStringLiteral("force-stop");
    case EngineAction::Restart: return QStringLiteral("restart");
    case EngineAction::AddToProxy: return QStringLiteral("add-to-proxy");
    case EngineAction::RemoveFromProxy: return QStringLiteral("remove-from-proxy");
    case EngineAction::RestartGroup: return QStringLiteral("restart-group");
    }
    return {};
}

const QList<EngineAction> &allEngineActions()
{
    static const QList<EngineAction> all{EngineAction::Start, EngineAction::StartAndAdd, EngineAction::Stop,
                                         EngineAction::ForceStop, EngineAction::Restart, EngineAction::AddToProxy,
                                         EngineAction::RemoveFromProxy, EngineAction::RestartGroup};
    return all;
}

QString EngineActionPlan::title() const
{
    const int n = int(engines.size());
    QString t = EngineActionsTr::tr("%1 %2", "plan title: the action, how many engines").arg(verb(action), countText(n));
    if (!scope.isEmpty())
        t += QStringLiteral(" (%1)").arg(scope);
    return t;
}

QString EngineActionPlan::refusalText() const
{
    return QCoreApplication::translate("pd::EngineActions", refusal.toUtf8().constData());
}

QString EngineActionPlan::text() const
{
    QStringList out{title()};
    if (!refusal.isEmpty())
        out << EngineActionsTr::tr("Refused: %1").arg(refusalText());
    for (const QString &line : lines)
        out << QStringLiteral("- %1").arg(line);
    if (needsOverride)
        out << EngineActionsTr::tr("- This takes the last active instance of a pool out of the proxy: every request to that pool fails "
                      "until another instance is active. It needs the explicit override.");
    for (int i = 0; i < skipped.size(); ++i)
        out << EngineActionsTr::tr("- skipped %1: %2").arg(skipped.at(i).id, skipReasons.value(i));
    return out.join(QLatin1Char('\n'));
}

EngineActions::EngineActions(ScaleContext *context, ScaleRunner *runner, QObject *parent)
    : QObject(parent)
    , m_ctx(context)
    , m_runner(runner)
{
}

bool EngineActions::isReadOnly() const
{
    return m_ctx->settings.readOnly;
}

const DpGroups &EngineActions::groups() const
{
    return m_ctx->groups;
}

EngineActionPlan EngineActions::planRestartGroup(const QString &groupId) const
{
    const DpGroup *group = m_ctx->groups.find(groupId);
    if (!group) {
        EngineActionPlan p;
        p.action = EngineAction::RestartGroup;
        p.scope = QStringLiteral("DP group %1").arg(groupId);
        p.refusal = QStringLiteral("the profile has no DP group %1").arg(groupId);
        return p;
    }
    return plan(EngineAction::RestartGroup, {}, QStringLiteral("DP group %1").arg(groupId), false, group);
}

EngineActionPlan EngineActions::plan(EngineAction action, const QList<EngineRef> &chosen, const QString &scope, bool breakGroups) const
{
    return plan(action, chosen, scope, breakGroups, nullptr);
}

namespace {

// The coupled DP groups a plan acts on as a whole: every group of the chosen engines for "Restart
// group"; for Stop and Restart, the groups whose every rank was chosen. Their ranks become one group
// operation each; the chosen ranks of other coupled groups are skipped (unless breakGroups).
QList<const DpGroup *> groupsTakenWhole(const ScaleContext &ctx, EngineAction action, const QList<EngineRef> &chosenIn,
                                        const DpGroup *onlyGroup)
{
    QList<const DpGroup *> whole;
    if (onlyGroup) {
        whole << onlyGroup;
    } else if (action == EngineAction::RestartGroup) {
        for (const EngineRef &e : chosenIn) {
            const DpGroup *g = ctx.groups.groupOfEngine(e.id);
            if (g && g->coupled && !whole.contains(g))
                whole << g;
        }
    } else if (action != EngineAction::ForceStop && action != EngineAction::RemoveFromProxy && !ctx.groups.isEmpty()) {
        QHash<const DpGroup *, int> picked;
        for (const EngineRef &e : chosenIn)
            if (const DpGroup *g = ctx.groups.groupOfEngine(e.id); g && g->coupled)
                ++picked[g];
        for (auto it = picked.cbegin(); it != picked.cend(); ++it) {
            if (it.value() < it.key()->size())
                continue;
            // A start takes the whole group only when none of its ranks is in the proxy; otherwise the
            // ranks missing from it (routed around, still running) are added back one by one.
            bool anyInProxy = false;
            for (const QString &rank : it.key()->engineIds)
                anyInProxy |= ctx.membership && inProxy(ctx.membership->fact(rank, it.key()->role));
            if (stopsProcesses(action) || !anyInProxy)
                whole << it.key();
        }
    }
    return whole;
}

// The ranks of the whole groups join the plan (each group one operation); what remains of the chosen
// engines is returned. A group with a rank WAITING in the proxy is skipped as a whole.
QList<EngineRef> takeWholeGroups(const ScaleContext &ctx, const QList<const DpGroup *> &whole, const QList<EngineRef> &chosenIn,
                                 EngineActionPlan &p)
{
    QList<EngineRef> chosen = chosenIn;
    QSet<QString> wholeIds;
    for (const DpGroup *g : std::as_const(whole))
        wholeIds.insert(g->id);
    if (!whole.isEmpty()) {
        // The groups' ranks, as given when chosen (they carry the node), else from the group itself.
        QHash<QString, EngineRef> given;
        for (const EngineRef &e : chosenIn)
            given.insert(e.id, e);
        chosen.clear();
        for (const EngineRef &e : chosenIn) {
            const DpGroup *g = ctx.groups.groupOfEngine(e.id);
            if (!g || !wholeIds.contains(g->id))
                chosen << e;
        }
        for (const DpGroup *g : std::as_const(whole)) {
            QList<EngineRef> ranks;
            bool waiting = false;
            for (int i = 0; i < g->size(); ++i) {
                const QString &id = g->engineIds.at(i);
                EngineRef e = given.value(id, EngineRef{id, g->role, QString(), g->dpRanks.value(i)});
                for (const EngineRef &known : std::as_const(ctx.engines))
                    if (e.node.isEmpty() && known.id == id)
                        e = known;
                waiting |= ctx.membership && ctx.membership->fact(id, g->role) == MembershipFact::Waiting;
                ranks << e;
            }
            if (waiting) {
                for (const EngineRef &e : std::as_const(ranks)) {
                    p.skipped << e;
                    p.skipReasons << EngineActionsTr::tr("DP group %1 has a rank WAITING in the proxy; wait until it is active or dropped").arg(g->id);
                }
                continue;
            }
            p.groups << g->id;
            p.engines << ranks;
        }
    }
    return chosen;
}

// How many engines of each kind a plan touches, for its lines.
struct PlanCounts {
    int drained = 0;
    int atOnce = 0;
    int outFirst = 0;
    int started = 0;
    int added = 0;
    int removed = 0;
};

// The single engines (not whole groups): each is counted by what happens to it, or skipped with the reason.
// leaving gains the active instances the plan takes out of the proxy, per role.
PlanCounts sortEngines(const ScaleContext &ctx, EngineAction action, bool breakGroups, const QList<EngineRef> &chosen,
                       EngineActionPlan &p, QHash<Role, int> &leaving)
{
    PlanCounts n;
    const auto skip = [&p](const EngineRef &e, const QString &why) {
        p.skipped << e;
        p.skipReasons << why;
    };
    for (const EngineRef &e : chosen) {
        const MembershipFact fact = ctx.membership ? ctx.membership->fact(e.id, e.role) : MembershipFact::Unknown;
        const bool active = fact == MembershipFact::Active;
        if (stopsProcesses(action) && !breakGroups && ctx.groups.isCoupledRank(e.id)) {
            skip(e, EngineActionsTr::tr("would break DP group %1; stop or restart the whole group, or remove it from the proxy")
                        .arg(ctx.groups.groupOfEngine(e.id)->id));
            continue;
        }
        if (fact == MembershipFact::Waiting && action != EngineAction::Start) {
            skip(e, EngineActionsTr::tr("WAITING in the proxy: stopping or re-adding it now can kill the proxy's listener; "
                           "wait until it is active or dropped"));
            continue;
        }
        switch (action) {
        case EngineAction::Start:
            if (active) {
                skip(e, EngineActionsTr::tr("already active in the proxy"));
                continue;
            }
            ++n.started;
            break;
        case EngineAction::StartAndAdd:
        case EngineAction::AddToProxy:
            if (inProxy(fact)) {
                skip(e, fact == MembershipFact::Draining
                            ? EngineActionsTr::tr("draining: re-adding does not cancel a drain; wait until it left the list")
                            : EngineActionsTr::tr("already active in the proxy"));
                continue;
            }
            ++n.added;
            break;
        case EngineAction::Stop:
            active ? ++n.drained : ++n.atOnce;
            break;
        case EngineAction::ForceStop:
            active ? ++n.outFirst : ++n.atOnce;
            break;
        case EngineAction::Restart:
            active ? ++n.drained : ++n.atOnce;
            break;
        case EngineAction::RemoveFromProxy:
            if (!active) {
                skip(e, EngineActionsTr::tr("not active in the proxy (%1)").arg(membershipFactName(fact)));
                continue;
            }
            ++n.removed;
            break;
        case EngineAction::RestartGroup:
            continue; // never reached: the groups' ranks were taken above
        }
        if (active && action != EngineAction::Start && action != EngineAction::StartAndAdd
            && action != EngineAction::AddToProxy)
            ++leaving[e.role];
        p.engines << e;
    }

    return n;
}

// Each whole group: what happens to it, and the capacity its pool lacks meanwhile.
void describeGroups(const ScaleContext &ctx, EngineAction action, EngineActionPlan &p, QHash<Role, int> &leaving)
{
    for (const QString &id : std::as_const(p.groups)) {
        const DpGroup *g = ctx.groups.find(id);
        int activeRanks = 0;
        for (const QString &rank : g->engineIds)
            activeRanks += ctx.membership && ctx.membership->fact(rank, g->role) == MembershipFact::Active;
        if (startsGroup(action)) {
            p.lines << (action == EngineAction::Start
                            ? EngineActionsTr::tr("DP group %1 (%2 ranks): all started at once, waited for with one deadline of %3 s, then left "
                                     "outside the proxy")
                            : EngineActionsTr::tr("DP group %1 (%2 ranks): all started at once, waited for with one deadline of %3 s, then all "
                                     "added to the proxy"))
                           .arg(id).arg(g->size()).arg(ctx.settings.groupReadyTimeoutMs / 1000);
            continue;
        }
        leaving[g->role] += activeRanks;
        const bool stop = action == EngineAction::Stop;
        const bool broken = !stop && ctx.isGroupBroken && ctx.isGroupBroken(id);
        if (broken) {
            p.lines << EngineActionsTr::tr(
                "DP group %1 (%2 ranks) is BROKEN: its ranks produce no tokens, so they are not drained: every rank "
                "taken out of the proxy and stopped at once (the requests they hold fail), all started together, "
                "waited for with one deadline of %3 s, all added back")
                           .arg(id)
                           .arg(g->size())
                           .arg(ctx.settings.groupReadyTimeoutMs / 1000);
            // How many fail, from the ranks' last scrapes (a dead rank's requests are lost already).
            double held = 0;
            int known = 0;
            for (const QString &rank : g->engineIds)
                if (const std::optional<double> n = ctx.requestsHeldBy ? ctx.requestsHeldBy(rank) : std::nullopt) {
                    held += *n;
                    ++known;
                }
            if (known > 0)
                p.lines << EngineActionsTr::tr(
                    "The group's ranks hold %1 request(s) now (%2 of %3 ranks scraped): they fail")
                               .arg(qRound(held))
                               .arg(known)
                               .arg(g->size());
        } else
            p.lines << (stop
                    ? EngineActionsTr::tr("DP group %1 (%2 ranks): every rank taken out of the proxy and drained, then "
                                          "all stopped together")
                          .arg(id)
                          .arg(g->size())
                    : EngineActionsTr::tr(
                        "DP group %1 (%2 ranks): every rank taken out of the proxy and drained, all stopped "
                        "(stragglers "
                        "asked again), all started together, waited for with one deadline of %3 s, all added back")
                          .arg(id)
                          .arg(g->size())
                          .arg(ctx.settings.groupReadyTimeoutMs / 1000));
        if (!stop && ctx.settings.restartProxyForDrains)
            p.lines << EngineActionsTr::tr(
                "A busy proxy removes them only when no request is in flight, and ignores an add until then: if it "
                "still drains them %1 s after their removal once they serve again, the proxy is restarted with its "
                "current lists (the requests in flight at that moment fail; counted in the audit log)")
                           .arg(drainFinaliseWaitMs(ctx) / 1000);
        const int pool = ctx.membership ? ctx.membership->activeCount(g->role) : 0;
        p.lines << (stop ? EngineActionsTr::tr("%1 loses %2 of %3 instances").arg(roleName(g->role)).arg(activeRanks).arg(pool)
                         : EngineActionsTr::tr("%1 loses %2 of %3 instances until the group serves again").arg(roleName(g->role)).arg(activeRanks).arg(pool));
    }
}

// One line per kind of single engine.
void describeCounts(EngineAction action, const PlanCounts &n, EngineActionPlan &p)
{
    const bool restart = action == EngineAction::Restart;
    if (n.started)
        p.lines << EngineActionsTr::tr("%1 outside the proxy: started and waited for until they answer /v1/models and /health, "
                          "then left outside the proxy (add them when wanted)").arg(countText(n.started));
    if (n.added)
        p.lines << EngineActionsTr::tr("%1 not in the proxy: started where not running, waited for, added, and checked to "
                          "receive traffic").arg(countText(n.added));
    if (n.drained)
        p.lines << EngineActionsTr::tr("%1 active in the proxy: %2").arg(countText(n.drained),
                       restart ? EngineActionsTr::tr("restarted one at a time (drained out, stopped, started, added back)")
                               : EngineActionsTr::tr("taken out, drained until no request runs, then stopped"));
    if (n.outFirst)
        p.lines << EngineActionsTr::tr("%1 active in the proxy: taken out and stopped at once, without a drain (their requests "
                          "in flight fail)").arg(countText(n.outFirst));
    if (n.atOnce)
        p.lines << EngineActionsTr::tr("%1 not in the proxy: %2").arg(countText(n.atOnce), restart ? EngineActionsTr::tr("stopped and started again")
                                                                                    : EngineActionsTr::tr("stopped at once"));
    if (n.removed)
        p.lines << EngineActionsTr::tr("%1 active in the proxy: taken out and drained; the processes keep running").arg(countText(n.removed));
}

} // namespace

EngineActionPlan EngineActions::plan(EngineAction action, const QList<EngineRef> &chosenIn, const QString &scope, bool breakGroups,
                                     const DpGroup *onlyGroup) const
{
    EngineActionPlan p;
    p.action = action;
    p.scope = scope;
    p.breakGroups = breakGroups;
    if (const QString invalid = invalidProfileRefusal(*m_ctx); !invalid.isEmpty())
        p.refusal = invalid;
    else if (m_ctx->settings.readOnly)
        p.refusal = QLatin1String(kReadOnly);
    else if (!mutationRefusal(*m_ctx).isEmpty())
        p.refusal = QLatin1String(kAuditFailed);

    const QList<const DpGroup *> whole = groupsTakenWhole(*m_ctx, action, chosenIn, onlyGroup);
    QList<EngineRef> chosen = whole.isEmpty() ? chosenIn : takeWholeGroups(*m_ctx, whole, chosenIn, p);
    if (action == EngineAction::RestartGroup) {
        for (const EngineRef &e : std::as_const(chosen)) {
            p.skipped << e;
            p.skipReasons << EngineActionsTr::tr("not a rank of a coupled DP group");
        }
        chosen.clear();
    }

    QHash<Role, int> leaving; // active instances this plan takes out of the proxy, per role
    const PlanCounts n = sortEngines(*m_ctx, action, breakGroups, chosen, p, leaving);
    describeGroups(*m_ctx, action, p, leaving);
    describeCounts(action, n, p);
    p.destructive = n.drained + n.outFirst + n.atOnce + n.removed > 0 || (!p.groups.isEmpty() && !startsGroup(action));
    if (m_ctx->membership) {
        for (auto it = leaving.cbegin(); it != leaving.cend(); ++it) {
            // A restart takes one out at a time per engine, but the runner runs several engines at once.
            if (m_ctx->membership->activeCount(it.key()) - it.value() < 1)
                p.needsOverride = true;
        }
    }
    return p;
}

QList<ScaleOperation *> EngineActions::run(const EngineActionPlan &plan, bool overrideLastInstance)
{
    QList<ScaleOperation *> ops;
    if (!plan.canRun(overrideLastInstance)) {
        if (!plan.refusal.isEmpty() && m_ctx->audit) {
            AuditEntry e;
            e.action = QStringLiteral("engines.") + engineActionName(plan.action);
            e.target = plan.scope.isEmpty() ? countOf(int(plan.engines.size())) : plan.scope;
            e.result = QStringLiteral("refused");
            e.detail = plan.refusal;
            m_ctx->audit->append(e);
        }
        return ops;
    }
    // Whole coupled groups: one operation each over all their ranks.
    QSet<QString> grouped;
    for (const QString &id : plan.groups) {
        const DpGroup *g = m_ctx->groups.find(id);
        if (!g)
            continue;
        QList<EngineRef> ranks;
        for (const EngineRef &e : plan.engines)
            if (g->contains(e.id)) {
                ranks << e;
                grouped.insert(e.id);
            }
        const auto mode = plan.action == EngineAction::Stop ? DpGroupOperation::Mode::ScaleIn
                          : startsGroup(plan.action)        ? DpGroupOperation::Mode::ScaleOut
                                                            : DpGroupOperation::Mode::Restart;
        auto *op = new DpGroupOperation(mode, id, ranks, m_ctx, overrideLastInstance);
        if (mode == DpGroupOperation::Mode::Restart && m_ctx->isGroupBroken)
            op->setBroken(m_ctx->isGroupBroken(id));
        if (plan.action == EngineAction::Start)
            op->setAddToProxy(false);
        m_runner->enqueue(op);
        Q_EMIT operationStarted(op);
        ops << op;
    }
    QList<EngineRef> members;
    for (const EngineRef &e : plan.engines) {
        if (grouped.contains(e.id))
            continue;
        const bool active = m_ctx->membership && m_ctx->membership->fact(e.id, e.role) == MembershipFact::Active;
        switch (plan.action) {
        case EngineAction::Start:
            ops << enqueueStart(e, false);
            break;
        case EngineAction::StartAndAdd:
        case EngineAction::AddToProxy:
            ops << enqueueStart(e, true);
            break;
        case EngineAction::Stop:
            ops << enqueueStop(e, active, overrideLastInstance);
            break;
        case EngineAction::ForceStop:
            ops << enqueueStop(e, false, overrideLastInstance, EngineActionsTr::tr("force stop", "what an engine was stopped by"));
            break;
        case EngineAction::Restart:
            if (active) {
                members << e; // one rolling restart for all of them, below
                break;
            }
            ops << enqueueStop(e, false, overrideLastInstance, EngineActionsTr::tr("restart", "what an engine was stopped by"));
            chain(ops.last(), [this, e] { enqueueStart(e, false); });
            break;
        case EngineAction::RemoveFromProxy: {
            auto *in = new ScaleIn(e, m_ctx, overrideLastInstance);
            in->setStopEngine(false);
            in->setIntentDetail(EngineActionsTr::tr("remove from the proxy", "what an engine was taken out of the proxy by"));
            m_runner->enqueue(in);
            Q_EMIT operationStarted(in);
            ops << in;
            break;
        }
        case EngineAction::RestartGroup:
            break; // its groups ran above
        }
    }
    if (!members.isEmpty()) {
        // Active engines restart one at a time, node by node, each drained out and added back only after
        // the proxy finalised the drain (§8.12), never leaving the pool without an active instance.
        auto *rolling = new RollingRestart(members, overrideLastInstance ? 0 : 1, m_ctx, m_runner, this);
        rolling->setBreakGroups(plan.breakGroups);
        connect(rolling, &RollingRestart::finished, rolling, &QObject::deleteLater);
        connect(m_runner, &ScaleRunner::operationAdded, rolling, [this, rolling](ScaleOperation *op) {
            if (rolling->state() != RollingRestart::State::Running)
                return;
            for (const EngineRef &e : rolling->engines())
                if (op->engineIds().contains(e.id)) {
                    Q_EMIT operationStarted(op);
                    return;
                }
        });
        Q_EMIT rollingRestartStarted(rolling);
        rolling->start();
    }
    return ops;
}

ScaleOperation *EngineActions::enqueueStart(const EngineRef &engine, bool addToProxy)
{
    auto *out = new ScaleOut(engine, m_ctx);
    out->setAddToProxy(addToProxy);
    m_runner->enqueue(out);
    Q_EMIT operationStarted(out);
    return out;
}

ScaleOperation *EngineActions::enqueueStop(const EngineRef &engine, bool drain, bool overrideLastInstance,
                                           const QString &intentDetail)
{
    auto *in = new ScaleIn(engine, m_ctx, overrideLastInstance);
    in->setImmediate(!drain);
    in->setIntentDetail(intentDetail);
    m_runner->enqueue(in);
    Q_EMIT operationStarted(in);
    return in;
}

void EngineActions::chain(ScaleOperation *first, std::function<void()> then)
{
    connect(first, &ScaleOperation::finished, this, [then = std::move(then)](OperationOutcome outcome) {
        if (outcome == OperationOutcome::Succeeded)
            then();
    });
}

} // namespace pd
