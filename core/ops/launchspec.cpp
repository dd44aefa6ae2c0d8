// SPDX-License-Identifier: MIT
#include "ops/launchspec.h"

#include <QHostAddress>

#include <QUrl>

#include <cmath>

namespace pd {

namespace {

// Commands run in the run directory: a path below it is absolute when the run directory is, and
// relative to it otherwise.
QString joinPath(const QString &dir, const QString &relative)
{
    if (relative.startsWith(QLatin1Char('/')) || !dir.startsWith(QLatin1Char('/')))
        return relative;
    if (dir.endsWith(QLatin1Char('/')))
        return dir + relative;
    return dir + QLatin1Char('/') + relative;
}

// The marker is matched as one whole environment entry by `grep -xzF`: keep it to characters that
// mean nothing to grep or the shell (names are validated, but the check must not depend on it).
QString markerPart(const QString &text)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

struct Instance {
    QString host;
    int port = 0;
};

std::optional<Instance> parseInstance(const QString &id)
{
    const qsizetype colon = id.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    bool ok = false;
    const int port = id.mid(colon + 1).toInt(&ok);
    if (!ok || port <= 0 || port > 65535)
        return std::nullopt;
    QString host = id.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return Instance { host, port };
}

bool appendRole(QStringList &args, const Profile &profile, Role role, bool compact, QString *error)
{
    const QString flag = role == Role::Prefill ? QStringLiteral("--prefiller") : QStringLiteral("--decoder");
    const QStringList ids = profile.proxyInstances(role);
    if (ids.isEmpty()) {
        *error = QStringLiteral("proxy: the %1 pool has no engines; the proxy needs at least one per pool")
                     .arg(roleName(role));
        return false;
    }
    QList<Instance> instances;
    for (const QString &id : ids) {
        const auto instance = parseInstance(id);
        if (!instance) {
            *error = QStringLiteral("proxy: %1 instance '%2' is not host:port").arg(roleName(role), id);
            return false;
        }
        instances.append(*instance);
    }
    QStringList hosts, ports, nums, incs;
    if (!compact) {
        for (const Instance &i : instances) {
            hosts << i.host;
            ports << QString::number(i.port);
        }
        args << flag + QStringLiteral("-hosts") << hosts << flag + QStringLiteral("-ports") << ports;
        return true;
    }
    // Runs of consecutive ports on one host become host/num with port/inc, num == inc (spec §4.1).
    for (qsizetype i = 0; i < instances.size();) {
        qsizetype j = i + 1;
        while (j < instances.size() && instances.at(j).host == instances.at(i).host
            && instances.at(j).port == instances.at(j - 1).port + 1)
            ++j;
        hosts << instances.at(i).host;
        ports << QString::number(instances.at(i).port);
        nums << QString::number(j - i);
        incs << QString::number(j - i);
        i = j;
    }
    args << flag + QStringLiteral("-hosts") << hosts << flag + QStringLiteral("-hosts-num") << nums
         << flag + QStringLiteral("-ports") << ports << flag + QStringLiteral("-ports-inc") << incs;
    return true;
}

QString formatFloat(double value)
{
    QString text = QString::number(value, 'g', 12);
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')))
        text += QStringLiteral(".0");
    return text;
}

} // namespace

CommandTarget nodeTarget(const Node &node)
{
    CommandTarget target;
    target.node = node.name;
    target.host = node.address;
    target.port = node.ssh.port;
    target.user = node.ssh.user;
    target.transport = node.transport == NodeTransport::Ssh     ? CommandTarget::Transport::Ssh
                       : node.transport == NodeTransport::Local ? CommandTarget::Transport::Local
                                                                : CommandTarget::Transport::Auto;
    return target;
}

CommandTarget proxyTarget(const Profile &profile)
{
    for (const Node &node : profile.nodes) {
        if (node.address == profile.proxy.address) {
            CommandTarget target = nodeTarget(node);
            return target;
        }
    }
    CommandTarget target;
    target.node = QStringLiteral("proxy");
    target.host = profile.proxy.address;
    target.user = SshEndpoint().user;
    return target;
}

QString engineFileStem(const Profile &profile, const Engine &engine)
{
    return QStringLiteral("engines/%1-%2").arg(profile.nodes.at(engine.nodeIndex).name).arg(engine.port);
}

DetachedProcess engineProcess(const Profile &profile, const Engine &engine)
{
    const Node &node = profile.nodes.at(engine.nodeIndex);
    const QString stem = engineFileStem(profile, engine);
    DetachedProcess p;
    p.label = QStringLiteral("engine %1").arg(engine.id());
    p.target = nodeTarget(node);
    p.runDir = profile.runDir;
    p.pidFile = joinPath(profile.runDir, stem + QStringLiteral(".pid"));
    p.logFile = joinPath(profile.runDir, stem + QStringLiteral(".log"));
    p.marker = QStringLiteral("engine:%1:%2:%3").arg(markerPart(profile.name), markerPart(node.name)).arg(engine.port);
    p.env
        = { { QStringLiteral("PDCONSOLE_NODE"), node.name }, { QStringLiteral("PDCONSOLE_NODE_ADDRESS"), node.address },
              { QStringLiteral("PDCONSOLE_ROLE"), roleName(engine.role) },
              { QStringLiteral("PDCONSOLE_LAUNCH_FLAVOR"), flavorName(profile.launchFlavor) } };
    p.requiredFile = joinPath(profile.runDir, profile.templatePath);
    p.port = engine.port;
    p.listenAddress = QHostAddress(engine.host).isNull() ? QString() : engine.host;
    p.adoptPattern = QStringLiteral("vllm|pdsim engine"); // `vllm serve`, python -m vllm..., the simulator's engines
    const ContainerSpec container = profile.containerOf(node);
    p.containerTool = container.tool;
    p.containerName = container.name;
    p.envScripts = profile.envScriptsOf(node);
    p.program = QStringList { QStringLiteral("bash"), profile.templatePath } + profile.launcherArguments(engine);
    return p;
}

int proxyWaitingRetries(const Profile &profile, const ProxyLaunchOptions &options)
{
    const ProxyConfig &proxy = profile.proxy;
    if (options.engineLoadSeconds <= 0 || proxy.waitingRetryInterval <= 0)
        return proxy.maxWaitingRetries;
    const int needed = int(std::ceil(options.engineLoadSeconds / proxy.waitingRetryInterval)) + 1;
    return std::max(proxy.maxWaitingRetries, needed);
}

QStringList proxyArguments(const Profile &profile, const ProxyLaunchOptions &options, QString *error)
{
    const ProxyConfig &proxy = profile.proxy;
    const bool v091 = proxy.generation == ProxyGeneration::V091Dev;
    QStringList args { QStringLiteral("--host"), proxy.bindHost, QStringLiteral("--port"),
        QString::number(proxy.port) };
    QString problem;
    if (!appendRole(args, profile, Role::Prefill, v091, &problem)
        || !appendRole(args, profile, Role::Decode, v091, &problem)) {
        if (error)
            *error = problem;
        return {};
    }
    args << QStringLiteral("--max-retries") << QString::number(proxy.maxRetries) << QStringLiteral("--retry-delay")
         << formatFloat(proxy.retryDelay);
    if (!v091) {
        // v0.9.1-dev has no waiting list, no listener and a single worker (spec §4, §10).
        args << QStringLiteral("--max-waiting-retries") << QString::number(proxyWaitingRetries(profile, options))
             << QStringLiteral("--waiting-retry-interval") << formatFloat(proxy.waitingRetryInterval);
        if (proxy.workers != 1)
            args << QStringLiteral("--workers") << QString::number(proxy.workers);
    }
    return args;
}

std::optional<DetachedProcess> proxyProcess(const Profile &profile, const ProxyLaunchOptions &options, QString *error)
{
    const ProxyConfig &proxy = profile.proxy;
    if (proxy.scriptPath.isEmpty()) {
        if (error)
            *error = QStringLiteral("proxy: script_path is empty; the profile must say where "
                                    "load_balance_proxy_server_example.py is on %1")
                         .arg(proxy.address);
        return std::nullopt;
    }
    QString problem;
    const QStringList args = proxyArguments(profile, options, &problem);
    if (args.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    DetachedProcess p;
    p.label = QStringLiteral("proxy %1:%2").arg(proxy.address).arg(proxy.port);
    p.target = proxyTarget(profile);
    p.runDir = profile.runDir;
    const QString stem = QStringLiteral("proxy/proxy-%1").arg(proxy.port);
    p.pidFile = joinPath(profile.runDir, stem + QStringLiteral(".pid"));
    p.logFile = joinPath(profile.runDir, stem + QStringLiteral(".log"));
    p.marker = QStringLiteral("proxy:%1:%2").arg(markerPart(profile.name)).arg(proxy.port);
    p.apiKeyVariable = proxy.apiKeyEnv;
    p.reportCommandLine = true; // its --max-waiting-retries and --waiting-retry-interval judge WAITING
    p.port = proxy.port;
    p.listenAddress = QHostAddress(proxy.bindHost).isNull() || proxy.bindHost == QLatin1String("0.0.0.0") ? QString() : proxy.bindHost;
    p.adoptPattern = QStringLiteral("proxy"); // load_balance_proxy_server_example.py, pdsim proxy
    p.requiredFile = joinPath(profile.runDir, proxy.scriptPath);
    if (proxy.scriptPath.endsWith(QLatin1String(".py")))
        p.program = QStringList { options.python, proxy.scriptPath } + args;
    else if (proxy.scriptPath.endsWith(QLatin1String(".sh")))
        p.program = QStringList { QStringLiteral("bash"), proxy.scriptPath } + args;
    else
        p.program = QStringList { proxy.scriptPath } + args;
    return p;
}

} // namespace pd
