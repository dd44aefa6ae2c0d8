// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "ops/detachedprocess.h"

#include <QHash>
#include <QList>
#include <QString>

// Which nodes a status round of their engines reached: a node answered when the status command of any
// of its engines ran there; it is unreachable, with the transport error, when none did and one failed
// without learning anything about its process. Nodes without an outcome are in neither.
namespace pd {

struct NodeReachability {
    QList<int> answered;               // node indexes, ascending
    QHash<int, QString> unreachable;   // node index -> the error of one of its engines
};

NodeReachability nodeReachability(const Profile &profile, const QList<ProcessOutcome> &outcomes);

} // namespace pd
