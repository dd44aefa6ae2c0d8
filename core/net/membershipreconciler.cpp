// SPDX-License-Identifier: MIT
#include "net/membershipreconciler.h"

#include <QSet>

namespace pd {

MembershipReconciler::MembershipReconciler(ProxyClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
    connect(&m_timer, &QTimer::timeout, this, [this] { reconcileNow(); });
}

QString MembershipReconciler::key(const QString &id, Role role)
{
    return roleName(role) + QLatin1Char('/') + proxyInstanceKey(id);
}

InstanceRecord &MembershipReconciler::ensure(const QString &id, Role role)
{
    const QString k = key(id, role);
    auto it = m_records.find(k);
    if (it == m_records.end()) {
        InstanceRecord r;
        r.id = id;
        r.role = role;
        r.since = QDateTime::currentDateTimeUtc();
        it = m_records.insert(k, r);
        m_order.append(k);
    }
    return *it;
}

void MembershipReconciler::setFact(InstanceRecord &r, MembershipFact fact, const QString &note)
{
    if (r.fact == fact)
        return;
    r.fact = fact;
    r.since = QDateTime::currentDateTimeUtc();
    r.note = note;
    Q_EMIT factChanged(r.id, r.role, fact);
    if (fact == MembershipFact::Dropped)
        Q_EMIT dropped(r.id, r.role);
    Q_EMIT snapshotChanged();
}

void MembershipReconciler::setConfigured(const QList<QPair<QString, Role>> &instances)
{
    for (const auto &[id, role] : instances) {
        InstanceRecord &r = ensure(id, role);
        r.configured = true;
    }
    if (m_lists)
        apply(*m_lists);
}

void MembershipReconciler::setListenerTiming(int intervalMs, int maxRetries, int marginMs)
{
    ProxyListenerTiming t;
    t.intervalMs = intervalMs;
    t.maxRetries = maxRetries;
    setListenerTiming(t, marginMs);
}

void MembershipReconciler::setListenerTiming(const ProxyListenerTiming &timing, int marginMs)
{
    ProxyListenerTiming t = timing;
    t.intervalMs = qMax(1, t.intervalMs);
    t.maxRetries = qMax(0, t.maxRetries);
    const bool changed = !(t == m_timing) || m_marginMs != qMax(0, marginMs);
    m_timing = t;
    m_marginMs = qMax(0, marginMs);
    if (changed)
        Q_EMIT snapshotChanged();
}

MembershipSnapshot MembershipReconciler::snapshot() const
{
    MembershipSnapshot s;
    for (const QString &k : m_order) {
        const InstanceRecord &r = m_records[k];
        if (r.fact == MembershipFact::Waiting || r.fact == MembershipFact::Draining)
            s.pending.append(r);
    }
    s.lastKnownGood = m_lastKnownGood;
    s.lastKnownGoodAt = m_lastKnownGoodAt;
    s.timing = m_timing;
    return s;
}

void MembershipReconciler::restore(const MembershipSnapshot &snapshot)
{
    for (const InstanceRecord &saved : snapshot.pending) {
        if (saved.fact != MembershipFact::Waiting && saved.fact != MembershipFact::Draining)
            continue;
        InstanceRecord &r = ensure(saved.id, saved.role);
        r.addSentAt = saved.addSentAt;
        r.fact = MembershipFact::Unknown; // setFact announces it
        setFact(r, saved.fact, saved.note.isEmpty() ? QStringLiteral("restored from the membership journal") : saved.note);
        r.since = saved.since.isValid() ? saved.since : r.since;
    }
    if (snapshot.lastKnownGood) {
        m_lastKnownGood = snapshot.lastKnownGood;
        m_lastKnownGoodAt = snapshot.lastKnownGoodAt;
        m_wasUnreachable = true; // nobody watched the proxy meanwhile: the first read compares
    }
    if (snapshot.timing.source != ProxyListenerTiming::Source::Profile
        && int(snapshot.timing.source) >= int(m_timing.source))
        setListenerTiming(snapshot.timing, m_marginMs);
}

void MembershipReconciler::start(int periodMs)
{
    m_timer.start(qMax(100, periodMs));
    reconcileNow();
}

void MembershipReconciler::stop()
{
    m_timer.stop();
}

bool MembershipReconciler::listedIn(const ProxyLists &lists, const QString &id, Role role) const
{
    const QString k = proxyInstanceKey(id);
    for (const QString &entry : lists.of(role))
        if (proxyInstanceKey(entry) == k)
            return true;
    return false;
}

QSet<QString> MembershipReconciler::listedKeys(const ProxyLists &lists)
{
    QSet<QString> keys;
    keys.reserve(lists.prefill.size() + lists.decode.size());
    for (const Role role : { Role::Prefill, Role::Decode })
        for (const QString &id : lists.of(role))
            keys.insert(key(id, role));
    return keys;
}

ProxyLists MembershipReconciler::routedOf(const ProxyLists &lists) const
{
    ProxyLists routed;
    for (const Role role : { Role::Prefill, Role::Decode }) {
        QStringList &out = role == Role::Prefill ? routed.prefill : routed.decode;
        for (const QString &id : lists.of(role)) {
            const auto it = m_records.constFind(key(id, role));
            if (it == m_records.constEnd() || it->fact != MembershipFact::Draining)
                out << id;
        }
    }
    return routed;
}

bool MembershipReconciler::isListed(const QString &id, Role role) const
{
    return m_lists && listedIn(*m_lists, id, role);
}

void MembershipReconciler::reconcileNow(std::function<void(bool)> done)
{
    if (done)
        m_waiters.append(std::move(done));
    if (m_inFlight)
        return; // the round in flight answers every waiter
    m_inFlight = true;
    m_client->listInstances([this](const ProxyReply &reply) {
        m_client->healthcheck([this, reply](const ProxyHealth &health) {
            m_inFlight = false;
            m_health = health;
            Q_EMIT reconciling();
            const bool ok = reply.ok && reply.lists;
            if (ok) {
                m_error.clear();
                const ProxyLists now = *reply.lists;
                if (m_wasUnreachable && m_lastKnownGood) {
                    // Back after an outage with other lists: it restarted (or was replaced) and
                    // forgot the runtime adds and removes.
                    const QSet<QString> listedNow = listedKeys(now);
                    const bool changed = listedNow != listedKeys(*m_lastKnownGood);
                    if (changed)
                        Q_EMIT restartDetected(routedOf(*m_lastKnownGood), now);
                    // A new process (other lists, or nothing listened meanwhile: restarted by someone else
                    // with the same command line): no taint and no waiting add of the old one survives it
                    // (§3), so the reading below judges every draining and waiting record afresh. A drain
                    // restored from the journal is one of them. A timeout alone may be a blip: no verdict.
                    if (changed || m_sawRefused)
                        m_freshProxy = true;
                }
                m_wasUnreachable = false;
                m_sawRefused = false;
                apply(now);
                if (health.reachable && health.prefillInstances == now.prefill.size()
                    && health.decodeInstances == now.decode.size()) {
                    const bool changed = !m_lastKnownGood || m_lastKnownGood->prefill != now.prefill
                                         || m_lastKnownGood->decode != now.decode;
                    m_lastKnownGood = now;
                    m_lastKnownGoodAt = QDateTime::currentDateTimeUtc();
                    if (changed)
                        Q_EMIT snapshotChanged();
                }
            } else {
                m_error = reply.error.isEmpty() ? health.error : reply.error;
                if (reply.httpStatus == 0) {
                    m_wasUnreachable = true;
                    m_sawRefused = m_sawRefused || reply.refused;
                }
            }
            Q_EMIT reconciled();
            const auto waiters = std::exchange(m_waiters, {});
            for (const auto &w : waiters)
                w(ok);
        });
    });
}

void MembershipReconciler::noteProxyRestarted(const std::optional<ProxyLists> &lists)
{
    m_freshProxy = true;
    if (!lists)
        return;
    m_wasUnreachable = false;
    apply(*lists);
    m_lastKnownGood = *lists;
    m_lastKnownGoodAt = QDateTime::currentDateTimeUtc();
    Q_EMIT snapshotChanged();
}

void MembershipReconciler::apply(const ProxyLists &lists)
{
    m_lists = lists;
    const bool fresh = std::exchange(m_freshProxy, false);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QSet<QString> listedNow = listedKeys(lists);
    QSet<QString> seen;
    seen.reserve(m_order.size());
    for (const QString &k : std::as_const(m_order)) {
        InstanceRecord &r = m_records[k];
        const bool listed = listedNow.contains(k);
        seen.insert(k);
        if (fresh && (r.fact == MembershipFact::Draining || r.fact == MembershipFact::Waiting)) {
            setFact(r, listed ? MembershipFact::Active : MembershipFact::Gone,
                listed ? QStringLiteral("the proxy was restarted with it on its command line: the drain or wait ended")
                       : QStringLiteral("the proxy was restarted without it"));
            continue;
        }
        switch (r.fact) {
        case MembershipFact::Unknown:
            setFact(r, listed ? MembershipFact::Active : MembershipFact::Configured,
                    listed ? QStringLiteral("in the proxy's list") : QStringLiteral("not in the proxy's list"));
            break;
        case MembershipFact::Configured:
        case MembershipFact::Gone:
        case MembershipFact::Dropped:
            if (listed)
                setFact(r, MembershipFact::Active, QStringLiteral("appeared in the proxy's list"));
            break;
        case MembershipFact::Waiting:
            if (listed)
                setFact(r, MembershipFact::Active, QStringLiteral("activated by the proxy's listener"));
            else if (r.addSentAt.isValid() && r.addSentAt.msecsTo(now) > waitingDeadlineMs())
                setFact(r, MembershipFact::Dropped,
                        QStringLiteral("not listed %1 s after the add (%2, + %3 s margin)")
                            .arg(waitingDeadlineMs() / 1000.0, 0, 'f', 1)
                            .arg(m_timing.describe())
                            .arg(m_marginMs / 1000.0));
            break;
        case MembershipFact::Active:
            if (!listed)
                setFact(r, MembershipFact::Gone, QStringLiteral("left the proxy's list without a remove from this console"));
            break;
        case MembershipFact::Draining:
            if (!listed)
                setFact(r, MembershipFact::Gone, QStringLiteral("drained: left the proxy's list"));
            break;
        }
    }
    // Instances the proxy holds that the table does not know (started on its command line elsewhere,
    // or added by another console).
    for (const Role role : {Role::Prefill, Role::Decode}) {
        for (const QString &id : lists.of(role)) {
            const QString k = key(id, role);
            if (seen.contains(k))
                continue;
            InstanceRecord &r = ensure(id, role);
            seen.insert(k);
            setFact(r, MembershipFact::Active, QStringLiteral("in the proxy's list (not in the profile)"));
        }
    }
    // Entries the profile does not know that left the lists are forgotten: a proxy whose lists keep
    // changing (or a hostile one) cannot grow the table without bound. A profile's engine is always kept.
    QSet<QString> forget;
    for (auto it = m_records.begin(); it != m_records.end();) {
        if (!it->configured && (it->fact == MembershipFact::Gone || it->fact == MembershipFact::Dropped)) {
            forget.insert(it.key());
            it = m_records.erase(it);
        } else {
            ++it;
        }
    }
    if (!forget.isEmpty())
        m_order.removeIf([&forget](const QString &k) { return forget.contains(k); });
}

void MembershipReconciler::noteAddSent(const QString &id, Role role, const ProxyReply &reply)
{
    InstanceRecord &r = ensure(id, role);
    r.addSentAt = QDateTime::currentDateTimeUtc();
    if (reply.lists) {
        m_lists = reply.lists;
        if (r.fact == MembershipFact::Draining && listedIn(*reply.lists, id, role)) {
            // §8.12: the proxy skips it as a duplicate and still removes it once the drain ends.
            r.note = QStringLiteral("re-add ignored by the proxy: it is draining, and removed once the proxy is idle");
            return;
        }
        if (listedIn(*reply.lists, id, role)) {
            setFact(r, MembershipFact::Active, QStringLiteral("already in the proxy's list"));
            return;
        }
    }
    // A fresh add is never in its own answer's lists (§2.2): waiting until a list shows it.
    r.fact = MembershipFact::Unknown; // force a change signal when re-adding a dropped instance
    setFact(r, MembershipFact::Waiting, QStringLiteral("add sent; waiting for the proxy's listener"));
    Q_EMIT intentNoted();
}

void MembershipReconciler::noteRemoveSent(const QString &id, Role role, const ProxyReply &reply)
{
    InstanceRecord &r = ensure(id, role);
    if (reply.lists) {
        m_lists = reply.lists;
        if (listedIn(*reply.lists, id, role)) {
            setFact(r, MembershipFact::Draining, QStringLiteral("remove sent; still listed (draining while the proxy is busy)"));
            Q_EMIT intentNoted();
            return;
        }
    }
    setFact(r, MembershipFact::Gone, QStringLiteral("removed: not in the proxy's list"));
    Q_EMIT intentNoted();
}

bool MembershipReconciler::noteInterruptedRemove(const QString &id, Role role, const QDateTime &at, const QString &by)
{
    InstanceRecord &r = ensure(id, role);
    if (r.fact != MembershipFact::Active)
        return false;
    setFact(r, MembershipFact::Draining,
        QStringLiteral("an interrupted operation (%1) removed it or was about to: it may be draining").arg(by));
    if (at.isValid())
        r.since = at; // the drain's age counts from the remove, not from this reading
    Q_EMIT intentNoted();
    return true;
}

bool MembershipReconciler::noteInterruptedAdd(const QString &id, Role role, const QDateTime &at, const QString &by)
{
    InstanceRecord &r = ensure(id, role);
    if (r.fact == MembershipFact::Active || r.fact == MembershipFact::Draining || r.fact == MembershipFact::Waiting
        || (m_lists && listedIn(*m_lists, id, role)))
        return false;
    r.addSentAt = at.isValid() ? at : QDateTime::currentDateTimeUtc();
    r.fact = MembershipFact::Unknown;
    setFact(r, MembershipFact::Waiting,
        QStringLiteral("an interrupted operation (%1) added it or was about to: it may be WAITING in the proxy")
            .arg(by));
    r.since = r.addSentAt;
    Q_EMIT intentNoted();
    return true;
}

MembershipFact MembershipReconciler::fact(const QString &id, Role role) const
{
    const auto it = m_records.constFind(key(id, role));
    return it == m_records.constEnd() ? MembershipFact::Unknown : it->fact;
}

std::optional<InstanceRecord> MembershipReconciler::record(const QString &id, Role role) const
{
    const auto it = m_records.constFind(key(id, role));
    if (it == m_records.constEnd())
        return std::nullopt;
    return *it;
}

QList<InstanceRecord> MembershipReconciler::records() const
{
    QList<InstanceRecord> out;
    for (const QString &k : m_order)
        out.append(m_records.value(k));
    return out;
}

int MembershipReconciler::activeCount(Role role) const
{
    int n = 0;
    for (const InstanceRecord &r : m_records)
        n += r.role == role && r.fact == MembershipFact::Active;
    return n;
}

} // namespace pd
