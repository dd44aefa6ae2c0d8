// SPDX-License-Identifier: MIT
#include "nodecheck/checksummary.h"

namespace pd {

NodeCheckSummary summarizeNodeChecks(const NodeReport &report)
{
    NodeCheckSummary s;
    if (!report.reachable) {
        s.failures.append(QStringLiteral("checks did not run: %1").arg(report.transportError));
        return s;
    }
    for (const CheckResult &c : report.checks) {
        if (c.verdict != Verdict::Fail && c.verdict != Verdict::Warning)
            continue;
        const QString line = c.device >= 0 ? QStringLiteral("NPU %1 %2: %3").arg(c.device).arg(checkKindName(c.kind), c.reason)
                                           : QStringLiteral("%1: %2").arg(checkKindName(c.kind), c.reason);
        (c.verdict == Verdict::Fail ? s.failures : s.warnings).append(line);
    }
    return s;
}

} // namespace pd
