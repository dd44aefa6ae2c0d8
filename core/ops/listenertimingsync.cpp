// SPDX-License-Identifier: MIT
#include "ops/listenertimingsync.h"

#include "net/membershipreconciler.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"

#include <QPointer>

namespace pd {

void syncListenerTiming(ScaleContext &context, std::function<void(const QString &)> done)
{
    MembershipReconciler *table = context.membership;
    if (!table || !context.control) {
        if (done)
            done(QStringLiteral("no membership table or engine control"));
        return;
    }
    const int margin = context.settings.listedMarginMs;
    QPointer<MembershipReconciler> guard(table);
    const ProxyListenerTiming planned = context.plannedListenerTiming;
    context.control->proxyCommandLine([guard, margin, planned, done](std::optional<QStringList> argv, const QString &error) {
        if (!guard)
            return;
        QString why = error;
        if (argv) {
            QString problem;
            if (auto timing = listenerTimingFromArguments(*argv, &problem)) {
                timing->source = ProxyListenerTiming::Source::RunningProxy;
                timing->readAt = QDateTime::currentDateTimeUtc();
                guard->setListenerTiming(*timing, margin);
                if (done)
                    done(QString());
                return;
            }
            why = QStringLiteral("the running proxy's command line: %1").arg(problem);
        }
        // A timing read from the running proxy earlier (journal) stays the better guess while its
        // command line cannot be read now; otherwise the plan.
        if (guard->listenerTiming().source != ProxyListenerTiming::Source::RunningProxy)
            guard->setListenerTiming(planned, margin);
        if (done)
            done(why);
    });
}

} // namespace pd
