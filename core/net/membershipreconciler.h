// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "state/enginestate.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
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

class MembershipReconciler final : public QObject {
    Q_OBJECT
public:
    explicit MembershipReconciler(ProxyClient *client, QObject *parent = nullptr);

    // The profile's instances of both roles (the table's CONFIGURED rows).
    void setConfigured(const QList<QPair<QString, Role>> &instances);
    // The proxy's --waiting-retry-interval and --max-waiting-retries, and the slack on top.
    void setListenerTiming(int intervalMs, int maxRetries, int marginMs);
    int waitingDeadlineMs() const { return m_intervalMs * (m_maxRetries + 1) + m_marginMs; }

    void start(int periodMs = 2000);
    void stop();
    // One round now (list + healthcheck); `done` runs after it (true when the lists were read).
    void reconcileNow(std::function<void(bool)> done = {});

    // Intent from operations, with the answer's lists (the message is ignored).
    void noteAddSent(const QString &id, Role role, const ProxyReply &reply);
    void noteRemoveSent(const QString &id, Role role, const ProxyReply &reply);

    MembershipFact fact(const QString &id, Role role) const;
    std::optional<InstanceRecord> record(const QString &id, Role role) const;
    QList<InstanceRecord> records() const;
    bool isListed(const QString &id, Role role) const;
    int activeCount(Role role) const;       // listed and not draining
    const std::optional<ProxyLists> &lists() const { return m_lists; }
    const ProxyHealth &health() const { return m_health; }
    QString lastError() const { return m_error; }
    // The last membership read while the proxy was healthy, for restore after a restart (§13, issue 7).
    const std::optional<ProxyLists> &lastKnownGood() const { return m_lastKnownGood; }
    QDateTime lastKnownGoodAt() const { return m_lastKnownGoodAt; }

Q_SIGNALS:
    void factChanged(const QString &id, pd::Role role, pd::MembershipFact fact);
    void dropped(const QString &id, pd::Role role);
    // The proxy was unreachable and came back with other lists than before: it restarted and
    // forgot the runtime adds and removes. `previous` is the last membership read before.
    void restartDetected(const pd::ProxyLists &previous, const pd::ProxyLists &now);
    void reconciled();

private:
    static QString key(const QString &id, Role role);
    InstanceRecord &ensure(const QString &id, Role role);
    void setFact(InstanceRecord &r, MembershipFact fact, const QString &note);
    void apply(const ProxyLists &lists);
    bool listedIn(const ProxyLists &lists, const QString &id, Role role) const;

    ProxyClient *m_client;
    QTimer m_timer;
    QHash<QString, InstanceRecord> m_records; // key(id, role)
    QStringList m_order;                      // insertion order of keys
    std::optional<ProxyLists> m_lists;
    std::optional<ProxyLists> m_lastKnownGood;
    QDateTime m_lastKnownGoodAt;
    ProxyHealth m_health;
    QString m_error;
    bool m_wasUnreachable = false;
    bool m_inFlight = false;
    QList<std::function<void(bool)>> m_waiters;
    int m_intervalMs = 10000;
    int m_maxRetries = 3;
    int m_marginMs = 5000;
};

} // namespace pd
