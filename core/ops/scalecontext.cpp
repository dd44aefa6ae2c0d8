// SPDX-License-Identifier: MIT
#include "ops/scalecontext.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"

namespace pd {

QString invalidProfileRefusal(const ScaleContext &context)
{
    if (context.settings.profileErrors <= 0)
        return {};
    return QStringLiteral("the profile has %1 validation error(s): fix them first (pdctl profile validate)").arg(context.settings.profileErrors);
}

int drainFinaliseWaitMs(const ScaleContext &context)
{
    if (context.settings.drainFinaliseWaitMs >= 0)
        return context.settings.drainFinaliseWaitMs;
    // Without the proxy restart as a way out, waiting is the only one: as long as any drain may take.
    if (!context.settings.restartProxyForDrains)
        return context.settings.idleTimeoutMs;
    // The proxy finalises drains at its listener's ticks: three chances for an idle moment.
    const int tick = context.membership ? context.membership->listenerTiming().intervalMs
                                        : context.plannedListenerTiming.intervalMs;
    return 3 * qMax(100, tick);
}

QString mutationRefusal(const ScaleContext &context)
{
    if (const QString invalid = invalidProfileRefusal(context); !invalid.isEmpty())
        return invalid;
    if (context.settings.readOnly)
        return QStringLiteral("read-only mode");
    if (context.audit && !context.audit->unacknowledgedFailure().isEmpty())
        return QStringLiteral("the audit log cannot be written (%1): acknowledge it before changing the cluster")
            .arg(context.audit->unacknowledgedFailure());
    return {};
}

void setScaleContextProfile(ScaleContext &context, const Profile &profile, const ProxyLaunchOptions &launch)
{
    context.groups = DpGroups(profile);
    context.engines = engineRefs(profile);
    ProxyListenerTiming planned;
    planned.intervalMs = int(profile.proxy.waitingRetryInterval * 1000);
    planned.maxRetries = profile.proxy.maxWaitingRetries;
    QString error;
    const QStringList args = proxyArguments(profile, launch, &error);
    if (profile.proxy.generation == ProxyGeneration::Main && !args.isEmpty()) {
        if (const auto fromPlan = listenerTimingFromArguments(args)) {
            planned = *fromPlan;
            planned.source = ProxyListenerTiming::Source::LaunchPlan;
        }
    }
    context.plannedListenerTiming = planned;
}

} // namespace pd
