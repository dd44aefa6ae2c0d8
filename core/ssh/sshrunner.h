// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "sshhostspec.h"
#include "sshsettings.h"

#include <memory>

// CommandRunner over SSH: run() hands the command to the shared SshPool and blocks the calling
// (worker) thread until the node answered, the command timed out or the connection failed.
// Never call it from the GUI thread nor from a pool callback: GUI-thread code runs it in jobs on worker
// threads that report back with queued signals (EngineController, the node checks, the log watch).
namespace pd {

struct Profile;
class SshPool;
class SshPrompts;

class SshRunner final : public CommandRunner {
public:
    SshRunner(const SshSettings &settings, std::shared_ptr<SshPrompts> prompts);
    explicit SshRunner(std::shared_ptr<SshPool> pool);

    // Identity files and bastions of every node of the profile (host/port/user travel with each
    // CommandTarget, built by sshHostSpec(node).target).
    void registerProfile(const Profile &profile);
    void registerHost(const SshHostSpec &spec);

    CommandResult run(
        const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout) override;
    // Puts data at remotePath atomically with mode (e.g. 0755). Empty on success, else the error.
    QString upload(const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode);

    const std::shared_ptr<SshPool> &pool() const { return m_pool; }

private:
    std::shared_ptr<SshPool> m_pool;
};

} // namespace pd
