// SPDX-License-Identifier: MIT
// ScaleOperation::clearDrainsBeforeAdd: how an operation brings back instances a busy proxy still drains.
// The proxy removes a tainted instance only when no request is in flight at a listener tick (proxy-api
// §2.3, §8.3) and ignores an add of it (§8.12): under steady traffic the drain never ends and a re-add
// is a silent no-op. The ways out, in order: wait (bounded, counted from the drain's start) for an idle
// moment; restart the proxy with its current lists, the returning instances on them (the confirmed
// plan's choice; the requests in flight at that moment fail, counted); else stop and say both ways out
// with their cost. Operations running side by side (a plan that brings back several groups) share one
// restart: the instances each waits for are registered in the context, and a restart under way is joined.
#include "cluster/instancekey.h"
#include "net/membershipreconciler.h"
#include "ops/proxyrelaunch.h"
#include "ops/scaleoperation.h"

#include <algorithm>
#include <memory>

namespace pd {

namespace {

QString returningKey(Role role, const QString &id)
{
    return roleName(role) + QLatin1Char('/') + proxyInstanceKey(id);
}

QStringList drainingOf(const MembershipReconciler &membership, Role role, const QStringList &ids)
{
    QStringList out;
    for (const QString &id : ids)
        if (membership.fact(id, role) == MembershipFact::Draining)
            out << id;
    return out;
}

// The proxy's current lists less every instance it drains that no operation is bringing back: those were
// removed on purpose and leave with the restart.
ProxyLists listsForReturn(const MembershipReconciler &membership, const QSet<QString> &returning)
{
    ProxyLists lists = membership.lists().value_or(ProxyLists {});
    for (const InstanceRecord &r : membership.records()) {
        if (r.fact != MembershipFact::Draining || returning.contains(returningKey(r.role, r.id)))
            continue;
        QStringList &list = r.role == Role::Prefill ? lists.prefill : lists.decode;
        const QString key = proxyInstanceKey(r.id);
        list.erase(std::remove_if(list.begin(), list.end(),
                       [&key](const QString &entry) { return proxyInstanceKey(entry) == key; }),
            list.end());
    }
    return lists;
}

// When the oldest of these drains began (invalid when unknown).
QDateTime drainingSince(const MembershipReconciler &membership, Role role, const QStringList &ids)
{
    QDateTime earliest;
    for (const QString &id : ids)
        if (const auto r = membership.record(id, role); r && r->since.isValid())
            earliest = earliest.isValid() ? qMin(earliest, r->since) : r->since;
    return earliest;
}

QString failedText(const RelaunchResult &r)
{
    return r.failedInFlight
        ? QStringLiteral("%1 request(s) in flight failed (%2)").arg(*r.failedInFlight).arg(r.inFlightSource)
        : QStringLiteral("the requests in flight failed (%1)").arg(r.inFlightSource);
}

} // namespace

void ScaleOperation::clearDrainsBeforeAdd(Role role, const QStringList &ids, std::function<void(bool relisted)> then)
{
    MembershipReconciler &membership = *m_ctx->membership;
    if (drainingOf(membership, role, ids).isEmpty())
        return then(false);
    // Registered until this returns: a restart for another operation keeps these on its lists.
    auto keys = std::make_shared<QStringList>();
    for (const QString &id : ids)
        *keys << returningKey(role, id);
    for (const QString &k : std::as_const(*keys))
        m_ctx->returningDrains.insert(k);
    auto unregister = [this, keys] {
        for (const QString &k : std::as_const(*keys))
            m_ctx->returningDrains.remove(k);
    };
    auto finish = [unregister, then](bool relisted) {
        unregister();
        then(relisted);
    };
    // The wait for an idle moment counts from the drain's start: a group that took minutes to start
    // again under steady traffic has had its chances, and waiting more only keeps it out of service.
    const QDateTime began = drainingSince(membership, role, drainingOf(membership, role, ids));
    const qint64 drainedMs = began.isValid() ? qMax<qint64>(0, began.msecsTo(QDateTime::currentDateTimeUtc())) : 0;
    const int waitMs = int(qMax<qint64>(0, drainFinaliseWaitMs(*m_ctx) - drainedMs));
    const QString since
        = began.isValid() ? began.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : QStringLiteral("?");
    auto inFlight = std::make_shared<QString>(QStringLiteral("?"));
    progress(QStringLiteral("the proxy still drains %1 (since %2, %3 s ago): waiting up to %4 s more for a moment "
                            "with no request in flight")
                 .arg(drainingOf(membership, role, ids).size())
                 .arg(since)
                 .arg(drainedMs / 1000)
                 .arg(waitMs / 1000.0, 0, 'f', 1));
    pollUntil(
        waitMs,
        [this, role, ids, inFlight](Report report) {
            // A restart under way for another operation: wait for it rather than read a proxy going down.
            if (m_ctx->drainRelaunch)
                return report(false);
            m_ctx->membership->reconcileNow(guarded([this, role, ids, inFlight, report](bool) {
                const QStringList left = drainingOf(*m_ctx->membership, role, ids);
                const ProxyHealth &h = m_ctx->membership->health();
                *inFlight = h.requestNum ? QString::number(*h.requestNum) : QStringLiteral("?");
                if (!left.isEmpty())
                    progress(QStringLiteral("%1 still draining; %2 request(s) in flight through the proxy")
                                 .arg(left.size())
                                 .arg(*inFlight));
                report(left.isEmpty());
            }));
        },
        [this, role, ids, finish, unregister, since, inFlight](bool timedOut) {
            if (!timedOut) {
                progress(QStringLiteral("the proxy finalised the drain"));
                return finish(false);
            }
            if (!m_ctx->settings.restartProxyForDrains) {
                const QStringList left = drainingOf(*m_ctx->membership, role, ids);
                unregister();
                return fail(QStringLiteral(
                    "the proxy still drains %1 of these instances (since %2; %3 request(s) in flight): it finalises a "
                    "drain only when no request is in flight (proxy-api §8.3) and ignores an add until then (§8.12); "
                    "no idle moment in %4 s since the drain began. Ways out: retry when traffic pauses, or allow a "
                    "proxy restart with its current lists (the requests in flight at that moment fail; pdctl "
                    "--allow-proxy-restart)")
                                .arg(left.size())
                                .arg(since)
                                .arg(*inFlight)
                                .arg(drainFinaliseWaitMs(*m_ctx) / 1000.0, 0, 'f', 1));
            }
            setCancellable(false); // a stopped proxy is always started again
            auto afterRelaunch = [this, role, ids, finish, unregister](const RelaunchResult &r, bool ours) {
                if (!r.ok) {
                    unregister();
                    return fail(QStringLiteral("%1; %2").arg(r.detail, failedText(r)));
                }
                // Joined another operation's restart: ours are on its lists unless they were not draining.
                const bool listed = std::all_of(ids.cbegin(), ids.cend(),
                    [this, role](const QString &id) { return m_ctx->membership->isListed(id, role); });
                m_relaunchNote = ours
                    ? failedText(r)
                    : QStringLiteral("with another operation's restart of the proxy (%1)").arg(failedText(r));
                progress(QStringLiteral("the proxy was restarted with them listed: %1").arg(m_relaunchNote));
                finish(listed);
            };
            if (auto *running = qobject_cast<ProxyRelaunch *>(m_ctx->drainRelaunch.data())) {
                progress(QStringLiteral("joining the proxy restart another operation started"));
                connect(running, &ProxyRelaunch::finished, this,
                    [afterRelaunch](const RelaunchResult &r) { afterRelaunch(r, false); });
                return;
            }
            const ProxyLists next = listsForReturn(*m_ctx->membership, m_ctx->returningDrains);
            const ProxyLists previous = m_ctx->membership->lists().value_or(ProxyLists {});
            progress(QStringLiteral("no idle moment in %1 s: restarting the proxy with its current lists (%2 prefill, "
                                    "%3 decode)")
                         .arg(drainFinaliseWaitMs(*m_ctx) / 1000.0, 0, 'f', 1)
                         .arg(next.prefill.size())
                         .arg(next.decode.size()));
            // Parented to the membership table, not to this operation: joined operations outlive no one.
            auto *relaunch = new ProxyRelaunch(m_ctx, next, previous, m_ctx->membership);
            m_ctx->drainRelaunch = relaunch;
            // First of its receivers: from its end on, an operation that needs a restart starts a new one.
            connect(relaunch, &ProxyRelaunch::finished, relaunch, [ctx = m_ctx] { ctx->drainRelaunch.clear(); });
            connect(relaunch, &ProxyRelaunch::progress, this, [this](const QString &detail) { progress(detail); });
            connect(relaunch, &ProxyRelaunch::finished, this,
                [this, relaunch, role, ids, afterRelaunch](const RelaunchResult &r) {
                    relaunch->deleteLater();
                    nlohmann::ordered_json params { { "failed_in_flight", r.failedInFlight.value_or(-1) },
                        { "returning", ids.size() }, { "role", roleName(role).toStdString() } };
                    audit(QStringLiteral("proxy.restart-for-drains"),
                        r.ok ? QStringLiteral("ok") : QStringLiteral("failed"),
                        QStringLiteral("%1; %2").arg(r.detail, failedText(r)), 0, params);
                    afterRelaunch(r, true);
                });
            relaunch->start();
        });
}

} // namespace pd
