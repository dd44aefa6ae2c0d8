// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "state/enginestate.h"

#include <QList>
#include <QString>

#include <optional>

// Which engines the topology's filter box keeps (the others are dimmed, not hidden, so the layout does
// not jump): any of some states, one node, one role, and free text over the node name, host, port,
// "host:port", "dp <rank>" and the state's name and label. Empty parts match everything.
namespace pd {

struct TopologyFilter {
    QList<EngineState> states; // empty: any state
    int node = -1; // profile node index, -1: any node
    std::optional<Role> role;
    QString text; // case-insensitive, whitespace-separated words that must all match

    bool isEmpty() const { return states.isEmpty() && node < 0 && !role && text.trimmed().isEmpty(); }
    // searchKey: searchKey(profile, engine) of the engine, computed once per profile.
    bool matches(const Engine &engine, EngineState state, const QString &searchKey) const;

    // What the free text is matched against, lower case.
    static QString searchKey(const Profile &profile, const Engine &engine);
};

} // namespace pd
