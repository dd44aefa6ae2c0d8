// SPDX-License-Identifier: MIT
#include "state/enginestate.h"

#include <QCoreApplication>

namespace pd {

namespace {

struct EngineStateTr {
    Q_DECLARE_TR_FUNCTIONS(pd::EngineState)
};

} // namespace

QString engineStateName(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: return QStringLiteral("unknown");
    case EngineState::Stopped: return QStringLiteral("stopped");
    case EngineState::Starting: return QStringLiteral("starting");
    case EngineState::ReadyNotInProxy: return QStringLiteral("ready-not-in-proxy");
    case EngineState::WaitingInProxy: return QStringLiteral("waiting-in-proxy");
    case EngineState::Serving: return QStringLiteral("serving");
    case EngineState::Draining: return QStringLiteral("draining");
    case EngineState::Stalled: return QStringLiteral("stalled");
    case EngineState::Unhealthy: return QStringLiteral("unhealthy");
    case EngineState::Unreachable: return QStringLiteral("unreachable");
    case EngineState::GroupBroken: return QStringLiteral("group-broken");
    }
    return QStringLiteral("unknown");
}

QString engineStateWord(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: return EngineStateTr::tr("unknown", "engine state id");
    case EngineState::Stopped: return EngineStateTr::tr("stopped", "engine state id");
    case EngineState::Starting: return EngineStateTr::tr("starting", "engine state id");
    case EngineState::ReadyNotInProxy: return EngineStateTr::tr("ready-not-in-proxy", "engine state id");
    case EngineState::WaitingInProxy: return EngineStateTr::tr("waiting-in-proxy", "engine state id");
    case EngineState::Serving: return EngineStateTr::tr("serving", "engine state id");
    case EngineState::Draining: return EngineStateTr::tr("draining", "engine state id");
    case EngineState::Stalled: return EngineStateTr::tr("stalled", "engine state id");
    case EngineState::Unhealthy: return EngineStateTr::tr("unhealthy", "engine state id");
    case EngineState::Unreachable: return EngineStateTr::tr("unreachable", "engine state id");
    case EngineState::GroupBroken: return EngineStateTr::tr("group-broken", "engine state id");
    }
    return EngineStateTr::tr("unknown", "engine state id");
}

QString engineStateLabel(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: return EngineStateTr::tr("Unknown");
    case EngineState::Stopped: return EngineStateTr::tr("Stopped");
    case EngineState::Starting: return EngineStateTr::tr("Starting");
    case EngineState::ReadyNotInProxy: return EngineStateTr::tr("Ready, not in proxy");
    case EngineState::WaitingInProxy: return EngineStateTr::tr("Waiting in proxy");
    case EngineState::Serving: return EngineStateTr::tr("Serving");
    case EngineState::Draining: return EngineStateTr::tr("Draining");
    case EngineState::Stalled: return EngineStateTr::tr("Stalled");
    case EngineState::Unhealthy: return EngineStateTr::tr("Unhealthy");
    case EngineState::Unreachable: return EngineStateTr::tr("Unreachable");
    case EngineState::GroupBroken: return EngineStateTr::tr("Group broken");
    }
    return EngineStateTr::tr("Unknown");
}

QString membershipFactName(MembershipFact fact)
{
    switch (fact) {
    case MembershipFact::Unknown: return QStringLiteral("unknown");
    case MembershipFact::Configured: return QStringLiteral("configured");
    case MembershipFact::Waiting: return QStringLiteral("waiting");
    case MembershipFact::Active: return QStringLiteral("active");
    case MembershipFact::Draining: return QStringLiteral("draining");
    case MembershipFact::Gone: return QStringLiteral("gone");
    case MembershipFact::Dropped: return QStringLiteral("dropped");
    }
    return QStringLiteral("unknown");
}

QString operatorIntentName(OperatorIntent intent)
{
    switch (intent) {
    case OperatorIntent::None: return QStringLiteral("none");
    case OperatorIntent::Drain: return QStringLiteral("drain");
    case OperatorIntent::Stop: return QStringLiteral("stop");
    }
    return QStringLiteral("none");
}

} // namespace pd
