// SPDX-License-Identifier: MIT
#pragma once

#include <Qt>

// Item data roles shared by the core models. Core speaks in roles; delegates in widgets/ turn them
// into colours and icons.
namespace pd {

enum ModelRole {
    SortRole = Qt::UserRole + 1,  // a value that sorts naturally (numbers as numbers)
    PoolRole,                      // int(pd::Role) of the node or engine
    NodeIndexRole,                 // index of the node in the profile
    SeverityRole,                  // int(pd::Severity) of a validation issue
    PointerRole,                   // JSON pointer of a validation issue
    PollStatusRole,                // int(pd::PollStatus) of an engine's last poll, -1 when never polled
    HealthyRole,                   // bool: last poll ok and /health 200
    ProblemSeverityRole,           // int(pd::ProblemSeverity) of a problem
    ProblemKeyRole,                // QString: a problem's stable key
    AcknowledgedRole,              // bool: the operator acknowledged the problem
    EngineIndexRole,               // int: the engine a row is about, -1 for none
    EngineStateRole,               // int(pd::EngineState): the (new) derived state of an engine
    EventKindRole,                 // int(pd::StateEvent::Kind)
    TimeRole,                      // qint64 ms since the epoch of an event or problem
};

} // namespace pd
