// SPDX-License-Identifier: MIT
#include "cluster/profilejson.h"

namespace pd {

using ojson = nlohmann::ordered_json;

namespace {

ojson toList(const QStringList &list)
{
    ojson a = ojson::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

} // namespace

ojson profileSummaryJson(const Profile &profile)
{
    ojson root = ojson::object();
    root["name"] = profile.name.toStdString();
    root["launch_flavor"] = flavorName(profile.launchFlavor).toStdString();
    ojson nodes = ojson::array();
    for (const Node &node : profile.nodes) {
        int engines = 0;
        for (const EngineGroup &g : node.engineGroups)
            engines += g.dpSizeLocal;
        nodes.push_back(ojson{{"name", node.name.toStdString()},
                              {"address", node.address.toStdString()},
                              {"role", roleName(node.role).toStdString()},
                              {"npu_generation", generationName(node.npuGeneration).toStdString()},
                              {"npu_count", node.npuCount},
                              {"engines", engines}});
    }
    root["nodes"] = nodes;
    ojson engines = ojson::array();
    const QList<Engine> list = profile.engines();
    for (const Engine &e : list) {
        const Node &node = profile.nodes.at(e.nodeIndex);
        const EngineGroup &g = node.engineGroups.at(e.groupIndex);
        engines.push_back(ojson{{"node", node.name.toStdString()},
                                {"role", roleName(e.role).toStdString()},
                                {"host", e.host.toStdString()},
                                {"port", e.port},
                                {"dp_rank", e.dpRank},
                                {"local_rank", e.localRank},
                                {"dp_size", g.dpSize},
                                {"dp_address", g.dpAddress.toStdString()},
                                {"dp_port", g.dpPort},
                                {"tp_size", g.tpSize},
                                {"launcher_args", toList(profile.launcherArguments(e))}});
    }
    root["engines"] = engines;
    root["proxy"] = ojson{{"address", profile.proxy.address.toStdString()},
                          {"port", profile.proxy.port},
                          {"generation", proxyGenerationName(profile.proxy.generation).toStdString()},
                          {"prefill_instances", toList(profile.proxyInstances(Role::Prefill))},
                          {"decode_instances", toList(profile.proxyInstances(Role::Decode))}};
    return root;
}

QString profileSummaryTable(const Profile &profile)
{
    QList<QStringList> rows;
    rows.append({QStringLiteral("NODE"), QStringLiteral("ROLE"), QStringLiteral("HOST"), QStringLiteral("PORT"),
                 QStringLiteral("DP-RANK"), QStringLiteral("DP-GROUP"), QStringLiteral("TP"),
                 QStringLiteral("LAUNCHER-ARGS")});
    const QList<Engine> list = profile.engines();
    for (const Engine &e : list) {
        const Node &node = profile.nodes.at(e.nodeIndex);
        const EngineGroup &g = node.engineGroups.at(e.groupIndex);
        rows.append({node.name, roleName(e.role), e.host, QString::number(e.port),
                     QStringLiteral("%1/%2").arg(e.dpRank).arg(g.dpSize),
                     QStringLiteral("%1:%2").arg(g.dpAddress).arg(g.dpPort), QString::number(g.tpSize),
                     profile.launcherArguments(e).join(QLatin1Char(' '))});
    }
    QList<qsizetype> widths(rows.first().size(), 0);
    for (const QStringList &row : rows)
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = qMax(widths.at(c), row.at(c).size());
    QString text;
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row.at(c).leftJustified(widths.at(c) + 2) : row.at(c);
        text += line + QLatin1Char('\n');
    }
    text += QStringLiteral("\n%1 engines (%2 prefill, %3 decode) on %4 nodes; proxy %5:%6 (%7)\n")
                .arg(list.size())
                .arg(profile.engines(Role::Prefill).size())
                .arg(profile.engines(Role::Decode).size())
                .arg(profile.nodes.size())
                .arg(profile.proxy.address)
                .arg(profile.proxy.port)
                .arg(proxyGenerationName(profile.proxy.generation));
    return text;
}

} // namespace pd
