// SPDX-License-Identifier: MIT
#include "nodecheck/checktypes.h"

#include <QCoreApplication>

namespace pd {

QString verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass:
        return QStringLiteral("pass");
    case Verdict::Unknown:
        return QStringLiteral("unknown");
    case Verdict::Warning:
        return QStringLiteral("warning");
    case Verdict::Fail:
        return QStringLiteral("fail");
    }
    return QStringLiteral("unknown");
}

QString verdictLabel(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass:
        return QCoreApplication::translate("pd::NodeCheck", "pass", "check verdict");
    case Verdict::Unknown:
        return QCoreApplication::translate("pd::NodeCheck", "unknown", "check verdict");
    case Verdict::Warning:
        return QCoreApplication::translate("pd::NodeCheck", "warning", "check verdict");
    case Verdict::Fail:
        return QCoreApplication::translate("pd::NodeCheck", "fail", "check verdict");
    }
    return QCoreApplication::translate("pd::NodeCheck", "unknown", "check verdict");
}

QString checkKindName(CheckKind kind)
{
    switch (kind) {
    case CheckKind::Reach:
        return QStringLiteral("reach");
    case CheckKind::Tools:
        return QStringLiteral("tools");
    case CheckKind::NpuTable:
        return QStringLiteral("npu_smi");
    case CheckKind::HccnConf:
        return QStringLiteral("hccn_conf");
    case CheckKind::Lldp:
        return QStringLiteral("lldp");
    case CheckKind::Link:
        return QStringLiteral("link");
    case CheckKind::NetHealth:
        return QStringLiteral("net_health");
    case CheckKind::NetDetect:
        return QStringLiteral("netdetect");
    case CheckKind::Gateway:
        return QStringLiteral("gateway");
    case CheckKind::Ip:
        return QStringLiteral("ip");
    case CheckKind::Vnic:
        return QStringLiteral("vnic");
    case CheckKind::Tls:
        return QStringLiteral("tls");
    case CheckKind::NpuHealth:
        return QStringLiteral("health");
    case CheckKind::SpodInfo:
        return QStringLiteral("spod_info");
    case CheckKind::Ping:
        return QStringLiteral("ping");
    case CheckKind::HccsPing:
        return QStringLiteral("hccs_ping");
    }
    return QStringLiteral("unknown");
}

Verdict worse(Verdict a, Verdict b)
{
    return int(a) >= int(b) ? a : b;
}

Verdict NodeReport::cellVerdict(int device) const
{
    Verdict v = Verdict::Pass;
    bool any = false;
    for (const CheckResult &c : checks) {
        if (c.device != device)
            continue;
        any = true;
        v = worse(v, c.verdict);
    }
    return any ? v : Verdict::Unknown;
}

QList<CheckResult> NodeReport::cellChecks(int device) const
{
    QList<CheckResult> out;
    for (const CheckResult &c : checks) {
        if (c.device == device)
            out.append(c);
    }
    return out;
}

const CheckResult *NodeReport::find(CheckKind kind, int device) const
{
    for (const CheckResult &c : checks) {
        if (c.kind == kind && c.device == device)
            return &c;
    }
    return nullptr;
}

CheckResult *NodeReport::find(CheckKind kind, int device)
{
    for (CheckResult &c : checks) {
        if (c.kind == kind && c.device == device)
            return &c;
    }
    return nullptr;
}

int ClusterReport::count(Verdict verdict) const
{
    int n = 0;
    for (const NodeReport &node : nodes) {
        for (const CheckResult &c : node.checks)
            n += c.verdict == verdict ? 1 : 0;
    }
    return n;
}

} // namespace pd
