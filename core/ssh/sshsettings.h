// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <chrono>

// How the SSH layer reaches nodes: files it reads, timeouts, pool size, limits. Plain value; the
// defaults are what an operator's workstation expects (~/.ssh/known_hosts, ~/.ssh/config, agent).
namespace pd {

struct SshSettings {
    QString knownHostsPath; // empty: ~/.ssh/known_hosts (trusted keys are appended here)
    QString globalKnownHostsPath; // empty: /etc/ssh/ssh_known_hosts (read only); tests: /dev/null
    QString configPath; // empty: ~/.ssh/config; "none": read no config file
    QString sshDir; // empty: ~/.ssh (where default identities id_* are looked up)
    int workerThreads = 8; // bounded: sessions are many, threads are few
    std::chrono::milliseconds connectTimeout { 10000 }; // TCP connect + banner + key exchange + auth
    std::chrono::milliseconds keepaliveInterval { 30000 }; // idle sessions are probed this often
    std::chrono::milliseconds backoffInitial { 1000 }; // first wait after a failed connect
    std::chrono::milliseconds backoffMax { 60000 }; // the wait doubles up to this
    std::chrono::milliseconds killGrace { 2000 }; // TERM -> KILL on a timed-out remote command
    std::chrono::milliseconds agentTimeout { 3000 }; // an ssh-agent silent this long is left out of authentication
    qsizetype maxOutputBytes = 8 * 1024 * 1024; // per stream; further bytes are read and dropped
};

} // namespace pd
