// SPDX-License-Identifier: MIT
#include "cluster/dpgroups.h"

#include <algorithm>
#include <vector>

namespace pd {

QString dpGroupId(Role role, const QString &masterAddress, int masterPort)
{
    return QStringLiteral("%1@%2:%3").arg(roleName(role), masterAddress).arg(masterPort);
}

DpGroups::DpGroups(const Profile &profile)
{
    const QList<Engine> engines = profile.engines();
    QHash<QString, int> byId;
    for (int i = 0; i < engines.size(); ++i) {
        const Engine &engine = engines.at(i);
        const Node &node = profile.nodes.at(engine.nodeIndex);
        const EngineGroup &launch = node.engineGroups.at(engine.groupIndex);
        const QString id = dpGroupId(engine.role, launch.dpAddress, launch.dpPort);
        int index = byId.value(id, -1);
        if (index < 0) {
            index = int(m_groups.size());
            byId.insert(id, index);
            DpGroup group;
            group.id = id;
            group.role = engine.role;
            group.masterAddress = launch.dpAddress;
            group.masterPort = launch.dpPort;
            group.dpSize = launch.dpSize;
            m_groups.append(group);
        }
        DpGroup &group = m_groups[index];
        group.engines.append(i);
        group.engineIds.append(engine.id());
        group.dpRanks.append(engine.dpRank);
        if (!group.nodeNames.contains(node.name))
            group.nodeNames.append(node.name);
        m_byEngine.insert(engine.id(), index);
    }
    for (DpGroup &group : m_groups) {
        // Rank order: a group's ranks as the DP master numbers them, whichever node holds them.
        QList<int> order(group.engines.size());
        for (int i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&group](int a, int b) { return group.dpRanks.at(a) < group.dpRanks.at(b); });
        DpGroup sorted = group;
        for (int i = 0; i < order.size(); ++i) {
            sorted.engines[i] = group.engines.at(order.at(i));
            sorted.engineIds[i] = group.engineIds.at(order.at(i));
            sorted.dpRanks[i] = group.dpRanks.at(order.at(i));
        }
        sorted.coupled = profile.roleConfig(group.role).dpCoupling == DpCoupling::Coupled && sorted.size() > 1;
        group = sorted;
    }
}

const DpGroup *DpGroups::groupOfEngine(const QString &engineId) const
{
    const int index = indexOfEngine(engineId);
    return index < 0 ? nullptr : &m_groups.at(index);
}

const DpGroup *DpGroups::find(const QString &groupId) const
{
    for (const DpGroup &group : m_groups) {
        if (group.id == groupId)
            return &group;
    }
    return nullptr;
}

QList<const DpGroup *> DpGroups::ofRole(Role role) const
{
    QList<const DpGroup *> result;
    for (const DpGroup &group : m_groups) {
        if (group.role == role)
            result.append(&group);
    }
    return result;
}

bool DpGroups::isCoupledRank(const QString &engineId) const
{
    const DpGroup *group = groupOfEngine(engineId);
    return group && group->coupled;
}

QList<int> DpGroups::reachableSizes(Role role) const
{
    int independent = 0;
    int total = 0;
    QList<int> coupledSizes;
    for (const DpGroup &group : m_groups) {
        if (group.role != role)
            continue;
        total += group.size();
        if (group.coupled)
            coupledSizes.append(group.size());
        else
            independent += group.size();
    }
    // Subset sums of the coupled groups' sizes (a bitset over 0..total), then any independent count on top.
    std::vector<char> reachable(size_t(total) + 1, 0);
    reachable[0] = 1;
    for (int size : coupledSizes) {
        for (int s = total - size; s >= 0; --s) {
            if (reachable[size_t(s)])
                reachable[size_t(s + size)] = 1;
        }
    }
    std::vector<char> withIndependent(reachable.size(), 0);
    for (int s = 0; s <= total; ++s) {
        if (!reachable[size_t(s)])
            continue;
        for (int k = 0; k <= independent && s + k <= total; ++k)
            withIndependent[size_t(s + k)] = 1;
    }
    QList<int> sizes;
    for (int s = 0; s <= total; ++s) {
        if (withIndependent[size_t(s)])
            sizes.append(s);
    }
    return sizes;
}

std::pair<int, int> DpGroups::nearestReachable(Role role, int wanted) const
{
    const QList<int> sizes = reachableSizes(role);
    int below = -1;
    int above = -1;
    for (int s : sizes) {
        if (s <= wanted)
            below = s;
        if (s >= wanted && above < 0)
            above = s;
    }
    return {below, above};
}

} // namespace pd
