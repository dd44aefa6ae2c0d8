// SPDX-License-Identifier: MIT
#include "asyncsshrunner.h"

#include "sshpool.h"

#include <mutex>

namespace pd {

// Shared with the pool's callbacks: they post to the runner only while it exists. Once posted,
// Qt drops the event if the runner is deleted before delivery.
struct AsyncSshRunner::Relay {
    std::mutex mutex;
    AsyncSshRunner *runner = nullptr;

    template<typename F> void post(F deliver) // deliver(AsyncSshRunner *) runs on the runner's thread
    {
        std::lock_guard lock(mutex);
        if (!runner)
            return;
        AsyncSshRunner *target = runner;
        QMetaObject::invokeMethod(
            target, [target, deliver = std::move(deliver)] { deliver(target); }, Qt::QueuedConnection);
    }
};

AsyncSshRunner::AsyncSshRunner(std::shared_ptr<SshPool> pool, QObject *parent)
    : QObject(parent)
    , m_pool(std::move(pool))
    , m_relay(std::make_shared<Relay>())
{
    qRegisterMetaType<pd::CommandTarget>();
    qRegisterMetaType<pd::CommandResult>();
    m_relay->runner = this;
}

AsyncSshRunner::~AsyncSshRunner()
{
    std::lock_guard lock(m_relay->mutex);
    m_relay->runner = nullptr;
}

quint64 AsyncSshRunner::run(
    const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout)
{
    const quint64 id = m_nextId++;
    m_pool->submitCommand(target, shellCommand, timeout, [relay = m_relay, id, target](CommandResult result) {
        relay->post([id, target, result = std::move(result)](
                        AsyncSshRunner *runner) { Q_EMIT runner->commandFinished(id, target, result); });
    });
    return id;
}

quint64 AsyncSshRunner::upload(const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode)
{
    const quint64 id = m_nextId++;
    m_pool->submitUpload(target, data, remotePath, mode, [relay = m_relay, id, target](QString error) {
        relay->post([id, target, error = std::move(error)](
                        AsyncSshRunner *runner) { Q_EMIT runner->uploadFinished(id, target, error); });
    });
    return id;
}

} // namespace pd
