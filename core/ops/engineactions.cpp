// SPDX-License-Identifier: MIT
#include "ops/engineactions.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"
#include "ops/scalerollingrestart.h"
#include "ops/scalerunner.h"

#include <QCoreApplication>
#include <QHash>

namespace pd {

namespace {

// The plan in the operator's words (the confirmation dialog, notes). The refusal and the audit
// target stay English: they are written to the audit log.
struct Tr {
    Q_DECLARE_TR_FUNCTIONS(pd::EngineActions)
};

bool inProxy(MembershipFact fact)
{
    return fact == MembershipFact::Active || fact == MembershipFact::Waiting || fact == MembershipFact::Draining;
}

QString verb(EngineAction action)
{
    switch (action) {
    case EngineAction::Start: return Tr::tr("Start");
    case EngineAction::StartAndAdd: return Tr::tr("Start and add");
    case EngineAction::Stop: return Tr::tr("Stop");
    case EngineAction::ForceStop: return Tr::tr("Force stop");
    case EngineAction::Restart: return Tr::tr("Restart");
    case EngineAction::AddToProxy: return Tr::tr("Add to the proxy");
    case EngineAction::RemoveFromProxy: return Tr::tr("Remove from the proxy");
    }
    return {};
}

// English, for the audit target.
QString countOf(int n)
{
    return n == 1 ? QStringLiteral("1 engine") : QStringLiteral("%1 engines").arg(n);
}

QString countText(int n)
{
    return n == 1 ? Tr::tr("1 engine") : Tr::tr("%1 engines").arg(n);
}

const char *const kReadOnly = QT_TRANSLATE_NOOP("pd::EngineActions", "the console is in read-only mode");

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
    }
    return {};
}

const QList<EngineAction> &allEngineActions()
{
    static const QList<EngineAction> all{EngineAction::Start, EngineAction::StartAndAdd, EngineAction::Stop,
                                         EngineAction::ForceStop, EngineAction::Restart, EngineAction::AddToProxy,
                                         EngineAction::RemoveFromProxy};
    return all;
}

QString EngineActionPlan::title() const
{
    const int n = int(engines.size());
    QString t = Tr::tr("%1 %2", "plan title: the action, how many engines").arg(verb(action), countText(n));
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
        out << Tr::tr("Refused: %1").arg(refusalText());
    for (const QString &line : lines)
        out << QStringLiteral("- %1").arg(line);
    if (needsOverride)
        out << Tr::tr("- This takes the last active instance of a pool out of the proxy: every request to that pool fails "
                      "until another instance is active (§2.3). It needs the explicit override.");
    for (int i = 0; i < skipped.size(); ++i)
        out << Tr::tr("- skipped %1: %2").arg(skipped.at(i).id, skipReasons.value(i));
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

EngineActionPlan EngineActions::plan(EngineAction action, const QList<EngineRef> &chosen, const QString &scope) const
{
    EngineActionPlan p;
    p.action = action;
    p.scope = scope;
    if (m_ctx->settings.readOnly)
        p.refusal = QLatin1String(kReadOnly);

    // Per group: how many, and what happens to them.
    int drained = 0, atOnce = 0, outFirst = 0, started = 0, added = 0, removed = 0;
    QHash<Role, int> leaving; // active instances this plan takes out of the proxy, per role
    const auto skip = [&p](const EngineRef &e, const QString &why) {
        p.skipped << e;
        p.skipReasons << why;
    };
    for (const EngineRef &e : chosen) {
        const MembershipFact fact = m_ctx->membership ? m_ctx->membership->fact(e.id, e.role) : MembershipFact::Unknown;
        const bool active = fact == MembershipFact::Active;
        if (fact == MembershipFact::Waiting && action != EngineAction::Start) {
            skip(e, Tr::tr("WAITING in the proxy: stopping or re-adding it now can kill the proxy's listener (§8.1); "
                           "wait until it is active or dropped"));
            continue;
        }
        switch (action) {
        case EngineAction::Start:
            if (active) {
                skip(e, Tr::tr("already active in the proxy"));
                continue;
            }
            ++started;
            break;
        case EngineAction::StartAndAdd:
        case EngineAction::AddToProxy:
            if (inProxy(fact)) {
                skip(e, fact == MembershipFact::Draining
                            ? Tr::tr("draining: re-adding does not cancel a drain (§8.12); wait until it left the list")
                            : Tr::tr("already active in the proxy"));
                continue;
            }
            ++added;
            break;
        case EngineAction::Stop:
            active ? ++drained : ++atOnce;
            break;
        case EngineAction::ForceStop:
            active ? ++outFirst : ++atOnce;
            break;
        case EngineAction::Restart:
            active ? ++drained : ++atOnce;
            break;
        case EngineAction::RemoveFromProxy:
            if (!active) {
                skip(e, Tr::tr("not active in the proxy (%1)").arg(membershipFactName(fact)));
                continue;
            }
            ++removed;
            break;
        }
        if (active && action != EngineAction::Start && action != EngineAction::StartAndAdd
            && action != EngineAction::AddToProxy)
            ++leaving[e.role];
        p.engines << e;
    }

    const bool restart = action == EngineAction::Restart;
    if (started)
        p.lines << Tr::tr("%1 outside the proxy: started and waited for until they answer /v1/models and /health, "
                          "then left outside the proxy (add them when wanted)").arg(countText(started));
    if (added)
        p.lines << Tr::tr("%1 not in the proxy: started where not running, waited for, added, and checked to "
                          "receive traffic").arg(countText(added));
    if (drained)
        p.lines << Tr::tr("%1 active in the proxy: %2").arg(countText(drained),
                       restart ? Tr::tr("restarted one at a time (drained out, stopped, started, added back)")
                               : Tr::tr("taken out, drained until no request runs, then stopped"));
    if (outFirst)
        p.lines << Tr::tr("%1 active in the proxy: taken out and stopped at once, without a drain (their requests "
                          "in flight fail)").arg(countText(outFirst));
    if (atOnce)
        p.lines << Tr::tr("%1 not in the proxy: %2").arg(countText(atOnce), restart ? Tr::tr("stopped and started again")
                                                                                    : Tr::tr("stopped at once"));
    if (removed)
        p.lines << Tr::tr("%1 active in the proxy: taken out and drained; the processes keep running").arg(countText(removed));
    p.destructive = drained + outFirst + atOnce + removed > 0;
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
    QList<EngineRef> members;
    for (const EngineRef &e : plan.engines) {
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
            ops << enqueueStop(e, false, overrideLastInstance);
            break;
        case EngineAction::Restart:
            if (active) {
                members << e; // one rolling restart for all of them, below
                break;
            }
            ops << enqueueStop(e, false, overrideLastInstance);
            chain(ops.last(), [this, e] { enqueueStart(e, false); });
            break;
        case EngineAction::RemoveFromProxy: {
            auto *in = new ScaleIn(e, m_ctx, overrideLastInstance);
            in->setStopEngine(false);
            m_runner->enqueue(in);
            Q_EMIT operationStarted(in);
            ops << in;
            break;
        }
        }
    }
    if (!members.isEmpty()) {
        // Active engines restart one at a time, node by node, each drained out and added back only after
        // the proxy finalised the drain (§8.12), never leaving the pool without an active instance.
        auto *rolling = new RollingRestart(members, overrideLastInstance ? 0 : 1, m_ctx, m_runner, this);
        connect(rolling, &RollingRestart::finished, rolling, &QObject::deleteLater);
        connect(m_runner, &ScaleRunner::operationAdded, rolling, [this, rolling](ScaleOperation *op) {
            if (rolling->state() == RollingRestart::State::Running && rolling->engines().contains(op->engine()))
                Q_EMIT operationStarted(op);
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

ScaleOperation *EngineActions::enqueueStop(const EngineRef &engine, bool drain, bool overrideLastInstance)
{
    auto *in = new ScaleIn(engine, m_ctx, overrideLastInstance);
    in->setImmediate(!drain);
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
