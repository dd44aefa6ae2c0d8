// SPDX-License-Identifier: MIT
#include "statusgroups.h"

#include "cluster/dpgroups.h"

namespace pdctl {

using namespace pd;

EngineState rankStateOfProbe(bool ready, bool listening, MembershipFact membership)
{
    const bool routed = membership == MembershipFact::Active || membership == MembershipFact::Waiting;
    if (ready)
        return routed ? EngineState::Serving : EngineState::ReadyNotInProxy;
    if (listening)
        return EngineState::Starting;
    return routed ? EngineState::Unreachable : EngineState::Stopped;
}

QList<GroupStatus> groupStatus(const Profile &profile, const std::function<EngineState(const QString &id)> &rankState)
{
    QList<GroupStatus> out;
    const DpGroups groups(profile);
    for (const DpGroup &group : groups.groups()) {
        GroupStatus g;
        g.id = group.id;
        g.role = group.role;
        g.coupled = group.coupled;
        g.ranks = group.engineIds;
        // One probe has no history: every rank is as old as the others, and a stopped one never ran as
        // far as this probe knows (a stopped rank beside answering ranks is dead all the same).
        QList<GroupRankInput> ranks;
        for (const QString &id : group.engineIds) {
            GroupRankInput r;
            r.state = rankState(id);
            ranks.append(r);
        }
        const GroupState state = deriveGroupState(group.coupled, ranks);
        g.health = state.health;
        for (const GroupDeadRank &d : state.dead)
            g.dead.append(group.engineIds.at(d.rank));
        out.append(g);
    }
    return out;
}

nlohmann::ordered_json groupsJson(const QList<GroupStatus> &groups)
{
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const GroupStatus &g : groups) {
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        for (const QString &id : g.ranks)
            ranks.push_back(id.toStdString());
        nlohmann::ordered_json dead = nlohmann::ordered_json::array();
        for (const QString &id : g.dead)
            dead.push_back(id.toStdString());
        array.push_back({{"id", g.id.toStdString()},
                         {"role", roleName(g.role).toStdString()},
                         {"coupling", g.coupled ? "coupled" : "independent"},
                         {"ranks", ranks},
                         {"state", groupHealthName(g.health).toStdString()},
                         {"dead", dead}});
    }
    return array;
}

void printGroups(QTextStream &out, const QList<GroupStatus> &groups)
{
    out << QStringLiteral("%1 %2 %3 %4 %5\n").arg(QStringLiteral("GROUP"), -28).arg(QStringLiteral("ROLE"), -8)
               .arg(QStringLiteral("COUPLING"), -11).arg(QStringLiteral("RANKS"), 5).arg(QStringLiteral("STATE"));
    for (const GroupStatus &g : groups) {
        QString state = groupHealthName(g.health);
        if (!g.dead.isEmpty())
            state += QStringLiteral("  dead: ") + g.dead.join(QStringLiteral(", "));
        out << QStringLiteral("%1 %2 %3 %4 %5\n").arg(g.id, -28).arg(roleName(g.role), -8)
                   .arg(g.coupled ? QStringLiteral("coupled") : QStringLiteral("independent"), -11).arg(g.ranks.size(), 5).arg(state);
    }
    for (const GroupStatus &g : groups) {
        if (g.health == GroupHealth::Broken && g.coupled)
            out << "group " << g.id << " is broken: " << g.dead.join(QStringLiteral(", ")) << (g.dead.size() == 1 ? " is" : " are")
                << " down and the other " << (g.ranks.size() - g.dead.size())
                << " ranks cannot make progress; restart the whole group\n";
    }
}

} // namespace pdctl
