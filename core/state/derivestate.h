// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginefacts.h"

#include <QStringList>

// The one place where facts become the state an operator sees. Pure: the same facts, time and
// thresholds always give the same answer, so a table test covers it and every view agrees.
namespace pd {

struct DerivedState {
    EngineState state = EngineState::Unknown;
    QString reason; // one line for the operator: why this state
    QStringList evidence; // the facts that decided it, each with its age
    bool operator==(const DerivedState &) const = default;
};

enum class DeriveDetail { Full, StateOnly }; // StateOnly: reason and evidence left empty (cheap)
DerivedState deriveState(const EngineFacts &facts, std::int64_t nowMs, const StateThresholds &thresholds,
    DeriveDetail detail = DeriveDetail::Full);

// "3 s", "4 min", "2 h 5 min": a short age for evidence lines and panels.
QString formatAge(std::int64_t ms);

// Whether a state needs the operator (stalled, unhealthy, unreachable).
bool isFailureState(EngineState state);

} // namespace pd
