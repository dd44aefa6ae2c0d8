// SPDX-License-Identifier: MIT
// Authentication and routing: an encrypted identity file (passphrase through the prompt, asked once,
// never stored), ssh-agent, ~/.ssh/config aliases (HostName, Port, User, IdentityFile), ProxyJump
// through one sshd to another (from the config and from the profile's jump host).
#include "sshdharness.h"

#include "ssh/sshpool.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QFile>
#include <QProcess>
#include <QTest>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace std::chrono_literals;
using pd::CommandResult;
using pd::FixedSshPrompts;
using pd::test::SshdHarness;

class TstSshAuth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void encryptedIdentityWrongPassphraseIsAClearError();
    void encryptedIdentityDeclinedIsAClearError();
    void encryptedIdentityAskedOnceForAllNodes();
    void encryptedIdentityFromConfigAsksThroughTheCallback();
    void noAcceptedKeyNamesUserAndWhatWasTried();
    void agentAuthenticates();
    void silentAgentIsLeftOut();
    void configAliasGivesHostNamePortUser();
    void proxyJumpFromConfig();
    void proxyJumpFromProfileSpec();
    void bastionRefusingForwardingIsNamed();
    void unknownBastionKeyRefused();

private:
    pd::SshSettings settingsWithConfig(const QString &name, const QString &config) const;
    pd::CommandTarget alias(const QString &name) const;
    std::unique_ptr<SshdHarness> m_harness;
    QString m_encryptedKey;
    const QByteArray m_passphrase = "correct horse $(battery) 'staple'";
};

void TstSshAuth::initTestCase()
{
    PD_START_SSHD(m_harness, 8, error);
    QVERIFY2(m_harness->trustAllHostKeys(&error), qPrintable(error));
    m_encryptedKey = m_harness->addClientKey(QStringLiteral("encrypted_key"), m_passphrase, &error);
    QVERIFY2(!m_encryptedKey.isEmpty(), qPrintable(error));
}

pd::SshSettings TstSshAuth::settingsWithConfig(const QString &name, const QString &config) const
{
    pd::SshSettings settings = m_harness->settings();
    settings.configPath = m_harness->dir() + QLatin1Char('/') + name;
    QFile file(settings.configPath);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(config.toUtf8());
    return settings;
}

pd::CommandTarget TstSshAuth::alias(const QString &name) const
{
    pd::CommandTarget target;
    target.node = name;
    target.host = name;
    target.user.clear(); // from the config
    return target;
}

void TstSshAuth::encryptedIdentityWrongPassphraseIsAClearError()
{
    const pd::SshSettings settings = settingsWithConfig(
        QStringLiteral("cfg_plain"), QStringLiteral("Host *\n  User %1\n").arg(SshdHarness::currentUser()));
    auto prompts = std::make_shared<FixedSshPrompts>(
        FixedSshPrompts::NewHostKeys::Refuse, [](const QString &) { return QByteArray("wrong"); });
    pd::SshRunner runner(settings, prompts);
    pd::SshHostSpec spec { m_harness->target(0), m_encryptedKey, {} };
    runner.registerHost(spec);
    const CommandResult r = runner.run(spec.target, "true", 10s);
    QVERIFY(!r.started);
    QVERIFY2(r.error.contains(m_encryptedKey), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("wrong passphrase")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("authentication failed")), qPrintable(r.error));
    QVERIFY(prompts->passphraseRequests() >= 1);
}

void TstSshAuth::encryptedIdentityDeclinedIsAClearError()
{
    const pd::SshSettings settings = settingsWithConfig(
        QStringLiteral("cfg_plain"), QStringLiteral("Host *\n  User %1\n").arg(SshdHarness::currentUser()));
    auto prompts = std::make_shared<FixedSshPrompts>(); // no passphrase source: declines
    pd::SshRunner runner(settings, prompts);
    pd::SshHostSpec spec { m_harness->target(1), m_encryptedKey, {} };
    runner.registerHost(spec);
    const CommandResult r = runner.run(spec.target, "true", 10s);
    QVERIFY2(r.error.contains(QLatin1String("no passphrase was given")), qPrintable(r.error));
}

void TstSshAuth::encryptedIdentityAskedOnceForAllNodes()
{
    const pd::SshSettings settings = settingsWithConfig(
        QStringLiteral("cfg_plain"), QStringLiteral("Host *\n  User %1\n").arg(SshdHarness::currentUser()));
    const QByteArray passphrase = m_passphrase;
    auto prompts = std::make_shared<FixedSshPrompts>(
        FixedSshPrompts::NewHostKeys::Refuse, [passphrase](const QString &) { return passphrase; });
    pd::SshRunner runner(settings, prompts);
    for (int node = 0; node < m_harness->nodeCount(); ++node)
        runner.registerHost({ m_harness->target(node), m_encryptedKey, {} });
    for (int node = 0; node < m_harness->nodeCount(); ++node) {
        const CommandResult r = runner.run(m_harness->target(node), "echo in", 10s);
        QVERIFY2(r.ok(), qPrintable(r.error));
    }
    QCOMPARE(prompts->passphraseRequests(), 1);
}

void TstSshAuth::encryptedIdentityFromConfigAsksThroughTheCallback()
{
    const pd::SshSettings settings = settingsWithConfig(QStringLiteral("cfg_encrypted"),
        QStringLiteral("Host *\n  User %1\n  IdentityFile %2\n").arg(SshdHarness::currentUser(), m_encryptedKey));
    const QByteArray passphrase = m_passphrase;
    QStringList prompted;
    auto prompts = std::make_shared<FixedSshPrompts>(
        FixedSshPrompts::NewHostKeys::Refuse, [passphrase, &prompted](const QString &prompt) {
            prompted << prompt;
            return passphrase;
        });
    pd::SshRunner runner(settings, prompts);
    const CommandResult r = runner.run(m_harness->target(2), "echo in", 10s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(prompts->passphraseRequests() >= 1);
}

void TstSshAuth::noAcceptedKeyNamesUserAndWhatWasTried()
{
    const pd::SshSettings settings = settingsWithConfig(
        QStringLiteral("cfg_nokey"), QStringLiteral("Host *\n  User %1\n").arg(SshdHarness::currentUser()));
    pd::SshRunner runner(settings, std::make_shared<FixedSshPrompts>());
    const CommandResult r = runner.run(m_harness->target(3), "true", 10s);
    QVERIFY(!r.started);
    QVERIFY2(r.error.startsWith(QStringLiteral("node4 (127.0.0.4:%1): authentication failed for user %2")
                                    .arg(m_harness->port(3))
                                    .arg(SshdHarness::currentUser())),
        qPrintable(r.error));
}

void TstSshAuth::agentAuthenticates()
{
    const QString socket = m_harness->dir() + QStringLiteral("/agent.sock");
    QProcess agent;
    agent.start(QStringLiteral("ssh-agent"), { QStringLiteral("-D"), QStringLiteral("-a"), socket });
    if (!agent.waitForStarted(5000))
        QSKIP("ssh-agent is not installed (openssh-client)");
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 5000);
    QProcess add;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), socket);
    add.setProcessEnvironment(env);
    add.start(QStringLiteral("ssh-add"), { m_harness->clientKeyPath() });
    QVERIFY(add.waitForFinished(10000));
    QCOMPARE(add.exitCode(), 0);

    const pd::SshSettings settings = settingsWithConfig(
        QStringLiteral("cfg_agent"), QStringLiteral("Host *\n  User %1\n").arg(SshdHarness::currentUser()));
    qputenv("SSH_AUTH_SOCK", socket.toLocal8Bit());
    {
        pd::SshRunner runner(settings, std::make_shared<FixedSshPrompts>());
        const CommandResult r = runner.run(m_harness->target(4), "echo agent", 10s);
        QVERIFY2(r.ok(), qPrintable(r.error));
    }
    qunsetenv("SSH_AUTH_SOCK");
    agent.terminate(); // the agent this test started, by its PID
    agent.waitForFinished(5000);
}

// An agent socket that accepts and never answers (a hung agent, a stale forwarded socket): libssh would
// wait on it forever. It is left out after SshSettings::agentTimeout and the IdentityFile still logs in.
void TstSshAuth::silentAgentIsLeftOut()
{
    // A raw Unix socket served by a thread of its own (the SSH worker blocks in libssh meanwhile):
    // connections are accepted and held open, never answered.
    const QByteArray socketPath = (m_harness->dir() + QStringLiteral("/silent-agent.sock")).toLocal8Bit();
    ::unlink(socketPath.constData());
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    QVERIFY(listener >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, socketPath.constData(), std::size_t(socketPath.size()));
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0);
    QVERIFY(::listen(listener, 8) == 0);
    std::atomic<bool> stop{false};
    std::atomic<int> accepted{0};
    std::thread server([&] {
        std::vector<int> held;
        while (!stop) {
            pollfd p{listener, POLLIN, 0};
            if (::poll(&p, 1, 50) > 0) {
                const int c = ::accept(listener, nullptr, nullptr);
                if (c >= 0) {
                    held.push_back(c);
                    ++accepted;
                }
            }
        }
        for (int c : held)
            ::close(c);
    });

    pd::SshSettings settings = settingsWithConfig(QStringLiteral("cfg_silent_agent"),
        QStringLiteral("Host *\n  User %1\n  IdentityFile %2\n").arg(SshdHarness::currentUser(), m_harness->clientKeyPath()));
    settings.agentTimeout = std::chrono::milliseconds(500);
    qputenv("SSH_AUTH_SOCK", socketPath);
    CommandResult r;
    {
        pd::SshRunner runner(settings, std::make_shared<FixedSshPrompts>());
        r = runner.run(m_harness->target(5), "echo through", 20s);
    }
    qunsetenv("SSH_AUTH_SOCK");
    stop = true;
    server.join();
    ::close(listener);
    ::unlink(socketPath.constData());
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.out.trimmed(), QByteArray("through"));
    QVERIFY(accepted >= 1); // the probe did reach the silent agent
}

void TstSshAuth::configAliasGivesHostNamePortUser()
{
    const pd::SshSettings settings = settingsWithConfig(QStringLiteral("cfg_alias"),
        QStringLiteral("Host decode-7\n  HostName 127.0.0.7\n  Port %1\n  User %2\n  IdentityFile %3\n")
            .arg(m_harness->port(6))
            .arg(SshdHarness::currentUser(), m_harness->clientKeyPath()));
    pd::SshRunner runner(settings, std::make_shared<FixedSshPrompts>());
    const CommandResult r = runner.run(alias(QStringLiteral("decode-7")), "echo $SSH_CONNECTION", 10s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(r.out.contains(QByteArray(" 127.0.0.7 " + QByteArray::number(m_harness->port(6)))), r.out.constData());
}

void TstSshAuth::proxyJumpFromConfig()
{
    // decode-behind (127.0.0.6) through the bastion alias (127.0.0.5); both keys known.
    const pd::SshSettings settings = settingsWithConfig(QStringLiteral("cfg_jump"),
        QStringLiteral("Host decode-behind\n  HostName 127.0.0.6\n  Port %1\n  ProxyJump bastion\n"
                       "Host bastion\n  HostName 127.0.0.5\n  Port %2\n"
                       "Host *\n  User %3\n  IdentityFile %4\n")
            .arg(m_harness->port(5))
            .arg(m_harness->port(4))
            .arg(SshdHarness::currentUser(), m_harness->clientKeyPath()));
    pd::SshRunner runner(settings, std::make_shared<FixedSshPrompts>());
    for (int i = 0; i < 3; ++i) {
        const CommandResult r = runner.run(alias(QStringLiteral("decode-behind")), "echo $SSH_CONNECTION", 10s);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.out.contains(QByteArray(" 127.0.0.6 " + QByteArray::number(m_harness->port(5)))), r.out.constData());
    }
    const QByteArray payload(200000, 'x'); // a large transfer through the tunnel
    const CommandResult big
        = runner.run(alias(QStringLiteral("decode-behind")), "head -c 200000 /dev/zero | tr '\\0' x", 20s);
    QVERIFY2(big.ok(), qPrintable(big.error));
    QCOMPARE(big.out, payload);
}

void TstSshAuth::proxyJumpFromProfileSpec()
{
    pd::SshRunner runner(m_harness->settings(), std::make_shared<FixedSshPrompts>());
    pd::SshHostSpec spec;
    spec.target = m_harness->target(7);
    spec.jumpHost = QStringLiteral("%1@127.0.0.2:%2").arg(SshdHarness::currentUser()).arg(m_harness->port(1));
    runner.registerHost(spec);
    const CommandResult r = runner.run(spec.target, "echo via bastion", 10s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.out, QByteArray("via bastion\n"));
    const QString error = runner.upload(
        spec.target, "uploaded through the tunnel", m_harness->dir() + QStringLiteral("/jumped.txt"), 0600);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TstSshAuth::bastionRefusingForwardingIsNamed()
{
    // The bastion's sshd forbids forwarding: the error names the bastion and the tunnel, which also
    // proves the connection really goes through it.
    const int bastion = 2;
    QString error;
    m_harness->setExtraConfig(bastion, { QStringLiteral("AllowTcpForwarding no") });
    QVERIFY2(m_harness->startNode(bastion, &error), qPrintable(error));
    pd::SshRunner runner(m_harness->settings(), std::make_shared<FixedSshPrompts>());
    pd::SshHostSpec spec;
    spec.target = m_harness->target(0);
    spec.jumpHost = QStringLiteral("127.0.0.3:%1").arg(m_harness->port(bastion));
    runner.registerHost(spec);
    const CommandResult r = runner.run(spec.target, "true", 10s);
    QVERIFY(!r.started);
    QVERIFY2(r.error.startsWith(QStringLiteral("node1 (127.0.0.1:%1): ").arg(m_harness->port(0))), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("bastion")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("cannot open a tunnel")), qPrintable(r.error));
    m_harness->setExtraConfig(bastion, {});
    QVERIFY2(m_harness->startNode(bastion, &error), qPrintable(error));
}

void TstSshAuth::unknownBastionKeyRefused()
{
    pd::SshSettings settings = m_harness->settings();
    settings.knownHostsPath = m_harness->dir() + QStringLiteral("/kh_target_only");
    QFile full(m_harness->knownHostsPath());
    QVERIFY(full.open(QIODevice::ReadOnly));
    const QByteArray targetLine = full.readAll().split('\n').value(0); // node1 only
    QFile targetOnly(settings.knownHostsPath);
    QVERIFY(targetOnly.open(QIODevice::WriteOnly));
    targetOnly.write(targetLine + '\n');
    targetOnly.close();

    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Refuse);
    pd::SshRunner runner(settings, prompts);
    pd::SshHostSpec spec;
    spec.target = m_harness->target(0);
    spec.jumpHost = QStringLiteral("127.0.0.4:%1").arg(m_harness->port(3));
    runner.registerHost(spec);
    const CommandResult r = runner.run(spec.target, "true", 10s);
    QVERIFY(!r.started);
    QVERIFY2(r.error.contains(QLatin1String("bastion")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("unknown host key")), qPrintable(r.error));
    QCOMPARE(prompts->askedHostKeys().size(), 1);
    QCOMPARE(prompts->askedHostKeys().first().fingerprint, m_harness->hostKeyFingerprint(3));
}

QTEST_GUILESS_MAIN(TstSshAuth)
#include "tst_sshauth.moc"
