// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "triage/problem.h"

#include <QColor>
#include <QString>

// Colours and second cues (a glyph) for engine states and problem severities: readable without
// colour vision, the glyph alone tells the state apart.
namespace pd {

// A state's colour as text or a mark on the window's base colour: the light variant reads on a light
// base, the dark variant (lighter tones of the same hues) on a dark one.
QColor engineStateColor(EngineState state, bool dark);
QColor engineStateColor(EngineState state); // for the application's current palette (apptheme.h)
QString engineStateGlyph(EngineState state); // "●", "▲", "✖", ...
QColor severityColor(ProblemSeverity severity);
QString severityGlyph(ProblemSeverity severity);

} // namespace pd
