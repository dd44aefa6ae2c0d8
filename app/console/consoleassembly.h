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
} // namespace pd

class ClusterTools;
class DemoCluster;
class Monitoring;
class Operations;

// The console's parts for one window, built and wired the one way both pdconsole's main() and
// tst_consoleassembly build them: Monitoring (pollers, history, derived states, triage), Operations
// (engine control, the proxy, scaling, audit, watchdog) and ClusterTools (logs, node checks), the
// settings applied to them again whenever the Preferences dialog stores new ones. The store, the
// window and the settings outlive it; the parts are destroyed in the reverse order of their making.
class ConsoleAssembly final {
public:
    ConsoleAssembly(pd::ClusterStore *store, pd::MainWindow *window, pd::ConsoleSettings *settings,
                    const std::optional<pd::PrometheusSourceConfig> &prometheus);
    ~ConsoleAssembly();
    ConsoleAssembly(const ConsoleAssembly &) = delete;
    ConsoleAssembly &operator=(const ConsoleAssembly &) = delete;

    // What the command line and the settings ask to show first: the demo cluster (pdsim started), a
    // profile, or the last profile when the settings say to reopen it; notes in the window say what
    // happened (a demo that cannot start shows its profile and the reason).
    void openStartProfile(const ConsoleOptions &options);

    Monitoring &monitoring() const { return *m_monitoring; }
    Operations &operations() const { return *m_operations; }
    ClusterTools &tools() const { return *m_tools; }
    DemoCluster *demo() const { return m_demo.get(); } // null unless the demo was asked for

private:
    void startDemo();

    pd::MainWindow *m_window;
    pd::ConsoleSettings *m_settings;
    std::unique_ptr<Monitoring> m_monitoring;
    std::unique_ptr<Operations> m_operations;
    std::unique_ptr<ClusterTools> m_tools;
    std::unique_ptr<DemoCluster> m_demo;
};

// The Prometheus source the command line configures (none without --prometheus).
std::optional<pd::PrometheusSourceConfig> prometheusFromOptions(const ConsoleOptions &options);
