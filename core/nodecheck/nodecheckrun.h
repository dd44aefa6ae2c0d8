// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "nodecheck/checksuite.h"
#include "nodecheck/checktypes.h"
#include "nodecheck/clusterrules.h"

#include <atomic>
#include <chrono>
#include <functional>

// Running the checks: per node one command for the local suite, then (once every node's addresses are
// known) one command for the pings. Nodes run in parallel on a bounded pool; an unreachable or slow node
// is reported on its own row and never holds up the others beyond its own timeout.
//
// Everything here blocks: call it from a worker thread (NodeCheckRunner does) or from pdctl.
namespace pd {

struct NodeCheckOptions {
    SuiteOptions suite;
    int maxParallel = 16; // nodes checked at once
    std::chrono::milliseconds localTimeout = std::chrono::minutes(3); // whole local suite on one node
    std::chrono::milliseconds pingTimeout = std::chrono::minutes(3);
    bool pingPeers = true;
    bool roceOptional = false;
    TlsPolicy tlsPolicy = TlsPolicy::Majority;
};

// The nodes of a profile (all of them, or those named) as check targets.
QList<NodeCheckTarget> nodeCheckTargets(const Profile &profile, const QStringList &onlyNodes = {});

NodeReport runLocalChecks(CommandRunner &runner, const NodeCheckTarget &target, const NodeCheckOptions &options);
void runPingChecks(CommandRunner &runner, const NodeCheckTarget &target, const PingPlan &plan,
    const NodeCheckOptions &options, NodeReport &report);

// The whole cluster. onNode is called (from worker threads, serialized) whenever a node's report grew.
ClusterReport runNodeChecks(CommandRunner &runner, const QList<NodeCheckTarget> &targets,
    const NodeCheckOptions &options, const std::function<void(const NodeReport &)> &onNode = {},
    const std::atomic_bool *cancelled = nullptr);

} // namespace pd
