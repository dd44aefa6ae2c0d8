// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"

// Runs commands on this machine: `/bin/sh -c <command>` in a QProcess created on the calling worker
// thread. Used by the demo (nodes on 127.0.0.x) and by a console running on the head node.
//
// Contract: run() blocks and is thread-safe (each call owns its QProcess); never call it on the GUI
// thread. The shell becomes the leader of a new process group; on timeout the whole group gets
// SIGKILL (a detached `setsid` child has its own session and survives, as it should). stdout and
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
