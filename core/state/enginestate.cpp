// SPDX-License-Identifier: MIT
#include "state/enginestate.h"

#include <QCoreApplication>

namespace pd {

namespace {

struct Tr {
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
    case EngineState::Unknown: return Tr::tr("unknown", "engine state id");
    case EngineState::Stopped: return Tr::tr("stopped", "engine state id");
    case EngineState::Starting: return Tr::tr("starting", "engine state id");
    case EngineState::ReadyNotInProxy: return Tr::tr("ready-not-in-proxy", "engine state id");
    case EngineState::WaitingInProxy: return Tr::tr("waiting-in-proxy", "engine state id");
    case EngineState::Serving: return Tr::tr("serving", "engine state id");
    case EngineState::Draining: return Tr::tr("draining", "engine state id");
    case EngineState::Stalled: return Tr::tr("stalled", "engine state id");
    case EngineState::Unhealthy: return Tr::tr("unhealthy", "engine state id");
    case EngineState::Unreachable: return Tr::tr("unreachable", "engine state id");
    case EngineState::GroupBroken: return Tr::tr("group-broken", "engine state id");
    }
    return Tr::tr("unknown", "engine state id");
}

QString engineStateLabel(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: return Tr::tr("Unknown");
    case EngineState::Stopped: return Tr::tr("Stopped");
    case EngineState::Starting: return Tr::tr("Starting");
    case EngineState::ReadyNotInProxy: return Tr::tr("Ready, not in proxy");
    case EngineState::WaitingInProxy: return Tr::tr("Waiting in proxy");
    case EngineState::Serving: return Tr::tr("Serving");
    case EngineState::Draining: return Tr::tr("Draining");
    case EngineState::Stalled: return Tr::tr("Stalled");
    case EngineState::Unhealthy: return Tr::tr("Unhealthy");
    case EngineState::Unreachable: return Tr::tr("Unreachable");
    case EngineState::GroupBroken: return Tr::tr("Group broken");
    }
    return Tr::tr("Unknown");
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
