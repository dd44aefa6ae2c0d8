// SPDX-License-Identifier: MIT
#include "state/derivestate.h"

#include <QCoreApplication>
#include <QDateTime>

namespace pd {

namespace {

// Reasons, evidence and ages in the operator's language; the fact names inside them stay ids.
struct DeriveStateTr {
    Q_DECLARE_TR_FUNCTIONS(pd::EngineState)
};

QString ago(std::int64_t atMs, std::int64_t nowMs)
{
    if (atMs <= 0)
        return DeriveStateTr::tr("never");
    return DeriveStateTr::tr("%1 ago").arg(formatAge(nowMs - atMs));
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
        lines.append(DeriveStateTr::tr("process %1%2 (%3)")
                         .arg(processFactName(f.process),
                             f.processDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.processDetail,
                             ago(f.processAtMs, nowMs)));
    if (f.http == HttpFact::Ok)
        lines.append(DeriveStateTr::tr("/metrics ok (%1)").arg(ago(f.httpAtMs, nowMs)));
    else if (f.http != HttpFact::Unknown)
        lines.append(DeriveStateTr::tr("/metrics %1 × %2 since %3: %4")
                         .arg(httpFactName(f.http))
                         .arg(f.consecutiveFailures)
                         .arg(ago(f.failingSinceMs, nowMs), f.httpError));
    if (f.http != HttpFact::Ok && f.lastOkMs > 0)
        lines.append(DeriveStateTr::tr("last good /metrics %1").arg(ago(f.lastOkMs, nowMs)));
    if (f.healthStatus != 0)
        lines.append(QStringLiteral("/health %1 (%2)").arg(f.healthStatus).arg(ago(f.healthAtMs, nowMs)));
    if (f.modelsKnown)
        lines.append(
            DeriveStateTr::tr("/v1/models %1 (%2)")
                .arg(f.modelsReady ? DeriveStateTr::tr("ready") : DeriveStateTr::tr("not ready"), ago(f.modelsAtMs, nowMs)));
    if (f.hasCounters)
        lines.append(
            DeriveStateTr::tr("running %1, waiting %2; counters generation %3, prompt %4, success %5; %6")
                .arg(number(f.running), number(f.waiting), number(f.counters.generationTokens),
                    number(f.counters.promptTokens), number(f.counters.requestSuccess),
                    f.frozenPolls > 0
                        ? DeriveStateTr::tr("frozen for %1 polls (stall at %2)").arg(f.frozenPolls).arg(t.stallPolls)
                        : DeriveStateTr::tr("moved %1").arg(ago(f.lastProgressMs, nowMs))));
    if (f.intent != OperatorIntent::None)
        lines.append(DeriveStateTr::tr("operator intent %1%2 (%3)")
                         .arg(operatorIntentName(f.intent),
                             f.intentDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.intentDetail,
                             ago(f.intentAtMs, nowMs)));
    if (f.membership != MembershipFact::Unknown)
        lines.append(DeriveStateTr::tr("proxy membership %1%2 (%3)")
                         .arg(membershipFactName(f.membership),
                             f.membershipDetail.isEmpty() ? QString() : QStringLiteral(", ") + f.membershipDetail,
                             ago(f.membershipAtMs, nowMs)));
    if (f.http != HttpFact::Unknown)
        lines.append(DeriveStateTr::tr("metrics %1").arg(freshnessFactName(freshnessOf(f, t))));
    return lines;
}

bool outOfProxy(MembershipFact m)
{
    return m == MembershipFact::Configured || m == MembershipFact::Gone || m == MembershipFact::Dropped;
}

QString clockOf(std::int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

// The operator stopped it and no start was seen since: its silence is expected.
bool stopIntended(const EngineFacts &f)
{
    return f.intent == OperatorIntent::Stop && !(f.process == ProcessFact::Running && f.processAtMs > f.intentAtMs);
}

// "stopped by the operator (scale-in) at 14:02:11", and what the proxy still believes of it.
QString stoppedOnPurpose(const EngineFacts &f)
{
    const QString who = f.intentDetail.isEmpty()
        ? DeriveStateTr::tr("stopped by the operator at %1").arg(clockOf(f.intentAtMs))
        : DeriveStateTr::tr("stopped by the operator (%1) at %2").arg(f.intentDetail, clockOf(f.intentAtMs));
    switch (f.membership) {
    case MembershipFact::Draining:
        return who + DeriveStateTr::tr("; the proxy still lists it as draining until it is idle");
    case MembershipFact::Active:
        return who + DeriveStateTr::tr("; the proxy still lists it as active");
    case MembershipFact::Waiting:
        return who + DeriveStateTr::tr("; the proxy still lists it as waiting");
    default:
        return who;
    }
}

// "taken out of the proxy by the operator (scale-in) at 14:02:11"
QString drainedOnPurpose(const EngineFacts &f)
{
    return f.intentDetail.isEmpty()
        ? DeriveStateTr::tr("taken out of the proxy by the operator at %1").arg(clockOf(f.intentAtMs))
        : DeriveStateTr::tr("taken out of the proxy by the operator (%1) at %2").arg(f.intentDetail, clockOf(f.intentAtMs));
}

} // namespace

QString formatAge(std::int64_t ms)
{
    if (ms < 0)
        ms = 0;
    const std::int64_t s = ms / 1000;
    if (s < 60)
        return DeriveStateTr::tr("%1 s").arg(s);
    if (s < 3600)
        return DeriveStateTr::tr("%1 min").arg(s / 60);
    if (s < 86400)
        return (s / 60) % 60 ? DeriveStateTr::tr("%1 h %2 min").arg(s / 3600).arg((s / 60) % 60)
                             : DeriveStateTr::tr("%1 h").arg(s / 3600);
    return DeriveStateTr::tr("%1 d %2 h").arg(s / 86400).arg((s / 3600) % 24);
}

bool isFailureState(EngineState state)
{
    return state == EngineState::Stalled || state == EngineState::Unhealthy || state == EngineState::Unreachable
        || state == EngineState::GroupBroken;
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
        return make(EngineState::Stopped,
            [&] { return stopIntended(f) ? stoppedOnPurpose(f) : DeriveStateTr::tr("the process exited"); });
    if (f.http == HttpFact::Unknown) {
        if (stopIntended(f))
            return make(EngineState::Stopped, [&] { return stoppedOnPurpose(f); });
        if (f.process == ProcessFact::Running)
            return make(EngineState::Starting, [&] { return DeriveStateTr::tr("process running, not polled yet"); });
        return make(EngineState::Unknown, [&] { return DeriveStateTr::tr("not observed yet"); });
    }

    const bool failing = f.http != HttpFact::Ok && f.consecutiveFailures >= t.stalePolls;
    if (failing) {
        const QString polls = DeriveStateTr::tr("%1 polls in a row").arg(f.consecutiveFailures);
        switch (f.http) {
        case HttpFact::Refused:
            // Stopped on purpose: nothing listening is what the operator asked for, even while the proxy
            // still lists it (a crash, with no intent, stays unreachable below).
            if (stopIntended(f))
                return make(EngineState::Stopped, [&] { return stoppedOnPurpose(f); });
            if (f.process == ProcessFact::Running)
                return make(EngineState::Starting,
                    [&] { return DeriveStateTr::tr("process running, port not open yet (loading weights?)"); });
            if (f.lastOkMs == 0)
                return make(EngineState::Stopped,
                    [&] { return DeriveStateTr::tr("nothing listens on its port; it never answered"); });
            if (outOfProxy(f.membership))
                return make(EngineState::Stopped,
                    [&] { return DeriveStateTr::tr("out of the proxy and nothing listens on its port"); });
            return make(EngineState::Unreachable, [&] {
                return DeriveStateTr::tr("connection refused %1 (answered %2)").arg(polls, ago(f.lastOkMs, nowMs));
            });
        case HttpFact::Timeout:
            return make(EngineState::Unreachable, [&] { return DeriveStateTr::tr("no answer in time, %1").arg(polls); });
        case HttpFact::Failed:
            return make(EngineState::Unreachable, [&] { return QStringLiteral("%1, %2").arg(f.httpError, polls); });
        case HttpFact::ServerError:
            return make(EngineState::Unhealthy,
                [&] { return DeriveStateTr::tr("/metrics answers HTTP %1, %2").arg(f.httpStatus).arg(polls); });
        case HttpFact::ClientError:
            return make(EngineState::Unhealthy,
                [&] { return DeriveStateTr::tr("/metrics answers HTTP %1, %2").arg(f.httpStatus).arg(polls); });
        case HttpFact::Malformed:
            return make(
                EngineState::Unhealthy, [&] { return DeriveStateTr::tr("/metrics does not parse, %1").arg(polls); });
        case HttpFact::Ok:
        case HttpFact::Unknown:
            break;
        }
    }

    if (f.healthStatus >= 500)
        return make(EngineState::Unhealthy, [&] { return DeriveStateTr::tr("/health answers %1").arg(f.healthStatus); });

    // Below the failure threshold the last good picture stands; without one there is none yet.
    if (f.lastOkMs == 0) {
        if (f.process == ProcessFact::Running)
            return make(EngineState::Starting, [&] { return DeriveStateTr::tr("process running, not answering yet"); });
        return make(EngineState::Unknown, [&] { return DeriveStateTr::tr("no good poll yet"); });
    }
    if (f.modelsKnown && !f.modelsReady)
        return make(EngineState::Starting, [&] { return DeriveStateTr::tr("/v1/models not ready"); });

    // Frozen with work on hand. Three faces, named apart because their causes differ: requests running
    // and no token made (a hung step or collective); the KV cache full and nothing moving (blocks that
    // never free: a pinned cache); requests waiting and none scheduled (a KV transfer that never arrives).
    if ((f.running > 0 || f.waiting > 0) && f.frozenPolls >= t.stallPolls)
        return make(EngineState::Stalled, [&] {
            if (f.kvUsage >= t.kvPinnedUsage)
                return QString(DeriveStateTr::tr("KV cache pinned at %1 %: running %2, waiting %3, no counter moved for %4 polls")
                                   .arg(number(f.kvUsage * 100), number(f.running), number(f.waiting))
                                   .arg(f.frozenPolls));
            if (f.running <= 0)
                return QString(DeriveStateTr::tr("%1 waiting, none running: no request scheduled and no counter moved for %2 polls "
                                      "(KV transfer hung?)")
                                   .arg(number(f.waiting))
                                   .arg(f.frozenPolls));
            return QString(DeriveStateTr::tr("%1 running, no token or success counter moved for %2 polls")
                               .arg(f.running == 1 ? DeriveStateTr::tr("1 request")
                                                   : DeriveStateTr::tr("%1 requests").arg(number(f.running)))
                               .arg(f.frozenPolls));
        });

    // Taken out of the proxy on purpose (or being stopped): requests on hand are a drain, none is a spare.
    const bool onPurpose = f.intent != OperatorIntent::None;
    const bool busy = f.running > 0 || f.waiting > 0;
    if (onPurpose && (f.membership == MembershipFact::Gone || f.membership == MembershipFact::Configured)) {
        if (busy)
            return make(EngineState::Draining, [&] {
                return DeriveStateTr::tr("%1, finishing %2 requests").arg(drainedOnPurpose(f), number(f.running + f.waiting));
            });
        return make(EngineState::ReadyNotInProxy, [&] { return DeriveStateTr::tr("%1, idle").arg(drainedOnPurpose(f)); });
    }
    switch (f.membership) {
    case MembershipFact::Active:
        return make(EngineState::Serving, [&] { return DeriveStateTr::tr("healthy and in the proxy's active list"); });
    case MembershipFact::Waiting:
        return make(
            EngineState::WaitingInProxy, [&] { return DeriveStateTr::tr("added to the proxy, waiting for activation"); });
    case MembershipFact::Draining:
        return make(EngineState::Draining, [&] {
            return onPurpose ? DeriveStateTr::tr("%1, finishing %2 requests").arg(drainedOnPurpose(f), number(f.running))
                             : DeriveStateTr::tr("removed from the proxy, finishing %1 requests").arg(number(f.running));
        });
    case MembershipFact::Configured:
        return make(EngineState::ReadyNotInProxy, [&] { return DeriveStateTr::tr("healthy, not added to the proxy"); });
    case MembershipFact::Gone:
        return make(EngineState::ReadyNotInProxy, [&] { return DeriveStateTr::tr("healthy, removed from the proxy"); });
    case MembershipFact::Dropped:
        return make(EngineState::ReadyNotInProxy, [&] { return DeriveStateTr::tr("healthy, the proxy dropped its add"); });
    case MembershipFact::Unknown:
        break;
    }
    return make(EngineState::Serving,
        [&] { return DeriveStateTr::tr("healthy and making progress (proxy membership not reconciled)"); });
}

} // namespace pd
