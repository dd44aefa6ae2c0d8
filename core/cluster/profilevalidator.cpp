// SPDX-License-Identifier: MIT
#include "cluster/profilevalidator.h"

#include "net/tlstrust.h"

#include "cluster/dpgroups.h"

#include "cluster/fieldrules.h"
#include "cluster/instancekey.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QSet>

#include <functional>

namespace pd {

namespace {

// The issues' messages (the Problems dock, pdctl profile validate); pointers stay JSON pointers.
struct ProfileValidatorTr {
    Q_DECLARE_TR_FUNCTIONS(pd::ProfileValidator)
};

class Collector {
public:
    QList<ValidationIssue> issues;
    void error(const QString &pointer, const QString &message) { issues.append({Severity::Error, pointer, message}); }
    void warning(const QString &pointer, const QString &message) { issues.append({Severity::Warning, pointer, message}); }
    // Runs a field rule and reports its complaint, prefixed with what the field is.
    void field(const QString &pointer, const QString &what, const QString &value,
               const std::function<QString(const QString &)> &rule)
    {
        const QString complaint = rule(value);
        if (!complaint.isEmpty())
            error(pointer, ProfileValidatorTr::tr("%1 \"%2\" %3", "what the field is, its value, the complaint").arg(what, printable(value), complaint));
    }
    static QString printable(const QString &value)
    {
        QString out;
        for (const QChar c : value) {
            if (c == QLatin1Char('\n'))
                out += QLatin1String("\\n");
            else if (c.unicode() < 0x20)
                out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
            else
                out += c;
        }
        return out.size() > 80 ? out.left(77) + QLatin1String("...") : out;
    }
};

QString nodePointer(int n) { return QStringLiteral("/nodes/%1").arg(n); }
QString groupPointer(int n, int g) { return QStringLiteral("/nodes/%1/engine_groups/%2").arg(n).arg(g); }

QString rangesText(const QList<int> &sorted)
{
    QStringList parts;
    for (qsizetype i = 0; i < sorted.size();) {
        qsizetype j = i;
        while (j + 1 < sorted.size() && sorted.at(j + 1) == sorted.at(j) + 1)
            ++j;
        parts.append(i == j ? QString::number(sorted.at(i))
                            : QStringLiteral("%1-%2").arg(sorted.at(i)).arg(sorted.at(j)));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

// A container name and environment script paths reach the node's shell: the same rules as names and paths.
void checkPlacement(Collector &c, const QString &p, const ContainerSpec &container, const QStringList &envScripts)
{
    if (container.isSet())
        c.field(p + QLatin1String("/container/name"), ProfileValidatorTr::tr("container name"), container.name, fieldrules::checkName);
    for (qsizetype i = 0; i < envScripts.size(); ++i)
        c.field(QStringLiteral("%1/env_scripts/%2").arg(p).arg(i), ProfileValidatorTr::tr("environment script"), envScripts.at(i),
                fieldrules::checkPath);
}

void checkRole(Collector &c, const RoleConfig &config, Role role, bool hasNodes)
{
    const QString p = QStringLiteral("/roles/") + roleName(role);
    if (!config.modelPath.isEmpty())
        c.field(p + QLatin1String("/model_path"), ProfileValidatorTr::tr("model path"), config.modelPath, fieldrules::checkPath);
    else if (hasNodes)
        c.warning(p + QLatin1String("/model_path"), ProfileValidatorTr::tr("no model path: engines of this role cannot be started"));
    if (!config.servedModelName.isEmpty())
        c.field(p + QLatin1String("/served_model_name"), ProfileValidatorTr::tr("served model name"), config.servedModelName,
                fieldrules::checkPath);
    for (qsizetype i = 0; i < config.extraArgs.size(); ++i)
        c.field(QStringLiteral("%1/extra_args/%2").arg(p).arg(i), ProfileValidatorTr::tr("argument"), config.extraArgs.at(i),
                fieldrules::checkFreeText);
    for (const auto &[name, value] : config.env) {
        const QString ep = p + QLatin1String("/env/") + name;
        c.field(ep, ProfileValidatorTr::tr("variable name"), name, fieldrules::checkEnvName);
        c.field(ep, ProfileValidatorTr::tr("value"), value, fieldrules::checkFreeText);
    }
    checkPlacement(c, p, config.container, config.envScripts);
    if (config.dpCoupling == DpCoupling::Independent && config.enablesExpertParallel())
        c.error(p + QLatin1String("/dp_coupling"),
                ProfileValidatorTr::tr("dp_coupling is \"independent\" but the %1 arguments enable expert parallelism: the ranks of "
                       "an expert-parallel DP group run every forward pass together, so a dead rank hangs the whole "
                       "group; set \"coupled\"")
                    .arg(roleName(role)));
    const QString kvRole = config.kvRole();
    const QString expected = role == Role::Prefill ? QStringLiteral("kv_producer") : QStringLiteral("kv_consumer");
    const QString kp = p + QLatin1String("/kv_transfer_config/kv_role");
    if (kvRole.isEmpty()) {
        if (hasNodes && !config.kvTransferConfig.empty())
            c.error(kp, ProfileValidatorTr::tr("kv_transfer_config has no kv_role; %1 engines need \"%2\"")
                            .arg(roleName(role), expected));
    } else if (kvRole == QLatin1String("kv_both")) {
        c.warning(kp, ProfileValidatorTr::tr("kv_role \"kv_both\" on the %1 pool: PD disaggregation expects \"%2\"")
                          .arg(roleName(role), expected));
    } else if (kvRole != expected) {
        c.error(kp, ProfileValidatorTr::tr("kv_role \"%1\" does not match the %2 pool, which needs \"%3\"")
                        .arg(kvRole, roleName(role), expected));
    }
}

struct PortUse {
    QString what;
    QString pointer;
};

// Nodes: fields, names and addresses, NPU budget.
void checkNodes(Collector &c, const Profile &profile)
{
    QHash<QString, int> nameToNode;
    QHash<QString, int> addressToNode;
    for (int n = 0; n < profile.nodes.size(); ++n) {
        const Node &node = profile.nodes.at(n);
        const QString p = nodePointer(n);
        c.field(p + QLatin1String("/name"), ProfileValidatorTr::tr("node name"), node.name, fieldrules::checkName);
        c.field(p + QLatin1String("/address"), ProfileValidatorTr::tr("address"), node.address, fieldrules::checkHost);
        c.field(p + QLatin1String("/ssh/user"), ProfileValidatorTr::tr("SSH user"), node.ssh.user, fieldrules::checkUser);
        if (!node.ssh.identityFile.isEmpty())
            c.field(p + QLatin1String("/ssh/identity_file"), ProfileValidatorTr::tr("identity file"), node.ssh.identityFile,
                    fieldrules::checkPath);
        c.field(p + QLatin1String("/ssh/jump_host"), ProfileValidatorTr::tr("jump host"), node.ssh.jumpHost,
                fieldrules::checkJumpHost);
        c.field(p + QLatin1String("/nic_name"), ProfileValidatorTr::tr("NIC name"), node.nicName, fieldrules::checkNic);
        if (!node.localIp.isEmpty())
            c.field(p + QLatin1String("/local_ip"), ProfileValidatorTr::tr("local IP"), node.localIp, fieldrules::checkHost);
        for (qsizetype i = 0; i < node.npuIps.size(); ++i)
            c.field(QStringLiteral("%1/npu_ips/%2").arg(p).arg(i), ProfileValidatorTr::tr("NPU IP"), node.npuIps.at(i),
                    fieldrules::checkHost);
        checkPlacement(c, p, node.container, node.envScripts);

        if (const auto it = nameToNode.constFind(node.name); it != nameToNode.constEnd())
            c.error(p + QLatin1String("/name"),
                    ProfileValidatorTr::tr("node name \"%1\" is already used by /nodes/%2").arg(node.name).arg(*it));
        else
            nameToNode.insert(node.name, n);
        const QString host = proxyInstanceKey(node.address);
        if (const auto it = addressToNode.constFind(host); it != addressToNode.constEnd()) {
            const Node &other = profile.nodes.at(*it);
            if (other.role == node.role)
                c.error(p + QLatin1String("/address"),
                        ProfileValidatorTr::tr("address %1 is already node \"%2\" (/nodes/%3)").arg(node.address, other.name).arg(*it));
            else
                c.warning(p + QLatin1String("/address"),
                          ProfileValidatorTr::tr("address %1 is also node \"%2\" of the %3 pool: one machine serves both "
                                 "pools, so their NPUs and ports must not overlap")
                              .arg(node.address, other.name, roleName(other.role)));
        } else {
            addressToNode.insert(host, n);
        }

        if (node.engineGroups.isEmpty())
            c.warning(p + QLatin1String("/engine_groups"), ProfileValidatorTr::tr("node \"%1\" runs no engines").arg(node.name));
        int npusUsed = 0;
        for (int g = 0; g < node.engineGroups.size(); ++g) {
            const EngineGroup &group = node.engineGroups.at(g);
            const QString gp = groupPointer(n, g);
            c.field(gp + QLatin1String("/dp_address"), ProfileValidatorTr::tr("DP master address"), group.dpAddress,
                    fieldrules::checkHost);
            npusUsed += group.tpSize * group.dpSizeLocal;
            if (group.dpSizeLocal > group.dpSize)
                c.error(gp + QLatin1String("/dp_size_local"),
                        ProfileValidatorTr::tr("dp_size_local %1 exceeds dp_size %2").arg(group.dpSizeLocal).arg(group.dpSize));
            else if (group.dpRankStart + group.dpSizeLocal > group.dpSize)
                c.error(gp + QLatin1String("/dp_rank_start"),
                        ProfileValidatorTr::tr("ranks %1-%2 run past dp_size %3 (ranks are 0-%4)")
                            .arg(group.dpRankStart)
                            .arg(group.dpRankStart + group.dpSizeLocal - 1)
                            .arg(group.dpSize)
                            .arg(group.dpSize - 1));
            if (group.engineStartPort + group.dpSizeLocal - 1 > 65535)
                c.error(gp + QLatin1String("/engine_start_port"),
                        ProfileValidatorTr::tr("engine ports %1-%2 run past 65535")
                            .arg(group.engineStartPort)
                            .arg(group.engineStartPort + group.dpSizeLocal - 1));
        }
        if (npusUsed > node.npuCount)
            c.error(p + QLatin1String("/engine_groups"),
                    ProfileValidatorTr::tr("node \"%1\" needs %2 NPUs (TP size × engines) but has %3")
                        .arg(node.name)
                        .arg(npusUsed)
                        .arg(node.npuCount));
    }
}

// DP groups: the nodes that share a role, master address and master port form one group; their sizes, master and ranks.
void checkDpGroups(Collector &c, const Profile &profile)
{
    struct Member {
        int node;
        int group;
    };
    QMap<QString, QList<Member>> dpGroups;
    for (int n = 0; n < profile.nodes.size(); ++n) {
        const Node &node = profile.nodes.at(n);
        for (int g = 0; g < node.engineGroups.size(); ++g) {
            const EngineGroup &group = node.engineGroups.at(g);
            dpGroups[QStringLiteral("%1 %2:%3").arg(roleName(node.role), group.dpAddress).arg(group.dpPort)].append({n, g});
        }
    }
    for (auto it = dpGroups.cbegin(); it != dpGroups.cend(); ++it) {
        const QList<Member> &members = it.value();
        const EngineGroup &first = profile.nodes.at(members.first().node).engineGroups.at(members.first().group);
        const QString firstPointer = groupPointer(members.first().node, members.first().group);
        const QString label = ProfileValidatorTr::tr("DP group with master %1:%2").arg(first.dpAddress).arg(first.dpPort);
        bool sizesAgree = true;
        int localSum = 0;
        QStringList nodeNames;
        bool masterIsMember = false;
        for (const Member &m : members) {
            const Node &node = profile.nodes.at(m.node);
            const EngineGroup &group = node.engineGroups.at(m.group);
            localSum += group.dpSizeLocal;
            if (!nodeNames.contains(node.name))
                nodeNames.append(node.name);
            if (proxyInstanceKey(group.dpAddress) == proxyInstanceKey(node.address)
                || (!node.localIp.isEmpty() && group.dpAddress == node.localIp))
                masterIsMember = true;
            if (group.dpSize != first.dpSize) {
                sizesAgree = false;
                c.error(groupPointer(m.node, m.group) + QLatin1String("/dp_size"),
                        ProfileValidatorTr::tr("%1: dp_size %2 here but %3 at %4").arg(label).arg(group.dpSize).arg(first.dpSize).arg(firstPointer));
            }
        }
        if (!masterIsMember)
            c.error(firstPointer + QLatin1String("/dp_address"),
                    ProfileValidatorTr::tr("%1: the master address is none of the group's nodes (%2)")
                        .arg(label, nodeNames.join(QStringLiteral(", "))));
        if (!sizesAgree)
            continue;
        if (localSum != first.dpSize)
            c.error(firstPointer + QLatin1String("/dp_size"),
                    ProfileValidatorTr::tr("%1: dp_size is %2 but the dp_size_local of its nodes (%3) add up to %4")
                        .arg(label)
                        .arg(first.dpSize)
                        .arg(nodeNames.join(QStringLiteral(", ")))
                        .arg(localSum));
        QList<QList<Member>> owners(first.dpSize);
        for (const Member &m : members) {
            const EngineGroup &group = profile.nodes.at(m.node).engineGroups.at(m.group);
            for (int r = group.dpRankStart; r < group.dpRankStart + group.dpSizeLocal; ++r) {
                if (r >= 0 && r < first.dpSize)
                    owners[r].append(m);
            }
        }
        QList<int> missing;
        QMap<QString, QList<int>> overlaps;
        QHash<QString, QString> overlapPointer; // the later claimant's dp_rank_start: the value to change
        for (int r = 0; r < first.dpSize; ++r) {
            if (owners.at(r).isEmpty())
                missing.append(r);
            else if (owners.at(r).size() > 1) {
                QStringList who;
                for (const Member &m : owners.at(r))
                    who.append(profile.nodes.at(m.node).name);
                const QString key = who.join(QStringLiteral(" and "));
                overlaps[key].append(r);
                overlapPointer.insert(key, groupPointer(owners.at(r).last().node, owners.at(r).last().group));
            }
        }
        if (!missing.isEmpty())
            c.error(firstPointer + QLatin1String("/dp_rank_start"),
                    ProfileValidatorTr::tr("%1: no engine has DP rank %2").arg(label, rangesText(missing)));
        for (auto o = overlaps.cbegin(); o != overlaps.cend(); ++o)
            c.error(overlapPointer.value(o.key()) + QLatin1String("/dp_rank_start"),
                    ProfileValidatorTr::tr("%1: DP rank %2 is claimed by %3").arg(label, rangesText(o.value()), o.key()));
    }
}

// Ports: every listening port per host, then clashes.
void checkPorts(Collector &c, const Profile &profile)
{
    QHash<QString, QMap<int, QList<PortUse>>> ports;
    auto use = [&ports](const QString &host, int port, const QString &what, const QString &pointer) {
        ports[proxyInstanceKey(host)][port].append({ what, pointer });
    };
    QSet<QString> mastersSeen;
    for (int n = 0; n < profile.nodes.size(); ++n) {
        const Node &node = profile.nodes.at(n);
        for (int g = 0; g < node.engineGroups.size(); ++g) {
            const EngineGroup &group = node.engineGroups.at(g);
            for (int i = 0; i < group.dpSizeLocal; ++i)
                use(node.address, group.engineStartPort + i,
                    ProfileValidatorTr::tr("engine DP rank %1 of node %2").arg(group.dpRankStart + i).arg(node.name),
                    groupPointer(n, g) + QLatin1String("/engine_start_port"));
            const QString masterKey = QStringLiteral("%1 %2:%3").arg(roleName(node.role), group.dpAddress).arg(group.dpPort);
            if (!mastersSeen.contains(masterKey)) {
                mastersSeen.insert(masterKey);
                use(group.dpAddress, group.dpPort, ProfileValidatorTr::tr("DP master port of the %1 group").arg(roleName(node.role)),
                    groupPointer(n, g) + QLatin1String("/dp_port"));
            }
        }
        const int kvPort = profile.roleConfig(node.role).kvPort();
        if (kvPort > 0 && !node.engineGroups.isEmpty())
            use(node.address, kvPort, ProfileValidatorTr::tr("kv_port of node %1").arg(node.name),
                QStringLiteral("/roles/%1/kv_transfer_config/kv_port").arg(roleName(node.role)));
    }
    use(profile.proxy.address, profile.proxy.port, ProfileValidatorTr::tr("the proxy"), QStringLiteral("/proxy/port"));
    for (auto h = ports.cbegin(); h != ports.cend(); ++h) {
        for (auto p = h.value().cbegin(); p != h.value().cend(); ++p) {
            const QList<PortUse> &uses = p.value();
            if (uses.size() < 2)
                continue;
            QStringList what;
            for (const PortUse &u : uses)
                what.append(u.what);
            c.error(uses.at(1).pointer, ProfileValidatorTr::tr("port %1 on %2 is used twice: %3")
                                            .arg(p.key())
                                            .arg(h.key() == QLatin1String("0.0.0.0") ? ProfileValidatorTr::tr("this machine") : h.key())
                                            .arg(what.join(QStringLiteral("; "))));
        }
    }
}

// Pools: neither may be empty.
void checkPools(Collector &c, const Profile &profile)
{
    if (profile.engines(Role::Prefill).isEmpty())
        c.error(QStringLiteral("/nodes"), ProfileValidatorTr::tr("the prefill pool is empty: no node with role \"prefill\" runs an engine"));
    if (profile.engines(Role::Decode).isEmpty())
        c.error(QStringLiteral("/nodes"), ProfileValidatorTr::tr("the decode pool is empty: no node with role \"decode\" runs an engine"));
}

// The proxy's own fields.
void checkProxyFields(Collector &c, const Profile &profile)
{
    const ProxyConfig &proxy = profile.proxy;
    c.field(QStringLiteral("/proxy/address"), ProfileValidatorTr::tr("proxy address"), proxy.address, fieldrules::checkHost);
    c.field(QStringLiteral("/proxy/bind_host"), ProfileValidatorTr::tr("bind host"), proxy.bindHost, fieldrules::checkHost);
    if (!proxy.scriptPath.isEmpty())
        c.field(QStringLiteral("/proxy/script_path"), ProfileValidatorTr::tr("proxy script"), proxy.scriptPath, fieldrules::checkPath);
    if (!proxy.apiKeyEnv.isEmpty())
        c.field(QStringLiteral("/proxy/api_key_env"), ProfileValidatorTr::tr("API key variable"), proxy.apiKeyEnv,
                fieldrules::checkApiKeyEnvName);
}

// TLS: an https endpoint is verified, so the extra CA must be readable and hold a certificate.
void checkTls(Collector &c, const Profile &profile)
{
    if (!profile.tls.caFile.isEmpty()) {
        const CaFile ca = loadCaFile(profile.tls.caFile);
        if (!ca.error.isEmpty())
            c.error(QStringLiteral("/tls/ca_file"), ProfileValidatorTr::tr("cannot use the CA file: %1").arg(ca.error));
        else if (!profile.tls.proxy && !profile.tls.engines)
            c.warning(QStringLiteral("/tls/ca_file"), ProfileValidatorTr::tr("ca_file is set but neither the proxy nor the engines use https"));
    }
}

// The proxy's instance lists against the profile's engines and DP groups.
void checkProxyInstances(Collector &c, const Profile &profile)
{
    const ProxyConfig &proxy = profile.proxy;
    const DpGroups groups(profile);
    for (const Role role : {Role::Prefill, Role::Decode}) {
        const QStringList &listed = role == Role::Prefill ? proxy.prefillInstances : proxy.decodeInstances;
        if (listed.isEmpty())
            continue;
        const QString lp = QStringLiteral("/proxy/%1_instances").arg(roleName(role));
        QSet<QString> listedIds;
        for (qsizetype i = 0; i < listed.size(); ++i) {
            const QString ip = QStringLiteral("%1/%2").arg(lp).arg(i);
            const QString complaint = fieldrules::checkInstance(listed.at(i));
            if (!complaint.isEmpty()) {
                c.error(ip, ProfileValidatorTr::tr("instance \"%1\" %2").arg(Collector::printable(listed.at(i)), complaint));
                continue;
            }
            const QString id = proxyInstanceKey(listed.at(i));
            if (listedIds.contains(id))
                c.warning(ip, ProfileValidatorTr::tr("%1 is listed twice (the proxy merges duplicates silently)").arg(listed.at(i)));
            listedIds.insert(id);
        }
        QSet<QString> engineIds;
        const QList<Engine> engines = profile.engines(role);
        for (const Engine &engine : engines)
            engineIds.insert(proxyInstanceKey(engine.id()));
        // A whole DP group left out is a group held in reserve (started later as a whole): one line for it.
        QSet<QString> reported;
        for (const DpGroup *group : groups.ofRole(role)) {
            bool anyListed = false;
            for (const QString &id : group->engineIds)
                anyListed = anyListed || listedIds.contains(proxyInstanceKey(id));
            if (anyListed || group->size() < 2)
                continue;
            c.warning(lp, ProfileValidatorTr::tr("DP group %1 (%2 ranks on %3) is not in the proxy's %4 list: it gets no traffic until "
                                 "it is started and added as a whole")
                              .arg(group->id)
                              .arg(group->size())
                              .arg(group->nodeNames.join(QStringLiteral(", ")), roleName(role)));
            for (const QString &id : group->engineIds)
                reported.insert(proxyInstanceKey(id));
        }
        for (const Engine &engine : engines) {
            const QString id = proxyInstanceKey(engine.id());
            if (!listedIds.contains(id) && !reported.contains(id))
                c.warning(lp, ProfileValidatorTr::tr("engine %1 (node %2, DP rank %3) is not in the proxy's %4 list: it gets no traffic")
                                  .arg(engine.id(), profile.nodes.at(engine.nodeIndex).name)
                                  .arg(engine.dpRank)
                                  .arg(roleName(role)));
        }
        for (qsizetype i = 0; i < listed.size(); ++i) {
            if (fieldrules::checkInstance(listed.at(i)).isEmpty()
                && !engineIds.contains(proxyInstanceKey(listed.at(i))))
                c.error(QStringLiteral("%1/%2").arg(lp).arg(i),
                        ProfileValidatorTr::tr("the proxy's %1 list names %2, which is no %1 engine of this profile")
                            .arg(roleName(role), listed.at(i)));
        }
    }
}
} // namespace

bool hasErrors(const QList<ValidationIssue> &issues)
{
    for (const ValidationIssue &issue : issues) {
        if (issue.severity == Severity::Error)
            return true;
    }
    return false;
}

QList<ValidationIssue> validateProfile(const Profile &profile)
{
    Collector c;
    c.field(QStringLiteral("/name"), ProfileValidatorTr::tr("cluster name"), profile.name, fieldrules::checkName);
    c.field(QStringLiteral("/template_path"), ProfileValidatorTr::tr("template path"), profile.templatePath, fieldrules::checkPath);
    c.field(QStringLiteral("/run_dir"), ProfileValidatorTr::tr("run directory"), profile.runDir, fieldrules::checkPath);

    bool hasRole[2] = {false, false};
    for (const Node &node : profile.nodes)
        hasRole[node.role == Role::Prefill ? 0 : 1] = true;
    checkRole(c, profile.prefill, Role::Prefill, hasRole[0]);
    checkRole(c, profile.decode, Role::Decode, hasRole[1]);

    checkNodes(c, profile);
    checkDpGroups(c, profile);
    checkPorts(c, profile);
    checkPools(c, profile);
    checkProxyFields(c, profile);
    checkTls(c, profile);
    checkProxyInstances(c, profile);
    return c.issues;
}

} // namespace pd
