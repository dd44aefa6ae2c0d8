// SPDX-License-Identifier: MIT
// importProfile: a profile from what the operator already has (the proxy's command line, launcher
// parameters, start scripts, ranktable.json), one step per source; the parsers are in profileimporter.cpp.
#include "cluster/profileimporter.h"

#include "cluster/instancekey.h"

#include <QSet>

#include <optional>

namespace pd {

namespace {

using ojson = nlohmann::ordered_json;

QString importHostOf(const QString &id) { return id.left(id.lastIndexOf(QLatin1Char(':'))); }
int importPortOf(const QString &id) { return id.mid(id.lastIndexOf(QLatin1Char(':')) + 1).toInt(); }

// What the import steps share: the profile being built, the proxy's command line and what each step
// learned about the nodes.
struct Import {
    Import(ImportResult &r, Profile &p) : result(r), profile(p) {}

    ImportResult &result;
    Profile &profile;
    ProxyCommandLine proxy;
    bool haveProxy = false;
    int roleCounter[2] = {0, 0};
    QSet<int> assumedLayout;  // nodes laid out from the proxy's lists alone
    QSet<int> tpFromTemplate; // v0.9.1 launcher nodes whose TP size the template hard-codes
    std::optional<LaunchFlavor> flavor;
    bool scriptRole[2] = {false, false}; // a start script gave this role's engine values

    int findNode(const QString &host, std::optional<Role> role) const
    {
        for (int i = 0; i < profile.nodes.size(); ++i) {
            const Node &n = profile.nodes.at(i);
            if ((n.address == host || proxyInstanceKey(n.address) == proxyInstanceKey(host))
                && (!role || n.role == *role))
                return i;
        }
        return -1;
    }

    int addNode(const QString &host, Role role)
    {
        Node node;
        const int k = roleCounter[role == Role::Prefill ? 0 : 1]++;
        node.name = QStringLiteral("%1%2").arg(role == Role::Prefill ? QLatin1Char('p') : QLatin1Char('d')).arg(k);
        node.address = host;
        node.localIp = host;
        node.role = role;
        profile.nodes.append(node);
        return int(profile.nodes.size() - 1);
    }
};

// Role defaults from the 8-node DeepSeek-R1 guide's templates; the operator edits them afterwards.
void setRoleDefaults(Profile &profile)
{
    profile.prefill.maxNumSeqs = 4;
    // DeepSeek-R1/V3 are MoE models started with --enable-expert-parallel: their DP groups are coupled.
    profile.prefill.dpCoupling = DpCoupling::Coupled;
    profile.decode.dpCoupling = DpCoupling::Coupled;
    profile.prefill.maxNumBatchedTokens = 16384;
    profile.prefill.kvTransferConfig = ojson{{"kv_connector", "MooncakeConnectorV1"}, {"kv_buffer_device", "npu"},
                                             {"kv_role", "kv_producer"}, {"kv_parallel_size", 1}, {"kv_port", "20001"}};
    profile.decode.kvTransferConfig = ojson{{"kv_connector", "MooncakeConnectorV1"}, {"kv_buffer_device", "npu"},
                                            {"kv_role", "kv_consumer"}, {"kv_parallel_size", 1}, {"kv_port", "20001"}};
}

// 1. The proxy's instances: one node per host and role, consecutive ports form one launcher group.
void addProxyInstances(Import &im)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    ProxyCommandLine &proxy = im.proxy;
    const bool haveProxy = im.haveProxy;
    QSet<int> &assumedLayout = im.assumedLayout;
    if (haveProxy) {
        for (const Role role : {Role::Prefill, Role::Decode}) {
            const QStringList &ids = role == Role::Prefill ? proxy.prefillInstances : proxy.decodeInstances;
            for (const QString &id : ids) {
                const QString host = importHostOf(id);
                const int port = importPortOf(id);
                int n = im.findNode(host, role);
                if (n < 0) {
                    if (im.findNode(host, std::nullopt) >= 0)
                        result.warnings.append(QStringLiteral("%1 serves both pools; it becomes two nodes").arg(host));
                    n = im.addNode(host, role);
                    assumedLayout.insert(n);
                }
                Node &node = profile.nodes[n];
                if (!node.engineGroups.isEmpty()) {
                    EngineGroup &last = node.engineGroups.last();
                    if (last.engineStartPort + last.dpSizeLocal == port) {
                        ++last.dpSizeLocal;
                        last.dpSize = last.dpSizeLocal;
                        continue;
                    }
                }
                EngineGroup g;
                g.dpSize = 1;
                g.dpSizeLocal = 1;
                g.dpAddress = host;
                g.engineStartPort = port;
                node.engineGroups.append(g);
            }
        }
    }
}

// 2. Launcher parameters replace the assumed DP layout of their node.
void applyLaunchers(Import &im, const ImportSources &sources)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    QSet<int> &assumedLayout = im.assumedLayout;
    QSet<int> &tpFromTemplate = im.tpFromTemplate;
    std::optional<LaunchFlavor> &flavor = im.flavor;
    for (const QString &spec : sources.launchers) {
        LauncherParameters launcher;
        QString error;
        if (!parseLauncherParameters(spec, &launcher, &error)) {
            result.errors.append(error);
            continue;
        }
        if (flavor && *flavor != launcher.flavor)
            result.errors.append(QStringLiteral("launcher for %1: mixes main flags and v0.9.1 variables with the other "
                                                "launchers; a cluster uses one launcher generation").arg(launcher.host));
        flavor = launcher.flavor;
        int n = im.findNode(launcher.host, launcher.role);
        if (n < 0) {
            if (!launcher.role) {
                result.errors.append(QStringLiteral("launcher for %1: no such node in the proxy command line; write "
                                                    "\"%1/prefill: ...\" or \"%1/decode: ...\"").arg(launcher.host));
                continue;
            }
            n = im.addNode(launcher.host, *launcher.role);
        }
        Node &node = profile.nodes[n];
        QSet<int> proxyPorts;
        for (const EngineGroup &g : std::as_const(node.engineGroups))
            for (int i = 0; i < g.dpSizeLocal; ++i)
                proxyPorts.insert(g.engineStartPort + i);
        QSet<int> launcherPorts;
        for (int i = 0; i < launcher.group.dpSizeLocal; ++i)
            launcherPorts.insert(launcher.group.engineStartPort + i);
        if (!proxyPorts.isEmpty() && proxyPorts != launcherPorts)
            result.warnings.append(QStringLiteral("launcher for %1 starts engines on ports %2-%3, but the proxy lists "
                                                  "%4 port(s) there; the launcher's layout is kept")
                                       .arg(launcher.host)
                                       .arg(launcher.group.engineStartPort)
                                       .arg(launcher.group.engineStartPort + launcher.group.dpSizeLocal - 1)
                                       .arg(proxyPorts.size()));
        node.engineGroups = {launcher.group};
        assumedLayout.remove(n);
        if (launcher.tpSizeGiven)
            tpFromTemplate.remove(n);
        else
            tpFromTemplate.insert(n);
    }
}

// 2b. Start scripts replace the layout of their node and give their role's engine values.
void applyStartScripts(Import &im, const ImportSources &sources)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    ProxyCommandLine &proxy = im.proxy;
    const bool haveProxy = im.haveProxy;
    QSet<int> &assumedLayout = im.assumedLayout;
    QSet<int> &tpFromTemplate = im.tpFromTemplate;
    bool (&scriptRole)[2] = im.scriptRole;
    bool v091Checkout = false;
    QString v091Evidence;
    for (const StartScriptSource &source : sources.startScripts) {
        StartScript script;
        StartScriptNode read;
        if (!parseStartScript(source, &script, &result.errors, &result.warnings)
            || !readStartScript(script, &read, &result.errors, &result.warnings))
            continue;
        for (const auto &[key, value] : read.config.env) {
            if (!v091Checkout && value.contains(QLatin1String("/disaggregate_prefill_v1/"))) {
                v091Checkout = true;
                v091Evidence = QStringLiteral("%1: %2 points into examples/disaggregate_prefill_v1/").arg(source.name, key);
            }
        }
        int n = im.findNode(read.address, read.role);
        if (n < 0) {
            if (const int other = im.findNode(read.address, std::nullopt); other >= 0 && haveProxy)
                result.warnings.append(QStringLiteral("%1: %2 is a %3 node in the proxy's lists, and this script starts a %4 engine "
                                                      "there; it becomes a second node")
                                           .arg(source.name, read.address, roleName(profile.nodes.at(other).role), roleName(read.role)));
            n = im.addNode(read.address, read.role);
        }
        Node &node = profile.nodes[n];
        QSet<int> proxyPorts;
        for (const EngineGroup &g : std::as_const(node.engineGroups))
            for (int i = 0; i < g.dpSizeLocal; ++i)
                proxyPorts.insert(g.engineStartPort + i);
        QSet<int> scriptPorts;
        for (int i = 0; i < read.group.dpSizeLocal; ++i)
            scriptPorts.insert(read.group.engineStartPort + i);
        if (!proxyPorts.isEmpty() && proxyPorts != scriptPorts)
            result.warnings.append(QStringLiteral("%1 starts engines on ports %2-%3 of %4, but the proxy lists %5 port(s) there; "
                                                  "the script's layout is kept")
                                       .arg(source.name)
                                       .arg(read.group.engineStartPort)
                                       .arg(read.group.engineStartPort + read.group.dpSizeLocal - 1)
                                       .arg(read.address)
                                       .arg(proxyPorts.size()));
        node.engineGroups = {read.group};
        node.localIp = read.localIp;
        if (!read.nicName.isEmpty())
            node.nicName = read.nicName;
        assumedLayout.remove(n);
        tpFromTemplate.remove(n);
        RoleConfig &config = read.role == Role::Prefill ? profile.prefill : profile.decode;
        bool &seen = scriptRole[read.role == Role::Prefill ? 0 : 1];
        read.config.dpCoupling = config.dpCoupling;
        read.config.container = config.container;
        if (!seen) {
            config = read.config;
            seen = true;
        } else if (!(read.config == config)) {
            result.warnings.append(QStringLiteral("%1: its %2 engine values differ from the first %2 script's; a profile has one set "
                                                  "per role, the first script's is kept")
                                       .arg(source.name, roleName(read.role)));
        }
    }
    if (v091Checkout && !sources.proxyGeneration && proxy.generation == ProxyGeneration::Main) {
        proxy.generation = ProxyGeneration::V091Dev;
        result.warnings.append(QStringLiteral("proxy generation taken as v0.9.1-dev: %1 (main spells the folder "
                                              "disaggregated_prefill_v1); give --proxy-generation to say otherwise").arg(v091Evidence));
    }
}

// 3. The rank table: NPU generation, count and device IPs per node.
void applyRanktable(Import &im, const ImportSources &sources)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    bool (&scriptRole)[2] = im.scriptRole;
    if (!sources.ranktable.isEmpty()) {
        QList<RanktableServer> servers;
        QStringList errors;
        if (!parseRanktable(sources.ranktable, &servers, &errors)) {
            for (const QString &e : errors)
                result.errors.append(sources.ranktableName + QLatin1Char(':') + (e.startsWith(QLatin1Char('/')) ? QLatin1String(" ") : QLatin1String("")) + e);
        }
        for (const RanktableServer &s : servers) {
            int n = im.findNode(s.serverId, s.role);
            if (n < 0) {
                if (const int other = im.findNode(s.serverId, std::nullopt); other >= 0) {
                    result.errors.append(QStringLiteral("%1: %2 holds %3 devices, but the proxy uses it as a %4 node")
                                             .arg(sources.ranktableName, s.serverId, roleName(s.role),
                                                  roleName(profile.nodes.at(other).role)));
                    continue;
                }
                n = im.addNode(s.serverId, s.role);
                result.warnings.append(QStringLiteral("%1 appears only in the rank table: it has no engines yet").arg(s.serverId));
            }
            Node &node = profile.nodes[n];
            node.npuIps = s.deviceIps;
            node.npuCount = int(s.deviceIps.size());
            node.npuGeneration = s.isA3 ? NpuGeneration::A3 : NpuGeneration::A2;
        }
        // LLMDataDist reads the rank table; the seed-001 cluster uses that connector. A start script's
        // own kv config is kept as it is.
        for (RoleConfig *c : {&profile.prefill, &profile.decode}) {
            if (scriptRole[c == &profile.prefill ? 0 : 1])
                continue;
            c->kvTransferConfig["kv_connector"] = "LLMDataDistCMgrConnector";
            c->kvTransferConfig["kv_connector_module_path"] = "vllm_ascend.distributed.llmdatadist_c_mgr_connector";
        }
    }
}

// v0.9.1 templates hard-code TP so that the node's engines fill its NPUs (the 8-node guide: 16 / 2 = 8 on P, 1 on D).
void fillTemplateTp(Import &im)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    QSet<int> &tpFromTemplate = im.tpFromTemplate;
    for (int n = 0; n < profile.nodes.size(); ++n) {
        if (!tpFromTemplate.contains(n))
            continue;
        Node &node = profile.nodes[n];
        EngineGroup &g = node.engineGroups.first();
        g.tpSize = qMax(1, node.npuCount / qMax(1, g.dpSizeLocal));
        result.warnings.append(QStringLiteral("launcher for %1: v0.9.1 launchers do not pass the TP size "
                                              "(run_dp_template.sh hard-codes it); assumed TP %2 = %3 NPUs / %4 "
                                              "engines (add tp_size=N to the launcher parameters to override)")
                                   .arg(node.address)
                                   .arg(g.tpSize)
                                   .arg(node.npuCount)
                                   .arg(g.dpSizeLocal));
    }
}

// Assumed DP layout: each node its own DP group, TP filling the node's NPUs.
void fillAssumedLayout(Import &im)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    QSet<int> &assumedLayout = im.assumedLayout;
    for (int n = 0; n < profile.nodes.size(); ++n) {
        if (!assumedLayout.contains(n))
            continue;
        Node &node = profile.nodes[n];
        int engines = 0;
        for (const EngineGroup &g : std::as_const(node.engineGroups))
            engines += g.dpSizeLocal;
        const int tp = qMax(1, node.npuCount / qMax(1, engines));
        for (EngineGroup &g : node.engineGroups)
            g.tpSize = tp;
        result.warnings.append(QStringLiteral("node %1 (%2): no launcher parameters; assumed its own DP group of %3 "
                                              "engine(s) with TP %4 (give --launcher \"%2: ...\" to set the real layout)")
                                   .arg(node.name, node.address)
                                   .arg(engines)
                                   .arg(tp));
    }
}

// The proxy.
void fillProxy(Import &im)
{
    ImportResult &result = im.result;
    Profile &profile = im.profile;
    ProxyCommandLine &proxy = im.proxy;
    const bool haveProxy = im.haveProxy;
    profile.proxy.generation = proxy.generation;
    profile.proxy.bindHost = proxy.host;
    profile.proxy.port = proxy.port;
    profile.proxy.maxRetries = proxy.maxRetries;
    profile.proxy.retryDelay = proxy.retryDelay;
    profile.proxy.maxWaitingRetries = proxy.maxWaitingRetries;
    profile.proxy.waitingRetryInterval = proxy.waitingRetryInterval;
    profile.proxy.workers = proxy.workers;
    profile.proxy.scriptPath = proxy.scriptPath;
    const bool wildcard = proxy.host == QLatin1String("0.0.0.0") || proxy.host == QLatin1String("::") ||
                          proxy.host == QLatin1String("localhost");
    if (!wildcard) {
        profile.proxy.address = proxy.host;
    } else {
        const QList<Engine> prefills = profile.engines(Role::Prefill);
        profile.proxy.address = prefills.isEmpty() ? QStringLiteral("127.0.0.1") : prefills.first().host;
        if (haveProxy)
            result.warnings.append(QStringLiteral("the proxy binds %1; assumed it runs on %2 (set proxy.address)")
                                       .arg(proxy.host, profile.proxy.address));
    }
    // Keep the proxy's own order when the nodes cannot reproduce it.
    if (haveProxy) {
        for (const Role role : {Role::Prefill, Role::Decode}) {
            const QStringList &ids = role == Role::Prefill ? proxy.prefillInstances : proxy.decodeInstances;
            if (profile.proxyInstances(role) != ids) {
                (role == Role::Prefill ? profile.proxy.prefillInstances : profile.proxy.decodeInstances) = ids;
            }
        }
    }
}

} // namespace

ImportResult importProfile(const ImportSources &sources)
{
    ImportResult result;
    Profile &profile = result.profile;
    profile.name = sources.clusterName;
    profile.nodes.clear();
    setRoleDefaults(profile);

    Import im(result, profile);
    ProxyCommandLine &proxy = im.proxy;
    im.haveProxy = !sources.proxyCommandLine.trimmed().isEmpty();
    if (im.haveProxy && !parseProxyCommandLine(sources.proxyCommandLine, &proxy, &result.errors, &result.warnings))
        return result;
    if (sources.proxyGeneration) {
        if (proxy.numIncFlags && *sources.proxyGeneration != ProxyGeneration::V091Dev) {
            result.errors.append(QStringLiteral("proxy command line: --*-hosts-num / --*-ports-inc exist only in the "
                                                "v0.9.1-dev proxy; a main proxy refuses them"));
            return result;
        }
        proxy.generation = *sources.proxyGeneration;
    }

    addProxyInstances(im);
    applyLaunchers(im, sources);
    applyStartScripts(im, sources);
    // The 8-node guide's layout (--*-hosts-num) goes with the v0.9.1 launcher; a v0.9.1-dev proxy in front of
    // engines started the main way (the two-node A2 guide's start scripts) does not decide the launcher.
    profile.launchFlavor = im.flavor.value_or(proxy.numIncFlags ? LaunchFlavor::V091 : LaunchFlavor::Main);

    applyRanktable(im, sources);
    fillTemplateTp(im);
    fillAssumedLayout(im);
    // The container and the environment scripts given to the import apply to both roles.
    for (RoleConfig *c : {&profile.prefill, &profile.decode}) {
        if (sources.container.isSet())
            c->container = sources.container;
        for (const QString &script : sources.envScripts)
            if (!c->envScripts.contains(script))
                c->envScripts.append(script);
    }

    fillProxy(im);
    return result;
}

} // namespace pd
