// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"

// Runs commands on this machine: `/bin/sh -c <command>` in a QProcess created on the calling worker
// thread. Used by the demo (nodes on 127.0.0.x) and by a console running on the head node. The shell
// inherits this process's environment plus PDCONSOLE_NODE=<the target's node name>, so one machine can
// play several nodes (the demo's node tools key on it; real tools ignore it).
//
// Contract: run() blocks and is thread-safe (each call owns its QProcess); never call it on the GUI
// thread. The shell becomes the leader of a new process group; on timeout, and again when the shell
// has exited, the whole group gets SIGKILL, so a background child left in it cannot hold the pipes or
// outlive the command. A detached `setsid` child has its own session and survives, as it should, once
// setsid has run: a command that detaches must wait for that before it exits (the engine start polls
// `ps -o sid=`), or the child may be ended between its fork and its setsid. stdout and
// stderr are each captured up to the cap; the rest is read and discarded so the command never blocks
// on a full pipe, and a note at the end of `err` says how much was dropped.
namespace pd {

class LocalRunner final : public CommandRunner {
public:
    static constexpr qsizetype kDefaultCaptureLimit = 4 * 1024 * 1024;

    explicit LocalRunner(qsizetype captureLimit = kDefaultCaptureLimit);

    CommandResult run(
        const CommandTarget &target, const QByteArray &shellCommand, std::chrono::milliseconds timeout) override;

private:
    qsizetype m_captureLimit;
};

} // namespace pd
