// SPDX-License-Identifier: MIT
#include "cluster/profile.h"

namespace pd {

QString roleName(Role role)
{
    return role == Role::Prefill ? QStringLiteral("prefill") : QStringLiteral("decode");
}

QString generationName(NpuGeneration generation)
{
    return generation == NpuGeneration::A2 ? QStringLiteral("A2") : QStringLiteral("A3");
}

QString flavorName(LaunchFlavor flavor)
{
    return flavor == LaunchFlavor::V091 ? QStringLiteral("v0.9.1") : QStringLiteral("main");
}

QString proxyGenerationName(ProxyGeneration generation)
{
    return generation == ProxyGeneration::V091Dev ? QStringLiteral("v0.9.1-dev") : QStringLiteral("main");
}

QString couplingName(DpCoupling coupling)
{
    return coupling == DpCoupling::Coupled ? QStringLiteral("coupled") : QStringLiteral("independent");
}

bool RoleConfig::enablesExpertParallel() const
{
    for (const QString &arg : extraArgs) {
        if (arg == QLatin1String("--enable-expert-parallel") || arg == QLatin1String("--enable_expert_parallel"))
            return true;
    }
    return false;
}

QString RoleConfig::kvRole() const
{
    const auto it = kvTransferConfig.find("kv_role");
    if (it == kvTransferConfig.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

int RoleConfig::kvPort() const
{
    const auto it = kvTransferConfig.find("kv_port");
    if (it == kvTransferConfig.end())
        return 0;
    if (it->is_number_integer())
        return it->get<int>();
    if (it->is_string()) // the seeds write "kv_port": "20001"
        return QString::fromStdString(it->get<std::string>()).toInt();
    return 0;
}

QString Engine::id() const
{
    return host + QLatin1Char(':') + QString::number(port);
}

QList<Engine> Profile::engines() const
{
    QList<Engine> result;
    for (int n = 0; n < nodes.size(); ++n) {
        const Node &node = nodes.at(n);
        for (int g = 0; g < node.engineGroups.size(); ++g) {
            const EngineGroup &group = node.engineGroups.at(g);
            for (int i = 0; i < group.dpSizeLocal; ++i) {
                Engine engine;
                engine.nodeIndex = n;
                engine.groupIndex = g;
                engine.localRank = i;
                engine.dpRank = group.dpRankStart + i;
                engine.port = group.engineStartPort + i;
                engine.role = node.role;
                engine.host = node.address;
                result.append(engine);
            }
        }
    }
    return result;
}

QList<Engine> Profile::engines(Role role) const
{
    QList<Engine> result;
    const QList<Engine> all = engines();
    for (const Engine &engine : all) {
        if (engine.role == role)
            result.append(engine);
    }
    return result;
}

QStringList Profile::proxyInstances(Role role) const
{
    const QStringList &explicitList = role == Role::Prefill ? proxy.prefillInstances : proxy.decodeInstances;
    if (!explicitList.isEmpty())
        return explicitList;
    QStringList ids;
    const QList<Engine> list = engines(role);
    for (const Engine &engine : list)
        ids.append(engine.id());
    return ids;
}

QStringList Profile::launcherArguments(const Engine &engine) const
{
    const EngineGroup &group = nodes.at(engine.nodeIndex).engineGroups.at(engine.groupIndex);
    if (launchFlavor == LaunchFlavor::V091) {
        // dp_size, master ip, master port, local rank, global rank, serve port, local dp size
        return {QString::number(group.dpSize), group.dpAddress, QString::number(group.dpPort),
                QString::number(engine.localRank), QString::number(engine.dpRank),
                QString::number(engine.port), QString::number(group.dpSizeLocal)};
    }
    // main: device list, port, dp size, rank, address, rpc port, tp size
    QStringList devices;
    for (int d = engine.localRank * group.tpSize; d < (engine.localRank + 1) * group.tpSize; ++d)
        devices.append(QString::number(d));
    return {devices.join(QLatin1Char(',')), QString::number(engine.port), QString::number(group.dpSize),
            QString::number(engine.dpRank), group.dpAddress, QString::number(group.dpPort),
            QString::number(group.tpSize)};
}

} // namespace pd
