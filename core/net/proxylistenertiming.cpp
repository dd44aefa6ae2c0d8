// SPDX-License-Identifier: MIT
#include "net/proxylistenertiming.h"

#include <cmath>

namespace pd {

namespace {

constexpr char kRetries[] = "--max-waiting-retries";
constexpr char kInterval[] = "--waiting-retry-interval";

// The value of `name` in argv (last one wins, as argparse does); nullopt when absent.
std::optional<QString> valueOf(const QStringList &argv, const QString &name, bool *dangling)
{
    std::optional<QString> value;
    const QString withEquals = name + QLatin1Char('=');
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &a = argv.at(i);
        if (a == name) {
            if (i + 1 >= argv.size()) {
                *dangling = true;
                return std::nullopt;
            }
            value = argv.at(++i);
        } else if (a.startsWith(withEquals)) {
            value = a.mid(withEquals.size());
        }
    }
    return value;
}

} // namespace

QString ProxyListenerTiming::describe() const
{
    const QString window = QStringLiteral("%1 s x (%2 + 1)").arg(intervalMs / 1000.0).arg(maxRetries);
    switch (source) {
    case Source::RunningProxy: return window + QStringLiteral(" from the running proxy's command line");
    case Source::LaunchPlan: return window + QStringLiteral(" from the arguments the console starts the proxy with");
    case Source::Profile: break;
    }
    return window + QStringLiteral(" from the profile (the running proxy's command line is unknown)");
}

QString listenerTimingSourceName(ProxyListenerTiming::Source source)
{
    switch (source) {
    case ProxyListenerTiming::Source::RunningProxy: return QStringLiteral("running-proxy");
    case ProxyListenerTiming::Source::LaunchPlan: return QStringLiteral("launch-plan");
    case ProxyListenerTiming::Source::Profile: break;
    }
    return QStringLiteral("profile");
}

std::optional<ProxyListenerTiming::Source> listenerTimingSourceFromName(const QString &name)
{
    for (auto s : {ProxyListenerTiming::Source::Profile, ProxyListenerTiming::Source::LaunchPlan,
                   ProxyListenerTiming::Source::RunningProxy})
        if (listenerTimingSourceName(s) == name)
            return s;
    return std::nullopt;
}

std::optional<ProxyListenerTiming> listenerTimingFromArguments(const QStringList &argv, QString *error)
{
    auto refuse = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    ProxyListenerTiming t;
    bool dangling = false;
    if (const auto retries = valueOf(argv, QLatin1String(kRetries), &dangling)) {
        bool ok = false;
        const int n = retries->toInt(&ok);
        if (!ok || n < 0 || n > 1000000)
            return refuse(QStringLiteral("%1 %2: not a count of retries").arg(QLatin1String(kRetries), retries->left(40)));
        t.maxRetries = n;
    }
    if (const auto interval = valueOf(argv, QLatin1String(kInterval), &dangling)) {
        bool ok = false;
        const double s = interval->toDouble(&ok);
        if (!ok || !std::isfinite(s) || s <= 0 || s > 86400)
            return refuse(QStringLiteral("%1 %2: not an interval in seconds").arg(QLatin1String(kInterval), interval->left(40)));
        t.intervalMs = int(std::lround(s * 1000));
    }
    if (dangling)
        return refuse(QStringLiteral("%1 or %2 without a value").arg(QLatin1String(kRetries), QLatin1String(kInterval)));
    return t;
}

} // namespace pd
