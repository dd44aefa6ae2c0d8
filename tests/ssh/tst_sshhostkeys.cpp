// SPDX-License-Identifier: MIT
// Host keys against known_hosts: an unknown key is refused unless the operator trusts it (and sees
// the fingerprint ssh-keygen prints), trusting appends it, a changed key is refused and never
// overridden.
#include "sshdharness.h"

#include "ssh/sshpool.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <future>

using namespace std::chrono_literals;
using pd::CommandResult;
using pd::FixedSshPrompts;
using pd::test::SshdHarness;
using pd::test::readFile;

namespace {

// A person at the console: the trust question stays open until the test answers it.
class WaitingPrompts final : public pd::SshPrompts {
public:
    ~WaitingPrompts() override { give(false); }
    bool trustNewHostKey(const pd::HostKeyInfo &) override
    {
        ++asked;
        return future.get();
    }
    std::optional<QByteArray> passphrase(const QString &, const QString &) override { return std::nullopt; }
    void give(bool trust)
    {
        if (!given.exchange(true))
            answer.set_value(trust);
    }

    std::atomic_int asked { 0 };
    std::promise<bool> answer;
    std::shared_future<bool> future = answer.get_future().share();
    std::atomic_bool given { false };
};

} // namespace

class TstSshHostKeys : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void unknownKeyRefusedWithoutTrust();
    void unknownKeyAcceptedWithTrustAndAppended();
    void concurrentFirstContactsAskOncePerNode();
    void aTrustQuestionDoesNotStarveTrustedNodes();
    void changedKeyRefusedEvenWhenTrustWouldBeGiven();
    void userConfigCannotSwitchOffHostKeyChecking();

private:
    pd::SshSettings settingsWithKnownHosts(const QString &name, const QByteArray &content);
    std::unique_ptr<SshdHarness> m_harness;
};

void TstSshHostKeys::initTestCase()
{
    PD_START_SSHD(m_harness, 8, error);
}

pd::SshSettings TstSshHostKeys::settingsWithKnownHosts(const QString &name, const QByteArray &content)
{
    pd::SshSettings settings = m_harness->settings();
    settings.knownHostsPath = m_harness->dir() + QLatin1Char('/') + name;
    QFile file(settings.knownHostsPath);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(content);
    return settings;
}

void TstSshHostKeys::unknownKeyRefusedWithoutTrust()
{
    const pd::SshSettings settings = settingsWithKnownHosts(QStringLiteral("kh_refuse"), {});
    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Refuse);
    pd::SshRunner runner(settings, prompts);
    const CommandResult r = runner.run(m_harness->target(0), "echo should not run", 10s);
    QVERIFY(!r.started);
    QVERIFY(!r.ok());
    const QString fingerprint = m_harness->hostKeyFingerprint(0);
    QVERIFY(fingerprint.startsWith(QLatin1String("SHA256:")));
    QVERIFY2(r.error.contains(QLatin1String("unknown host key")), qPrintable(r.error));
    QVERIFY2(r.error.contains(fingerprint), qPrintable(r.error));
    QVERIFY2(r.error.startsWith(QStringLiteral("node1 (127.0.0.1:%1)").arg(m_harness->port(0))), qPrintable(r.error));
    const QList<pd::HostKeyInfo> asked = prompts->askedHostKeys();
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().fingerprint, fingerprint); // what the operator is shown
    QCOMPARE(asked.first().keyType, QStringLiteral("ssh-ed25519"));
    QCOMPARE(asked.first().host, QStringLiteral("127.0.0.1"));
    QCOMPARE(asked.first().port, m_harness->port(0));
    QCOMPARE(asked.first().node, QStringLiteral("node1"));
    QCOMPARE(readFile(settings.knownHostsPath), QByteArray()); // nothing trusted
}

void TstSshHostKeys::unknownKeyAcceptedWithTrustAndAppended()
{
    const pd::SshSettings settings = settingsWithKnownHosts(QStringLiteral("kh_accept"), {});
    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Refuse);
    pd::SshRunner runner(settings, prompts);
    QVERIFY(!runner.run(m_harness->target(1), "true", 10s).ok());

    // The operator answers "trust" on the next attempt ("retry now" skips the back-off).
    prompts->setNewHostKeys(FixedSshPrompts::NewHostKeys::Accept);
    runner.pool()->retryNow(m_harness->nodeName(1));
    const CommandResult r = runner.run(m_harness->target(1), "echo trusted", 10s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.out, QByteArray("trusted\n"));
    QCOMPARE(prompts->askedHostKeys().size(), 2);

    QFile pub(m_harness->dir() + QStringLiteral("/host_key_2.pub"));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    const QList<QByteArray> key = pub.readAll().split(' ');
    const QByteArray line
        = QStringLiteral("[127.0.0.2]:%1 ").arg(m_harness->port(1)).toLatin1() + key.at(0) + ' ' + key.at(1);
    const QByteArray knownHosts = readFile(settings.knownHostsPath);
    QVERIFY2(knownHosts.contains(line), knownHosts.constData());

    // A fresh console with the same known_hosts connects without asking.
    auto refuseAll = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Refuse);
    pd::SshRunner again(settings, refuseAll);
    const CommandResult second = again.run(m_harness->target(1), "true", 10s);
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY(refuseAll->askedHostKeys().isEmpty());
}

void TstSshHostKeys::concurrentFirstContactsAskOncePerNode()
{
    const pd::SshSettings settings = settingsWithKnownHosts(QStringLiteral("kh_concurrent"), {});
    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Accept);
    pd::SshRunner runner(settings, prompts);
    std::vector<std::future<CommandResult>> results;
    for (int round = 0; round < 3; ++round)
        for (int node = 0; node < m_harness->nodeCount(); ++node)
            results.push_back(std::async(std::launch::async,
                [&runner, this, node] { return runner.run(m_harness->target(node), "true", 60s); }));
    for (auto &result : results) {
        const CommandResult r = result.get();
        QVERIFY2(r.ok(), qPrintable(r.error));
    }
    QCOMPARE(prompts->askedHostKeys().size(), m_harness->nodeCount());
    QCOMPARE(readFile(settings.knownHostsPath).count('\n'), m_harness->nodeCount());
}

// Seven nodes with unknown keys and one trusted node, two pool workers. While the
// operator has the first trust question open, the other untrusted nodes do not take the second worker:
// the trusted node's command runs.
void TstSshHostKeys::aTrustQuestionDoesNotStarveTrustedNodes()
{
    QString error;
    const int trusted = 7;
    QVERIFY2(m_harness->trustAllHostKeys(&error), qPrintable(error));
    QByteArray onlyTrusted;
    for (const QByteArray &line : readFile(m_harness->knownHostsPath()).split('\n'))
        if (line.startsWith(QStringLiteral("[%1]:%2 ").arg(m_harness->address(trusted)).arg(m_harness->port(trusted)).toLatin1()))
            onlyTrusted += line + '\n';
    QVERIFY(!onlyTrusted.isEmpty());
    pd::SshSettings settings = settingsWithKnownHosts(QStringLiteral("kh_starve"), onlyTrusted);
    settings.workerThreads = 2;
    auto prompts = std::make_shared<WaitingPrompts>();
    pd::SshRunner runner(settings, prompts);

    std::vector<std::future<CommandResult>> untrusted;
    for (int node = 0; node < trusted; ++node)
        untrusted.push_back(std::async(std::launch::async, [&runner, this, node] { return runner.run(m_harness->target(node), "true", 60s); }));
    QTRY_COMPARE_WITH_TIMEOUT(prompts->asked.load(), 1, 20000); // one question on screen
    // The answer never comes while this test waits, whatever happens below: the pool can still shut down.
    struct Refuse {
        WaitingPrompts *p;
        ~Refuse() { p->give(false); }
    } refuseAtExit{prompts.get()};
    const CommandResult r = runner.run(m_harness->target(trusted), "echo served", 20s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.out, QByteArray("served\n"));
    // The other untrusted nodes did not wait for the person either: they end now, deferred.
    const auto ready = [&untrusted] {
        int n = 0;
        for (auto &f : untrusted)
            n += f.wait_for(0s) == std::future_status::ready;
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(ready(), trusted - 1, 30000);
    QCOMPARE(prompts->asked.load(), 1); // still the one question: nobody else was asked meanwhile

    prompts->give(false); // the operator refuses
    int deferred = 0;
    for (auto &f : untrusted) {
        const CommandResult u = f.get();
        QVERIFY(!u.ok());
        QVERIFY2(u.error.contains(QLatin1String("unknown host key")), qPrintable(u.error));
        deferred += u.error.contains(QLatin1String("answering another host key question"));
    }
    QCOMPARE(deferred, trusted - 1);
    QCOMPARE(readFile(settings.knownHostsPath), onlyTrusted); // nothing trusted without an answer
}

void TstSshHostKeys::changedKeyRefusedEvenWhenTrustWouldBeGiven()
{
    QString error;
    QVERIFY2(m_harness->trustAllHostKeys(&error), qPrintable(error));
    const QByteArray before = readFile(m_harness->knownHostsPath());
    const int node = 7;
    QVERIFY2(m_harness->regenerateHostKey(node, &error), qPrintable(error));
    QVERIFY2(m_harness->startNode(node, &error), qPrintable(error));

    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Accept);
    pd::SshRunner runner(m_harness->settings(), prompts);
    const CommandResult r = runner.run(m_harness->target(node), "echo should not run", 10s);
    QVERIFY(!r.started);
    QVERIFY2(r.error.contains(QLatin1String("HOST KEY CHANGED")), qPrintable(r.error));
    QVERIFY2(r.error.contains(m_harness->hostKeyFingerprint(node)), qPrintable(r.error));
    QVERIFY2(r.error.contains(m_harness->nodeName(node)), qPrintable(r.error));
    QVERIFY2(r.error.contains(m_harness->knownHostsPath()), qPrintable(r.error));
    QVERIFY(prompts->askedHostKeys().isEmpty()); // never offered, never overridden
    QCOMPARE(readFile(m_harness->knownHostsPath()), before);

    // The other nodes are unaffected.
    const CommandResult other = runner.run(m_harness->target(0), "true", 10s);
    QVERIFY2(other.ok(), qPrintable(other.error));
}

QTEST_GUILESS_MAIN(TstSshHostKeys)
#include "tst_sshhostkeys.moc"

// `StrictHostKeyChecking no` and `UserKnownHostsFile /dev/null` in the user's ssh config: libssh would
// take any key silently. The console's rule holds: the unknown key is put to the operator (refused here)
// and nothing is written; a changed key is still refused.
void TstSshHostKeys::userConfigCannotSwitchOffHostKeyChecking()
{
    QFile base(m_harness->configPath());
    QVERIFY(base.open(QIODevice::ReadOnly));
    const QByteArray lax = "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n" + base.readAll();
    const QString laxPath = m_harness->dir() + QStringLiteral("/ssh_config_lax");
    QFile out(laxPath);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(lax);
    out.close();

    pd::SshSettings settings = settingsWithKnownHosts(QStringLiteral("kh_lax"), {});
    settings.configPath = laxPath;
    auto prompts = std::make_shared<FixedSshPrompts>(FixedSshPrompts::NewHostKeys::Refuse);
    {
        pd::SshRunner runner(settings, prompts);
        const CommandResult r = runner.run(m_harness->target(1), "echo should not run", 10s);
        QVERIFY2(!r.started, r.out.constData());
        QVERIFY2(r.error.contains(QLatin1String("unknown host key")), qPrintable(r.error));
        QCOMPARE(prompts->askedHostKeys().size(), 1);
        QCOMPARE(readFile(settings.knownHostsPath), QByteArray());
    }
    // A recorded key that does not match: refused, whatever the config says.
    // Node 3's entry holds node 1's real key.
    QFile otherKey(m_harness->hostKeyPath(0) + QStringLiteral(".pub"));
    QVERIFY(otherKey.open(QIODevice::ReadOnly));
    const QList<QByteArray> parts = otherKey.readAll().trimmed().split(' ');
    QVERIFY(parts.size() >= 2);
    const QByteArray wrong = QStringLiteral("[%1]:%2 ").arg(m_harness->address(2)).arg(m_harness->port(2)).toUtf8() + parts.at(0) + ' '
        + parts.at(1) + '\n';
    settings = settingsWithKnownHosts(QStringLiteral("kh_lax_changed"), wrong);
    settings.configPath = laxPath;
    pd::SshRunner runner(settings, prompts);
    const CommandResult changed = runner.run(m_harness->target(2), "echo should not run", 10s);
    QVERIFY(!changed.started);
    QVERIFY2(changed.error.contains(QLatin1String("HOST KEY CHANGED")), qPrintable(changed.error));
    QCOMPARE(readFile(settings.knownHostsPath), wrong);
}
