// SPDX-License-Identifier: MIT
#include "nodecheck/clusterrules.h"

#include "nodecheck/checkparsers.h"

#include <QHash>

namespace pd {

namespace {

QString deviceIp(const NodeReport &node, int device)
{
    for (CheckKind kind : { CheckKind::Ip, CheckKind::Vnic }) {
        if (const CheckResult *c = node.find(kind, device))
            return c->values.value(QStringLiteral("ip"));
    }
    return {};
}

void demote(CheckResult &c, Verdict v, const QString &why)
{
    c.verdict = worse(c.verdict, v);
    c.reason = c.reason.isEmpty() ? why : c.reason + QStringLiteral("; ") + why;
}

} // namespace

void applyNodeRules(NodeReport &node)
{
    const CheckResult *file = node.find(CheckKind::HccnConf, -1);
    if (!file || file->exitCode != 0)
        return;
    const auto conf = parseHccnConf(file->out);
    if (conf.isEmpty())
        return;
    const QString confCommand = file->command;
    for (int d = 0; d < node.deviceCount; ++d) {
        CheckResult r;
        r.node = node.node;
        r.device = d;
        r.kind = CheckKind::HccnConf;
        r.command = confCommand;
        r.exitCode = 0;
        const auto entry = conf.value(d);
        if (entry.isEmpty()) {
            r.verdict = Verdict::Warning;
            r.reason = QStringLiteral("no address_%1 entries in hccn.conf").arg(d);
            node.checks.append(r);
            continue;
        }
        QStringList diffs;
        auto compare = [&](const QString &key, CheckKind kind, const QString &valueKey) {
            const CheckResult *live = node.find(kind, d);
            const QString want = entry.value(key);
            if (!live || want.isEmpty())
                return;
            const QString got = live->values.value(valueKey);
            if (!got.isEmpty() && got != want)
                diffs.append(QStringLiteral("%1_%2=%3 but the device reports %4").arg(key).arg(d).arg(want, got));
        };
        if (node.generation == NpuGeneration::A2)
            compare(QStringLiteral("address"), CheckKind::Ip, QStringLiteral("ip"));
        compare(QStringLiteral("gateway"), CheckKind::Gateway, QStringLiteral("gateway"));
        compare(QStringLiteral("netdetect"), CheckKind::NetDetect, QStringLiteral("netdetect"));
        for (auto it = entry.begin(); it != entry.end(); ++it)
            r.values.insert(it.key(), it.value());
        r.verdict = diffs.isEmpty() ? Verdict::Pass : Verdict::Fail;
        r.reason
            = diffs.isEmpty() ? QStringLiteral("hccn.conf agrees with the device") : diffs.join(QStringLiteral("; "));
        node.checks.append(r);
    }
}

void applyClusterRules(ClusterReport &report, TlsPolicy policy)
{
    // TLS: count switches over every device that reported one.
    int on = 0;
    int off = 0;
    for (const NodeReport &n : report.nodes) {
        for (const CheckResult &c : n.checks) {
            if (c.kind != CheckKind::Tls || !c.values.contains(QStringLiteral("tls_switch")))
                continue;
            (c.values.value(QStringLiteral("tls_switch")) == QLatin1String("0") ? off : on) += 1;
        }
    }
    const QString expected = policy == TlsPolicy::AllOff || off >= on ? QStringLiteral("0") : QStringLiteral("1");
    for (NodeReport &n : report.nodes) {
        for (CheckResult &c : n.checks) {
            if (c.kind != CheckKind::Tls || !c.values.contains(QStringLiteral("tls_switch")))
                continue;
            const QString v = c.values.value(QStringLiteral("tls_switch"));
            c.values.insert(QStringLiteral("tls_expected"), expected);
            if (v == expected)
                continue;
            demote(c, Verdict::Fail,
                policy == TlsPolicy::AllOff && on + off > 0 && off == 0
                    ? QStringLiteral("TLS must be disabled on every device (policy)")
                    : QStringLiteral("differs from the cluster (%1 devices disabled, %2 enabled): TLS-on and TLS-off "
                                     "devices cannot link; "
                                     "hccn_tool -i %3 -tls -s enable %4")
                          .arg(off)
                          .arg(on)
                          .arg(c.device)
                          .arg(expected));
        }
    }

    // Duplicate device IPs across the cluster.
    QHash<QString, QStringList> owners;
    for (const NodeReport &n : report.nodes) {
        for (const CheckResult &c : n.checks) {
            if ((c.kind == CheckKind::Ip || c.kind == CheckKind::Vnic)
                && !c.values.value(QStringLiteral("ip")).isEmpty())
                owners[c.values.value(QStringLiteral("ip"))].append(QStringLiteral("%1/%2").arg(n.node).arg(c.device));
        }
    }
    for (NodeReport &n : report.nodes) {
        for (CheckResult &c : n.checks) {
            if (c.kind != CheckKind::Ip && c.kind != CheckKind::Vnic)
                continue;
            const QStringList o = owners.value(c.values.value(QStringLiteral("ip")));
            if (o.size() > 1)
                demote(c, Verdict::Fail, QStringLiteral("address also used by ") + o.join(QStringLiteral(", ")));
        }
    }

    // A3 super pods: SDID unique within a super pod; one Server Index per node.
    QHash<QString, QStringList> sdids; // "pod/sdid" -> devices
    for (const NodeReport &n : report.nodes) {
        for (const CheckResult &c : n.checks) {
            if (c.kind == CheckKind::SpodInfo && c.values.contains(QStringLiteral("sdid")))
                sdids[c.values.value(QStringLiteral("superpodid")) + u'/' + c.values.value(QStringLiteral("sdid"))]
                    .append(QStringLiteral("%1/%2").arg(n.node).arg(c.device));
        }
    }
    for (NodeReport &n : report.nodes) {
        QHash<QString, int> serverIndex;
        for (const CheckResult &c : n.checks) {
            if (c.kind == CheckKind::SpodInfo && c.values.contains(QStringLiteral("serverindex")))
                serverIndex[c.values.value(QStringLiteral("serverindex"))] += 1;
        }
        QString majority;
        int best = -1;
        for (auto it = serverIndex.begin(); it != serverIndex.end(); ++it) {
            if (it.value() > best) {
                best = it.value();
                majority = it.key();
            }
        }
        for (CheckResult &c : n.checks) {
            if (c.kind != CheckKind::SpodInfo || !c.values.contains(QStringLiteral("sdid")))
                continue;
            const QStringList same = sdids.value(
                c.values.value(QStringLiteral("superpodid")) + u'/' + c.values.value(QStringLiteral("sdid")));
            if (same.size() > 1)
                demote(c, Verdict::Fail,
                    QStringLiteral("duplicate SDID in super pod (also ") + same.join(QStringLiteral(", ")) + u')');
            if (c.values.value(QStringLiteral("serverindex")) != majority)
                demote(c, Verdict::Warning,
                    QStringLiteral("Server Index differs from the node's other devices (%1)").arg(majority));
        }
    }
}

QList<PingPlan> planPings(const QList<NodeCheckTarget> &targets, const QList<NodeReport> &localReports)
{
    QList<PingPlan> plans;
    for (int i = 0; i < targets.size(); ++i) {
        PingPlan plan;
        // The next node of the same generation whose device IPs are known (profile or read from it);
        // a node that did not answer and has no profile IPs is skipped, not pinged blindly.
        int peer = -1;
        int sameGeneration = -1;
        for (int k = 1; k < targets.size(); ++k) {
            const int j = (i + k) % targets.size();
            if (targets.at(j).generation != targets.at(i).generation)
                continue;
            if (sameGeneration < 0)
                sameGeneration = j;
            bool known = false;
            for (int d = 0; d < targets.at(j).deviceCount && !known; ++d)
                known = !targets.at(j).npuIps.value(d).isEmpty()
                    || (j < localReports.size() && !deviceIp(localReports.at(j), d).isEmpty());
            if (known) {
                peer = j;
                break;
            }
        }
        if (peer < 0 && sameGeneration >= 0)
            peer = sameGeneration; // reports below why nothing can be pinged
        if (peer < 0) {
            plan.skipped = QStringLiteral("no other %1 node to ping").arg(generationName(targets.at(i).generation));
            plans.append(plan);
            continue;
        }
        plan.peerNode = targets.at(peer).target.node;
        const int devices = qMin(targets.at(i).deviceCount, targets.at(peer).deviceCount);
        int found = 0;
        for (int d = 0; d < devices; ++d) {
            QString ip = targets.at(peer).npuIps.value(d);
            if (ip.isEmpty() && peer < localReports.size())
                ip = deviceIp(localReports.at(peer), d);
            plan.peerIps.append(ip);
            found += ip.isEmpty() ? 0 : 1;
        }
        if (found == 0)
            plan.skipped = QStringLiteral("no NPU IPs known for %1 (profile or -ip/-vnic)").arg(plan.peerNode);
        plans.append(plan);
    }
    return plans;
}

} // namespace pd
