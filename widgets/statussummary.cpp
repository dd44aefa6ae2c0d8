// SPDX-License-Identifier: MIT
#include "statussummary.h"

#include "cluster/clusterstore.h"
#include "cluster/fieldrules.h"
#include "cluster/profileformat.h"
#include "net/proxyhealth.h"
#include "stateappearance.h"

namespace pd {

QString StatusSummary::profile(const ClusterStore &store)
{
    if (!store.hasProfile())
        return tr("No cluster open — File ▸ Open Profile…");
    const Profile &profile = store.profile();
    const int prefill = int(profile.engines(Role::Prefill).size());
    const int decode = int(profile.engines(Role::Decode).size());
    QString text = tr("%1 · %2 nodes · %3 engines (%4 prefill, %5 decode) · proxy %6:%7 (%8) · launcher %9")
                       .arg(profile.name)
                       .arg(profile.nodes.size())
                       .arg(prefill + decode)
                       .arg(prefill)
                       .arg(decode)
                       .arg(profile.proxy.address)
                       .arg(profile.proxy.port)
                       .arg(proxyGenerationName(profile.proxy.generation), flavorName(profile.launchFlavor));
    // Which variable the bearer token comes from (and whether it is set): the console sends its value to
    // the proxy and the engines, so the operator sees which one it is.
    if (!profile.proxy.apiKeyEnv.isEmpty()) {
        const QString name = profile.proxy.apiKeyEnv;
        const QString state = !fieldrules::checkApiKeyEnvName(name).isEmpty() ? tr("refused: not a key or token name")
            : qEnvironmentVariableIsEmpty(name.toLocal8Bit().constData())     ? tr("not set")
                                                                              : tr("set");
        text += tr(" · API key from $%1 (%2)").arg(name, state);
    }
    return text;
}

QString StatusSummary::validationHtml(const ClusterStore &store)
{
    if (!store.hasProfile())
        return {};
    const int errors = store.errorCount();
    const int warnings = store.warningCount();
    if (errors == 0)
        return tr("profile valid, %n warning(s)", nullptr, warnings);
    return severityHtml(ProblemSeverity::Critical, QStringLiteral("<b>%1</b>").arg(tr("%n error(s)", nullptr, errors)))
        + tr(", %n warning(s)", nullptr, warnings);
}

QString StatusSummary::proxyHtml(const ClusterStore &store, const ProxyHealth &health)
{
    const QString where = store.hasProfile()
        ? QStringLiteral("%1:%2").arg(store.profile().proxy.address).arg(store.profile().proxy.port)
        : QString();
    if (!health.reachable)
        return severityHtml(ProblemSeverity::Critical, QStringLiteral("✖ ") + tr("proxy %1 unreachable").arg(where));
    const QString inFlight = health.requestNum ? tr(" · %n in flight", nullptr, *health.requestNum) : QString();
    return healthyHtml(QStringLiteral("●")) + QLatin1Char(' ')
        + tr("proxy %1: %2 prefill · %3 decode%4")
              .arg(where)
              .arg(health.prefillInstances)
              .arg(health.decodeInstances)
              .arg(inFlight);
}

QString StatusSummary::proxyToolTip(const ProxyHealth &health)
{
    const QString when = health.when.toLocalTime().toString(Qt::ISODate);
    return health.reachable ? tr("Last /healthcheck at %1").arg(when) : tr("%1 (at %2)").arg(health.error, when);
}

} // namespace pd
