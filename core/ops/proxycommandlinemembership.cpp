// SPDX-License-Identifier: MIT
#include "ops/proxycommandlinemembership.h"

#include "cluster/profileimporter.h"
#include "exec/shellarg.h"
#include "net/membershipreconciler.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"

#include <QPointer>

namespace pd {

std::optional<ProxyLists> proxyListsFromArguments(const QStringList &argv, QString *problem)
{
    QStringList quoted;
    for (const QString &word : argv)
        quoted << QString::fromUtf8(shellArg(word));
    ProxyCommandLine parsed;
    QStringList errors, warnings;
    if (!parseProxyCommandLine(quoted.join(QLatin1Char(' ')), &parsed, &errors, &warnings)) {
        *problem = errors.join(QStringLiteral("; "));
        return std::nullopt;
    }
    return ProxyLists{parsed.prefillInstances, parsed.decodeInstances};
}

void syncCommandLineMembership(ScaleContext &context, std::function<void(const QString &)> done)
{
    if (!context.proxy || !context.control || !context.membership) {
        if (done)
            done(QStringLiteral("no proxy client, engine control or membership table"));
        return;
    }
    ScaleContext *ctx = &context;
    QPointer<MembershipReconciler> guard(context.membership);
    context.proxy->currentCapabilities([ctx, guard, done](const ProxyCapabilities &caps) {
        if (!guard)
            return;
        // Only a proxy that showed it has no /instances API, and that the profile does not call main.
        if (!caps.scalesByRestart()) {
            ctx->commandLineMembership.reset();
            if (done)
                done(caps.reachable ? QString() : QStringLiteral("the proxy does not answer: %1").arg(caps.error));
            return;
        }
        ctx->control->proxyCommandLine([ctx, guard, done](std::optional<QStringList> argv, const QString &error) {
            if (!guard)
                return;
            QString why = error;
            if (argv) {
                if (const auto lists = proxyListsFromArguments(*argv, &why)) {
                    ctx->commandLineMembership = *lists;
                    guard->applyCommandLineLists(*lists);
                    if (done)
                        done(QString());
                    return;
                }
                why = QStringLiteral("the running proxy's command line: %1").arg(why);
            }
            ctx->commandLineMembership.reset();
            if (done)
                done(why);
        });
    });
}

} // namespace pd
