// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "net/proxyclient.h"
#include "state/enginefacts.h"

#include <QObject>

#include <memory>
#include <optional>

// The console's monitoring without a window: the engines' /metrics poller, the proxy's /healthcheck
// poller and the membership reconciler feed a cluster store, the state tracker derives every engine's
// state and triage ranks the problems, exactly as in the console (the same classes, the same
// thresholds). `pdctl problems` and `pdctl watch` run on it.
//
// Membership comes from the proxy's lists (/instances, v0.13+); a proxy without that API (v0.9.1-dev)
// leaves it unknown, so nothing is known to be listed and nothing can be ejected.
namespace pd {

class ClusterStore;
class MembershipReconciler;
class MetricsPoller;
class ProxyHealthPoller;
class StateTracker;
class Triage;

struct ClusterWatchTiming {
    int pollIntervalMs = 1000;
    int proxyIntervalMs = 1000;
    int timeoutMs = 2000;
    int membershipPeriodMs = 2000;
    StateThresholds thresholds;
};

class ClusterWatch final : public QObject {
    Q_OBJECT
public:
    ClusterWatch(const Profile &profile, const QString &path, ClusterWatchTiming timing = {}, QObject *parent = nullptr);
    ~ClusterWatch() override;

    void start();

    ClusterStore *store() const { return m_store.get(); }
    StateTracker *tracker() const { return m_tracker.get(); }
    Triage *triage() const { return m_triage.get(); }
    ProxyClient *proxy() const { return m_proxy.get(); }
    MembershipReconciler *membership() const { return m_membership.get(); }
    const std::optional<ProxyCapabilities> &capabilities() const { return m_caps; }

    int rounds() const { return m_rounds; }           // engine poll rounds applied
    int proxyAnswers() const { return m_proxyAnswers; } // /healthcheck results seen (answered or not)
    bool membershipRead() const { return m_membershipRead; } // one reconciliation done (or impossible)
    QString engineId(int engine) const;               // "host:port"

Q_SIGNALS:
    void roundDone(int rounds);
    void capabilitiesKnown();

private:
    ClusterWatchTiming m_timing;
    std::unique_ptr<ClusterStore> m_store;
    std::unique_ptr<StateTracker> m_tracker;
    std::unique_ptr<Triage> m_triage;
    std::unique_ptr<MetricsPoller> m_engines;
    std::unique_ptr<ProxyHealthPoller> m_health;
    std::unique_ptr<ProxyClient> m_proxy;
    std::unique_ptr<MembershipReconciler> m_membership;
    std::optional<ProxyCapabilities> m_caps;
    int m_rounds = 0;
    int m_proxyAnswers = 0;
    bool m_membershipRead = false;
};

} // namespace pd
