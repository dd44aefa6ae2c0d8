// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "sshhostspec.h"
#include "sshsettings.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// One kept-open SSH session per node, served by a fixed number of worker threads.
//
// Threads: settings.workerThreads workers own every libssh call; hundreds of nodes share them.
// A node's jobs run one after another on its session (never two workers on one node), nodes are
// served round-robin, so one node's queue cannot starve the others. Blocking is bounded: connect
// by settings.connectTimeout, a command by its own timeout (plus killGrace and a little slack when
// the host stops answering). After a failed connect a node backs off (backoffInitial doubling up
// to backoffMax): jobs for it fail at once with the last error and the time of the next attempt,
// so a dead host costs no worker time. Idle sessions get a keepalive every keepaliveInterval.
// Callbacks run on a worker thread; they must be quick and must not call back into the pool
// synchronously (queue work instead).
namespace pd {

class SshConnection;
class SshKeyring;
class SshPrompts;

struct SshNodeStatus {
    bool connected = false;
    int failedConnects = 0; // consecutive
    QString lastError; // of the last failed connect, empty after a good one
    std::chrono::milliseconds retryIn { 0 }; // until the next connect attempt is allowed
};

class SshPool final {
public:
    using CommandCallback = std::function<void(CommandResult)>;
    using UploadCallback = std::function<void(QString error)>;

    SshPool(SshSettings settings, std::shared_ptr<SshPrompts> prompts);
    ~SshPool(); // fails queued jobs ("shutting down"), cancels running commands, joins workers
    SshPool(const SshPool &) = delete;
    SshPool &operator=(const SshPool &) = delete;

    const SshSettings &settings() const { return m_settings; }

    // Identity file and bastion for a node (from the profile); host/port/user come with each job.
    void registerHost(const SshHostSpec &spec);
    void submitCommand(const CommandTarget &target, const QByteArray &command, std::chrono::milliseconds timeout,
        CommandCallback done);
    void submitUpload(
        const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode, UploadCallback done);
    // "Retry now": forget a node's back-off (e.g. after the operator trusted its key or fixed sshd).
    void retryNow(const QString &node);
    SshNodeStatus status(const QString &node) const;

private:
    // Returns false when the (reused) session turned out dead before anything started on the
    // node: the pool then reconnects and runs the work once more, on the fresh session.
    using Work = std::function<bool(SshConnection *connection, const QString &connectError)>;
    struct Job {
        CommandTarget target;
        Work work;
    };
    struct NodeSlot {
        SshHostSpec spec;
        std::deque<Job> jobs;
        bool busy = false;
        bool queued = false;
        std::unique_ptr<SshConnection> connection;
        int failedConnects = 0;
        QString lastError;
        std::chrono::steady_clock::time_point retryAt {};
        std::chrono::steady_clock::time_point lastUsed {};
    };

    void enqueue(const CommandTarget &target, Work work);
    void workerLoop();
    void runJob(NodeSlot *slot, Job &job);
    void dropConnection(NodeSlot *slot);
    NodeSlot *idleSessionDueForKeepalive(std::chrono::steady_clock::time_point now);

    const SshSettings m_settings;
    const std::shared_ptr<SshPrompts> m_prompts;
    std::unique_ptr<SshKeyring> m_keyring;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    QHash<QString, std::shared_ptr<NodeSlot>> m_slots;
    std::deque<NodeSlot *> m_ready;
    std::atomic_bool m_stopping { false };
    std::vector<std::thread> m_workers;
};

} // namespace pd
