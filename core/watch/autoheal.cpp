// SPDX-License-Identifier: MIT
#include "watch/autoheal.h"

#include "ops/dpgroupoperation.h"
#include "ops/scalecontext.h"
#include "ops/scalerunner.h"
#include "state/statetracker.h"
#include "watch/problemtransitions.h"

namespace pd {

namespace {

constexpr std::int64_t kHourMs = 3600 * 1000;
// An intent read back from the audit log within this much of one this healer declared is its own line.
constexpr std::int64_t kOwnEchoMs = 30 * 1000;

} // namespace

AutoHeal::AutoHeal(StateTracker *tracker, ScaleContext *ctx, ScaleRunner *runner, QObject *parent)
    : QObject(parent)
    , m_tracker(tracker)
    , m_ctx(ctx)
    , m_runner(runner)
{
    // Every operation of this process is this healer's doing, not an operator's (its audit lines come back
    // through the shared log's intent feed).
    connect(m_runner, &ScaleRunner::intentDeclared, this,
        [this](const EngineRef &e, OperatorIntent, const QString &) { m_ownIntentAt[e.id] = m_tracker->nowMs(); });
}

void AutoHeal::noteForeignIntent(const QString &engineId, OperatorIntent, std::int64_t atMs)
{
    const auto own = m_ownIntentAt.constFind(engineId);
    if (own != m_ownIntentAt.constEnd() && qAbs(*own - atMs) <= kOwnEchoMs)
        return;
    m_foreignIntentAt[engineId] = qMax(m_foreignIntentAt.value(engineId), atMs);
}

QString AutoHeal::heldBy(int group, Role role) const
{
    const DpGroup &g = m_tracker->groups().groups().at(group);
    if (!m_running.isNull())
        return QStringLiteral("another heal runs (one group at a time)");
    if (!m_runner->isIdle())
        return QStringLiteral("an operation of this process runs");
    if (m_healTimes.size() >= m_settings.maxPerHour)
        return QStringLiteral("%1 heal(s) in the last hour already (the limit)").arg(m_healTimes.size());
    const std::int64_t now = m_tracker->nowMs();
    for (int e : g.engines) {
        const EngineFacts &facts = m_tracker->facts(e);
        if (facts.intent == OperatorIntent::Stop || facts.intent == OperatorIntent::Drain) {
            const QString id = g.engineIds.value(g.engines.indexOf(e));
            const auto own = m_ownIntentAt.constFind(id);
            if (own == m_ownIntentAt.constEnd() || qAbs(*own - facts.intentAtMs) > kOwnEchoMs)
                return QStringLiteral("the operator took rank %1 out on purpose (%2)")
                    .arg(id, operatorIntentName(facts.intent));
        }
    }
    for (const DpGroup &other : m_tracker->groups().groups()) {
        if (other.role != role)
            continue;
        for (const QString &id : other.engineIds) {
            const std::int64_t at = m_foreignIntentAt.value(id, 0);
            if (at > 0 && now - at < m_settings.quietMs)
                return QStringLiteral("an operator acts on the %1 pool (%2, %3 s ago)")
                    .arg(roleName(role), id)
                    .arg((now - at) / 1000);
        }
    }
    return {};
}

void AutoHeal::hold(const QString &groupId, const QString &why)
{
    if (m_held.value(groupId) == why)
        return;
    m_held.insert(groupId, why);
    const std::int64_t now = m_tracker->nowMs();
    Q_EMIT event({ { "event", "heal-held" }, { "at", isoTime(now).toStdString() },
                     { "unit", QStringLiteral("group %1").arg(groupId).toStdString() }, { "why", why.toStdString() } },
        QStringLiteral("%1  HEAL-HELD group %2: %3").arg(isoTime(now), groupId, why));
}

void AutoHeal::round()
{
    if (!m_settings.enabled)
        return;
    const std::int64_t now = m_tracker->nowMs();
    while (!m_healTimes.isEmpty() && m_healTimes.first() <= now - kHourMs)
        m_healTimes.removeFirst();
    for (int g = 0; g < m_tracker->groupCount(); ++g) {
        const DpGroup &group = m_tracker->groups().groups().at(g);
        const bool broken = group.coupled && m_tracker->groupState(g).health == GroupHealth::Broken;
        const int rounds = broken ? m_brokenRounds.value(group.id) + 1 : 0;
        m_brokenRounds.insert(group.id, rounds);
        if (!broken) {
            m_held.remove(group.id);
            continue;
        }
        if (rounds < m_settings.brokenPolls || (m_running && m_runningGroup == group.id))
            continue;
        if (const QString why = heldBy(g, group.role); !why.isEmpty()) {
            hold(group.id, why);
            continue;
        }
        startHeal(g);
        return; // one at a time
    }
}

void AutoHeal::startHeal(int group)
{
    const DpGroup &g = m_tracker->groups().groups().at(group);
    QList<EngineRef> ranks;
    for (int e : g.engines)
        if (e >= 0 && e < m_ctx->engines.size())
            ranks << m_ctx->engines.at(e);
    const std::int64_t now = m_tracker->nowMs();
    m_healTimes.append(now);
    m_held.remove(g.id);
    m_brokenRounds.remove(g.id);
    ++m_heals;
    auto *op = new DpGroupOperation(DpGroupOperation::Mode::Restart, g.id, ranks, m_ctx);
    op->setBroken(true);
    op->setIntentDetail(QStringLiteral("auto-heal"));
    const QString reason = m_tracker->groupBrokenReason(group);
    Q_EMIT event({ { "event", "heal-started" }, { "at", isoTime(now).toStdString() },
                     { "unit", QStringLiteral("group %1").arg(g.id).toStdString() }, { "ranks", ranks.size() },
                     { "reason", reason.toStdString() } },
        QStringLiteral("%1  HEALING   group %2 (%3 ranks): restarting it as one group; %4")
            .arg(isoTime(now), g.id)
            .arg(ranks.size())
            .arg(reason));
    connect(op, &ScaleOperation::finished, this, [this, op, id = g.id](OperationOutcome outcome) {
        const std::int64_t at = m_tracker->nowMs();
        const bool ok = outcome == OperationOutcome::Succeeded;
        Q_EMIT event({ { "event", ok ? "healed" : "heal-failed" }, { "at", isoTime(at).toStdString() },
                         { "unit", QStringLiteral("group %1").arg(id).toStdString() },
                         { "summary", op->summary().toStdString() } },
            QStringLiteral("%1  %2 group %3: %4")
                .arg(isoTime(at), ok ? QStringLiteral("HEALED   ") : QStringLiteral("HEAL-FAIL"), id, op->summary()));
    });
    m_running = op;
    m_runningGroup = g.id;
    m_runner->enqueue(op);
}

} // namespace pd
