// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <optional>

// How long a main-line proxy keeps an added instance WAITING before it drops it: its NodeListener probes
// every --waiting-retry-interval seconds and gives up after --max-waiting-retries failures (spec
// proxy-api §4, §13.3). The console must judge WAITING by the values the running proxy was started
// with, not by the profile's (the console starts the proxy with more retries than the profile names,
// and an operator may have started it by hand): removing an instance the proxy still holds as WAITING
// can kill the proxy's listener for good (§8.1).
namespace pd {

struct ProxyListenerTiming {
    enum class Source {
        Profile,       // the profile's values: nothing better is known
        LaunchPlan,    // the arguments this console starts the proxy with
        RunningProxy,  // the running proxy's own command line
    };
    int intervalMs = 10000;
    int maxRetries = 3;
    Source source = Source::Profile;
    QDateTime readAt;  // when the source was read (UTC); invalid for Profile

    // interval x (retries + 1): after this a never-activated add is gone from the proxy's waiting list.
    qint64 waitingWindowMs() const { return qint64(intervalMs) * (maxRetries + 1); }
    // "10 s x (3 + 1) from the running proxy's command line"
    QString describe() const;
    bool operator==(const ProxyListenerTiming &o) const
    {
        return intervalMs == o.intervalMs && maxRetries == o.maxRetries && source == o.source;
    }
};

QString listenerTimingSourceName(ProxyListenerTiming::Source source); // "profile" | "launch-plan" | "running-proxy"
std::optional<ProxyListenerTiming::Source> listenerTimingSourceFromName(const QString &name);

// The timing a proxy started with `argv` runs with: --max-waiting-retries N and
// --waiting-retry-interval S (also in the --name=value form) anywhere in the command line, the proxy's
// defaults (3, 10 s) for what is absent. nullopt with *error when a value is not a number or out of
// range (a command line that is not a proxy's is the caller's to judge).
std::optional<ProxyListenerTiming> listenerTimingFromArguments(const QStringList &argv, QString *error = nullptr);

} // namespace pd
