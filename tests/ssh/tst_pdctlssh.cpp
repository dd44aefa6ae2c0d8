// SPDX-License-Identifier: MIT
// pdctl over real SSH to nodes on 127.0.0.x: a node with "transport": "ssh" goes through sshd even on a
// loopback address, so the whole SSH path is exercised as an operator runs it: an unknown host key is
// refused until trusted (--accept-new-host-key), a lax ~/.ssh/config (StrictHostKeyChecking no,
// UserKnownHostsFile /dev/null) changes nothing, a changed key is refused, and a node left on "auto"
// at the same address runs locally without SSH.
#include "sshdharness.h"

#include "cluster/profileformat.h"

#include <QFile>
#include <QScopeGuard>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using pd::test::SshdHarness;
using pd::test::readFile;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};


} // namespace

class TstPdctlSsh : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        PD_START_SSHD(m_sshd, 2, error);
        QVERIFY(m_dir.isValid());
        pd::Profile profile;
        profile.name = QStringLiteral("pdctl-ssh");
        profile.runDir = m_dir.filePath(QStringLiteral("run"));
        profile.nodes = {m_sshd->profileNode(0, QStringLiteral("p1"), pd::Role::Prefill, 23101),
                         m_sshd->profileNode(1, QStringLiteral("d1"), pd::Role::Decode, 23201)};
        profile.proxy.address = m_sshd->address(0);
        profile.proxy.bindHost = m_sshd->address(0);
        profile.proxy.port = 23301;
        m_profilePath = m_dir.filePath(QStringLiteral("ssh.json"));
        QVERIFY2(pd::saveProfileFile(profile, m_profilePath, &error), qPrintable(error));
        profile.nodes[0].transport = pd::NodeTransport::Auto;
        profile.nodes[1].transport = pd::NodeTransport::Auto;
        m_autoProfilePath = m_dir.filePath(QStringLiteral("auto.json"));
        QVERIFY2(pd::saveProfileFile(profile, m_autoProfilePath, &error), qPrintable(error));
    }

    void unknownKeysAreRefusedUntilTrusted()
    {
        const QString knownHosts = m_dir.filePath(QStringLiteral("kh-first"));
        const Run refused = status(m_profilePath, knownHosts, m_sshd->configPath(), false);
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.out));
        QVERIFY2(refused.err.contains(QLatin1String("unknown host key")) || refused.out.contains(QLatin1String("unknown host key")),
                 qPrintable(refused.out + refused.err));
        QVERIFY2(QString(refused.out + refused.err).contains(m_sshd->hostKeyFingerprint(0)), qPrintable(refused.out + refused.err));
        QCOMPARE(readFile(knownHosts), QByteArray());

        const Run trusted = status(m_profilePath, knownHosts, m_sshd->configPath(), true);
        QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.out + trusted.err));
        QVERIFY2(trusted.out.contains(QRegularExpression(QStringLiteral("p1 +stopped"))), qPrintable(trusted.out));
        QCOMPARE(readFile(knownHosts).count('\n'), 2); // one line per node, written by pdconsole's reader
        // Now known: no flag needed.
        const Run again = status(m_profilePath, knownHosts, m_sshd->configPath(), false);
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    }

    void laxSshConfigChangesNothing()
    {
        QByteArray lax = "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n" + readFile(m_sshd->configPath());
        const QString config = m_dir.filePath(QStringLiteral("lax_config"));
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(lax);
        file.close();
        const QString knownHosts = m_dir.filePath(QStringLiteral("kh-lax"));
        const Run refused = status(m_profilePath, knownHosts, config, false);
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.out + refused.err));
        QVERIFY2(QString(refused.out + refused.err).contains(QLatin1String("unknown host key")), qPrintable(refused.out + refused.err));
        QCOMPARE(readFile(knownHosts), QByteArray());
    }

    void changedKeyIsRefused()
    {
        const QString knownHosts = m_dir.filePath(QStringLiteral("kh-changed"));
        QVERIFY(status(m_profilePath, knownHosts, m_sshd->configPath(), true).exitCode == 0);
        const QByteArray before = readFile(knownHosts);
        QString error;
        QVERIFY2(m_sshd->regenerateHostKey(1, &error), qPrintable(error));
        m_sshd->stopNode(1);
        QVERIFY2(m_sshd->startNode(1, &error), qPrintable(error));
        const Run refused = status(m_profilePath, knownHosts, m_sshd->configPath(), true);
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.out + refused.err));
        QVERIFY2(QString(refused.out + refused.err).contains(QLatin1String("HOST KEY CHANGED")), qPrintable(refused.out + refused.err));
        QCOMPARE(readFile(knownHosts), before); // --accept-new-host-key never overrides a changed key
    }

    // The same loopback nodes on "auto" run locally: no host key is asked for or written.
    void autoTransportStaysLocal()
    {
        const QString knownHosts = m_dir.filePath(QStringLiteral("kh-auto"));
        const Run local = status(m_autoProfilePath, knownHosts, m_sshd->configPath(), false);
        QVERIFY2(local.exitCode == 0, qPrintable(local.out + local.err));
        QCOMPARE(readFile(knownHosts), QByteArray());
    }

    // Through sshd: an engine started on the node by a plain script (no pdconsole
    // marker) is adopted by `pdctl engine status` over SSH, with its PID and command line, and stopped
    // by `pdctl engine stop` (the port closes).
    void adoptsAnEngineStartedByHandOverSsh()
    {
        const QString knownHosts = m_dir.filePath(QStringLiteral("kh-adopt"));
        const QString host = m_sshd->address(1);
        const QString log = m_dir.filePath(QStringLiteral("by-hand.log"));
        QProcess byHand;
        byHand.start(QStringLiteral("bash"), {QStringLiteral("-c"),
            QStringLiteral("nohup \"$0\" engine --host \"$1\" --port 23201 --role decode --grace-seconds 1 >\"$2\" 2>&1 & echo $!"),
            QStringLiteral(PD_BINARY_DIR "/sim/pdsim"), host, log});
        QVERIFY(byHand.waitForFinished(10000));
        const qint64 pid = byHand.readAllStandardOutput().trimmed().toLongLong();
        QVERIFY(pid > 0);
        const auto cleanup = qScopeGuard([pid] { ::kill(pid_t(pid), SIGKILL); });
        QTRY_VERIFY_WITH_TIMEOUT(QFile(log).size() > 0 && readFile(log).contains("23201"), 15000);

        const Run adopted = status(m_profilePath, knownHosts, m_sshd->configPath(), true);
        QVERIFY2(adopted.exitCode == 0, qPrintable(adopted.out + adopted.err));
        QVERIFY2(adopted.out.contains(QStringLiteral("started outside pdconsole, PID %1").arg(pid)), qPrintable(adopted.out));
        QVERIFY2(adopted.out.contains(QLatin1String("engine --host")), qPrintable(adopted.out));

        const Run stopped = run({QStringLiteral("engine"), QStringLiteral("stop"), QStringLiteral("--profile"), m_profilePath,
                                 QStringLiteral("--node"), QStringLiteral("d1"), QStringLiteral("--known-hosts"), knownHosts,
                                 QStringLiteral("--ssh-config"), m_sshd->configPath()});
        QVERIFY2(stopped.exitCode == 0, qPrintable(stopped.out + stopped.err));
        QVERIFY2(stopped.out.contains(QStringLiteral("(started outside pdconsole) stopped by SIGTERM, PID %1").arg(pid)),
                 qPrintable(stopped.out));
        QTRY_VERIFY_WITH_TIMEOUT(::kill(pid_t(pid), 0) != 0, 10000);
    }

private:
    Run status(const QString &profile, const QString &knownHosts, const QString &config, bool accept)
    {
        QStringList args{QStringLiteral("engine"), QStringLiteral("status"), QStringLiteral("--profile"), profile,
                         QStringLiteral("--known-hosts"), knownHosts, QStringLiteral("--ssh-config"), config};
        if (accept)
            args << QStringLiteral("--accept-new-host-key");
        return run(args);
    }
    Run run(const QStringList &args)
    {
        QProcess pdctl;
        pdctl.start(QStringLiteral(PD_BINARY_DIR "/app/pdctl/pdctl"), args);
        Run run;
        if (!pdctl.waitForFinished(60000)) {
            pdctl.kill();
            pdctl.waitForFinished(5000);
            return run;
        }
        run.exitCode = pdctl.exitStatus() == QProcess::NormalExit ? pdctl.exitCode() : -1;
        run.out = QString::fromUtf8(pdctl.readAllStandardOutput());
        run.err = QString::fromUtf8(pdctl.readAllStandardError());
        return run;
    }

    std::unique_ptr<SshdHarness> m_sshd;
    QTemporaryDir m_dir;
    QString m_profilePath;
    QString m_autoProfilePath;
};

QTEST_GUILESS_MAIN(TstPdctlSsh)
#include "tst_pdctlssh.moc"
