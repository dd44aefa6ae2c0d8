// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <chrono>

// The seam every command on a node goes through: an SSH runner (core/ssh) for real clusters and a
// local runner (QProcess) for the demo and for a console running on the head node. Both take the
// same shell command line, built by the one quoting function from validated profile fields.
//
// run() blocks: call it from a worker thread (never the GUI thread). It is thread-safe; commands to
// one host may be serialized by the implementation.
namespace pd {

struct CommandTarget {
    QString node;        // profile node name (for messages and per-node sessions)
    QString host;        // address or ~/.ssh/config alias
    int port = 22;       // SSH port (ignored by the local runner)
    QString user;        // SSH user; empty = from ~/.ssh/config or the local user
    // Auto: this machine's addresses run locally, others over SSH. Ssh / Local: as the node says.
    enum class Transport { Auto, Ssh, Local } transport = Transport::Auto;
};

struct CommandResult {
    bool started = false;       // the command reached the node's shell
    int exitStatus = -1;        // when started and finished
    bool timedOut = false;
    QByteArray out;             // stdout (bounded by the runner)
    QByteArray err;             // stderr (bounded by the runner)
    QString error;              // transport problem, with the host: "node3 (10.0.0.3:22): connection refused"
    qint64 elapsedMs = 0;

    bool ok() const { return started && !timedOut && exitStatus == 0 && error.isEmpty(); }
};

class CommandRunner {
public:
    virtual ~CommandRunner() = default;
    virtual CommandResult run(const CommandTarget &target, const QByteArray &shellCommand,
                              std::chrono::milliseconds timeout) = 0;
};

} // namespace pd
