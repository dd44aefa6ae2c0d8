// SPDX-License-Identifier: MIT
#pragma once

#include <QMap>
#include <QString>

#include <mutex>

struct ssh_key_struct;

// What all sessions of one pool share: the lock around known_hosts (read and append), the lock that
// puts one operator question on screen at a time, and explicit identity files loaded once (an
// encrypted key is decrypted in memory with the passphrase the operator typed; the passphrase itself
// is wiped right after, and nothing is written anywhere).
namespace pd {

class SshPrompts;

class SshKeyring final {
public:
    SshKeyring() = default;
    ~SshKeyring();
    SshKeyring(const SshKeyring &) = delete;
    SshKeyring &operator=(const SshKeyring &) = delete;

    // The private key at path, loaded (and decrypted through prompts) on first use. nullptr and
    // *error set when it cannot be read or the operator declined. The keyring keeps ownership.
    ssh_key_struct *privateKey(const QString &path, const QString &node, SshPrompts *prompts, QString *error);

    std::mutex knownHostsMutex;
    std::mutex promptMutex;

private:
    std::mutex m_mutex;
    QMap<QString, ssh_key_struct *> m_keys;
};

// Hands a passphrase to libssh's auth callback: copies it into buf, wipes the copy. 0 on success.
int copyPassphrase(SshPrompts *prompts, const QString &node, const char *prompt, char *buf, size_t len);

} // namespace pd
