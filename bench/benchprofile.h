// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <algorithm>

namespace pd::bench {

// The profile bench_state and bench_ingest time: N engines, `perNode` a node, each node its own DP
// group, the first eighth of the nodes prefill (topology/syntheticprofile.h spreads one group a pool).
inline Profile nodeGroupsProfile(int engines, int perNode)
{
    Profile p;
    p.name = QStringLiteral("bench");
    const int nodes = (engines + perNode - 1) / perNode;
    for (int n = 0; n < nodes; ++n) {
        Node node;
        node.name = QStringLiteral("n%1").arg(n);
        node.address = QStringLiteral("10.%1.%2.1").arg(n / 250).arg(n % 250);
        node.role = n < std::max(1, nodes / 8) ? Role::Prefill : Role::Decode;
        EngineGroup g;
        g.dpSize = perNode;
        g.dpSizeLocal = std::min(perNode, engines - n * perNode);
        g.dpAddress = node.address;
        node.engineGroups.append(g);
        p.nodes.append(node);
    }
    p.proxy.address = QStringLiteral("10.255.0.1");
    p.proxy.port = 8000;
    return p;
}

} // namespace pd::bench
