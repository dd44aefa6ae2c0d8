// SPDX-License-Identifier: MIT
#include "cluster/profileformat.h"

#include "cluster/jsonreader.h"
#include "cluster/strictjson.h"
#include "util/boundedfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace pd {

using ojson = nlohmann::ordered_json;

namespace {

constexpr const char *kFormatTag = "pdconsole-profile";
constexpr int kMaxPort = 65535;
constexpr int kMaxCount = 1 << 20;

const QStringList &roleChoices() { static const QStringList c{QStringLiteral("prefill"), QStringLiteral("decode")}; return c; }
const QStringList &couplingChoices() { static const QStringList c{QStringLiteral("coupled"), QStringLiteral("independent")}; return c; }
const QStringList &transportChoices() { static const QStringList c{QStringLiteral("auto"), QStringLiteral("ssh"), QStringLiteral("local")}; return c; }
const QStringList &generationChoices() { static const QStringList c{QStringLiteral("A2"), QStringLiteral("A3")}; return c; }
const QStringList &flavorChoices() { static const QStringList c{QStringLiteral("v0.9.1"), QStringLiteral("main")}; return c; }
const QStringList &proxyChoices() { static const QStringList c{QStringLiteral("v0.9.1-dev"), QStringLiteral("main")}; return c; }

void readSsh(JsonReader &r, const ojson &j, const QString &p, SshEndpoint *ssh)
{
    if (!r.expectObject(j, p, {"port", "user", "identity_file", "jump_host"}))
        return;
    r.readInt(j, p, "port", &ssh->port, 1, kMaxPort);
    r.readString(j, p, "user", &ssh->user);
    r.readString(j, p, "identity_file", &ssh->identityFile);
    r.readString(j, p, "jump_host", &ssh->jumpHost);
}

void readGroup(JsonReader &r, const ojson &j, const QString &p, EngineGroup *g)
{
    if (!r.expectObject(j, p,
                        {"dp_size", "dp_size_local", "dp_rank_start", "dp_address", "dp_port", "engine_start_port",
                         "tp_size"},
                        {"dp_size", "dp_size_local", "dp_address", "engine_start_port"}))
        return;
    r.readInt(j, p, "dp_size", &g->dpSize, 1, kMaxCount);
    r.readInt(j, p, "dp_size_local", &g->dpSizeLocal, 1, 4096);
    r.readInt(j, p, "dp_rank_start", &g->dpRankStart, 0, kMaxCount);
    r.readString(j, p, "dp_address", &g->dpAddress);
    r.readInt(j, p, "dp_port", &g->dpPort, 1, kMaxPort);
    r.readInt(j, p, "engine_start_port", &g->engineStartPort, 1, kMaxPort);
    r.readInt(j, p, "tp_size", &g->tpSize, 1, 1024);
}

void readContainer(JsonReader &r, const ojson &j, const QString &p, ContainerSpec *c)
{
    if (!r.expectObject(j, p, {"tool", "name"}, {"name"}))
        return;
    const QStringList tools{QStringLiteral("docker"), QStringLiteral("podman")};
    int tool = int(tools.indexOf(c->tool));
    r.readChoice(j, p, "tool", tools, &tool);
    c->tool = tools.value(tool, QStringLiteral("docker"));
    r.readString(j, p, "name", &c->name);
}

void readNode(JsonReader &r, const ojson &j, const QString &p, Node *n)
{
    if (!r.expectObject(j, p,
                        {"name", "address", "role", "ssh", "npu_generation", "npu_count", "nic_name", "local_ip",
                         "npu_ips", "engine_groups", "transport", "container", "env_scripts"},
                        {"name", "address", "role"}))
        return;
    r.readString(j, p, "name", &n->name);
    r.readString(j, p, "address", &n->address);
    int role = int(n->role);
    r.readChoice(j, p, "role", roleChoices(), &role);
    n->role = Role(role);
    if (j.contains("ssh"))
        readSsh(r, j["ssh"], JsonReader::child(p, "ssh"), &n->ssh);
    int transport = int(n->transport);
    r.readChoice(j, p, "transport", transportChoices(), &transport);
    n->transport = NodeTransport(transport);
    int generation = int(n->npuGeneration);
    r.readChoice(j, p, "npu_generation", generationChoices(), &generation);
    n->npuGeneration = NpuGeneration(generation);
    r.readInt(j, p, "npu_count", &n->npuCount, 1, 1024);
    r.readString(j, p, "nic_name", &n->nicName);
    r.readString(j, p, "local_ip", &n->localIp);
    r.readStringList(j, p, "npu_ips", &n->npuIps);
    if (j.contains("container"))
        readContainer(r, j["container"], JsonReader::child(p, "container"), &n->container);
    r.readStringList(j, p, "env_scripts", &n->envScripts);
    if (j.contains("engine_groups")) {
        const QString gp = JsonReader::child(p, "engine_groups");
        const ojson &groups = j["engine_groups"];
        if (r.expectArray(groups, gp)) {
            for (std::size_t i = 0; i < groups.size(); ++i) {
                EngineGroup g;
                readGroup(r, groups[i], JsonReader::child(gp, qsizetype(i)), &g);
                n->engineGroups.append(g);
            }
        }
    }
}

void readRole(JsonReader &r, const ojson &j, const QString &p, RoleConfig *c)
{
    if (!r.expectObject(j, p,
                        {"model_path", "served_model_name", "max_model_len", "max_num_batched_tokens", "max_num_seqs",
                         "gpu_memory_utilization", "kv_transfer_config", "additional_config", "speculative_config",
                         "extra_args", "env", "dp_coupling", "container", "env_scripts"}))
        return;
    if (j.contains("container"))
        readContainer(r, j["container"], JsonReader::child(p, "container"), &c->container);
    r.readStringList(j, p, "env_scripts", &c->envScripts);
    int coupling = int(c->dpCoupling);
    r.readChoice(j, p, "dp_coupling", couplingChoices(), &coupling);
    c->dpCoupling = DpCoupling(coupling);
    r.readString(j, p, "model_path", &c->modelPath);
    r.readString(j, p, "served_model_name", &c->servedModelName);
    r.readInt(j, p, "max_model_len", &c->maxModelLen, 1, 1 << 24);
    r.readInt(j, p, "max_num_batched_tokens", &c->maxNumBatchedTokens, 1, 1 << 24);
    r.readInt(j, p, "max_num_seqs", &c->maxNumSeqs, 1, 1 << 16);
    r.readDouble(j, p, "gpu_memory_utilization", &c->gpuMemoryUtilization, 0.01, 1.0);
    r.readRawObject(j, p, "kv_transfer_config", &c->kvTransferConfig);
    r.readRawObject(j, p, "additional_config", &c->additionalConfig);
    r.readRawObject(j, p, "speculative_config", &c->speculativeConfig);
    r.readStringList(j, p, "extra_args", &c->extraArgs);
    const auto env = j.find("env");
    if (env != j.end()) {
        const QString ep = JsonReader::child(p, "env");
        if (!env->is_object()) {
            r.addProblem(ep, QStringLiteral("expected an object of NAME: \"value\", got %1").arg(JsonReader::typeName(*env)));
        } else {
            for (auto it = env->begin(); it != env->end(); ++it) {
                if (!it->is_string()) {
                    r.addProblem(JsonReader::child(ep, it.key().c_str()),
                                 QStringLiteral("expected a string, got %1 (quote numbers: \"256\")")
                                     .arg(JsonReader::typeName(*it)));
                    continue;
                }
                c->env.append({QString::fromStdString(it.key()), QString::fromStdString(it->get<std::string>())});
            }
        }
    }
}

void readProxy(JsonReader &r, const ojson &j, const QString &p, ProxyConfig *c)
{
    if (!r.expectObject(j, p,
                        {"address", "bind_host", "port", "generation", "max_retries", "retry_delay",
                         "max_waiting_retries", "waiting_retry_interval", "workers", "api_key_env", "script_path",
                         "prefill_instances", "decode_instances"},
                        {"address", "port"}))
        return;
    r.readString(j, p, "address", &c->address);
    r.readString(j, p, "bind_host", &c->bindHost);
    r.readInt(j, p, "port", &c->port, 1, kMaxPort);
    int generation = int(c->generation);
    r.readChoice(j, p, "generation", proxyChoices(), &generation);
    c->generation = ProxyGeneration(generation);
    r.readInt(j, p, "max_retries", &c->maxRetries, 0, 1000);
    r.readDouble(j, p, "retry_delay", &c->retryDelay, 0.0, 3600.0);
    r.readInt(j, p, "max_waiting_retries", &c->maxWaitingRetries, 1, 100000);
    r.readDouble(j, p, "waiting_retry_interval", &c->waitingRetryInterval, 0.01, 86400.0);
    r.readInt(j, p, "workers", &c->workers, 1, 1024);
    r.readString(j, p, "api_key_env", &c->apiKeyEnv);
    r.readString(j, p, "script_path", &c->scriptPath);
    r.readStringList(j, p, "prefill_instances", &c->prefillInstances);
    r.readStringList(j, p, "decode_instances", &c->decodeInstances);
}

void readTls(JsonReader &r, const ojson &j, const QString &p, TlsConfig *c)
{
    if (!r.expectObject(j, p, {"proxy", "engines", "ca_file"}))
        return;
    for (const auto &[key, out] : {std::pair<const char *, bool *>{"proxy", &c->proxy}, {"engines", &c->engines}}) {
        const auto it = j.find(key);
        if (it == j.end())
            continue;
        if (!it->is_boolean()) {
            r.addProblem(JsonReader::child(p, key), QStringLiteral("expected true or false, got %1").arg(JsonReader::typeName(*it)));
            continue;
        }
        *out = it->get<bool>();
    }
    r.readString(j, p, "ca_file", &c->caFile);
}

ProfileLoadResult fromJson(const ojson &root)
{
    JsonReader r;
    Profile profile;
    const QString p;
    if (r.expectObject(root, p,
                       {"format", "version", "name", "launch_flavor", "template_path", "run_dir", "roles", "nodes",
                        "proxy", "tls"},
                       {"format", "version", "name", "nodes", "proxy"})) {
        const auto format = root.find("format");
        if (format != root.end() && !(format->is_string() && format->get<std::string>() == kFormatTag))
            r.addProblem(QStringLiteral("/format"),
                         QStringLiteral("expected \"%1\": this is not a pdconsole profile").arg(QLatin1String(kFormatTag)));
        int version = 0;
        r.readInt(root, p, "version", &version, 0, 1 << 30);
        if (root.contains("version") && version != Profile::kFormatVersion && r.problems().isEmpty())
            r.addProblem(QStringLiteral("/version"),
                         QStringLiteral("format version %1 is not supported (this pdconsole reads version %2)")
                             .arg(version)
                             .arg(Profile::kFormatVersion));
        r.readString(root, p, "name", &profile.name);
        int flavor = int(profile.launchFlavor);
        r.readChoice(root, p, "launch_flavor", flavorChoices(), &flavor);
        profile.launchFlavor = LaunchFlavor(flavor);
        r.readString(root, p, "template_path", &profile.templatePath);
        r.readString(root, p, "run_dir", &profile.runDir);
        if (root.contains("roles")) {
            const ojson &roles = root["roles"];
            if (r.expectObject(roles, QStringLiteral("/roles"), {"prefill", "decode"})) {
                if (roles.contains("prefill"))
                    readRole(r, roles["prefill"], QStringLiteral("/roles/prefill"), &profile.prefill);
                if (roles.contains("decode"))
                    readRole(r, roles["decode"], QStringLiteral("/roles/decode"), &profile.decode);
            }
        }
        if (root.contains("nodes") && r.expectArray(root["nodes"], QStringLiteral("/nodes"))) {
            const ojson &nodes = root["nodes"];
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                Node node;
                readNode(r, nodes[i], JsonReader::child(QStringLiteral("/nodes"), qsizetype(i)), &node);
                profile.nodes.append(node);
            }
        }
        if (root.contains("proxy"))
            readProxy(r, root["proxy"], QStringLiteral("/proxy"), &profile.proxy);
        if (root.contains("tls"))
            readTls(r, root["tls"], QStringLiteral("/tls"), &profile.tls);
    }
    ProfileLoadResult result;
    for (const JsonProblem &problem : r.problems())
        result.errors.append({problem.pointer, 0, 0, problem.message});
    if (result.errors.isEmpty())
        result.profile = profile;
    return result;
}

ojson stringList(const QStringList &list)
{
    ojson a = ojson::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

ojson toJson(const RoleConfig &c)
{
    ojson j = ojson::object();
    j["model_path"] = c.modelPath.toStdString();
    j["served_model_name"] = c.servedModelName.toStdString();
    j["max_model_len"] = c.maxModelLen;
    j["max_num_batched_tokens"] = c.maxNumBatchedTokens;
    j["max_num_seqs"] = c.maxNumSeqs;
    j["gpu_memory_utilization"] = c.gpuMemoryUtilization;
    j["kv_transfer_config"] = c.kvTransferConfig;
    j["additional_config"] = c.additionalConfig;
    j["speculative_config"] = c.speculativeConfig;
    j["extra_args"] = stringList(c.extraArgs);
    ojson env = ojson::object();
    for (const auto &[name, value] : c.env)
        env[name.toStdString()] = value.toStdString();
    j["env"] = env;
    j["dp_coupling"] = couplingName(c.dpCoupling).toStdString();
    // Written when set: profiles without them stay byte for byte.
    if (c.container.isSet())
        j["container"] = ojson{{"tool", c.container.tool.toStdString()}, {"name", c.container.name.toStdString()}};
    if (!c.envScripts.isEmpty())
        j["env_scripts"] = stringList(c.envScripts);
    return j;
}

ojson toJson(const Node &n)
{
    ojson j = ojson::object();
    j["name"] = n.name.toStdString();
    j["address"] = n.address.toStdString();
    j["role"] = roleName(n.role).toStdString();
    j["ssh"] = ojson{{"port", n.ssh.port},
                     {"user", n.ssh.user.toStdString()},
                     {"identity_file", n.ssh.identityFile.toStdString()},
                     {"jump_host", n.ssh.jumpHost.toStdString()}};
    if (n.transport != NodeTransport::Auto) // written when chosen: profiles without it stay byte for byte
        j["transport"] = transportChoices().at(int(n.transport)).toStdString();
    j["npu_generation"] = generationName(n.npuGeneration).toStdString();
    j["npu_count"] = n.npuCount;
    j["nic_name"] = n.nicName.toStdString();
    j["local_ip"] = n.localIp.toStdString();
    j["npu_ips"] = stringList(n.npuIps);
    ojson groups = ojson::array();
    for (const EngineGroup &g : n.engineGroups) {
        groups.push_back(ojson{{"dp_size", g.dpSize},
                               {"dp_size_local", g.dpSizeLocal},
                               {"dp_rank_start", g.dpRankStart},
                               {"dp_address", g.dpAddress.toStdString()},
                               {"dp_port", g.dpPort},
                               {"engine_start_port", g.engineStartPort},
                               {"tp_size", g.tpSize}});
    }
    j["engine_groups"] = groups;
    if (n.container.isSet())
        j["container"] = ojson{{"tool", n.container.tool.toStdString()}, {"name", n.container.name.toStdString()}};
    if (!n.envScripts.isEmpty())
        j["env_scripts"] = stringList(n.envScripts);
    return j;
}

ojson toJson(const ProxyConfig &c)
{
    ojson j = ojson::object();
    j["address"] = c.address.toStdString();
    j["bind_host"] = c.bindHost.toStdString();
    j["port"] = c.port;
    j["generation"] = proxyGenerationName(c.generation).toStdString();
    j["max_retries"] = c.maxRetries;
    j["retry_delay"] = c.retryDelay;
    j["max_waiting_retries"] = c.maxWaitingRetries;
    j["waiting_retry_interval"] = c.waitingRetryInterval;
    j["workers"] = c.workers;
    j["api_key_env"] = c.apiKeyEnv.toStdString();
    j["script_path"] = c.scriptPath.toStdString();
    j["prefill_instances"] = stringList(c.prefillInstances);
    j["decode_instances"] = stringList(c.decodeInstances);
    return j;
}

} // namespace

QString ProfileError::format(const QString &fileName) const
{
    if (line > 0)
        return QStringLiteral("%1:%2:%3: %4").arg(fileName).arg(line).arg(column).arg(message);
    return QStringLiteral("%1: %2: %3").arg(fileName, pointer.isEmpty() ? QStringLiteral("/") : pointer, message);
}

ProfileLoadResult parseProfile(const QByteArray &bytes)
{
    if (bytes.size() > kMaxProfileBytes) {
        ProfileLoadResult result;
        result.errors.append({QString(), 0, 0,
                              QStringLiteral("the file is %1 MB; a profile is at most %2 MB")
                                  .arg(double(bytes.size()) / 1e6, 0, 'f', 1)
                                  .arg(kMaxProfileBytes / (1024 * 1024))});
        return result;
    }
    const StrictJsonResult json = parseStrictJson(bytes);
    if (!json.ok) {
        ProfileLoadResult result;
        result.errors.append({json.pointer, json.line, json.column, json.message});
        return result;
    }
    return fromJson(json.value);
}

ProfileLoadResult loadProfileFile(const QString &path)
{
    ProfileLoadResult result;
    // Never a FIFO or a device (a profile someone shared could name one): a regular file, bounded.
    const BoundedFile file = readBoundedRegularFile(path, kMaxProfileBytes);
    switch (file.problem) {
    case BoundedFile::Problem::None:
        break;
    case BoundedFile::Problem::TooLarge:
        result.errors.append({ QString(), 0, 0,
            QStringLiteral("the file is %1 MB; a profile is at most %2 MB")
                .arg(double(file.size) / 1e6, 0, 'f', 1)
                .arg(kMaxProfileBytes / (1024 * 1024)) });
        return result;
    case BoundedFile::Problem::CannotOpen:
        result.errors.append({ QString(), 0, 0, QStringLiteral("cannot open: %1").arg(file.reason) });
        return result;
    case BoundedFile::Problem::NotRegular:
    case BoundedFile::Problem::CannotRead:
        result.errors.append({ QString(), 0, 0, QStringLiteral("cannot read: %1").arg(file.reason) });
        return result;
    }
    return parseProfile(file.bytes);
}

QByteArray serializeProfile(const Profile &profile)
{
    ojson root = ojson::object();
    root["format"] = kFormatTag;
    root["version"] = Profile::kFormatVersion;
    root["name"] = profile.name.toStdString();
    root["launch_flavor"] = flavorName(profile.launchFlavor).toStdString();
    root["template_path"] = profile.templatePath.toStdString();
    root["run_dir"] = profile.runDir.toStdString();
    root["roles"] = ojson{{"prefill", toJson(profile.prefill)}, {"decode", toJson(profile.decode)}};
    ojson nodes = ojson::array();
    for (const Node &node : profile.nodes)
        nodes.push_back(toJson(node));
    root["nodes"] = nodes;
    root["proxy"] = toJson(profile.proxy);
    if (!profile.tls.isDefault())
        root["tls"] = ojson{{"proxy", profile.tls.proxy}, {"engines", profile.tls.engines}, {"ca_file", profile.tls.caFile.toStdString()}};
    const std::string text = root.dump(2, ' ', false, ojson::error_handler_t::strict) + "\n";
    return QByteArray::fromStdString(text);
}

bool saveProfileFile(const Profile &profile, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    file.write(serializeProfile(profile));
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot save: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace pd
