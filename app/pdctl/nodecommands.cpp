// SPDX-License-Identifier: MIT
#include "nodecommands.h"
#include "verbparser.h"

#include "cluster/profileformat.h"
#include "exec/routingrunner.h"
#include "nodecheck/nodecheckrun.h"
#include "nodecheck/reportexport.h"

#include <QCommandLineParser>
#include <QSaveFile>

#include <algorithm>
#include <memory>

namespace pdctl {

namespace {


bool writeFile(const QString &path, const QByteArray &data, QTextStream &err)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        err << "pdctl: cannot write " << path << ": " << file.errorString() << '\n';
        return false;
    }
    return true;
}

QString where(const pd::CheckResult &check)
{
    return check.device < 0 ? QStringLiteral("node") : QStringLiteral("NPU %1").arg(check.device);
}

} // namespace

int runNodeCommand(const QStringList &args, pd::RunnerFactory &runners, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("profile"), QStringLiteral("Cluster profile."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("node"), QStringLiteral("Only this node (repeatable)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("Write the report as CSV."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Write the report as JSON."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("timeout"), QStringLiteral("Seconds for one node's suite (default 180)."),
                      QStringLiteral("S"), QStringLiteral("180")});
    parser.addOption({QStringLiteral("no-ping"), QStringLiteral("Skip the pings between nodes.")});
    parser.addOption({QStringLiteral("tool-dir"),
                      QStringLiteral("Directory of hccn_tool and npu-smi on the nodes, put first on PATH "
                                     "(e.g. /usr/local/Ascend/driver/tools)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("hccn-conf"), QStringLiteral("Path of hccn.conf on the nodes (default /etc/hccn.conf)."),
                      QStringLiteral("PATH")});
    const auto usage = [&err, &parser](const QString &problem = {}) {
        return pdctl::printUsage(err, QStringLiteral("node"), problem.isEmpty() ? parser.errorText() : problem,
            "usage: pdctl node check --profile FILE [--node NAME]... [--csv FILE] [--json FILE] [--timeout S]\n"
            "                        [--no-ping] [--tool-dir DIR] [--hccn-conf PATH]\n");
    };
    if (!parser.parse(QStringList{QStringLiteral("pdctl")} + args) || parser.positionalArguments() != QStringList{QStringLiteral("check")})
        return usage();
    bool ok = false;
    const double timeout = parser.value(QStringLiteral("timeout")).toDouble(&ok);
    if (!ok || timeout <= 0 || timeout > 3600)
        return usage(QStringLiteral("--timeout must be 1-3600 seconds"));
    const QString path = parser.value(QStringLiteral("profile"));
    if (path.isEmpty())
        return usage(QStringLiteral("--profile FILE is required"));
    const pd::ProfileLoadResult loaded = pd::loadProfileFile(path);
    for (const pd::ProfileError &error : loaded.errors)
        err << error.format(path) << '\n';
    if (!loaded.profile)
        return 1;

    const QStringList only = parser.values(QStringLiteral("node"));
    for (const QString &name : only) {
        const auto &nodes = loaded.profile->nodes;
        if (std::none_of(nodes.cbegin(), nodes.cend(), [&name](const pd::Node &n) { return n.name == name; })) {
            err << "pdctl: " << path << ": no node named \"" << name << "\"\n";
            return pdctl::kUsageExit;
        }
    }
    const QList<pd::NodeCheckTarget> targets = pd::nodeCheckTargets(*loaded.profile, only);
    pd::NodeCheckOptions options;
    options.localTimeout = std::chrono::milliseconds(qint64(timeout * 1000));
    options.pingTimeout = options.localTimeout;
    options.pingPeers = !parser.isSet(QStringLiteral("no-ping"));
    options.suite.toolDir = parser.value(QStringLiteral("tool-dir"));
    if (parser.isSet(QStringLiteral("hccn-conf")))
        options.suite.hccnConfPath = parser.value(QStringLiteral("hccn-conf"));
    pd::RoutingRunner runner(std::shared_ptr<pd::RunnerFactory>(&runners, [](pd::RunnerFactory *) {}));
    out << "checking " << targets.size() << " node(s)…\n";
    out.flush();
    const pd::ClusterReport report = pd::runNodeChecks(runner, targets, options);

    int failedNodes = 0;
    QStringList findings;
    for (const pd::NodeReport &node : report.nodes) {
        int counts[4] = {0, 0, 0, 0};
        for (const pd::CheckResult &check : node.checks) {
            ++counts[int(check.verdict)];
            if (check.verdict == pd::Verdict::Fail || check.verdict == pd::Verdict::Warning)
                findings << QStringLiteral("%1 %2 %3 %4: %5")
                                .arg(check.verdict == pd::Verdict::Fail ? QStringLiteral("FAIL") : QStringLiteral("warn"),
                                     node.node, where(check), pd::checkKindName(check.kind), check.reason);
        }
        const bool bad = !node.reachable || counts[int(pd::Verdict::Fail)] > 0;
        failedNodes += bad;
        out << (bad ? "FAILED " : "ok     ") << node.node << " (" << node.host << "): ";
        if (!node.reachable)
            out << "unreachable: " << node.transportError;
        else
            out << counts[int(pd::Verdict::Pass)] << " pass, " << counts[int(pd::Verdict::Warning)] << " warning, "
                << counts[int(pd::Verdict::Fail)] << " fail, " << counts[int(pd::Verdict::Unknown)] << " unknown";
        out << " in " << node.elapsedMs << " ms\n";
    }
    for (const QString &line : std::as_const(findings))
        out << line << '\n';
    out << report.nodes.size() - failedNodes << " of " << report.nodes.size() << " node(s) passed\n";
    bool written = true;
    if (parser.isSet(QStringLiteral("csv")))
        written &= writeFile(parser.value(QStringLiteral("csv")), pd::reportToCsv(report), err);
    if (parser.isSet(QStringLiteral("json")))
        written &= writeFile(parser.value(QStringLiteral("json")), pd::reportToJson(report), err);
    return failedNodes == 0 && written ? 0 : 1;
}

} // namespace pdctl
