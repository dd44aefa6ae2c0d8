// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

// Rules that need more than one command's output: hccn.conf against the live values on one node, and
// across the cluster the TLS switch (every NPU that talks to another must agree, spec §2.10), duplicate
// device IPs, A3 super-pod identity (§2.13). Plus the ping plan: which address each device pings.
namespace pd {

enum class TlsPolicy {
    Majority, // the cluster majority is right (ties: disabled, the recommended value)
    AllOff, // every device must have TLS disabled (the MindStudio precheck default)
};

// Adds per-device hccn_conf checks: address_N / gateway_N / netdetect_N against -ip/-vnic, -gateway, -netdetect.
void applyNodeRules(NodeReport &node);

void applyClusterRules(ClusterReport &report, TlsPolicy policy);

struct PingPlan {
    QString peerNode; // the node whose devices are pinged
    QStringList peerIps; // index = local device; empty: nothing to ping for that device
    QString skipped; // why there is no plan (single node, no peer IPs)
};

// Ring: each node pings the next node of the same generation whose device IPs are known; device d pings the peer's
// device d at its profile NPU IP when the profile has it, else at the address the peer's -ip (A2) / -vnic (A3) check
// read.
QList<PingPlan> planPings(const QList<NodeCheckTarget> &targets, const QList<NodeReport> &localReports);

} // namespace pd
