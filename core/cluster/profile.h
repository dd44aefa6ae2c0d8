// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

// The cluster profile: the desired shape of a PD cluster as the operator describes it.
// Plain value types; the JSON format lives in profileformat.h, the checks in profilevalidator.h.
namespace pd {

enum class Role { Prefill, Decode };
enum class NpuGeneration { A2, A3 };
// How run_dp_template.sh receives its seven arguments (docs/profile-format.md, spec proxy-api §9).
enum class LaunchFlavor { V091, Main };
enum class ProxyGeneration { V091Dev, Main };
// Whether the DP ranks of one group live and die together (MoE models: every forward pass synchronises
// the group's ranks) or are independent replicas (dense models). docs/profile-format.md, docs/dp-groups.md.
enum class DpCoupling { Coupled, Independent };

QString roleName(Role role); // "prefill" | "decode"
QString generationName(NpuGeneration generation);
QString flavorName(LaunchFlavor flavor);
QString proxyGenerationName(ProxyGeneration generation);
QString couplingName(DpCoupling coupling); // "coupled" | "independent"

struct SshEndpoint {
    int port = 22;
    QString user = QStringLiteral("root");
    QString identityFile; // empty: ssh-agent and ~/.ssh/config decide
    QString jumpHost;     // "[user@]host[:port]", empty for none
    bool operator==(const SshEndpoint &) const = default;
};

// One launcher invocation on a node: dp_size_local engines with consecutive ranks and ports.
struct EngineGroup {
    int dpSize = 1;
    int dpSizeLocal = 1;
    int dpRankStart = 0;
    QString dpAddress;        // DP master address
    int dpPort = 13395;       // DP master port (v0.9.1) or DP RPC port (main)
    int engineStartPort = 9000;
    int tpSize = 1;
    bool operator==(const EngineGroup &) const = default;
};

// How the console reaches a node's shell: auto = this machine's own and loopback addresses run locally,
// every other node over SSH; ssh = always over SSH (its user, port, jump host and host key count even
// on 127.0.0.x); local = always on this machine.
enum class NodeTransport { Auto, Ssh, Local };

// Where a node's engines run: inside a named container (the two-node A2 guide: a privileged Docker container per
// node) or on the host. Every command for the engines (start, stop, status, adoption) then runs as
// `<tool> exec -i <name> bash -c ...`, so pid files, markers and /proc are the container's.
struct ContainerSpec {
    QString tool = QStringLiteral("docker"); // "docker" | "podman"
    QString name;                            // empty: on the host
    bool isSet() const { return !name.isEmpty(); }
    bool operator==(const ContainerSpec &) const = default;
};

struct Node {
    QString name;
    QString address;          // where SSH and HTTP reach the node
    SshEndpoint ssh;
    NodeTransport transport = NodeTransport::Auto;
    Role role = Role::Decode;
    NpuGeneration npuGeneration = NpuGeneration::A3;
    int npuCount = 16;
    QString nicName;          // GLOO/TP/HCCL_SOCKET_IFNAME
    QString localIp;          // HCCL_IF_IP
    QStringList npuIps;       // device IPs (from ranktable.json), may be empty
    QList<EngineGroup> engineGroups;
    ContainerSpec container;  // overrides the role's when set
    QStringList envScripts;   // overrides the role's when not empty
    bool operator==(const Node &) const = default;
};

// How every engine of one role is served: the `vllm serve` arguments and environment.
struct RoleConfig {
    QString modelPath;
    QString servedModelName;
    int maxModelLen = 17000;
    int maxNumBatchedTokens = 256;
    int maxNumSeqs = 28;
    double gpuMemoryUtilization = 0.9;
    nlohmann::ordered_json kvTransferConfig = nlohmann::ordered_json::object();
    nlohmann::ordered_json additionalConfig = nlohmann::ordered_json::object();
    nlohmann::ordered_json speculativeConfig = nlohmann::ordered_json::object();
    QStringList extraArgs;                 // further `vllm serve` arguments, one word each
    QList<QPair<QString, QString>> env;    // exported before `vllm serve`, in order
    DpCoupling dpCoupling = DpCoupling::Coupled; // the safe default: treating a coupled group as
                                                 // independent takes the pool down
    ContainerSpec container;               // the role's nodes run their engines in this container
    QStringList envScripts;                // sourced (in order) before an engine starts: CANN's set_env.sh files
    bool operator==(const RoleConfig &) const = default;

    bool enablesExpertParallel() const; // --enable-expert-parallel among the extra arguments

    QString kvRole() const;  // kv_transfer_config.kv_role, empty when absent
    int kvPort() const;      // kv_transfer_config.kv_port, 0 when absent
};

struct ProxyConfig {
    QString address = QStringLiteral("127.0.0.1"); // where the console reaches the proxy
    QString bindHost = QStringLiteral("0.0.0.0");  // --host
    int port = 8000;
    ProxyGeneration generation = ProxyGeneration::Main;
    int maxRetries = 3;
    double retryDelay = 0.001;
    int maxWaitingRetries = 3;
    double waitingRetryInterval = 10.0;
    int workers = 1;
    QString apiKeyEnv;                 // variable holding the engines' API key; empty: none
    QString scriptPath;                // load_balance_proxy_server_example.py on the proxy host
    // Explicit instance lists, as the proxy was (or is to be) started. Empty: derived from the engines.
    QStringList prefillInstances;
    QStringList decodeInstances;
    bool operator==(const ProxyConfig &) const = default;
};

// One engine, as derived from a node's engine groups.
struct Engine {
    int nodeIndex = 0;
    int groupIndex = 0;
    int localRank = 0;     // i in 0..dp_size_local-1
    int dpRank = 0;        // dp_rank_start + i
    int port = 0;          // engine_start_port + i
    Role role = Role::Decode;
    QString host;          // the node's address
    QString id() const;    // "host:port", the proxy's instance identity before normalisation
};

// TLS towards the cluster's HTTP endpoints: the proxy and the engines may serve https (vllm serve
// --ssl-certfile); certificates are verified against the system's CAs plus ca_file (a PEM file on the
// workstation, for a cluster's own CA). Never unverified.
struct TlsConfig {
    bool proxy = false;   // https://proxy
    bool engines = false; // https://engine (probes, /metrics, /health)
    QString caFile;       // extra trusted CA certificates (PEM); empty: the system's only
    bool isDefault() const { return !proxy && !engines && caFile.isEmpty(); }
    bool operator==(const TlsConfig &) const = default;
};

struct Profile {
    static constexpr int kFormatVersion = 1;

    QString name;
    LaunchFlavor launchFlavor = LaunchFlavor::V091;
    QString templatePath = QStringLiteral("./run_dp_template.sh");
    QString runDir = QStringLiteral("/tmp/pdconsole");
    RoleConfig prefill;
    RoleConfig decode;
    QList<Node> nodes;
    ProxyConfig proxy;
    TlsConfig tls;
    bool operator==(const Profile &) const = default;

    const RoleConfig &roleConfig(Role role) const { return role == Role::Prefill ? prefill : decode; }
    // Where a node's engines run and what they source first: the node's own setting, else its role's.
    ContainerSpec containerOf(const Node &node) const
    {
        return node.container.isSet() ? node.container : roleConfig(node.role).container;
    }
    QStringList envScriptsOf(const Node &node) const
    {
        return node.envScripts.isEmpty() ? roleConfig(node.role).envScripts : node.envScripts;
    }
    // Every engine, prefill nodes' first, each node's in launcher order: the real proxy's order when
    // the proxy is started from the profile.
    QList<Engine> engines() const;
    QList<Engine> engines(Role role) const;
    // The instance list the proxy holds for a role: the explicit list if given, else derived.
    QStringList proxyInstances(Role role) const;
    // The seven positional arguments of run_dp_template.sh for one engine, in the profile's flavor.
    QStringList launcherArguments(const Engine &engine) const;
};

} // namespace pd
