// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "engine/engineoptions.h"

#include <QHash>
#include <QHostAddress>
#include <QString>
#include <QStringList>

#include <optional>

// How `pdsim cluster` runs a profile: every engine and the proxy of the profile in one process.
namespace pd::sim {

struct ClusterOptions {
    pd::Profile profile;
    bool loopback = false;            // map node addresses onto 127.0.0.x (one per node), proxy on 127.0.0.1
    double timeScale = 1.0;           // simulated seconds per real second
    double startupSeconds = 0.0;      // simulated weights loading before an engine listens
    double loadRps = 0.0;             // background client load through the proxy (0: none)
    int loadMaxInFlight = 256;        // bound on concurrent client requests
    std::optional<double> waitingRetryInterval; // overrides the profile's proxy setting
    MetricsFlavor flavor = MetricsFlavor::V0_9_1;
    int threads = 0;                  // engine worker threads; 0: one per 64 engines, at most 16
    quint16 controlPort = 0;          // control API on the proxy's address; 0: any free port
    bool jitter = true;
    quint64 seed = 1;
    QString logDir;                   // engine and proxy logs under DIR, at the paths the console reads with run_dir = DIR
    // Coupled DP groups (roles.<role>.dp_coupling, docs/pdsim-engine.md "DP groups"); simulated seconds.
    bool dpCoupling = true;           // false (--no-dp-coupling): every rank independent, as before groups
    double dpJoinTimeoutSeconds = 1800;                 // a group not formed by then: its started ranks exit
    std::optional<double> dpWatchdogTimeoutSeconds;     // survivors of a broken group exit; default HCCL_EXEC_TIMEOUT

    // `pdsim cluster --profile FILE [...]`; nullopt with *error (and *exitCode) on bad arguments.
    static std::optional<ClusterOptions> fromArguments(const QStringList &arguments, QString *error, int *exitCode);
};

// Where each node and the proxy listen once --loopback is applied.
class AddressMap {
public:
    AddressMap() = default;
    AddressMap(const pd::Profile &profile, bool loopback);
    QString nodeHost(int nodeIndex) const { return m_nodes.value(nodeIndex); }
    QString proxyHost() const { return m_proxy; }
    // Maps a "host:port" of the profile (a node address or the proxy's) to where it listens.
    QString mapInstance(const QString &hostPort) const;

private:
    QStringList m_nodes;
    QString m_proxy;
    QHash<QString, QString> m_byAddress;
};

} // namespace pd::sim
