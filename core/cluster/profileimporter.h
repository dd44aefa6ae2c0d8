// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "cluster/startscript.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Builds a profile from what operators already have: the proxy's command line (either generation),
// launcher parameters per node (either flavor), and ranktable.json. Each source is optional; what one
// leaves open another fills in, and whatever is still unknown keeps a documented default with a warning.
namespace pd {

struct ProxyCommandLine {
    ProxyGeneration generation = ProxyGeneration::Main;
    QString host = QStringLiteral("localhost");
    int port = 8000;
    QStringList prefillInstances;   // "host:port", in the real proxy's order
    QStringList decodeInstances;
    int maxRetries = 3;
    double retryDelay = 0.001;
    int maxWaitingRetries = 3;
    double waitingRetryInterval = 10.0;
    int workers = 1;
    QString scriptPath;             // the .py file, when the command line names it
    bool numIncFlags = false;       // --*-hosts-num / --*-ports-inc given (only v0.9.1-dev has them)
};

// Parses `python load_balance_proxy_server_example.py --port 8000 ...` (the interpreter and script
// words are optional). v0.9.1-dev's --*-hosts-num / --*-ports-inc are expanded exactly as that proxy
// does, including its silent truncation when the expanded lists differ in length (reported in *warnings).
bool parseProxyCommandLine(const QString &commandLine, ProxyCommandLine *out, QStringList *errors,
                           QStringList *warnings);

// One node's launcher parameters: "HOST[/ROLE]: ARGS", where ARGS is main's launch_online_dp.py flags
// (--dp-size 32 --tp-size 1 --dp-size-local 16 --dp-rank-start 0 --dp-address IP --dp-rpc-port P
// --vllm-start-port 9000) or v0.9.1's launcher variables (dp_size=64 dp_size_local=16 dp_rank_start=0
// dp_ip=IP dp_port=13395 engine_port=9000, also as the `name = value` lines of the launcher file).
struct LauncherParameters {
    QString host;
    std::optional<Role> role;
    LaunchFlavor flavor = LaunchFlavor::V091;
    EngineGroup group;
    // v0.9.1 launchers do not pass the TP size (run_dp_template.sh hard-codes it) unless `tp_size` is given;
    // main's --tp-size defaults to 1 like launch_online_dp.py.
    bool tpSizeGiven = false;
};
bool parseLauncherParameters(const QString &spec, LauncherParameters *out, QString *error);

struct RanktableServer {
    QString serverId;
    Role role = Role::Prefill;
    bool isA3 = false;
    QStringList deviceIps; // by device_id order
};
bool parseRanktable(const QByteArray &json, QList<RanktableServer> *out, QStringList *errors);

struct ImportSources {
    QString proxyCommandLine;
    QStringList launchers;
    QByteArray ranktable;            // empty: none
    QString ranktableName = QStringLiteral("ranktable.json");
    QString clusterName = QStringLiteral("imported");
    // Operators' own engine start scripts (the two-node A2 guide's start_prefill.sh / start_decode.sh): each sets its
    // node's DP layout, NIC and HCCL address, and its role's model, lengths, kv config and env.
    QList<StartScriptSource> startScripts;
    // Where both roles' engines run (the two-node A2 guide: docker:vllm_deepseek_pd) and the CANN set_env.sh scripts
    // they need; a start script's own `source` lines come first.
    ContainerSpec container;
    QStringList envScripts;
    // The proxy's generation when the operator knows it (pdctl --proxy-generation). Unset: v0.9.1-dev
    // when the command line uses --*-hosts-num / --*-ports-inc or runs the script from v0.9.1-dev's
    // examples/disaggregate_prefill_v1/ (main spells it disaggregated_prefill_v1), or a start script's
    // environment points into that folder (a v0.9.1-dev checkout), main otherwise.
    std::optional<ProxyGeneration> proxyGeneration;
};

struct ImportResult {
    Profile profile;
    QStringList errors;
    QStringList warnings;
    bool ok() const { return errors.isEmpty(); }
};

ImportResult importProfile(const ImportSources &sources);

} // namespace pd
