// SPDX-License-Identifier: MIT
#include "triage/notificationpolicy.h"

#include <QCoreApplication>

#include <algorithm>

namespace pd {

namespace {

struct NotificationPolicyTr {
    Q_DECLARE_TR_FUNCTIONS(pd::Triage)
};

} // namespace

std::optional<Notification> NotificationPolicy::decide(
    const QList<Problem> &appeared, const QList<Problem> &current, std::int64_t nowMs)
{
    if (!m_settings.enabled) {
        m_pending.clear();
        return std::nullopt;
    }
    for (const Problem &p : appeared) {
        if (int(p.severity) <= int(m_settings.minSeverity) && !p.acknowledged && !m_pending.contains(p.key))
            m_pending.append(p.key);
    }
    // Keep only what is still a problem and still unacknowledged.
    QList<Problem> due;
    for (const QString &key : std::as_const(m_pending)) {
        const auto it = std::find_if(current.begin(), current.end(), [&](const Problem &p) { return p.key == key; });
        if (it != current.end() && !it->acknowledged)
            due.append(*it);
    }
    m_pending.clear();
    for (const Problem &p : std::as_const(due))
        m_pending.append(p.key);
    if (due.isEmpty())
        return std::nullopt;
    if (m_shownOnce && nowMs - m_lastShownMs < m_settings.minIntervalMs)
        return std::nullopt;

    std::sort(due.begin(), due.end(), problemRanksBefore);
    Notification n;
    n.severity = std::min_element(due.begin(), due.end(), [](const Problem &a, const Problem &b) {
        return int(a.severity) < int(b.severity);
    })->severity;
    n.title = due.size() == 1 ? QStringLiteral("%1 — %2").arg(due.first().what, due.first().where)
                              : NotificationPolicyTr::tr("%1 new problems").arg(due.size());
    QStringList lines;
    for (int i = 0; i < due.size() && i < m_settings.maxLines; ++i)
        lines.append(due.size() == 1
                ? due.at(i).detail
                : QStringLiteral("%1 — %2: %3").arg(due.at(i).what, due.at(i).where, due.at(i).detail));
    if (due.size() > m_settings.maxLines)
        lines.append(NotificationPolicyTr::tr("and %1 more").arg(due.size() - m_settings.maxLines));
    n.body = lines.join(QLatin1Char('\n'));
    for (const Problem &p : std::as_const(due))
        n.keys.append(p.key);
    m_pending.clear();
    m_lastShownMs = nowMs;
    m_shownOnce = true;
    return n;
}

} // namespace pd
