// SPDX-License-Identifier: MIT
#pragma once

#include "exec/runnerfactory.h"

#include <memory>

// A CommandRunner that sends each command to the runner its target needs (RunnerFactory: the local
// runner for this machine, SSH for the others), for code that takes one runner for many nodes (node
// checks, log tails). A node no runner can reach fails with the factory's error naming it.
// Thread-safe as the factory and its runners are.
namespace pd {

class RoutingRunner final : public CommandRunner {
public:
    explicit RoutingRunner(std::shared_ptr<RunnerFactory> factory)
        : m_factory(std::move(factory))
    {
    }

    CommandResult run(const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout) override
    {
        QString error;
        const std::shared_ptr<CommandRunner> runner = m_factory->runner(target, &error);
        if (!runner) {
            CommandResult result;
            result.error = error;
            return result;
        }
        return runner->run(target, shellCommand, timeout);
    }

private:
    std::shared_ptr<RunnerFactory> m_factory;
};

} // namespace pd
