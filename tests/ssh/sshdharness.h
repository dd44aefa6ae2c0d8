// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "exec/commandrunner.h"
#include "ssh/sshsettings.h"

#include <QFile>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

// A cluster of real OpenSSH servers on loopback for tests: node i (0-based) is "node<i+1>" at
// 127.0.0.<i+1> on a free port, each sshd with its own ed25519 host key, all accepting one client
// key for the current user. Everything lives in a temporary directory: host keys, sshd configs,
// authorized_keys, a client key, an empty known_hosts and an ssh config for the client.
// The harness stops only the sshds it started, by PID. Reusable by every test that crosses SSH.
namespace pd::test {

class SshdHarness final {
public:
    explicit SshdHarness(int nodes = 8);
    ~SshdHarness();
    SshdHarness(const SshdHarness &) = delete;
    SshdHarness &operator=(const SshdHarness &) = delete;

    static QString sshdPath(); // /usr/sbin/sshd, empty when OpenSSH server is not installed
    static QString currentUser();

    // Makes keys and configs and starts every node's sshd; false and *error when something failed.
    bool start(QString *error);

    int nodeCount() const { return static_cast<int>(m_nodes.size()); }
    QString address(int node) const;
    int port(int node) const;
    QString nodeName(int node) const;
    CommandTarget target(int node) const;

    QString dir() const { return m_dir.path(); }
    QString knownHostsPath() const;
    QString configPath() const;
    QString clientKeyPath() const;
    // Settings that read only the harness' files (no ~/.ssh, no /etc/ssh/ssh_known_hosts).
    SshSettings settings() const;
    // A profile node served by sshd `node` ("transport": "ssh", so even its loopback address goes
    // through sshd): the current user, the client key, one single-rank engine group at enginePort.
    Node profileNode(int node, const QString &name, Role role, int enginePort) const;

    // Lines added to one node's sshd_config (takes effect at its next start).
    void setExtraConfig(int node, const QStringList &lines);
    bool startNode(int node, QString *error);
    void stopNode(int node);
    bool isRunning(int node) const;
    // Kills (SIGKILL) the node's per-connection sshd processes, children of the sshd this harness
    // started (found by parent PID): every session to the node drops, the listener stays.
    int dropSessions(int node);
    // Sends a signal to every process under the node's sshd (sessions and their commands).
    int signalSessions(int node, int signal);
    // The whole node hangs (SIGSTOP to its sshd and everything under it) or resumes (SIGCONT).
    void freezeNode(int node, bool frozen);
    // A new host key for the node (restart it to serve the new key).
    bool regenerateHostKey(int node, QString *error);
    // "SHA256:..." of the node's current host key, as ssh-keygen -lf prints it.
    QString hostKeyFingerprint(int node) const;
    QString hostKeyPath(int node) const; // the private key; its public half is beside it (.pub)
    // Writes known_hosts lines for every node's current key.
    bool trustAllHostKeys(QString *error);
    // Appends text to the client's ssh config.
    bool appendClientConfig(const QString &text, QString *error);
    // Makes another client key (with a passphrase if given) and authorizes it on every node.
    QString addClientKey(const QString &name, const QByteArray &passphrase, QString *error);

private:
    struct NodeProcess {
        QString address;
        int port = 0;
        QStringList extraConfig;
        std::unique_ptr<QProcess> sshd;
    };
    bool keygen(const QString &path, const QByteArray &passphrase, QString *error) const;
    bool writeSshdConfig(int node, QString *error) const;
    bool waitForBanner(int node, QString *error) const;

    QTemporaryDir m_dir;
    QList<std::shared_ptr<NodeProcess>> m_nodes;
};

// A whole file's bytes, empty when it cannot be read (known_hosts, logs, audit lines in the SSH tests).
inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace pd::test

// In a test's initTestCase(): skip when sshd is missing locally, fail under CI.
#define PD_REQUIRE_SSHD()                                                                                              \
    do {                                                                                                               \
        if (pd::test::SshdHarness::sshdPath().isEmpty()) {                                                             \
            if (!qEnvironmentVariableIsEmpty("CI"))                                                                    \
                QFAIL("OpenSSH server (/usr/sbin/sshd) is missing; scripts/setup installs it");                        \
            QSKIP("OpenSSH server (/usr/sbin/sshd) is not installed");                                                 \
        }                                                                                                              \
    } while (false)

// In a test's initTestCase(): PD_REQUIRE_SSHD(), then `harness` (a std::unique_ptr<SshdHarness>) made for
// `nodes` loopback addresses and started, with no agent (SSH_AUTH_SOCK unset); `error` (a QString the macro
// declares) holds why it did not start, and is there for the test's next steps.
#define PD_START_SSHD(harness, nodes, error)                                                                           \
    PD_REQUIRE_SSHD();                                                                                                 \
    qunsetenv("SSH_AUTH_SOCK");                                                                                        \
    (harness) = std::make_unique<pd::test::SshdHarness>(nodes);                                                        \
    QString error;                                                                                                     \
    QVERIFY2((harness)->start(&error), qPrintable(error))
