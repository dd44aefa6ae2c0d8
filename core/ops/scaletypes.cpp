// SPDX-License-Identifier: MIT
#include "ops/scaletypes.h"

namespace pd {

QList<EngineRef> engineRefs(const Profile &profile)
{
    QList<EngineRef> out;
    const QList<Engine> engines = profile.engines();
    for (const Engine &e : engines)
        out.append({e.id(), e.role, profile.nodes.value(e.nodeIndex).name, e.dpRank});
    return out;
}

} // namespace pd
