// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

// The DP groups of a profile: the lifecycle unit of a MoE cluster (docs/dp-groups.md). The ranks that
// share role, DP master address and master port form one group; a coupled group starts, stops and
// scales as a whole, while the proxy routes to each rank alone.
namespace pd {

struct DpGroup {
    QString id;              // "decode@192.0.0.5:13395": role @ DP master address : master port
    Role role = Role::Decode;
    QString masterAddress;
    int masterPort = 0;
    int dpSize = 0;          // as the profile declares it
    bool coupled = true;     // the role's dp_coupling is "coupled" and the group has more than one rank
    QList<int> engines;      // indices into Profile::engines(), in DP rank order
    QStringList engineIds;   // "host:port" of the same engines, same order
    QList<int> dpRanks;      // the DP rank of each, same order
    QStringList nodeNames;   // the nodes holding ranks, in profile order

    int size() const { return int(engines.size()); }
    bool contains(const QString &engineId) const { return engineIds.contains(engineId); }
};

QString dpGroupId(Role role, const QString &masterAddress, int masterPort);

class DpGroups final {
public:
    DpGroups() = default;
    explicit DpGroups(const Profile &profile);

    const QList<DpGroup> &groups() const { return m_groups; }
    bool isEmpty() const { return m_groups.isEmpty(); }
    // The group index of an engine ("host:port"), -1 when the profile has no such engine.
    int indexOfEngine(const QString &engineId) const { return m_byEngine.value(engineId, -1); }
    const DpGroup *groupOfEngine(const QString &engineId) const;
    const DpGroup *find(const QString &groupId) const;
    QList<const DpGroup *> ofRole(Role role) const;
    // True when stopping this engine alone would break a coupled group.
    bool isCoupledRank(const QString &engineId) const;

    // Pool sizes (engine counts) reachable by running whole coupled groups plus any number of independent
    // ranks, ascending, 0 included. The 8-node guide's decode pool (one coupled group of 64): {0, 64}.
    QList<int> reachableSizes(Role role) const;
    // The reachable sizes nearest below and above `wanted` (equal to it when reachable); -1 where none.
    std::pair<int, int> nearestReachable(Role role, int wanted) const;

private:
    QList<DpGroup> m_groups;
    QHash<QString, int> m_byEngine;
};

} // namespace pd
