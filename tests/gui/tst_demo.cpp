// SPDX-License-Identifier: MIT
// `pdconsole --demo` end to end: it starts pdsim cluster, shows the live cluster, renders a screenshot,
// and leaves nothing running behind it.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace {

// The PID of the console's pdsim child, 0 while there is none. /proc/<pid>/stat: "pid (comm) state ppid ...".
qint64 pdsimChildOf(qint64 parent)
{
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const qsizetype open = line.indexOf('('), close = line.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (line.mid(open + 1, close - open - 1) == "pdsim" && fields.size() > 1 && fields.at(1).toLongLong() == parent)
            return pid;
    }
    return 0;
}

bool processGone(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray line = stat.readAll();
    return line.mid(line.lastIndexOf(')') + 2, 1) == "Z";
}

} // namespace

class TestDemo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void demoRunsTheSimulatedClusterAndStopsIt()
    {
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("demo.png"));
        QProcess console;
        console.setProgram(QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"));
        console.setArguments({QStringLiteral("--demo"), QStringLiteral("--screenshot"), shot,
                              QStringLiteral("--quit-after"), QStringLiteral("4")});
        console.setProcessChannelMode(QProcess::ForwardedChannels);
        console.start();
        QVERIFY(console.waitForStarted(5000));
        QVERIFY(console.waitForFinished(60000));
        QCOMPARE(console.exitStatus(), QProcess::NormalExit);
        QCOMPARE(console.exitCode(), 0);
        const QImage image(shot);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1400, 900));

        // The console stopped the simulator it started: its proxy no longer listens.
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), 8000);
        QVERIFY(!probe.waitForConnected(1000));
        QCOMPARE(probe.error(), QAbstractSocket::ConnectionRefusedError);
    }

    // A console that dies without stopping its simulator (a crash, SIGKILL) takes it down with it.
    void demoSimulatorDiesWithAKilledConsole()
    {
        QTemporaryDir dir;
        QProcess console;
        console.setProgram(QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"));
        console.setArguments({QStringLiteral("--demo"), QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")),
                              QStringLiteral("--quit-after"), QStringLiteral("60")});
        console.setProcessChannelMode(QProcess::ForwardedChannels);
        console.start();
        QVERIFY(console.waitForStarted(5000));
        qint64 pdsim = 0;
        QTRY_VERIFY_WITH_TIMEOUT((pdsim = pdsimChildOf(console.processId())) > 0, 30000);
        ::kill(pid_t(console.processId()), SIGKILL);
        QVERIFY(console.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(processGone(pdsim), 30000);
    }
};

QTEST_GUILESS_MAIN(TestDemo)
#include "tst_demo.moc"
