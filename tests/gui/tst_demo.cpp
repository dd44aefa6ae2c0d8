// SPDX-License-Identifier: MIT
// `pdconsole --demo` end to end: it starts pdsim cluster, shows the live cluster, renders a screenshot,
// and leaves nothing running behind it.
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestDemo)
#include "tst_demo.moc"
