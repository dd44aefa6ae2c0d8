// SPDX-License-Identifier: MIT
#include "nodecheck/checktypes.h"

#include <QCoreApplication>

namespace pd {

QString verdictName(Verdict verdict)
{
    static constexpr const char *names[] = { "pass", "unknown", "warning", "fail" };
    return enumName(verdict, names, "unknown");
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
    static constexpr const char *names[] = { "reach", "tools", "npu_smi", "hccn_conf", "lldp", "link", "net_health",
        "netdetect", "gateway", "ip", "vnic", "tls", "health", "spod_info", "ping", "hccs_ping" };
    return enumName(kind, names, "unknown");
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
