// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "state/enginestate.h"
#include "state/groupstate.h"

#include <QList>
#include <QStringList>
#include <QTextStream>

#include <functional>

#include <nlohmann/json.hpp>

// The DP groups part of `pdctl status`: each group's state from one probe of its ranks (answering,
// loading, down), so a coupled group with a dead rank reads as broken, not as N-1 healthy engines.
namespace pdctl {

struct GroupStatus {
    QString id;
    pd::Role role = pd::Role::Decode;
    bool coupled = true;
    QStringList ranks; // "host:port", in DP rank order
    pd::GroupHealth health = pd::GroupHealth::Unknown;
    QStringList dead;  // "host:port" of the dead ranks
};

// One probe of a rank as a state: ready serves (or waits outside the proxy), an HTTP answer without
// readiness is loading, no answer is unreachable while the proxy routes to it and stopped otherwise.
pd::EngineState rankStateOfProbe(bool ready, bool listening, pd::MembershipFact membership);

QList<GroupStatus> groupStatus(const pd::Profile &profile, const std::function<pd::EngineState(const QString &id)> &rankState);
nlohmann::ordered_json groupsJson(const QList<GroupStatus> &groups);
// One line per group; a broken group names its dead ranks and the fix.
void printGroups(QTextStream &out, const QList<GroupStatus> &groups);

} // namespace pdctl
