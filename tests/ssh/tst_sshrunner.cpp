// SPDX-License-Identifier: MIT
// SshRunner against real sshds: output and exit status, many nodes through a small pool, kept-open
// sessions, bounded output, SFTP upload, a remote command ended at its timeout, the async facade.
#include "sshdharness.h"

#include "cluster/profile.h"
#include "ssh/sshpool.h"
#include "ssh/sshprompts.h"
#include "ssh/sshrunner.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <sys/stat.h>

using namespace std::chrono_literals;
using pd::CommandResult;
using pd::test::SshdHarness;

class TstSshRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void runReturnsOutputErrorAndExitStatus();
    void sessionIsKeptOpenBetweenCommands();
    void manyCommandsToEightNodesThroughFourThreads();
    void outputIsBounded();
    void commandTimeoutEndsTheRemoteCommand();
    void uploadPutsBytesAtomicallyWithMode();
    void uploadToMissingDirectoryNamesThePath();
    void sshHostSpecFromProfileNode();

private:
    std::unique_ptr<SshdHarness> m_harness;
    std::unique_ptr<pd::SshRunner> m_runner;
};

void TstSshRunner::initTestCase()
{
    PD_START_SSHD(m_harness, 8, error);
    QVERIFY2(m_harness->trustAllHostKeys(&error), qPrintable(error));
    m_runner = std::make_unique<pd::SshRunner>(m_harness->settings(), std::make_shared<pd::FixedSshPrompts>());
}

void TstSshRunner::runReturnsOutputErrorAndExitStatus()
{
    const CommandResult r
        = m_runner->run(m_harness->target(0), "printf 'hello %s' \"$(whoami)\"; printf oops >&2; exit 3", 10s);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(r.started);
    QCOMPARE(r.exitStatus, 3);
    QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("hello ") + SshdHarness::currentUser());
    QCOMPARE(r.err, QByteArray("oops"));
    QVERIFY(!r.timedOut);
    QVERIFY(!r.ok());

    const CommandResult good = m_runner->run(m_harness->target(0), "true", 10s);
    QVERIFY2(good.ok(), qPrintable(good.error));
}

void TstSshRunner::sessionIsKeptOpenBetweenCommands()
{
    // SSH_CONNECTION names the client's port: the same port means the same TCP connection.
    const CommandResult first = m_runner->run(m_harness->target(1), "echo $SSH_CONNECTION", 10s);
    const CommandResult second = m_runner->run(m_harness->target(1), "echo $SSH_CONNECTION", 10s);
    QVERIFY2(first.ok(), qPrintable(first.error));
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY(!first.out.trimmed().isEmpty());
    QCOMPARE(second.out, first.out);
    QVERIFY(m_runner->pool()->status(m_harness->nodeName(1)).connected);
}

void TstSshRunner::manyCommandsToEightNodesThroughFourThreads()
{
    pd::SshSettings settings = m_harness->settings();
    settings.workerThreads = 4;
    pd::SshPool pool(settings, std::make_shared<pd::FixedSshPrompts>());
    constexpr int perNode = 12;
    const int total = m_harness->nodeCount() * perNode;
    std::mutex mutex;
    std::condition_variable done;
    int finished = 0;
    QStringList failures;
    QSet<QByteArray> connections[8];
    for (int i = 0; i < perNode; ++i) {
        for (int node = 0; node < m_harness->nodeCount(); ++node) {
            const QByteArray expected = "n" + QByteArray::number(node) + "-" + QByteArray::number(i);
            pool.submitCommand(m_harness->target(node), "echo " + expected + "; echo $SSH_CONNECTION | cut -d' ' -f2,3",
                60s, [&, expected, node](CommandResult r) {
                    std::lock_guard lock(mutex);
                    const QList<QByteArray> lines = r.out.split('\n');
                    if (!r.ok() || lines.value(0) != expected)
                        failures << QStringLiteral("%1: %2 %3")
                                        .arg(QString::fromUtf8(expected), r.error, QString::fromUtf8(r.out));
                    else
                        connections[node].insert(lines.value(1));
                    ++finished;
                    done.notify_all();
                });
        }
    }
    std::unique_lock lock(mutex);
    QVERIFY(done.wait_for(lock, 240s, [&] { return finished == total; })); // a bound, not a target: ASan on a loaded machine is slow
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    for (int node = 0; node < m_harness->nodeCount(); ++node) {
        QCOMPARE(connections[node].size(), 1); // one kept-open session per node
        QVERIFY(connections[node].values().first().endsWith(m_harness->address(node).toLatin1()));
    }
}

void TstSshRunner::outputIsBounded()
{
    pd::SshSettings settings = m_harness->settings();
    settings.maxOutputBytes = 1000;
    pd::SshRunner runner(settings, std::make_shared<pd::FixedSshPrompts>());
    const CommandResult r
        = runner.run(m_harness->target(2), "head -c 300000 /dev/zero; head -c 5000 /dev/zero >&2; exit 0", 20s);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.out.size(), 1000);
    QCOMPARE(r.err.size(), 1000);
}

void TstSshRunner::commandTimeoutEndsTheRemoteCommand()
{
    // The remote shell forks sleep; both must end when the command times out.
    const QString pidFile = m_harness->dir() + QStringLiteral("/sleeper.pid");
    const QByteArray command = "sleep 300 & echo $! > " + pidFile.toUtf8() + "; wait";
    const CommandResult r = m_runner->run(m_harness->target(3), command, 1500ms);
    QVERIFY(r.started);
    QVERIFY(r.timedOut);
    QVERIFY2(r.error.contains(QLatin1String("timed out")), qPrintable(r.error));
    QVERIFY2(r.error.contains(m_harness->nodeName(3)), qPrintable(r.error));
    QFile file(pidFile);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const pid_t sleeper = file.readAll().trimmed().toInt();
    QVERIFY(sleeper > 0);
    QTRY_VERIFY_WITH_TIMEOUT(::kill(sleeper, 0) != 0, 10000);
    // The session survives a timed-out command.
    const CommandResult after = m_runner->run(m_harness->target(3), "echo still here", 10s);
    QVERIFY2(after.ok(), qPrintable(after.error));
}

void TstSshRunner::uploadPutsBytesAtomicallyWithMode()
{
    const QString dir = m_harness->dir() + QStringLiteral("/upload");
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + QStringLiteral("/run_dp_template.sh");
    QByteArray data;
    for (int i = 0; i < 70000; ++i)
        data.append(static_cast<char>(i * 7 % 256));
    QString error = m_runner->upload(m_harness->target(4), data, path, 0750);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), data);
    file.close();
    struct stat info { };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
    QCOMPARE(info.st_mode & 07777, 0750u);

    // Overwrite: the new content replaces the old one; no temporary file is left behind.
    error = m_runner->upload(m_harness->target(4), "#!/bin/sh\necho v2\n", path, 0755);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const CommandResult r = m_runner->run(m_harness->target(4), path.toUtf8(), 10s);
    QVERIFY2(r.ok(), qPrintable(r.error + QString::fromUtf8(r.err)));
    QCOMPARE(r.out, QByteArray("v2\n"));
    QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList { QStringLiteral("run_dp_template.sh") });
}

void TstSshRunner::uploadToMissingDirectoryNamesThePath()
{
    const QString path = m_harness->dir() + QStringLiteral("/no/such/dir/file");
    const QString error = m_runner->upload(m_harness->target(4), "x", path, 0644);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(m_harness->nodeName(4)), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("/no/such/dir/file")), qPrintable(error));
}

void TstSshRunner::sshHostSpecFromProfileNode()
{
    pd::Node node;
    node.name = QStringLiteral("decode-3");
    node.address = QStringLiteral("10.0.0.3");
    node.ssh.port = 2200;
    node.ssh.user = QStringLiteral("ops");
    node.ssh.identityFile = QStringLiteral("~/.ssh/pd_ed25519");
    node.ssh.jumpHost = QStringLiteral("admin@bastion:2222");
    const pd::SshHostSpec spec = pd::sshHostSpec(node);
    QCOMPARE(spec.target.node, node.name);
    QCOMPARE(spec.target.host, node.address);
    QCOMPARE(spec.target.port, 2200);
    QCOMPARE(spec.target.user, QStringLiteral("ops"));
    QCOMPARE(spec.identityFile, node.ssh.identityFile);
    QCOMPARE(spec.jumpHost, node.ssh.jumpHost);
    QCOMPARE(pd::targetLabel(spec.target), QStringLiteral("decode-3 (10.0.0.3:2200)"));
}

QTEST_GUILESS_MAIN(TstSshRunner)
#include "tst_sshrunner.moc"
