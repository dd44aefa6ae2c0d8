// SPDX-License-Identifier: MIT
#include "topology/syntheticprofile.h"

#include <algorithm>
#include <cmath>

namespace pd {

Profile syntheticProfile(int engines, int enginesPerNode, double prefillShare)
{
    Profile profile;
    profile.name = QStringLiteral("synthetic-%1").arg(engines);
    enginesPerNode = std::max(1, enginesPerNode);
    engines = std::max(0, engines);
    const int prefill = engines > 1 ? std::clamp(int(std::lround(engines * prefillShare)), 1, engines - 1) : 0;
    const int counts[2] = { prefill, engines - prefill };
    for (int pool = 0; pool < 2; ++pool) {
        const Role role = pool == 0 ? Role::Prefill : Role::Decode;
        const QString prefix = pool == 0 ? QStringLiteral("p") : QStringLiteral("d");
        int placed = 0;
        for (int n = 0; placed < counts[pool]; ++n) {
            Node node;
            node.name = prefix + QString::number(n);
            node.address = QStringLiteral("10.%1.%2.%3").arg(pool + 1).arg(n / 256).arg(n % 256);
            node.role = role;
            node.npuCount = 16;
            EngineGroup group;
            group.dpSize = counts[pool];
            group.dpSizeLocal = std::min(enginesPerNode, counts[pool] - placed);
            group.dpRankStart = placed;
            group.dpAddress = QStringLiteral("10.%1.0.0").arg(pool + 1);
            group.engineStartPort = 9000;
            node.engineGroups.append(group);
            profile.nodes.append(node);
            placed += group.dpSizeLocal;
        }
    }
    profile.proxy.address = QStringLiteral("10.0.0.1");
    return profile;
}

} // namespace pd
