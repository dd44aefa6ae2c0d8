// SPDX-License-Identifier: MIT
#include "sshrunner.h"

#include "cluster/profile.h"
#include "sshpool.h"

#include <future>

namespace pd {

SshRunner::SshRunner(const SshSettings &settings, std::shared_ptr<SshPrompts> prompts)
    : m_pool(std::make_shared<SshPool>(settings, std::move(prompts)))
{
}

SshRunner::SshRunner(std::shared_ptr<SshPool> pool)
    : m_pool(std::move(pool))
{
}

void SshRunner::registerProfile(const Profile &profile)
{
    for (const Node &node : profile.nodes)
        m_pool->registerHost(sshHostSpec(node));
}

void SshRunner::registerHost(const SshHostSpec &spec)
{
    m_pool->registerHost(spec);
}

CommandResult SshRunner::run(
    const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout)
{
    auto promise = std::make_shared<std::promise<CommandResult>>();
    std::future<CommandResult> answer = promise->get_future();
    m_pool->submitCommand(
        target, shellCommand, timeout, [promise](CommandResult result) { promise->set_value(std::move(result)); });
    return answer.get();
}

QString SshRunner::upload(const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode)
{
    auto promise = std::make_shared<std::promise<QString>>();
    std::future<QString> answer = promise->get_future();
    m_pool->submitUpload(
        target, data, remotePath, mode, [promise](QString error) { promise->set_value(std::move(error)); });
    return answer.get();
}

} // namespace pd
