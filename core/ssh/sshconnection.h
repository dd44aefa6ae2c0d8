// SPDX-License-Identifier: MIT
#pragma once

#include "exec/commandrunner.h"
#include "sshhostspec.h"
#include "sshsettings.h"

#include <QString>

#include <atomic>
#include <chrono>
#include <memory>

struct ssh_session_struct;
struct ssh_callbacks_struct;

// One authenticated SSH session to one node (libssh), kept open between commands.
// Not thread-safe: the pool hands it to one worker thread at a time. Every error message names the
// node and host:port ("node3 (10.0.0.3:22): ...").
namespace pd {

class SshKeyring;
class SshPrompts;
class SshJumpTunnel;

class SshConnection final {
public:
    SshConnection(SshHostSpec spec, const SshSettings &settings, SshPrompts *prompts, SshKeyring *keyring);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    const SshHostSpec &spec() const { return m_spec; }
    QString label() const;

    // Connects, checks the host key against known_hosts, authenticates. Empty on success, else why.
    QString open();
    bool isOpen() const;
    void close();

    // Runs one shell command line on a new channel. timeout <= 0: no limit. A command still running
    // at the timeout is ended on the node (TERM to its process group, KILL after killGrace).
    CommandResult exec(const QByteArray &command, std::chrono::milliseconds timeout, const std::atomic_bool &cancel);
    // Writes data to remotePath atomically (a temporary file beside it, then rename) with mode.
    QString upload(const QByteArray &data, const QString &remotePath, int mode);
    // Probes an idle session; false when it is dead (the caller closes it).
    bool keepalive();

    // True once a job ran on this session: a later failure may be a session the node dropped.
    bool wasReused() const { return m_reused; }
    // open() failed only because another host key question was on screen: not the node's fault.
    bool deferredByPrompt() const { return m_deferredByPrompt; }
    void markReused() { m_reused = true; }

    // The libssh session, for a bastion's tunnel (which then drives it from its own thread).
    ssh_session_struct *rawSession() const { return m_session; }

    // For libssh's auth callback (encrypted identity files found by ~/.ssh/config or defaults).
    int askPassphrase(const char *prompt, char *buf, size_t len);

private:
    QString fail(const QString &why);
    QString applyOptions();
    QString knownHostsFile() const; // the settings' file, else ~/.ssh/known_hosts (never the ssh config's choice)
    QString verifyHostKey();
    QString authenticate();

    SshHostSpec m_spec;
    SshSettings m_settings;
    SshPrompts *m_prompts;
    SshKeyring *m_keyring;
    ssh_session_struct *m_session = nullptr;
    std::unique_ptr<ssh_callbacks_struct> m_callbacks;
    std::unique_ptr<SshJumpTunnel> m_tunnel;
    QString m_resolvedHost; // after ~/.ssh/config HostName
    int m_resolvedPort = 22;
    bool m_reused = false;
    bool m_deferredByPrompt = false;
};

} // namespace pd
