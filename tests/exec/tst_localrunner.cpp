// SPDX-License-Identifier: MIT
// LocalRunner: exit status and both streams, bounded capture, a timeout that ends the whole process
// group (checked by PID), detached children that survive, and many runs from worker threads at once.
#include "exec/localrunner.h"
#include "exec/runnerfactory.h"

#include <QNetworkInterface>

#include <QFile>
#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <csignal>

using namespace std::chrono_literals;

namespace {

// A process is gone when /proc has no entry or only a zombie waiting for its reaper.
bool processGone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || line.mid(close + 2, 1) == "Z";
}

pd::CommandTarget localTarget()
{
    pd::CommandTarget target;
    target.node = QStringLiteral("n1");
    target.host = QStringLiteral("127.0.0.1");
    return target;
}

const pd::CommandTarget kTarget = localTarget();

} // namespace

class TestLocalRunner : public QObject {
    Q_OBJECT

private:
    pd::LocalRunner m_runner;
    QList<qint64> m_started; // PIDs this test started, ended at cleanup

private Q_SLOTS:
    void cleanup()
    {
        for (const qint64 pid : std::as_const(m_started)) {
            if (!processGone(pid))
                ::kill(pid_t(pid), SIGKILL);
        }
        m_started.clear();
    }

    void exitStatusAndStreams()
    {
        const pd::CommandResult r = m_runner.run(kTarget, "echo out; echo err >&2; exit 7", 10s);
        QVERIFY(r.started);
        QVERIFY(!r.timedOut);
        QCOMPARE(r.exitStatus, 7);
        QCOMPARE(r.out, QByteArray("out\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        QVERIFY(r.error.isEmpty());
        QVERIFY(!r.ok());
        QVERIFY(m_runner.run(kTarget, "true", 10s).ok());
    }

    void theShellKnowsItsNode()
    {
        const pd::CommandResult r = m_runner.run(kTarget, "printf %s \"$PDCONSOLE_NODE\"", 10s);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.out, QByteArray("n1"));
    }

    void stdinIsEmpty()
    {
        const pd::CommandResult r = m_runner.run(kTarget, "cat; echo done", 10s);
        QVERIFY(r.ok());
        QCOMPARE(r.out, QByteArray("done\n"));
    }

    void captureIsBoundedAndTheCommandStillFinishes()
    {
        pd::LocalRunner small(1000);
        // 2 MB on stdout: far more than a pipe holds; the command must not block on it.
        const pd::CommandResult r = small.run(kTarget, "head -c 2000000 /dev/zero | tr '\\0' x; echo tail >&2", 30s);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.out.size(), 1000);
        QVERIFY(r.err.startsWith("tail\n"));
        QVERIFY2(r.err.contains("1999000 bytes of stdout"), r.err.constData());
    }

    void timeoutKillsTheWholeGroup()
    {
        // The shell starts a background child in its own group and waits: both must end at the timeout.
        const pd::CommandResult r = m_runner.run(kTarget, "sleep 60 & echo $!; wait", 500ms);
        QVERIFY(r.started);
        QVERIFY(r.timedOut);
        QVERIFY(!r.ok());
        QVERIFY2(
            r.error.contains(QLatin1String("n1")) && r.error.contains(QLatin1String("timed out")), qPrintable(r.error));
        bool isNumber = false;
        const qint64 child = r.out.trimmed().toLongLong(&isNumber);
        QVERIFY2(isNumber, r.out.constData());
        m_started << child;
        QTRY_VERIFY_WITH_TIMEOUT(processGone(child), 5000);
    }

    void detachedChildrenSurvive()
    {
        // The contract (localrunner.h): a command that detaches a child waits until the child leads its
        // own session, as the engine start does; a child still in the shell's group when the shell exits
        // is ended with it. Without the wait this raced the fork under load (seen in CI).
        const pd::CommandResult r = m_runner.run(kTarget,
            "setsid nohup sleep 60 >/dev/null 2>&1 </dev/null & pid=$!; n=0;"
            " while [ \"$(ps -o sid= -p $pid | tr -d ' ')\" != \"$pid\" ] && [ $n -lt 200 ]; do"
            " sleep 0.05; n=$((n+1)); done; echo $pid",
            20s);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const qint64 pid = r.out.trimmed().toLongLong();
        QVERIFY(pid > 0);
        m_started << pid;
        QVERIFY(!processGone(pid));
        QVERIFY(m_runner.run(kTarget, QByteArray("kill ") + QByteArray::number(pid), 10s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(processGone(pid), 5000);
    }

    void nulInTheCommandIsAClearError()
    {
        const pd::CommandResult r = m_runner.run(kTarget, QByteArray("echo a\0b", 8), 10s);
        QVERIFY(!r.started);
        QVERIFY(r.error.contains(QLatin1String("NUL")));
        QVERIFY(r.error.contains(QLatin1String("n1")));
    }

    void theFactoryPicksTheRunnerByAddress()
    {
        pd::DefaultRunnerFactory factory;
        pd::CommandTarget target = kTarget;
        QString error;
        for (const char *local : { "127.0.0.1", "127.0.0.42", "localhost", "::1" }) {
            target.host = QString::fromLatin1(local);
            QVERIFY2(factory.runner(target, &error) != nullptr, local);
        }
        const QList<QHostAddress> own = QNetworkInterface::allAddresses();
        for (const QHostAddress &address : own) {
            target.host = address.toString();
            QVERIFY2(pd::DefaultRunnerFactory::isLocalAddress(target.host), qPrintable(target.host));
        }
        target.node = QStringLiteral("d7");
        target.host = QStringLiteral("192.0.2.7");
        QVERIFY(factory.runner(target, &error) == nullptr);
        QVERIFY2(error.contains(QLatin1String("d7 (192.0.2.7)")), qPrintable(error));
        // The composition root plugs the SSH runner in for every other node.
        auto remote = std::make_shared<pd::LocalRunner>();
        factory.setRemoteRunner(remote);
        QCOMPARE(factory.runner(target, &error).get(), remote.get());
        target.host = QStringLiteral("127.0.0.1");
        QVERIFY(factory.runner(target, &error).get() != remote.get());
    }

    void manyWorkerThreadsAtOnce()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(8);
        std::atomic<int> good { 0 };
        for (int i = 0; i < 40; ++i) {
            pool.start([this, i, &good] {
                const pd::CommandResult r = m_runner.run(kTarget, "echo " + QByteArray::number(i), 20s);
                if (r.ok() && r.out == QByteArray::number(i) + '\n')
                    ++good;
            });
        }
        pool.waitForDone();
        QCOMPARE(good.load(), 40);
    }
};

QTEST_GUILESS_MAIN(TestLocalRunner)
#include "tst_localrunner.moc"
