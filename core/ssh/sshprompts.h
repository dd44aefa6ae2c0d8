// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <mutex>
#include <optional>

// The two questions only the operator can answer: trust a host key never seen before, and the
// passphrase of an encrypted identity file. The SSH layer asks them from a pool worker thread and
// waits for the answer; implementations may block (the console's dialog does, on the GUI thread).
namespace pd {

struct HostKeyInfo {
    QString node; // profile node name
    QString host; // the host as known_hosts records it (after ~/.ssh/config HostName)
    int port = 22;
    QString keyType; // "ssh-ed25519", "ecdsa-sha2-nistp256", ...
    QString fingerprint; // "SHA256:..." exactly as `ssh-keygen -lf` prints it
    QString knownHostsPath; // where trusting it appends the key
};

class SshPrompts {
public:
    virtual ~SshPrompts() = default;
    // true: append the key to known_hosts and go on; false: refuse the connection.
    virtual bool trustNewHostKey(const HostKeyInfo &key) = 0;
    // The passphrase for an encrypted identity file, or nullopt when the operator declines.
    // The SSH layer wipes it after use and never writes it anywhere.
    virtual std::optional<QByteArray> passphrase(const QString &node, const QString &prompt) = 0;
    // true when trustNewHostKey() answers without waiting for a person (pdctl's flags, tests). A person
    // is asked one question at a time by one pool worker; the others do not wait for that answer (a
    // cluster of untrusted nodes would hold every worker and starve the trusted ones).
    virtual bool answersAtOnce() const { return false; }
};

// Non-interactive answers: pdctl (--accept-new-host-key) and tests. Thread-safe; remembers the
// host keys it was asked about so a caller can print their fingerprints.
class FixedSshPrompts final : public SshPrompts {
public:
    enum class NewHostKeys { Refuse, Accept };
    using PassphraseSource = std::function<std::optional<QByteArray>(const QString &prompt)>;

    explicit FixedSshPrompts(NewHostKeys newHostKeys = NewHostKeys::Refuse, PassphraseSource passphrase = {});
    void setNewHostKeys(NewHostKeys newHostKeys);

    bool trustNewHostKey(const HostKeyInfo &key) override;
    std::optional<QByteArray> passphrase(const QString &node, const QString &prompt) override;
    bool answersAtOnce() const override { return true; }

    QList<HostKeyInfo> askedHostKeys() const;
    int passphraseRequests() const;

private:
    mutable std::mutex m_mutex;
    NewHostKeys m_newHostKeys;
    PassphraseSource m_passphrase;
    QList<HostKeyInfo> m_asked;
    int m_passphraseRequests = 0;
};

} // namespace pd
