// SPDX-License-Identifier: MIT
#include "statussummary.h"

#include "cluster/clusterstore.h"
#include "cluster/fieldrules.h"
#include "cluster/profileformat.h"
#include "net/proxyhealth.h"
#include "ops/canaryhistory.h"
#include "state/statetracker.h"
#include "stateappearance.h"
#include "triage/findproblems.h"

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

StatusSummary::Headline StatusSummary::headline(
    const ClusterStore &store, const StateTracker &tracker, const CanaryStatus &canary)
{
    Headline h;
    const QList<Engine> &engines = store.engines();
    for (int i = 0; i < tracker.engineCount() && i < engines.size(); ++i) {
        const EngineFacts &facts = tracker.facts(i);
        const bool listed = facts.membership == MembershipFact::Active || facts.membership == MembershipFact::Waiting
            || facts.membership == MembershipFact::Draining;
        const bool expected = listed && facts.intent == OperatorIntent::None;
        const bool serving = tracker.state(i) == EngineState::Serving;
        const bool prefill = engines.at(i).role == Role::Prefill;
        int &want = prefill ? h.prefillExpected : h.decodeExpected;
        int &have = prefill ? h.prefillServing : h.decodeServing;
        want += expected;
        have += serving;
    }
    h.canary = canary.enabled;
    h.canaryWindow = canary.window;
    h.canaryFailed = canary.failed;
    h.clientsFailing = canary.enabled && canary.consecutiveFailures >= kCanaryFailuresToRaise;
    return h;
}

QString StatusSummary::proxyHtml(const ClusterStore &store, const ProxyHealth &health, const Headline &h)
{
    const QString where = store.hasProfile()
        ? QStringLiteral("%1:%2").arg(store.profile().proxy.address).arg(store.profile().proxy.port)
        : QString();
    if (!health.reachable)
        return severityHtml(ProblemSeverity::Critical, QStringLiteral("✖ ") + tr("proxy %1 unreachable").arg(where));
    const auto pool = [](const QString &name, int serving, int expected) {
        const QString text = tr("%1 %2/%3").arg(name).arg(serving).arg(expected);
        return serving < expected ? severityHtml(ProblemSeverity::Warning, QStringLiteral("<b>%1</b>").arg(text))
                                  : text;
    };
    QStringList parts;
    parts << tr("proxy %1").arg(where);
    parts << pool(tr("prefill"), h.prefillServing, h.prefillExpected) + QStringLiteral(" · ")
            + pool(tr("decode"), h.decodeServing, h.decodeExpected) + tr(" serving");
    if (h.canary && h.canaryWindow > 0) {
        const int ok = int(100.0 * (h.canaryWindow - h.canaryFailed) / h.canaryWindow + 0.5);
        const QString clients = tr("clients %1 % ok").arg(ok);
        parts << (h.clientsFailing   ? severityHtml(ProblemSeverity::Critical, QStringLiteral("<b>%1</b>").arg(clients))
                : h.canaryFailed > 0 ? severityHtml(ProblemSeverity::Warning, clients)
                                     : clients);
    }
    if (health.requestNum)
        parts << tr("%n in flight", nullptr, *health.requestNum);
    const bool lost = h.prefillServing < h.prefillExpected || h.decodeServing < h.decodeExpected;
    const QString mark = h.clientsFailing ? severityHtml(ProblemSeverity::Critical, QStringLiteral("✖"))
        : lost                            ? severityHtml(ProblemSeverity::Warning, QStringLiteral("▲"))
                                          : healthyHtml(QStringLiteral("●"));
    return mark + QLatin1Char(' ') + parts.join(QStringLiteral(" · "));
}

QString StatusSummary::proxyToolTip(const ProxyHealth &health)
{
    const QString when = health.when.toLocalTime().toString(Qt::ISODate);
    return health.reachable ? tr("Last /healthcheck at %1").arg(when) : tr("%1 (at %2)").arg(health.error, when);
}

} // namespace pd
