// SPDX-License-Identifier: MIT
// The Logs tab follows an adopted engine's own log: when the console learns that an engine started
// outside pdconsole writes elsewhere (the file behind its stdout), the open tail switches to that file
// and its lines are diagnosed.
#include "exec/localrunner.h"
#include "logspage.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestLogsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anAdoptedEnginesLogIsFollowedAndDiagnosed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString launcherLog = dir.filePath(QStringLiteral("engines/d1-9000.log"));
        const QString ownLog = dir.filePath(QStringLiteral("by-hand.log"));
        QFile own(ownLog);
        QVERIFY(own.open(QIODevice::WriteOnly));
        own.write("INFO 12-02 10:00:00 starting\n"
                  "[ERROR] HCCL EI0006: Getting socket times out. Reason: remote rank did not answer\n");
        own.close();

        LocalRunner runner;
        LogsPage page(&runner);
        LogSource source;
        source.label = QStringLiteral("d1 · 127.0.0.1:9000");
        source.engineId = QStringLiteral("127.0.0.1:9000");
        source.engine = 0;
        source.target = CommandTarget{QStringLiteral("d1"), QStringLiteral("127.0.0.1"), 22, {}};
        source.path = launcherLog; // where pdconsole's launcher would write: nothing there
        page.setSources({source});
        QSignalSpy diagnosed(&page, &LogsPage::diagnosed);
        QVERIFY(page.showEngine(0));

        page.setSourcePath(0, ownLog);
        QCOMPARE(page.sources().first().path, ownLog);
        QCOMPARE(page.currentSource(), 0);
        QVERIFY(page.tail());
        QTRY_VERIFY_WITH_TIMEOUT(!diagnosed.isEmpty(), 15000);
        QCOMPARE(diagnosed.first().at(0).value<LogSource>().path, ownLog);

        // The same path again changes nothing (the tail is not restarted).
        const LogTail *tail = page.tail();
        page.setSourcePath(0, ownLog);
        QCOMPARE(page.tail(), tail);
    }
};

QTEST_MAIN(TestLogsPage)
#include "tst_logspage.moc"
