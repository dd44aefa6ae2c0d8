// SPDX-License-Identifier: MIT
#include "sshpool.h"

#include "sshconnection.h"
#include "sshkeyring.h"
#include "sshprompts.h"

namespace pd {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

bool sameEndpoint(const CommandTarget &a, const CommandTarget &b)
{
    return a.host == b.host && a.port == b.port && a.user == b.user;
}

} // namespace

SshPool::SshPool(SshSettings settings, std::shared_ptr<SshPrompts> prompts)
    : m_settings(std::move(settings))
    , m_prompts(std::move(prompts))
    , m_keyring(std::make_unique<SshKeyring>())
{
    const int threads = std::max(1, m_settings.workerThreads);
    m_workers.reserve(static_cast<size_t>(threads));
    for (int i = 0; i < threads; ++i)
        m_workers.emplace_back([this] { workerLoop(); });
}

SshPool::~SshPool()
{
    std::vector<Job> abandoned;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        for (const auto &slot : std::as_const(m_slots)) {
            for (Job &job : slot->jobs)
                abandoned.push_back(std::move(job));
            slot->jobs.clear();
        }
        m_ready.clear();
    }
    m_wake.notify_all();
    for (std::thread &worker : m_workers)
        worker.join();
    for (Job &job : abandoned)
        job.work(nullptr, targetLabel(job.target) + QStringLiteral(": cancelled (the SSH pool is shutting down)"));
    std::lock_guard lock(m_mutex);
    m_slots.clear(); // sessions close before the keyring goes
}

void SshPool::registerHost(const SshHostSpec &spec)
{
    std::lock_guard lock(m_mutex);
    std::shared_ptr<NodeSlot> &slot = m_slots[sessionKey(spec.target)];
    if (!slot)
        slot = std::make_shared<NodeSlot>();
    slot->spec = spec;
}

void SshPool::submitCommand(
    const CommandTarget &target, const QByteArray &command, milliseconds timeout, CommandCallback done)
{
    enqueue(target,
        [this, command, timeout, done = std::move(done), target](
            SshConnection *connection, const QString &connectError) {
            if (!connection) {
                CommandResult result;
                result.error = connectError;
                done(std::move(result));
                return true;
            }
            CommandResult result = connection->exec(command, timeout, m_stopping);
            if (!result.started && !connection->isOpen() && connection->wasReused())
                return false;
            done(std::move(result));
            return true;
        });
}

void SshPool::submitUpload(
    const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode, UploadCallback done)
{
    enqueue(target,
        [data, remotePath, mode, done = std::move(done)](SshConnection *connection, const QString &connectError) {
            if (!connection) {
                done(connectError);
                return true;
            }
            QString error = connection->upload(data, remotePath, mode);
            if (!error.isEmpty() && !connection->isOpen() && connection->wasReused())
                return false;
            done(std::move(error));
            return true;
        });
}

void SshPool::enqueue(const CommandTarget &target, Work work)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping) {
            work(nullptr, targetLabel(target) + QStringLiteral(": cancelled (the SSH pool is shutting down)"));
            return;
        }
        std::shared_ptr<NodeSlot> &slot = m_slots[sessionKey(target)];
        if (!slot)
            slot = std::make_shared<NodeSlot>();
        slot->jobs.push_back(Job { target, std::move(work) });
        if (!slot->busy && !slot->queued) {
            slot->queued = true;
            m_ready.push_back(slot.get());
        }
    }
    m_wake.notify_one();
}

void SshPool::retryNow(const QString &node)
{
    std::lock_guard lock(m_mutex);
    if (const auto slot = m_slots.value(node)) {
        slot->retryAt = {};
        slot->failedConnects = 0;
    }
}

SshNodeStatus SshPool::status(const QString &node) const
{
    std::lock_guard lock(m_mutex);
    SshNodeStatus status;
    const auto slot = m_slots.value(node);
    if (!slot)
        return status;
    status.connected = slot->connection != nullptr;
    status.failedConnects = slot->failedConnects;
    status.lastError = slot->lastError;
    const auto now = Clock::now();
    if (slot->retryAt > now)
        status.retryIn = std::chrono::duration_cast<milliseconds>(slot->retryAt - now);
    return status;
}

SshPool::NodeSlot *SshPool::idleSessionDueForKeepalive(Clock::time_point now)
{
    for (const auto &slot : std::as_const(m_slots)) {
        if (!slot->busy && !slot->queued && slot->connection && now - slot->lastUsed >= m_settings.keepaliveInterval)
            return slot.get();
    }
    return nullptr;
}

void SshPool::workerLoop()
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (!m_ready.empty()) {
            NodeSlot *slot = m_ready.front();
            m_ready.pop_front();
            slot->queued = false;
            slot->busy = true;
            Job job = std::move(slot->jobs.front());
            slot->jobs.pop_front();
            lock.unlock();
            runJob(slot, job);
            job = {}; // release captured state outside the lock
            lock.lock();
            slot->busy = false;
            if (!slot->jobs.empty() && !m_stopping) {
                slot->queued = true;
                m_ready.push_back(slot); // round-robin: other nodes go first
                m_wake.notify_one();
            }
            continue;
        }
        const auto now = Clock::now();
        if (NodeSlot *slot = idleSessionDueForKeepalive(now)) {
            slot->busy = true;
            lock.unlock();
            const bool alive = slot->connection->keepalive();
            lock.lock();
            if (!alive) {
                std::unique_ptr<SshConnection> dead = std::move(slot->connection);
                lock.unlock();
                dead.reset();
                lock.lock();
            }
            slot->lastUsed = Clock::now();
            slot->busy = false;
            if (!slot->jobs.empty() && !slot->queued) {
                slot->queued = true;
                m_ready.push_back(slot);
            }
            continue;
        }
        m_wake.wait_for(lock, std::min<milliseconds>(m_settings.keepaliveInterval, milliseconds(1000)));
    }
}

void SshPool::dropConnection(NodeSlot *slot)
{
    std::unique_ptr<SshConnection> old;
    {
        std::lock_guard lock(m_mutex);
        old = std::move(slot->connection);
    }
}

void SshPool::runJob(NodeSlot *slot, Job &job)
{
    // Only this worker touches slot->connection while slot->busy; the counters shown by status()
    // change under the mutex, and so does the spec (registerHost() rewrites it on a profile reload).
    SshHostSpec spec;
    {
        std::lock_guard lock(m_mutex);
        spec = slot->spec;
    }
    spec.target = job.target;
    if (slot->connection
        && (!sameEndpoint(slot->connection->spec().target, job.target) // the profile moved the node
            || !slot->connection->isOpen()))
        dropConnection(slot);
    if (!slot->connection) {
        QString refused;
        {
            std::lock_guard lock(m_mutex);
            const auto now = Clock::now();
            if (slot->retryAt > now) {
                const auto wait = std::chrono::duration_cast<milliseconds>(slot->retryAt - now);
                refused = slot->lastError
                    + QStringLiteral(" (%1 failed connection attempts; next attempt in %2 s)")
                          .arg(slot->failedConnects)
                          .arg(static_cast<double>(wait.count()) / 1000.0, 0, 'f', 1);
            }
        }
        if (!refused.isEmpty()) {
            job.work(nullptr, refused);
            return;
        }
        auto connection = std::make_unique<SshConnection>(spec, m_settings, m_prompts.get(), m_keyring.get());
        const QString error = connection->open();
        {
            std::lock_guard lock(m_mutex);
            slot->lastUsed = Clock::now();
            if (error.isEmpty()) {
                slot->failedConnects = 0;
                slot->lastError.clear();
                slot->retryAt = {};
                slot->connection = std::move(connection);
            } else if (connection->deferredByPrompt()) {
                // Waiting for the operator's answer about another node: no back-off, just a short pause.
                slot->lastError = error;
                slot->retryAt = Clock::now() + std::min(m_settings.backoffInitial, milliseconds(1000));
            } else {
                ++slot->failedConnects;
                slot->lastError = error;
                auto wait = m_settings.backoffInitial;
                for (int i = 1; i < slot->failedConnects && wait < m_settings.backoffMax; ++i)
                    wait *= 2;
                slot->retryAt = Clock::now() + std::min(wait, m_settings.backoffMax);
            }
        }
        if (!error.isEmpty()) {
            job.work(nullptr, error);
            return;
        }
    }
    const bool reused = slot->connection->wasReused();
    const bool done = job.work(slot->connection.get(), {});
    slot->connection->markReused();
    if (!slot->connection->isOpen())
        dropConnection(slot);
    if (!done && reused) {
        runJob(slot, job); // once: the fresh session is not "reused", so it cannot come back here
        return;
    }
    std::lock_guard lock(m_mutex);
    slot->lastUsed = Clock::now();
}

} // namespace pd
