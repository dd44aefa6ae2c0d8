// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scalecontext.h"
#include "watch/autoheal.h"

#include <QString>

#include <memory>

// What a headless watch (`pdctl watch --auto-heal`) acts with besides the proxy API: the engines'
// control (given: each node's runner, or pdsim's control API), an engine probe, a scale context and
// runner on the watch's own proxy client and membership table, and the operators' intents read from
// the shared audit log (another console or pdctl scale at work holds the healer). Given to a Watchdog.
namespace pd {
class AuditIntentFeed;
class AuditLog;
class ClusterWatch;
class EngineControl;
class EngineProbe;
class OperationJournal;
class ScaleRunner;
class Watchdog;

class WatchOperations final {
public:
    // control: how engines and the proxy start and stop (not owned; outlives this).
    WatchOperations(ClusterWatch &watch, const Profile &profile, EngineControl *control, AuditLog &audit);
    ~WatchOperations();
    WatchOperations(const WatchOperations &) = delete;
    WatchOperations &operator=(const WatchOperations &) = delete;

    // Hands the operations to `dog` (heal settings included) and starts reading intents.
    void attach(Watchdog &dog, const AutoHealSettings &heal);
    ScaleRunner *runner() const { return m_runner.get(); }
    ScaleContext &context() { return m_ctx; }

private:
    ClusterWatch &m_watch;
    std::unique_ptr<EngineProbe> m_probe;
    std::unique_ptr<OperationJournal> m_journal;
    ScaleContext m_ctx;
    std::unique_ptr<ScaleRunner> m_runner;
    std::unique_ptr<AuditIntentFeed> m_intents;
};

} // namespace pd
