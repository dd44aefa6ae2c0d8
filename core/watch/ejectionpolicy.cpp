// SPDX-License-Identifier: MIT
#include "watch/ejectionpolicy.h"

#include <QCoreApplication>

#include <array>

namespace pd {

namespace {

struct EjectionPolicyTr {
    Q_DECLARE_TR_FUNCTIONS(pd::EjectionPolicy)
};

bool listed(const EjectionEngine &e)
{
    return e.membership == MembershipFact::Active;
}

} // namespace

EjectionPolicy::EjectionPolicy(EjectionSettings settings)
    : m_settings(settings)
{
}

bool EjectionPolicy::engineBad(const EjectionEngine &e)
{
    switch (e.state) {
    case EngineState::Unreachable:
    case EngineState::Stopped:
        return e.answeredBefore; // never up in this watch: maybe still loading, not ours to judge
    case EngineState::Unhealthy:
    case EngineState::Stalled:
        return true;
    default:
        return false;
    }
}

QList<EjectionPolicy::Unit> EjectionPolicy::unitsOf(const EjectionInput &input) const
{
    QList<Unit> units;
    QList<bool> inGroup(input.engines.size(), false);
    for (const EjectionGroup &g : input.groups) {
        if (!g.coupled || g.engines.size() < 2)
            continue;
        Unit u;
        u.name = QStringLiteral("group %1").arg(g.id);
        u.group = true;
        for (int e : g.engines) {
            if (e < 0 || e >= input.engines.size())
                continue;
            u.engines.append(e);
            u.role = input.engines.at(e).role;
            inGroup[e] = true;
        }
        if (!u.engines.isEmpty())
            units.append(u);
    }
    for (int e = 0; e < input.engines.size(); ++e) {
        if (inGroup.at(e))
            continue;
        const EjectionEngine &engine = input.engines.at(e);
        units.append(Unit{QStringLiteral("%1 %2").arg(roleName(engine.role), engine.id), engine.role, {e}, false});
    }
    return units;
}

void EjectionPolicy::refuse(EjectionRound &round, const QString &unit, const QString &why)
{
    if (m_refused.value(unit) == why)
        return;
    m_refused.insert(unit, why);
    round.refusals.append({unit, why});
}

EjectionRound EjectionPolicy::evaluate(const EjectionInput &input)
{
    EjectionRound round;
    if (!m_settings.enabled)
        return round;
    while (!m_ejectionTimes.isEmpty() && m_ejectionTimes.first() <= input.nowMs - m_settings.windowMs)
        m_ejectionTimes.removeFirst();

    // Listed instances per pool, less what this round ejects (the last-instance guardrail).
    std::array<int, 2> listedIn{0, 0}; // by int(Role)
    for (const EjectionEngine &e : input.engines)
        listedIn[std::size_t(e.role)] += listed(e) ? 1 : 0;

    const QList<Unit> units = unitsOf(input);
    QSet<QString> seen;
    for (const Unit &u : units) {
        seen.insert(u.name);
        QStringList instances;
        QStringList listedInstances;
        bool anyBad = false, allBack = true, anyWaiting = false, anyListed = false;
        QString why;
        for (int e : u.engines) {
            const EjectionEngine &engine = input.engines.at(e);
            instances.append(engine.id);
            if (listed(engine)) {
                anyListed = true;
                listedInstances.append(engine.id);
            }
            anyWaiting |= engine.membership == MembershipFact::Waiting;
            if (engineBad(engine)) {
                anyBad = true;
                if (why.isEmpty())
                    why = QStringLiteral("%1 %2: %3").arg(engine.id, engineStateName(engine.state), engine.reason);
            }
            // Serving again outside the proxy, or still listed as draining by a busy proxy that never went
            // idle (§8.3): either way healthy and out of traffic.
            allBack &= engine.state == EngineState::ReadyNotInProxy || engine.state == EngineState::Draining;
        }
        if (u.group) {
            for (const EjectionGroup &g : input.groups) {
                if (QStringLiteral("group %1").arg(g.id) == u.name && g.health == GroupHealth::Broken) {
                    anyBad = true;
                    if (why.isEmpty())
                        why = EjectionPolicyTr::tr("coupled DP group broken");
                }
            }
        }

        if (m_ejected.contains(u.name)) {
            // Ours, out of the proxy. Re-added or listed again by someone else: no longer ours to manage.
            if (anyListed) {
                m_ejected.remove(u.name);
                m_goodRounds.remove(u.name);
                continue;
            }
            if (!m_settings.readd)
                continue;
            const int good = allBack ? m_goodRounds.value(u.name) + 1 : 0;
            m_goodRounds.insert(u.name, good);
            if (good < m_settings.readdPolls)
                continue;
            round.decisions.append({EjectionDecision::Action::Readd, u.name, u.role, m_ejected.value(u.name),
                                    EjectionPolicyTr::tr("serving again for %n poll(s)", nullptr, good)});
            m_ejected.remove(u.name);
            m_goodRounds.remove(u.name);
            continue;
        }

        const int bad = anyBad && anyListed ? m_badRounds.value(u.name) + 1 : 0;
        m_badRounds.insert(u.name, bad);
        if (bad == 0)
            m_refused.remove(u.name); // a guardrail said again after a recovery is news
        if (bad < m_settings.badPolls)
            continue;
        if (anyWaiting) {
            refuse(round, u.name, EjectionPolicyTr::tr("an instance is WAITING in the proxy: removing it now can kill the proxy's "
                                         "listener (proxy-api.md 8.1)"));
            continue;
        }
        if (listedIn[std::size_t(u.role)] - listedInstances.size() < 1) {
            refuse(round, u.name, EjectionPolicyTr::tr("it holds the last listed instance(s) of the %1 pool").arg(roleName(u.role)));
            continue;
        }
        if (m_ejectionTimes.size() >= m_settings.maxEjections) {
            refuse(round, u.name, EjectionPolicyTr::tr("rate limit: %1 ejection(s) in the last %2 s already")
                                      .arg(m_ejectionTimes.size())
                                      .arg(m_settings.windowMs / 1000));
            continue;
        }
        listedIn[std::size_t(u.role)] -= int(listedInstances.size());
        m_ejectionTimes.append(input.nowMs);
        m_ejected.insert(u.name, listedInstances);
        m_badRounds.remove(u.name);
        m_refused.remove(u.name);
        round.decisions.append({EjectionDecision::Action::Eject, u.name, u.role, listedInstances,
                                EjectionPolicyTr::tr("%1 for %n poll(s)", nullptr, bad).arg(why)});
    }
    // Units of a profile that changed: forget them.
    for (auto it = m_badRounds.begin(); it != m_badRounds.end();)
        it = seen.contains(it.key()) ? std::next(it) : m_badRounds.erase(it);
    return round;
}

void EjectionPolicy::ejectionFailed(const QString &unit)
{
    m_ejected.remove(unit);
    m_badRounds.remove(unit);
}

void EjectionPolicy::readdFailed(const EjectionDecision &readd)
{
    // Still out of the proxy and still ours: tried again after readdPolls more good rounds.
    m_ejected.insert(readd.unit, readd.instances);
    m_goodRounds.remove(readd.unit);
}

QStringList EjectionPolicy::ejectedUnits() const
{
    QStringList units = m_ejected.keys();
    units.sort();
    return units;
}

} // namespace pd
