// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

#include <QString>
#include <QUrl>

// What scaling operations act on: one engine of the profile, named as the proxy names it.
namespace pd {

struct EngineRef {
    QString id;          // "host:port": the proxy instance and where the engine answers HTTP
    Role role = Role::Decode;
    QString node;        // profile node name
    int dpRank = 0;

    QUrl baseUrl() const { return QUrl(QStringLiteral("http://") + id); }
    QString label() const { return QStringLiteral("%1 %2 (%3, rank %4)").arg(roleName(role), id, node).arg(dpRank); }
    bool operator==(const EngineRef &) const = default;
};

// Every engine of a profile as an EngineRef, in profile order.
QList<EngineRef> engineRefs(const Profile &profile);

} // namespace pd
