// SPDX-License-Identifier: MIT
#include "state/derivestate.h"

namespace pd {

namespace {

QString ago(std::int64_t atMs, std::int64_t nowMs)
{
    if (atMs <= 0)
        return QStringLiteral("never");
    return QStringLiteral("%1 ago").arg(formatAge(nowMs - atMs));
}

QString number(double v)
{
    return QString::number(v, 'f', 0);
}

// The evidence lines every derivation carries: what each fact says and how old it is.
QStringList evidenceOf(const EngineFacts &f, std::int64_t nowMs, const StateThresholds &t)
{
    QStringList lines;
    if (f.process != ProcessFact::Unknown)
        lines.append(QStringLiteral("process %1%2 (%3)")
                         .arg(processFactName(f.process),
                             f.processDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.processDetail,
                             ago(f.processAtMs, nowMs)));
    if (f.http == HttpFact::Ok)
        lines.append(QStringLiteral("/metrics ok (%1)").arg(ago(f.httpAtMs, nowMs)));
    else if (f.http != HttpFact::Unknown)
        lines.append(QStringLiteral("/metrics %1 × %2 since %3: %4")
                         .arg(httpFactName(f.http))
                         .arg(f.consecutiveFailures)
                         .arg(ago(f.failingSinceMs, nowMs), f.httpError));
    if (f.http != HttpFact::Ok && f.lastOkMs > 0)
        lines.append(QStringLiteral("last good /metrics %1").arg(ago(f.lastOkMs, nowMs)));
    if (f.healthStatus != 0)
        lines.append(QStringLiteral("/health %1 (%2)").arg(f.healthStatus).arg(ago(f.healthAtMs, nowMs)));
    if (f.modelsKnown)
        lines.append(
            QStringLiteral("/v1/models %1 (%2)")
                .arg(f.modelsReady ? QStringLiteral("ready") : QStringLiteral("not ready"), ago(f.modelsAtMs, nowMs)));
    if (f.hasCounters)
        lines.append(
            QStringLiteral("running %1, waiting %2; counters generation %3, prompt %4, success %5; %6")
                .arg(number(f.running), number(f.waiting), number(f.counters.generationTokens),
                    number(f.counters.promptTokens), number(f.counters.requestSuccess),
                    f.frozenPolls > 0
                        ? QStringLiteral("frozen for %1 polls (stall at %2)").arg(f.frozenPolls).arg(t.stallPolls)
                        : QStringLiteral("moved %1").arg(ago(f.lastProgressMs, nowMs))));
    if (f.membership != MembershipFact::Unknown)
        lines.append(QStringLiteral("proxy membership %1%2 (%3)")
                         .arg(membershipFactName(f.membership),
                             f.membershipDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.membershipDetail,
                             ago(f.membershipAtMs, nowMs)));
    if (f.http != HttpFact::Unknown)
        lines.append(QStringLiteral("metrics %1").arg(freshnessFactName(freshnessOf(f, t))));
    return lines;
}

bool outOfProxy(MembershipFact m)
{
    return m == MembershipFact::Configured || m == MembershipFact::Gone || m == MembershipFact::Dropped;
}

} // namespace

QString formatAge(std::int64_t ms)
{
    if (ms < 0)
        ms = 0;
    const std::int64_t s = ms / 1000;
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1 min").arg(s / 60);
    if (s < 86400)
        return (s / 60) % 60 ? QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s / 60) % 60)
                             : QStringLiteral("%1 h").arg(s / 3600);
    return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s / 3600) % 24);
}

bool isFailureState(EngineState state)
{
    return state == EngineState::Stalled || state == EngineState::Unhealthy || state == EngineState::Unreachable;
}

DerivedState deriveState(const EngineFacts &f, std::int64_t nowMs, const StateThresholds &t, DeriveDetail detail)
{
    // The words are only built when asked for: a poll round derives every engine, views read a few.
    const bool full = detail == DeriveDetail::Full;
    auto make = [&](EngineState state, auto reason) {
        DerivedState d;
        d.state = state;
        if (full) {
            d.reason = reason();
            d.evidence = evidenceOf(f, nowMs, t);
        }
        return d;
    };
    // SSH saw the process gone, and HTTP has not answered since: stopped.
    if (f.process == ProcessFact::Exited && !(f.http == HttpFact::Ok && f.httpAtMs > f.processAtMs))
        return make(EngineState::Stopped, [&] { return QStringLiteral("the process exited"); });
    if (f.http == HttpFact::Unknown) {
        if (f.process == ProcessFact::Running)
            return make(EngineState::Starting, [&] { return QStringLiteral("process running, not polled yet"); });
        return make(EngineState::Unknown, [&] { return QStringLiteral("not observed yet"); });
    }

    const bool failing = f.http != HttpFact::Ok && f.consecutiveFailures >= t.stalePolls;
    if (failing) {
        const QString polls = QStringLiteral("%1 polls in a row").arg(f.consecutiveFailures);
        switch (f.http) {
        case HttpFact::Refused:
            if (f.process == ProcessFact::Running)
                return make(EngineState::Starting,
                    [&] { return QStringLiteral("process running, port not open yet (loading weights?)"); });
            if (f.lastOkMs == 0)
                return make(EngineState::Stopped,
                    [&] { return QStringLiteral("nothing listens on its port; it never answered"); });
            if (outOfProxy(f.membership))
                return make(EngineState::Stopped,
                    [&] { return QStringLiteral("out of the proxy and nothing listens on its port"); });
            return make(EngineState::Unreachable, [&] {
                return QStringLiteral("connection refused %1 (answered %2)").arg(polls, ago(f.lastOkMs, nowMs));
            });
        case HttpFact::Timeout:
            return make(EngineState::Unreachable, [&] { return QStringLiteral("no answer in time, %1").arg(polls); });
        case HttpFact::Failed:
            return make(EngineState::Unreachable, [&] { return QStringLiteral("%1, %2").arg(f.httpError, polls); });
        case HttpFact::ServerError:
            return make(EngineState::Unhealthy,
                [&] { return QStringLiteral("/metrics answers HTTP %1, %2").arg(f.httpStatus).arg(polls); });
        case HttpFact::ClientError:
            return make(EngineState::Unhealthy,
                [&] { return QStringLiteral("/metrics answers HTTP %1, %2").arg(f.httpStatus).arg(polls); });
        case HttpFact::Malformed:
            return make(
                EngineState::Unhealthy, [&] { return QStringLiteral("/metrics does not parse, %1").arg(polls); });
        case HttpFact::Ok:
        case HttpFact::Unknown:
            break;
        }
    }

    if (f.healthStatus >= 500)
        return make(EngineState::Unhealthy, [&] { return QStringLiteral("/health answers %1").arg(f.healthStatus); });

    // Below the failure threshold the last good picture stands; without one there is none yet.
    if (f.lastOkMs == 0) {
        if (f.process == ProcessFact::Running)
            return make(EngineState::Starting, [&] { return QStringLiteral("process running, not answering yet"); });
        return make(EngineState::Unknown, [&] { return QStringLiteral("no good poll yet"); });
    }
    if (f.modelsKnown && !f.modelsReady)
        return make(EngineState::Starting, [&] { return QStringLiteral("/v1/models not ready"); });

    if (f.running > 0 && f.frozenPolls >= t.stallPolls)
        return make(EngineState::Stalled, [&] {
            return QString(QStringLiteral("%1 running, no token or success counter moved for %2 polls")
                               .arg(f.running == 1 ? QStringLiteral("1 request")
                                                   : QStringLiteral("%1 requests").arg(number(f.running)))
                               .arg(f.frozenPolls));
        });

    switch (f.membership) {
    case MembershipFact::Active:
        return make(EngineState::Serving, [&] { return QStringLiteral("healthy and in the proxy's active list"); });
    case MembershipFact::Waiting:
        return make(
            EngineState::WaitingInProxy, [&] { return QStringLiteral("added to the proxy, waiting for activation"); });
    case MembershipFact::Draining:
        return make(EngineState::Draining,
            [&] { return QStringLiteral("removed from the proxy, finishing %1 requests").arg(number(f.running)); });
    case MembershipFact::Configured:
        return make(EngineState::ReadyNotInProxy, [&] { return QStringLiteral("healthy, not added to the proxy"); });
    case MembershipFact::Gone:
        return make(EngineState::ReadyNotInProxy, [&] { return QStringLiteral("healthy, removed from the proxy"); });
    case MembershipFact::Dropped:
        return make(EngineState::ReadyNotInProxy, [&] { return QStringLiteral("healthy, the proxy dropped its add"); });
    case MembershipFact::Unknown:
        break;
    }
    return make(EngineState::Serving,
        [&] { return QStringLiteral("healthy and making progress (proxy membership not reconciled)"); });
}

} // namespace pd
