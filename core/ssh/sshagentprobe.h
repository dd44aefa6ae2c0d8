// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <chrono>

// Whether the ssh-agent behind a socket answers within a deadline. libssh talks to the agent with
// blocking I/O and no timeout: an agent that accepts and never answers (hung, or a stale forwarded
// socket) would hold the SSH worker forever. SshConnection asks this first and leaves a silent agent
// out of the authentication (the identity files are still tried).
namespace pd {

// Connects to the Unix socket, asks for the identity list (SSH_AGENTC_REQUEST_IDENTITIES) and waits for
// the head of the answer. False with *why when it cannot connect or nothing comes back in time.
bool sshAgentAnswers(const QByteArray &socketPath, std::chrono::milliseconds deadline, QString *why);

} // namespace pd
