// SPDX-License-Identifier: MIT
#pragma once

namespace pd {
class ClusterStore;
class MainWindow;
class StateTracker;
class Triage;
} // namespace pd

// What every part of the console (Monitoring, Operations, ClusterTools) works on: the opened cluster,
// the engines' derived states, the ranked problems and the window. ConsoleAssembly makes them before
// the parts and destroys them after; none is owned by a part.
struct ConsoleShared {
    pd::ClusterStore *store = nullptr;
    pd::StateTracker *tracker = nullptr;
    pd::Triage *triage = nullptr;
    pd::MainWindow *window = nullptr;
};
