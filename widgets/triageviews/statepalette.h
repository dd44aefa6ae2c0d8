// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "triage/problem.h"

#include <QColor>
#include <QString>

// Colours and second cues (a glyph) for engine states and problem severities: readable without
// colour vision, the glyph alone tells the state apart.
namespace pd {

QColor engineStateColor(EngineState state);
QString engineStateGlyph(EngineState state); // "●", "▲", "✖", ...
QColor severityColor(ProblemSeverity severity);
QString severityGlyph(ProblemSeverity severity);

} // namespace pd
