// SPDX-License-Identifier: MIT
#pragma once

#include "consoleoptions.h"

#include "net/prometheusfeed.h"

#include <memory>
#include <optional>

namespace pd {
class ClusterStore;
class ConsoleSettings;
class MainWindow;
class StateTracker;
class Triage;
} // namespace pd

class ClusterTools;
class DemoCluster;
class Monitoring;
class Operations;

// The console, built and wired the one way both pdconsole's main() and tst_consoleassembly build it:
// first what every part shares (the cluster store, the state tracker, triage, and the main window,
// which gets them at construction), then Monitoring (pollers, history), Operations (engine control,
// the proxy, scaling, audit, watchdog) and ClusterTools (logs, node checks), the settings applied to
// them again whenever the Preferences dialog stores new ones. The settings outlive it; everything
// else is destroyed in the reverse order of its making.
class ConsoleAssembly final {
public:
    ConsoleAssembly(pd::ConsoleSettings *settings, const std::optional<pd::PrometheusSourceConfig> &prometheus);
    ~ConsoleAssembly();
    ConsoleAssembly(const ConsoleAssembly &) = delete;
    ConsoleAssembly &operator=(const ConsoleAssembly &) = delete;

    // What the command line and the settings ask to show first: the demo cluster (pdsim started), a
    // profile, or the last profile when the settings say to reopen it; notes in the window say what
    // happened (a demo that cannot start shows its profile and the reason).
    void openStartProfile(const ConsoleOptions &options);

    pd::ClusterStore &store() const { return *m_store; }
    pd::StateTracker &tracker() const { return *m_tracker; }
    pd::Triage &triage() const { return *m_triage; }
    pd::MainWindow &window() const { return *m_window; }
    Monitoring &monitoring() const { return *m_monitoring; }
    Operations &operations() const { return *m_operations; }
    ClusterTools &tools() const { return *m_tools; }
    DemoCluster *demo() const { return m_demo.get(); } // null unless the demo was asked for

private:
    void startDemo();

    pd::ConsoleSettings *m_settings;
    std::unique_ptr<pd::ClusterStore> m_store;
    std::unique_ptr<pd::StateTracker> m_tracker;
    std::unique_ptr<pd::Triage> m_triage;
    std::unique_ptr<pd::MainWindow> m_window;
    std::unique_ptr<Monitoring> m_monitoring;
    std::unique_ptr<Operations> m_operations;
    std::unique_ptr<ClusterTools> m_tools;
    std::unique_ptr<DemoCluster> m_demo;
};

// The Prometheus source the command line configures (none without --prometheus).
std::optional<pd::PrometheusSourceConfig> prometheusFromOptions(const ConsoleOptions &options);
