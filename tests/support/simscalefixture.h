// SPDX-License-Identifier: MIT
#pragma once

// pdsim's cluster in the test's own process (sim::SimCluster) with the console's scaling parts around
// it, as the scaling, engine-action and canary tests set them up: the profile and its engines, the
// cluster on the profile's loopback addresses with its control API, and on request the proxy client,
// the membership table, the engine control seam, the engine probe, an audit log in a temporary
// directory, the scale context, the runner and the engine actions. The helpers ask the control API
// (blocking, events running) and wait on conditions, never on time.
#include "cluster/profile.h"
#include "clustersim/simcluster.h"
#include "ops/scalecontext.h"
#include "ops/scaleprobe.h"
#include "ops/scaletypes.h"

#include <QHash>
#include <QSet>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

namespace pd {
class AuditLog;
class EngineActions;
class MembershipReconciler;
class ProxyClient;
class ScaleRunner;
class SimClusterEngineControl;
} // namespace pd

namespace pd::test {

class SimScaleFixture final {
public:
    // How the membership table judges a WAITING add: a 500 ms listener interval, the profile's retries
    // and a 2 s margin; or left to the test, which sets it from a scale context.
    enum class ListenerTiming { Fixed, FromTest };

    SimScaleFixture();
    ~SimScaleFixture();
    SimScaleFixture(const SimScaleFixture &) = delete;
    SimScaleFixture &operator=(const SimScaleFixture &) = delete;

    // The profile file: its engines become refs(). False when it does not load.
    bool loadProfile(const QString &path);
    const Profile &profile() const { return m_profile; }
    const QList<EngineRef> &refs() const { return m_refs; }
    EngineRef ref(const QString &id) const; // a fatal error when the profile has no such engine
    const QTemporaryDir &dir() const { return m_dir; }

    // The cluster of profile() with `options` (their profile is replaced), started; empty when it
    // listens, else why not. Use PD_START_SIM_CLUSTER in a test function.
    QString startCluster(sim::ClusterOptions options);
    sim::SimCluster *cluster() const { return m_cluster.get(); }
    void stopCluster();
    // Lines the cluster logged that show a crashed thread (the proxy listener's KeyError, §8.1).
    const QStringList &crashLines() const { return m_crashLines; }

    // The control API on the proxy's address: the body, the status in *status (0: no answer).
    QByteArray callControl(
        const QByteArray &method, const QString &path, const QByteArray &body = {}, int *status = nullptr);
    int postControl(const QString &path, const QByteArray &body); // the status
    nlohmann::json clusterState(); // GET /cluster; discarded when unreadable
    nlohmann::json engineState(const QString &id); // that engine's entry; null when absent
    QString engineStatus(const QString &id); // "ready", "stopped", ...; empty when absent
    QString engineFault(const QString &id); // "none", "stall", ...; empty when absent
    // Stops the engine through the control API and waits until the cluster reports it stopped.
    void stopEngineNow(const QString &id);
    // Gives the engine the fault `kind` ("stall", "none", ...) through the control API and waits (10 s at
    // most) until the cluster reports it: a fault is applied on the engine's own thread. False otherwise.
    bool setFault(const QString &id, const QString &kind);
    void setLoad(double rps); // the cluster's client load through the proxy

    // The proxy client (per-request timeout proxyTimeoutMs), the membership table (the profile's
    // engines configured), the engine control, the probe, the audit log, the context wired to them,
    // the runner and the engine actions. The context's settings and profile are the test's to set.
    void setUpScaling(int proxyTimeoutMs, ListenerTiming timing = ListenerTiming::Fixed);
    ProxyClient *proxy() const { return m_proxy.get(); }
    MembershipReconciler *table() const { return m_table.get(); }
    SimClusterEngineControl *control() const { return m_control.get(); }
    EngineProbe *probe() const { return m_probe.get(); }
    AuditLog *audit() const { return m_audit.get(); }
    ScaleContext &context() { return m_ctx; }
    ScaleRunner *runner() const { return m_runner.get(); }
    EngineActions *actions() const { return m_actions.get(); }
    // Another membership table on the same proxy with the profile's engines configured (a console
    // started again), owned by `parent`.
    MembershipReconciler *newTable(QObject *parent = nullptr) const;
    // `ctx` wired to the proxy client, `table`, the engine control and the audit log (not the probe).
    void wire(ScaleContext &ctx, MembershipReconciler *table) const;

    bool reconcile(); // one reconcile round of table(); false when the lists were not read in 10 s
    bool waitIdle(int ms); // the runner idle within ms
    QSet<QString> listed(Role role) const; // the proxy's list of `role` as table() read it, keyed
    QList<EngineRef> activeMembers(Role role) const; // the engines of `role` table() holds active
    QHash<QString, EngineLoad> loads(Role role); // their load, as the probe reads it (empty: no answer)

private:
    QTemporaryDir m_dir;
    Profile m_profile;
    QList<EngineRef> m_refs;
    QStringList m_crashLines;
    std::unique_ptr<AuditLog> m_audit;
    ScaleContext m_ctx;
    std::unique_ptr<sim::SimCluster> m_cluster;
    std::unique_ptr<ProxyClient> m_proxy;
    std::unique_ptr<MembershipReconciler> m_table;
    std::unique_ptr<SimClusterEngineControl> m_control;
    std::unique_ptr<EngineProbe> m_probe;
    std::unique_ptr<ScaleRunner> m_runner;
    std::unique_ptr<EngineActions> m_actions;
};

} // namespace pd::test

// Starts `fixture`'s cluster with `options` and waits (30 s at most; readyMs with the second form) until it
// is ready, or ends the test function: a failure under CI, a skip elsewhere (ports busy, or no 127.0.0.x
// addresses).
#define PD_START_SIM_CLUSTER(fixture, options) PD_START_SIM_CLUSTER_WITHIN(fixture, options, 30000)
#define PD_START_SIM_CLUSTER_WITHIN(fixture, options, readyMs)                                                         \
    do {                                                                                                               \
        const QString pdStartError = (fixture).startCluster(options);                                                  \
        if (!pdStartError.isEmpty()) {                                                                                 \
            if (qEnvironmentVariableIsSet("CI"))                                                                       \
                QFAIL(qPrintable(pdStartError));                                                                       \
            QSKIP(qPrintable(QStringLiteral("cannot start the simulated cluster (ports busy?): ") + pdStartError));    \
        }                                                                                                              \
        QTRY_VERIFY_WITH_TIMEOUT((fixture).cluster()->isReady(), readyMs);                                             \
    } while (false)
