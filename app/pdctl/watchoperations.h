// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scalecontext.h"
#include "watch/autoheal.h"

#include <QString>

#include <memory>

// What `pdctl watch --auto-heal` acts with besides the proxy API: the engines' control (each node's
// runner, or pdsim's control API with --sim-control), an engine probe, a scale context and runner on
// the watch's own proxy client and membership table, and the operators' intents read from the shared
// audit log (another console or pdctl scale at work holds the healer). Given to the Watchdog.
namespace pd {
class AuditIntentFeed;
class AuditLog;
class ClusterWatch;
class EngineControl;
class EngineController;
class EngineProbe;
class RunnerFactory;
class ScaleRunner;
class Watchdog;
} // namespace pd

namespace pdctl {

class WatchOperations final {
public:
    WatchOperations(pd::ClusterWatch &watch, const pd::Profile &profile, pd::RunnerFactory &runners,
        const QString &simControl, pd::AuditLog &audit);
    ~WatchOperations();
    WatchOperations(const WatchOperations &) = delete;
    WatchOperations &operator=(const WatchOperations &) = delete;

    // Hands the operations to `dog` (heal settings included) and starts reading intents.
    void attach(pd::Watchdog &dog, const pd::AutoHealSettings &heal);
    pd::ScaleRunner *runner() const { return m_runner.get(); }

private:
    pd::ClusterWatch &m_watch;
    std::unique_ptr<pd::EngineController> m_controller;
    std::unique_ptr<pd::EngineControl> m_control;
    std::unique_ptr<pd::EngineProbe> m_probe;
    pd::ScaleContext m_ctx;
    std::unique_ptr<pd::ScaleRunner> m_runner;
    std::unique_ptr<pd::AuditIntentFeed> m_intents;
};

} // namespace pdctl
