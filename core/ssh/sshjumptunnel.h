// SPDX-License-Identifier: MIT
#pragma once

#include "sshhostspec.h"
#include "sshsettings.h"

#include <QString>

#include <atomic>
#include <memory>
#include <thread>

struct ssh_channel_struct;

// ProxyJump done natively: a session to the bastion (host key checked against the same
// known_hosts, same authentication and prompts), a direct-tcpip channel from it to the target's
// host:port, and one end of a socket pair the target's session uses as its transport. A small
// thread pumps bytes between the socket pair and the channel (libssh 0.10's own ProxyJump would run
// the OpenSSH client binary, which reads neither our known_hosts nor our prompts).
namespace pd {

class SshConnection;
class SshKeyring;
class SshPrompts;

class SshJumpTunnel final {
public:
    ~SshJumpTunnel();
    SshJumpTunnel(const SshJumpTunnel &) = delete;
    SshJumpTunnel &operator=(const SshJumpTunnel &) = delete;

    // Parses "[user@]host[:port]"; a bare host may be a ~/.ssh/config alias.
    static SshHostSpec bastionSpec(const QString &jump, const QString &forNode);
    static std::unique_ptr<SshJumpTunnel> open(const SshHostSpec &bastion, const QString &host, int port,
        const SshSettings &settings, SshPrompts *prompts, SshKeyring *keyring, QString *error);
    // A socket for the target's session (SSH_OPTIONS_FD); the session owns and closes it.
    int takeSessionSocket();

private:
    SshJumpTunnel() = default;
    void pump();
    void pumpUntilClosed();

    std::unique_ptr<SshConnection> m_bastion;
    ssh_channel_struct *m_channel = nullptr;
    int m_localEnd = -1; // pumped by the thread
    int m_sessionEnd = -1; // handed to the target's session
    std::atomic_bool m_stop { false };
    std::thread m_thread;
};

} // namespace pd
