// SPDX-License-Identifier: MIT
// ScaleOperation::clearDrainsBeforeAdd: how an operation brings back instances a busy proxy still drains.
// The proxy removes a tainted instance only when no request is in flight at a listener tick (proxy-api
// §2.3, §8.3) and ignores an add of it (§8.12): under steady traffic the drain never ends and a re-add
// is a silent no-op. The ways out, in order: wait (bounded) for an idle moment; restart the proxy with
// its current lists, the returning instances on them (the confirmed plan's choice; the requests in flight
// at that moment fail, counted); else stop and say both ways out with their cost.
#include "cluster/instancekey.h"
#include "net/membershipreconciler.h"
#include "ops/proxyrelaunch.h"
#include "ops/scaleoperation.h"

#include <algorithm>
#include <memory>

namespace pd {

namespace {

QStringList drainingOf(const MembershipReconciler &membership, Role role, const QStringList &ids)
{
    QStringList out;
    for (const QString &id : ids)
        if (membership.fact(id, role) == MembershipFact::Draining)
            out << id;
    return out;
}

// The proxy's current lists less every instance it drains that is not coming back: they were removed on
// purpose and leave with the restart.
ProxyLists listsForReturn(const MembershipReconciler &membership, Role role, const QStringList &returning)
{
    ProxyLists lists = membership.lists().value_or(ProxyLists {});
    for (const InstanceRecord &r : membership.records()) {
        if (r.fact != MembershipFact::Draining || (r.role == role && returning.contains(r.id)))
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

} // namespace

void ScaleOperation::clearDrainsBeforeAdd(Role role, const QStringList &ids, std::function<void(bool relisted)> then)
{
    MembershipReconciler &membership = *m_ctx->membership;
    if (drainingOf(membership, role, ids).isEmpty())
        return then(false);
    // The wait for an idle moment counts from the drain's start: a group that took minutes to start
    // again under steady traffic has had its chances, and waiting more only keeps it out of service.
    const QDateTime began = drainingSince(membership, role, drainingOf(membership, role, ids));
    const qint64 drainedMs = began.isValid() ? qMax<qint64>(0, began.msecsTo(QDateTime::currentDateTimeUtc())) : 0;
    const int waitMs = int(qMax<qint64>(0, m_ctx->settings.drainFinaliseWaitMs - drainedMs));
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
        [this, role, ids, then, since, inFlight](bool timedOut) {
            if (!timedOut) {
                progress(QStringLiteral("the proxy finalised the drain"));
                return then(false);
            }
            const QStringList left = drainingOf(*m_ctx->membership, role, ids);
            if (!m_ctx->settings.restartProxyForDrains)
                return fail(QStringLiteral(
                    "the proxy still drains %1 of these instances (since %2; %3 request(s) in flight): it finalises a "
                    "drain only when no request is in flight (proxy-api §8.3) and ignores an add until then (§8.12); "
                    "no idle moment in %4 s since the drain began. Ways out: retry when traffic pauses, or allow a "
                    "proxy restart with its current "
                    "lists (the requests in flight at that moment fail; pdctl --allow-proxy-restart)")
                                .arg(left.size())
                                .arg(since)
                                .arg(*inFlight)
                                .arg(m_ctx->settings.drainFinaliseWaitMs / 1000.0, 0, 'f', 1));
            const ProxyLists next = listsForReturn(*m_ctx->membership, role, ids);
            const ProxyLists previous = m_ctx->membership->lists().value_or(ProxyLists {});
            setCancellable(false); // a stopped proxy is always started again
            progress(QStringLiteral("no idle moment in %1 s: restarting the proxy with its current lists (%2 prefill, "
                                    "%3 decode)")
                         .arg(m_ctx->settings.drainFinaliseWaitMs / 1000.0, 0, 'f', 1)
                         .arg(next.prefill.size())
                         .arg(next.decode.size()));
            auto *relaunch = new ProxyRelaunch(m_ctx, next, previous, this);
            connect(relaunch, &ProxyRelaunch::progress, this, [this](const QString &detail) { progress(detail); });
            connect(
                relaunch, &ProxyRelaunch::finished, this, [this, relaunch, role, ids, then](const RelaunchResult &r) {
                    relaunch->deleteLater();
                    const QString failed = r.failedInFlight
                        ? QStringLiteral("%1 request(s) in flight failed (%2)")
                              .arg(*r.failedInFlight)
                              .arg(r.inFlightSource)
                        : QStringLiteral("the requests in flight failed (%1)").arg(r.inFlightSource);
                    nlohmann::ordered_json params { { "failed_in_flight", r.failedInFlight.value_or(-1) },
                        { "returning", ids.size() }, { "role", roleName(role).toStdString() } };
                    audit(QStringLiteral("proxy.restart-for-drains"),
                        r.ok ? QStringLiteral("ok") : QStringLiteral("failed"),
                        QStringLiteral("%1; %2").arg(r.detail, failed), 0, params);
                    if (!r.ok)
                        return fail(QStringLiteral("%1; %2").arg(r.detail, failed));
                    progress(QStringLiteral("the proxy was restarted with them listed: %1").arg(failed));
                    m_relaunchNote = failed;
                    then(true);
                });
            relaunch->start();
        });
}

} // namespace pd
