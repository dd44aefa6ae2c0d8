// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "net/proxylistenertiming.h"
#include "state/enginestate.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

// The console's own instance table for the proxy (spec proxy-api §13.2): every instance the profile
// configures or the console added, with its MembershipFact, reconciled on a timer with the proxy's
// lists (the empty-add call of §2.4) and /healthcheck counts. Messages are never taken as status (§8.4):
// the console's intent (add sent, remove sent) plus the lists decide.
//
//   Configured --add--> Waiting --listed--> Active --remove, gone from list--> Gone
//                          |                  +----remove, still listed-----> Draining --leaves list--> Gone
//                          +--not listed after interval x (retries + 1) + margin--> Dropped
//   Active --leaves the list without a remove from here--> Gone (someone else removed it, or a restart)
namespace pd {

struct InstanceRecord {
    QString id;              // "host:port" as the console names it (profile form)
    Role role = Role::Decode;
    MembershipFact fact = MembershipFact::Unknown;
    QDateTime since;         // when the fact last changed
    QDateTime addSentAt;     // the last add this console sent (Waiting deadline counts from here)
    bool configured = false; // part of the profile
    QString note;            // why the last transition happened, for the UI
};

// What a console must not forget when it restarts (MembershipJournal keeps it on disk): the intents the
// proxy's lists cannot tell (an add still WAITING with the time it was sent, a remove still DRAINING),
// the last membership read while the proxy was healthy (to restore a restarted proxy) and the timing
// that judges WAITING.
struct MembershipSnapshot {
    QList<InstanceRecord> pending;      // Waiting and Draining records only
    std::optional<ProxyLists> lastKnownGood;
    QDateTime lastKnownGoodAt;
    ProxyListenerTiming timing;
};

class MembershipReconciler final : public QObject {
    Q_OBJECT
public:
    explicit MembershipReconciler(ProxyClient *client, QObject *parent = nullptr);

    // The profile's instances of both roles (the table's CONFIGURED rows).
    void setConfigured(const QList<QPair<QString, Role>> &instances);
    // The proxy's --waiting-retry-interval and --max-waiting-retries, and the slack on top.
    void setListenerTiming(int intervalMs, int maxRetries, int marginMs);
    // The same from what is known of the running proxy (its command line, the launch plan, the profile).
    void setListenerTiming(const ProxyListenerTiming &timing, int marginMs);
    const ProxyListenerTiming &listenerTiming() const { return m_timing; }
    qint64 waitingDeadlineMs() const { return m_timing.waitingWindowMs() + m_marginMs; }

    // What to keep across a console restart, and taking it back (before start()): pending intents come
    // back as they were (a WAITING add keeps its send time, so its deadline does not restart), and the
    // first membership read afterwards is compared with the snapshot's last known good one like a read
    // after an outage (a proxy restarted meanwhile is offered for restore).
    MembershipSnapshot snapshot() const;
    void restore(const MembershipSnapshot &snapshot);

    void start(int periodMs = 2000);
    void stop();
    // One round now (list + healthcheck); `done` runs after it (true when the lists were read).
    void reconcileNow(std::function<void(bool)> done = {});

    // Intent from operations, with the answer's lists (the message is ignored).
    void noteAddSent(const QString &id, Role role, const ProxyReply &reply);
    void noteRemoveSent(const QString &id, Role role, const ProxyReply &reply);
    // An operation that was cut short (interruptedoperations.h) sent a remove (or an add) of `id` at
    // about `at`, or was just about to: the answer never reached the journal. The safe reading: a listed
    // instance that reads active may be draining (re-adding it is ignored, §8.12), an unlisted one may be
    // WAITING (removing it could kill the listener, §8.1) until its deadline from `at` passes. False
    // when the current reading already says more (it is gone, draining, waiting or listed).
    bool noteInterruptedRemove(const QString &id, Role role, const QDateTime &at, const QString &by);
    bool noteInterruptedAdd(const QString &id, Role role, const QDateTime &at, const QString &by);
    // This console stopped and started the proxy's process: the new process has no draining instance
    // and no waiting add (proxy-api §3: taints and the waiting dict live in the process). The next
    // reading (or `lists`, the command line it was started with, at once) judges those records again:
    // listed ones are active, the others gone. With `lists` they are also the new last known good
    // membership, so a restart that a confirmed plan made offers no restore.
    void noteProxyRestarted(const std::optional<ProxyLists> &lists = std::nullopt);

    // A proxy without /instances (v0.9.1-dev) cannot be listed: its membership is its command line's
    // lists, fixed for the life of the process. Applied like a listing read from it.
    void applyCommandLineLists(const ProxyLists &lists) { apply(lists); }

    MembershipFact fact(const QString &id, Role role) const;
    std::optional<InstanceRecord> record(const QString &id, Role role) const;
    QList<InstanceRecord> records() const;
    bool isListed(const QString &id, Role role) const;
    int activeCount(Role role) const;       // listed and not draining
    const std::optional<ProxyLists> &lists() const { return m_lists; }
    const ProxyHealth &health() const { return m_health; }
    QString lastError() const { return m_error; }
    // The last membership read while the proxy was healthy, for restore after a restart (§13).
    const std::optional<ProxyLists> &lastKnownGood() const { return m_lastKnownGood; }
    QDateTime lastKnownGoodAt() const { return m_lastKnownGoodAt; }

Q_SIGNALS:
    void factChanged(const QString &id, pd::Role role, pd::MembershipFact fact);
    void dropped(const QString &id, pd::Role role);
    // The proxy was unreachable and came back with other lists than before: it restarted and
    // forgot the runtime adds and removes. `previous` is what it routed before: the last membership
    // read while healthy, less the instances that were draining out of it (taken out on purpose).
    void restartDetected(const pd::ProxyLists &previous, const pd::ProxyLists &now);
    // A reading of the proxy's lists is about to be applied: the factChanged signals up to the next
    // reconciled() belong to one reading (a listener may take them as one change, StateTracker::FactBatch).
    void reconciling();
    void reconciled();
    // Something snapshot() returns changed (a fact, the last known good lists, the timing).
    void snapshotChanged();
    // noteAddSent or noteRemoveSent recorded what this process just asked of the proxy: the journal writes
    // it at once rather than after its debounce.
    void intentNoted();

private:
    static QString key(const QString &id, Role role);
    ProxyLists routedOf(const ProxyLists &lists) const; // less the records Draining now
    InstanceRecord &ensure(const QString &id, Role role);
    void setFact(InstanceRecord &r, MembershipFact fact, const QString &note);
    void apply(const ProxyLists &lists);
    bool listedIn(const ProxyLists &lists, const QString &id, Role role) const;
    // The record keys of every instance the lists hold: one instance key per entry, then a hash lookup per
    // record instead of a scan of the lists (a reconciliation of 1,024 engines ran 1,024 x 819 keys).
    static QSet<QString> listedKeys(const ProxyLists &lists);

    ProxyClient *m_client;
    QTimer m_timer;
    QHash<QString, InstanceRecord> m_records; // key(id, role)
    QStringList m_order; // insertion order of keys
    std::optional<ProxyLists> m_lists;
    std::optional<ProxyLists> m_lastKnownGood;
    QDateTime m_lastKnownGoodAt;
    ProxyHealth m_health;
    QString m_error;
    bool m_wasUnreachable = false;
    bool m_sawRefused = false; // during that outage nothing listened: the process was down
    bool m_freshProxy = false; // noteProxyRestarted: the next reading ends drains and waits
    bool m_inFlight = false;
    QList<std::function<void(bool)>> m_waiters;
    ProxyListenerTiming m_timing;
    int m_marginMs = 5000;
};

} // namespace pd
