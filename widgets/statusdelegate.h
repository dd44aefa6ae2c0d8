// SPDX-License-Identifier: MIT
#pragma once

#include "celldelegate.h"

namespace pd {

// A delegate that paints an engine's state as its glyph in the state's colour plus its word (the word
// is the cue that does not depend on colour vision), from EngineStateRole; without a derived state,
// the last poll's status as a marker (circle serving, square failing), from PollStatusRole and
// HealthyRole.
CellDelegate *newStatusDelegate(QObject *parent);

} // namespace pd
