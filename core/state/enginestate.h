// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"

#include <QString>

// The vocabulary shared by derived state (core/state), the topology, triage, SSH operations and
// scaling: what the console shows for an engine, and the independent facts it is derived from.
// The displayed state is always derived from facts, never stored.
namespace pd {

// What an operator sees for one engine, in rough order of "how bad".
enum class EngineState {
    Unknown,          // nothing observed yet
    Stopped,          // no process (SSH says so) or never started, and nothing listens
    Starting,         // process running, HTTP not answering yet (loading weights takes minutes)
    ReadyNotInProxy,  // answers /v1/models and /health, the proxy does not route to it
    WaitingInProxy,   // added to the proxy, not yet activated by its listener
    Serving,          // in the proxy's active list and healthy
    Draining,         // removed from the proxy, still finishing requests
    Stalled,          // requests running, token and success counters frozen for N polls
    Unhealthy,        // /health or /metrics answers 5xx
    Unreachable,      // refused or timed out where it should answer
    GroupBroken,      // alive, but a rank of its coupled DP group died: it cannot make progress (groupstate.h)
};

// How many states there are: the size of per-state tables (counts, legends).
inline constexpr int kEngineStateCount = int(EngineState::GroupBroken) + 1;

// The process as SSH (or the local runner) last saw it.
enum class ProcessFact { Unknown, Running, Exited };
template<> inline constexpr std::size_t enumCount<ProcessFact> = std::size_t(ProcessFact::Exited) + 1;

// Proxy membership as the console tracks it (added / removed by the console, reconciled against the
// proxy's lists and counts; messages are never taken as status).
enum class MembershipFact {
    Unknown,     // not reconciled yet
    Configured,  // in the profile, not in the proxy
    Waiting,     // in the proxy's waiting list
    Active,      // in the proxy's active list
    Draining,    // removal accepted, still in the list
    Gone,        // removed and out of the lists
    Dropped,     // an add the proxy silently dropped
};

// What the operator asked for an engine through this console's operations, kept apart from what the
// engine does: an engine stopped or taken out of the proxy on purpose goes quiet as expected, which
// must never read as a crash.
enum class OperatorIntent {
    None,  // nothing asked (or it was started / added again)
    Drain, // taken out of the proxy on purpose, left running: it may still finish requests
    Stop,  // stopped on purpose (scale-in, stop, restart): silence is expected
};

QString engineStateName(EngineState state);   // stable lowercase id: "serving", "ready-not-in-proxy", ...
QString engineStateWord(EngineState state);   // that id in the operator's language (events), translated
QString engineStateLabel(EngineState state);  // short label for views, translated (pd::EngineState)
QString membershipFactName(MembershipFact fact);
QString operatorIntentName(OperatorIntent intent); // "none", "drain", "stop"

} // namespace pd
