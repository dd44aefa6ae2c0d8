// SPDX-License-Identifier: MIT
#include "state/enginestate.h"

namespace pd {

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
    }
    return QStringLiteral("unknown");
}

QString engineStateLabel(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: return QStringLiteral("Unknown");
    case EngineState::Stopped: return QStringLiteral("Stopped");
    case EngineState::Starting: return QStringLiteral("Starting");
    case EngineState::ReadyNotInProxy: return QStringLiteral("Ready, not in proxy");
    case EngineState::WaitingInProxy: return QStringLiteral("Waiting in proxy");
    case EngineState::Serving: return QStringLiteral("Serving");
    case EngineState::Draining: return QStringLiteral("Draining");
    case EngineState::Stalled: return QStringLiteral("Stalled");
    case EngineState::Unhealthy: return QStringLiteral("Unhealthy");
    case EngineState::Unreachable: return QStringLiteral("Unreachable");
    }
    return QStringLiteral("Unknown");
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

} // namespace pd
