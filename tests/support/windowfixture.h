// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QCoreApplication>
#include <QStandardPaths>

namespace pd::test {

// Where a window test's per-user settings and paths go: Qt's test locations under the
// "pdconsole-tests" organisation, never the user's own. Runs before main() in every test that
// includes this header (below), so no test can open a window before it.
inline void useTestLocations()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("pdconsole-tests"));
}

// The main window on its own (no pollers, no operations) with what it is built on: the store, the
// state tracker and triage, declared before it so they outlive it. Settings, the leave guard and the
// palette's engine menu are the test's (none: the per-user settings, leave without asking, no menu).
struct WindowFixture {
    explicit WindowFixture(
        ConsoleSettings *settings = nullptr, LeaveGuard leaveGuard = {}, EngineMenuProvider engineMenu = {})
        : tracker(&store)
        , triage(&tracker, &store)
        , window(MainWindowParts { &store, &tracker, &triage, settings, std::move(leaveGuard), std::move(engineMenu) })
    {
    }
    ClusterStore store;
    StateTracker tracker;
    Triage triage;
    MainWindow window;
};

} // namespace pd::test

namespace {
void useTestLocationsBeforeMain()
{
    pd::test::useTestLocations();
}
} // namespace
Q_CONSTRUCTOR_FUNCTION(useTestLocationsBeforeMain)
