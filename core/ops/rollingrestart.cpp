// SPDX-License-Identifier: MIT
#include "ops/rollingrestart.h"

#include "net/membershipreconciler.h"
#include "ops/dpgroupoperation.h"
#include "ops/scalein.h"
#include "ops/scaleout.h"
#include "ops/scalerunner.h"

#include <QCoreApplication>
#include <QPointer>
#include <QTimer>

#include <algorithm>

namespace pd {

namespace {

// Pause reasons and progress lines, for the Operations tab (nothing here is audited).
struct RollingRestartTr {
    Q_DECLARE_TR_FUNCTIONS(pd::ScaleOps)
};

QString restartRoleWord(Role role)
{
    return role == Role::Prefill ? RollingRestartTr::tr("prefill") : RollingRestartTr::tr("decode");
}

} // namespace

RollingRestart::RollingRestart(
    QList<EngineRef> engines, int floor, ScaleContext *context, ScaleRunner *runner, QObject *parent)
    : QObject(parent)
    , m_engines(std::move(engines))
    , m_floor(qMax(0, floor))
    , m_ctx(context)
    , m_runner(runner)
{
    // Node by node (in the order nodes first appear), rank order inside a node.
    QStringList nodes;
    for (const EngineRef &e : std::as_const(m_engines))
        if (!nodes.contains(e.node))
            nodes << e.node;
    std::stable_sort(m_engines.begin(), m_engines.end(), [&nodes](const EngineRef &a, const EngineRef &b) {
        const qsizetype na = nodes.indexOf(a.node), nb = nodes.indexOf(b.node);
        return na != nb ? na < nb : a.dpRank < b.dpRank;
    });
    buildUnits(true);
}

void RollingRestart::setBreakGroups(bool breakGroups)
{
    if (m_state == State::Idle)
        buildUnits(!breakGroups);
}

void RollingRestart::buildUnits(bool groups)
{
    // A coupled rank brings its whole group, in the place of its first rank; every rank of the group
    // restarts, chosen or not (restarting some would break it).
    m_units.clear();
    QHash<QString, int> unitOfGroup;
    for (const EngineRef &e : std::as_const(m_engines)) {
        const DpGroup *g = groups ? m_ctx->groups.groupOfEngine(e.id) : nullptr;
        if (!g || !g->coupled) {
            m_units.append({ QString(), { e } });
            continue;
        }
        if (unitOfGroup.contains(g->id))
            continue;
        unitOfGroup.insert(g->id, int(m_units.size()));
        Unit unit { g->id, {} };
        for (int i = 0; i < g->size(); ++i) {
            EngineRef rank { g->engineIds.at(i), g->role, QString(), g->dpRanks.value(i) };
            for (const EngineRef &known : std::as_const(m_ctx->engines))
                if (known.id == rank.id)
                    rank = known;
            for (const EngineRef &chosen : std::as_const(m_engines))
                if (chosen.id == rank.id)
                    rank = chosen;
            unit.engines << rank;
        }
        m_units.append(unit);
    }
}

void RollingRestart::start()
{
    if (m_state != State::Idle)
        return;
    if (const QString refusal = mutationRefusal(*m_ctx); !refusal.isEmpty())
        return pause(refusal);
    m_state = State::Running;
    next();
}

void RollingRestart::resume()
{
    if (m_state != State::Paused)
        return;
    if (const QString refusal = mutationRefusal(*m_ctx); !refusal.isEmpty())
        return pause(refusal);
    m_state = State::Running;
    m_reason.clear();
    next();
}

void RollingRestart::cancel()
{
    if (m_state == State::Finished || m_state == State::Cancelled)
        return;
    m_state = State::Cancelled;
    if (m_current)
        m_current->cancel();
    Q_EMIT finished();
}

void RollingRestart::pause(const QString &reason)
{
    m_state = State::Paused;
    m_reason = reason;
    Q_EMIT paused(reason);
}

void RollingRestart::next()
{
    if (m_state != State::Running)
        return;
    if (m_index >= m_units.size()) {
        m_state = State::Finished;
        Q_EMIT finished();
        return;
    }
    if (!m_units.at(m_index).groupId.isEmpty())
        return restartGroup(m_units.at(m_index).groupId, m_units.at(m_index).engines);
    const EngineRef engine = m_units.at(m_index).engines.first();
    if (m_stopped) // paused after the stop: resume brings it back
        return bringBack(engine);
    // The table answers later: a rolling restart cancelled (and deleted) meanwhile must not be touched.
    m_ctx->membership->reconcileNow([self = QPointer<RollingRestart>(this), engine](bool listed) {
        if (self)
            self->afterMembershipRead(engine, listed);
    });
}

void RollingRestart::afterMembershipRead(const EngineRef &engine, bool listed)
{
    if (m_state != State::Running)
        return;
    if (!listed)
        return pause(
            RollingRestartTr::tr("cannot read the proxy's membership: %1").arg(m_ctx->membership->lastError()));
    if (m_ctx->membership->fact(engine.id, engine.role) != MembershipFact::Active) {
        ++m_index;
        Q_EMIT progressed(m_index, total(),
            RollingRestartTr::tr("%1 skipped: not active in the proxy (%2)")
                .arg(engine.id, membershipFactName(m_ctx->membership->fact(engine.id, engine.role))));
        return next();
    }
    const int remaining = m_ctx->membership->activeCount(engine.role) - 1;
    if (remaining < m_floor)
        return pause(RollingRestartTr::tr("restarting %1 would leave %2 active %3 instance(s), below the floor of %4")
                         .arg(engine.id)
                         .arg(remaining)
                         .arg(restartRoleWord(engine.role))
                         .arg(m_floor));
    auto *in = new ScaleIn(engine, m_ctx, false);
    in->setIntentDetail(QCoreApplication::translate("pd::ScaleOps", "rolling restart"));
    m_current = in;
    connect(in, &ScaleOperation::finished, this, [this, in, engine](OperationOutcome outcome) {
        if (m_state != State::Running)
            return;
        if (outcome != OperationOutcome::Succeeded)
            return pause(QStringLiteral("%1: %2").arg(engine.id, in->summary()));
        m_stopped = true;
        bringBack(engine);
    });
    m_runner->enqueue(in);
}

void RollingRestart::restartGroup(const QString &groupId, const QList<EngineRef> &ranks)
{
    m_ctx->membership->reconcileNow([self = QPointer<RollingRestart>(this), groupId, ranks](bool listed) {
        if (self)
            self->afterGroupMembershipRead(groupId, ranks, listed);
    });
}

void RollingRestart::afterGroupMembershipRead(const QString &groupId, const QList<EngineRef> &ranks, bool listed)
{
    if (m_state != State::Running)
        return;
    if (!listed)
        return pause(
            RollingRestartTr::tr("cannot read the proxy's membership: %1").arg(m_ctx->membership->lastError()));
    const Role role = ranks.first().role;
    int active = 0;
    for (const EngineRef &e : ranks)
        active += m_ctx->membership->fact(e.id, role) == MembershipFact::Active;
    if (active == 0) {
        ++m_index;
        Q_EMIT progressed(m_index, total(),
            RollingRestartTr::tr("DP group %1 skipped: none of its ranks is active in the proxy").arg(groupId));
        return next();
    }
    const int remaining = m_ctx->membership->activeCount(role) - active;
    if (remaining < m_floor)
        return pause(
            RollingRestartTr::tr("restarting DP group %1 would leave %2 active %3 instance(s), below the floor of %4")
                .arg(groupId)
                .arg(remaining)
                .arg(restartRoleWord(role))
                .arg(m_floor));
    auto *op = new DpGroupOperation(DpGroupOperation::Mode::Restart, groupId, ranks, m_ctx, m_floor == 0);
    m_current = op;
    connect(op, &ScaleOperation::finished, this, [this, op, groupId](OperationOutcome outcome) {
        if (m_state != State::Running)
            return;
        if (outcome != OperationOutcome::Succeeded)
            return pause(QStringLiteral("%1: %2").arg(groupId, op->summary()));
        ++m_index;
        Q_EMIT progressed(m_index, total(), RollingRestartTr::tr("DP group %1 restarted").arg(groupId));
        next();
    });
    m_runner->enqueue(op);
}

void RollingRestart::bringBack(const EngineRef &engine)
{
    // Re-adding a draining instance is a no-op and it is removed after the drain (§8.12): wait until
    // the proxy finalised the drain, which needs a listener round with no request in flight (§8.3).
    if (m_ctx->membership->fact(engine.id, engine.role) == MembershipFact::Draining) {
        if (!m_drainClock.isValid())
            m_drainClock.start();
        if (m_drainClock.elapsed() > m_ctx->settings.idleTimeoutMs) {
            m_drainClock.invalidate();
            return pause(
                RollingRestartTr::tr("%1 is stopped but the proxy still lists it as draining after %2 s: the proxy "
                                     "finalises drains only when no request is in flight; resume when traffic allows")
                    .arg(engine.id)
                    .arg(m_ctx->settings.idleTimeoutMs / 1000));
        }
        Q_EMIT progressed(m_index, total(),
            RollingRestartTr::tr("%1 stopped; waiting for the proxy to finalise its drain").arg(engine.id));
        QTimer::singleShot(m_ctx->settings.pollMs, this, [this, engine] {
            if (m_state != State::Running)
                return;
            m_ctx->membership->reconcileNow([self = QPointer<RollingRestart>(this), engine](bool) {
                if (self && self->m_state == State::Running)
                    self->bringBack(engine);
            });
        });
        return;
    }
    m_drainClock.invalidate();
    auto *out = new ScaleOut(engine, m_ctx);
    m_current = out;
    connect(out, &ScaleOperation::finished, this, [this, out, engine](OperationOutcome o) {
        if (m_state != State::Running)
            return;
        if (o != OperationOutcome::Succeeded)
            return pause(
                RollingRestartTr::tr("%1 was stopped but did not come back: %2").arg(engine.id, out->summary()));
        m_stopped = false;
        ++m_index;
        Q_EMIT progressed(m_index, total(), RollingRestartTr::tr("%1 restarted").arg(engine.id));
        next();
    });
    m_runner->enqueue(out);
}

} // namespace pd
