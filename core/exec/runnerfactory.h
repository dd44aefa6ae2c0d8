// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"

#include <memory>

// Which CommandRunner reaches a node. Operations ask the factory per target, so the composition root
// decides the transport: the local runner for this machine, the SSH runner for everything else.
namespace pd {

class RunnerFactory {
public:
    virtual ~RunnerFactory() = default;
    // The runner for `target`, or null with *error naming the node and why none is available.
    // Thread-safe; the runner returned is thread-safe too.
    virtual std::shared_ptr<CommandRunner> runner(const CommandTarget &target, QString *error) = 0;
};

// A target's transport decides (CommandTarget::Transport, from the profile's node "transport"); on
// Auto, loopback addresses, "localhost" and this machine's own interface addresses go to one shared
// LocalRunner; every other node (and every Ssh one) goes to the remote runner (the SSH runner, plugged in by the
// composition root with setRemoteRunner), and fails with a clear error while none is set.
class DefaultRunnerFactory final : public RunnerFactory {
public:
    DefaultRunnerFactory();
    // The runner for nodes that are not this machine. Set before operations start.
    void setRemoteRunner(std::shared_ptr<CommandRunner> runner);
    std::shared_ptr<CommandRunner> runner(const CommandTarget &target, QString *error) override;

    static bool isLocalAddress(const QString &host);

private:
    std::shared_ptr<CommandRunner> m_local;
    std::shared_ptr<CommandRunner> m_remote;
};

} // namespace pd
