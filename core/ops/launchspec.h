// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "ops/detachedprocess.h"

// How the console starts engines and the proxy of a profile: where (the node's runner target), what
// (the launcher's `bash <template> <seven arguments>`, the proxy's command line), and where their pid
// and log files live under the profile's run directory:
//   <run_dir>/engines/<node>-<port>.pid|.log     one per engine
//   <run_dir>/proxy/proxy-<port>.pid|.log
// Besides the launcher's arguments the template's environment carries PDCONSOLE_NODE,
// PDCONSOLE_NODE_ADDRESS, PDCONSOLE_ROLE and PDCONSOLE_LAUNCH_FLAVOR (real templates ignore them; the
// pdsim stand-in template uses them) and PDCONSOLE_PROCESS, the marker that identifies the process.
namespace pd {

CommandTarget nodeTarget(const Node &node);
// The node whose address is the proxy's, else the proxy's address with the default SSH settings.
CommandTarget proxyTarget(const Profile &profile);

QString engineFileStem(const Profile &profile, const Engine &engine); // "engines/d1-9000"
DetachedProcess engineProcess(const Profile &profile, const Engine &engine);

struct ProxyLaunchOptions {
    // Engines load for minutes: the proxy keeps probing an added engine at least this long before it
    // drops it (main proxies only; v0.9.1-dev has no waiting list). 0 keeps the profile's values.
    int engineLoadSeconds = 900;
    QString python = QStringLiteral("python3");
};

// The proxy's arguments from the profile: expanded host/port lists for a main proxy, `--*-hosts-num`
// / `--*-ports-inc` runs (num == inc per run) for v0.9.1-dev. Empty with *error when the profile
// cannot be expressed (no engines in a pool, an instance without a port).
QStringList proxyArguments(const Profile &profile, const ProxyLaunchOptions &options, QString *error);
// The waiting retries the proxy is started with (see ProxyLaunchOptions::engineLoadSeconds).
int proxyWaitingRetries(const Profile &profile, const ProxyLaunchOptions &options);
// The whole detached process: `python3 <script_path> ARGS` for a .py script, `bash <script>` for a
// .sh script, the script itself otherwise; OPENAI_API_KEY from the profile's api_key_env.
std::optional<DetachedProcess> proxyProcess(const Profile &profile, const ProxyLaunchOptions &options, QString *error);

} // namespace pd
