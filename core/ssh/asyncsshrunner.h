// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"

#include <QObject>

#include <chrono>
#include <memory>

// The console's face of the SSH pool: submit from the GUI thread, get the answer as a queued signal
// on this object's thread. Nothing here blocks. Results of jobs still running when this object is
// destroyed are dropped.
namespace pd {

class SshPool;

class AsyncSshRunner final : public QObject {
    Q_OBJECT
public:
    explicit AsyncSshRunner(std::shared_ptr<SshPool> pool, QObject *parent = nullptr);
    ~AsyncSshRunner() override;

    // Returns the job id the finished signal carries.
    quint64 run(const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout);
    quint64 upload(const CommandTarget &target, const QByteArray &data, const QString &remotePath, int mode);

Q_SIGNALS:
    void commandFinished(quint64 id, const pd::CommandTarget &target, const pd::CommandResult &result);
    void uploadFinished(quint64 id, const pd::CommandTarget &target, const QString &error);

private:
    struct Relay;
    std::shared_ptr<SshPool> m_pool;
    std::shared_ptr<Relay> m_relay;
    quint64 m_nextId = 1;
};

} // namespace pd
