// SPDX-License-Identifier: MIT
#include "nodecheck/nodecheckrun.h"

#include "exec/containerexec.h"

#include "nodecheck/checkparsers.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QThreadPool>

namespace pd {

namespace {

// Runs fn(i) for i in [0, n) on at most `parallel` threads and waits for all.
void parallelFor(int n, int parallel, const std::function<void(int)> &fn)
{
    QThreadPool pool;
    pool.setMaxThreadCount(qMax(1, parallel));
    for (int i = 0; i < n; ++i)
        pool.start([&fn, i] { fn(i); });
    pool.waitForDone();
}

CheckResult transportCheck(
    const QString &node, Verdict v, const QString &reason, const CommandResult &r, const QByteArray &script)
{
    CheckResult c;
    c.node = node;
    c.kind = CheckKind::Reach;
    c.verdict = v;
    c.reason = reason;
    c.command = QString::fromUtf8(script);
    c.err = r.err;
    c.exitCode = r.started ? r.exitStatus : -1;
    return c;
}

// Judges every section of a suite from the node's output; returns how many sections completed.
int judgeAll(NodeReport &report, const QList<CheckSection> &sections, const CommandResult &result,
    const QByteArray &token, const JudgeContext &context)
{
    const QMap<QString, SectionOutput> outputs = splitSuiteOutput(result.out, token);
    int complete = 0;
    for (const CheckSection &s : sections) {
        CheckResult c = judgeSection(s, outputs.value(s.id), context);
        c.node = report.node;
        if (!outputs.contains(s.id))
            c.reason = result.timedOut ? QStringLiteral("not run: the node command timed out first")
                                       : QStringLiteral("not run: the node command ended first");
        complete += outputs.value(s.id).complete ? 1 : 0;
        report.checks.append(c);
    }
    return complete;
}

QString checkSeconds(std::chrono::milliseconds ms)
{
    return QString::number(ms.count() / 1000.0, 'f', ms.count() % 1000 ? 1 : 0) + u's';
}

} // namespace

QList<NodeCheckTarget> nodeCheckTargets(const Profile &profile, const QStringList &onlyNodes)
{
    QList<NodeCheckTarget> out;
    for (const Node &n : profile.nodes) {
        if (!onlyNodes.isEmpty() && !onlyNodes.contains(n.name))
            continue;
        NodeCheckTarget t;
        t.target = CommandTarget { n.name, n.address, n.ssh.port, n.ssh.user };
        t.target.transport = n.transport == NodeTransport::Ssh     ? CommandTarget::Transport::Ssh
                             : n.transport == NodeTransport::Local ? CommandTarget::Transport::Local
                                                                   : CommandTarget::Transport::Auto;
        const ContainerSpec container = profile.containerOf(n);
        t.containerTool = container.tool;
        t.containerName = container.name;
        t.generation = n.npuGeneration;
        t.deviceCount = n.npuCount > 0 ? n.npuCount : (n.npuGeneration == NpuGeneration::A3 ? 16 : 8);
        t.npuIps = n.npuIps;
        out.append(t);
    }
    return out;
}

NodeReport runLocalChecks(CommandRunner &runner, const NodeCheckTarget &target, const NodeCheckOptions &options)
{
    NodeReport report;
    report.node = target.target.node;
    report.host = target.target.host;
    report.generation = target.generation;
    report.deviceCount = target.deviceCount;
    const QList<CheckSection> sections = localSuite(target.generation, target.deviceCount, options.suite);
    const QByteArray token = newSuiteToken();
    const QByteArray script = suiteScript(sections, token, options.suite);
    QElapsedTimer clock;
    clock.start();
    const CommandResult r = runner.run(target.target, inContainer(target.containerTool, target.containerName, script), options.localTimeout);
    report.elapsedMs = clock.elapsed();
    if (!r.started) {
        report.transportError = r.error.isEmpty() ? QStringLiteral("the command did not start") : r.error;
        report.checks.append(transportCheck(
            report.node, Verdict::Fail, QStringLiteral("unreachable: ") + report.transportError, r, script));
        return report;
    }
    report.reachable = true;
    report.timedOut = r.timedOut;
    const JudgeContext context { target.generation, target.deviceCount, options.roceOptional };
    const int complete = judgeAll(report, sections, r, token, context);
    if (r.timedOut) {
        report.checks.prepend(transportCheck(report.node, Verdict::Warning,
            QStringLiteral("timed out after %1: %2 of %3 checks finished")
                .arg(checkSeconds(options.localTimeout))
                .arg(complete)
                .arg(sections.size()),
            r, script));
    } else if (complete == 0) {
        report.checks.prepend(transportCheck(report.node, Verdict::Fail,
            QStringLiteral("the node shell printed no check output (exit %1): %2")
                .arg(r.exitStatus)
                .arg(QString::fromUtf8(r.err.left(300)).trimmed()),
            r, script));
    } else {
        report.checks.prepend(transportCheck(
            report.node, Verdict::Pass, QStringLiteral("reached in %1 ms").arg(report.elapsedMs), r, script));
    }
    applyNodeRules(report);
    return report;
}

void runPingChecks(CommandRunner &runner, const NodeCheckTarget &target, const PingPlan &plan,
    const NodeCheckOptions &options, NodeReport &report)
{
    const CheckKind kind = target.generation == NpuGeneration::A3 ? CheckKind::HccsPing : CheckKind::Ping;
    auto note = [&](int device, Verdict v, const QString &why) {
        CheckResult c;
        c.node = report.node;
        c.device = device;
        c.kind = kind;
        c.verdict = v;
        c.reason = why;
        report.checks.append(c);
    };
    if (!plan.skipped.isEmpty()) {
        for (int d = 0; d < target.deviceCount; ++d)
            note(d, Verdict::Unknown, QStringLiteral("not run: ") + plan.skipped);
        return;
    }
    const QList<CheckSection> sections = pingSuite(target.generation, plan.peerIps);
    for (int d = 0; d < target.deviceCount; ++d) {
        if (plan.peerIps.value(d).isEmpty())
            note(d, Verdict::Unknown, QStringLiteral("not run: no NPU IP for %1 device %2").arg(plan.peerNode).arg(d));
    }
    const QByteArray token = newSuiteToken();
    const QByteArray script = suiteScript(sections, token, options.suite);
    const CommandResult r = runner.run(target.target, inContainer(target.containerTool, target.containerName, script), options.pingTimeout);
    if (!r.started) {
        for (const CheckSection &s : sections)
            note(s.device, Verdict::Unknown, QStringLiteral("not run: ") + r.error);
        return;
    }
    const JudgeContext context { target.generation, target.deviceCount, options.roceOptional };
    const qsizetype before = report.checks.size();
    judgeAll(report, sections, r, token, context);
    for (qsizetype i = before; i < report.checks.size(); ++i)
        report.checks[i].values.insert(QStringLiteral("peer_node"), plan.peerNode);
}

ClusterReport runNodeChecks(CommandRunner &runner, const QList<NodeCheckTarget> &targets,
    const NodeCheckOptions &options, const std::function<void(const NodeReport &)> &onNode,
    const std::atomic_bool *cancelled)
{
    ClusterReport cluster;
    cluster.started = QDateTime::currentDateTimeUtc();
    QList<NodeReport> reports(targets.size());
    QMutex notifyMutex;
    auto notify = [&](const NodeReport &r) {
        if (!onNode)
            return;
        QMutexLocker lock(&notifyMutex);
        onNode(r);
    };
    auto stop = [&] { return cancelled && cancelled->load(); };

    parallelFor(int(targets.size()), options.maxParallel, [&](int i) {
        if (stop())
            return;
        reports[i] = runLocalChecks(runner, targets.at(i), options);
        notify(reports.at(i));
    });
    if (options.pingPeers && !stop()) {
        const QList<PingPlan> plans = planPings(targets, reports);
        parallelFor(int(targets.size()), options.maxParallel, [&](int i) {
            if (stop() || !reports.at(i).reachable)
                return;
            runPingChecks(runner, targets.at(i), plans.at(i), options, reports[i]);
            notify(reports.at(i));
        });
    }
    for (qsizetype i = 0; i < reports.size(); ++i) {
        if (reports.at(i).node.isEmpty()) { // cancelled before it ran
            reports[i].node = targets.at(i).target.node;
            reports[i].host = targets.at(i).target.host;
            reports[i].generation = targets.at(i).generation;
            reports[i].deviceCount = targets.at(i).deviceCount;
        }
    }
    cluster.nodes = reports;
    applyClusterRules(cluster, options.tlsPolicy);
    cluster.finished = QDateTime::currentDateTimeUtc();
    return cluster;
}

} // namespace pd
