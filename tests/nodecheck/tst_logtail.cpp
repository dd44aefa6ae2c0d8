// SPDX-License-Identifier: MIT
// LogTail follows a real file that grows, through /bin/sh (the same command the SSH runner would send).
#include "logs/logtail.h"
#include "shellrunner.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestLogTail final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void followsAGrowingFile();
    void backlogStartsAtALineBoundary();
    void truncationRestartsFromTheTop();
    void pauseLosesNothing();
    void boundedBufferAndSearch();
    void missingFileIsReported();
    void pathWithQuotesAndSpaces();

private:
    void append(const QString &path, const QByteArray &bytes);
    LogTailOptions fast() const;
    QTemporaryDir m_dir;
};

void TestLogTail::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestLogTail::append(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Append));
    f.write(bytes);
}

LogTailOptions TestLogTail::fast() const
{
    LogTailOptions o;
    o.pollInterval = std::chrono::milliseconds(50);
    o.commandTimeout = std::chrono::seconds(10);
    return o;
}

void TestLogTail::followsAGrowingFile()
{
    const QString path = m_dir.filePath(QStringLiteral("engine-9000.log"));
    append(path, "INFO 06-12 10:00:00 [api_server.py:1] Started server process [4242]\n");
    ShellRunner runner;
    LogTail tail(&runner, CommandTarget { QStringLiteral("d1"), QStringLiteral("127.0.0.1"), 22, {} }, path, fast());
    tail.setEngine(QStringLiteral("127.0.0.5:9000"));
    QAbstractItemModelTester tester(tail.model());
    QSignalSpy diagnosed(&tail, &LogTail::diagnosed);
    tail.start();
    QTRY_COMPARE(tail.model()->rowCount(), 1);

    // A line written in two pieces appears once, whole.
    const int callsBefore = runner.calls.load();
    append(path, "ERROR 06-12 10:00:01 [core.py:1] RuntimeError: NPU out of memory. ");
    QTRY_VERIFY(runner.calls.load() >= callsBefore + 2); // a whole poll began after the first piece
    QTRY_VERIFY(!tail.isPolling()); // and landed
    QCOMPARE(tail.model()->rowCount(), 1);
    append(path, "Tried to allocate 898.00 MiB\nINFO 06-12 more\n");
    QTRY_COMPARE(tail.model()->rowCount(), 3);
    QCOMPARE(tail.model()->index(1, 0).data().toString(),
        QStringLiteral(
            "ERROR 06-12 10:00:01 [core.py:1] RuntimeError: NPU out of memory. Tried to allocate 898.00 MiB"));
    QCOMPARE(tail.model()->index(1, 0).data(LogTailModel::SignatureRole).toInt(), 1);
    QCOMPARE(tail.model()->firstErrorRow(), 1);

    QTRY_COMPARE(diagnosed.size(), 1);
    const auto e = diagnosed.first().first().value<DiagnosisEvent>();
    QCOMPARE(e.node, QStringLiteral("d1"));
    QCOMPARE(e.engine, QStringLiteral("127.0.0.5:9000"));
    QCOMPARE(e.signatureId, 1);
    QCOMPARE(
        e.offset, qint64(QByteArray("INFO 06-12 10:00:00 [api_server.py:1] Started server process [4242]\n").size()));
    QVERIFY(e.time.isValid());

    // The same signature again within the fold window: no second event; another signature: an event.
    append(path, "RuntimeError: NPU out of memory. Tried to allocate 1.00 GiB\nEI0006: Getting socket times out.\n");
    QTRY_COMPARE(tail.model()->rowCount(), 5);
    QTRY_COMPARE(diagnosed.size(), 2);
    QCOMPARE(diagnosed.at(1).first().value<DiagnosisEvent>().signatureId, 8);
    QCOMPARE(tail.model()->nextErrorRow(1), 3);
}

void TestLogTail::backlogStartsAtALineBoundary()
{
    const QString path = m_dir.filePath(QStringLiteral("big.log"));
    QByteArray body;
    for (int i = 0; i < 1000; ++i)
        body += QByteArray("line ") + QByteArray::number(i).rightJustified(4, '0')
            + " padding padding padding\n"; // 35 bytes
    append(path, body);
    ShellRunner runner;
    LogTailOptions o = fast();
    o.backlogBytes = 1000; // ~28 lines, the first of them cut
    LogTail tail(&runner, CommandTarget { QStringLiteral("n"), QStringLiteral("127.0.0.1"), 22, {} }, path, o);
    QSignalSpy polled(&tail, &LogTail::polled);
    tail.start();
    QTRY_VERIFY(polled.size() >= 1);
    const int rows = tail.model()->rowCount();
    QVERIFY(rows >= 27 && rows <= 29);
    QVERIFY(tail.model()->index(0, 0).data().toString().startsWith(QLatin1String("line 09")));
    QCOMPARE(tail.model()->index(rows - 1, 0).data().toString(), QStringLiteral("line 0999 padding padding padding"));
    QCOMPARE(tail.offset(), qint64(body.size()));
}

void TestLogTail::truncationRestartsFromTheTop()
{
    const QString path = m_dir.filePath(QStringLiteral("rotate.log"));
    append(path, "one\ntwo\nthree\n");
    ShellRunner runner;
    LogTail tail(&runner, CommandTarget { QStringLiteral("n"), QStringLiteral("127.0.0.1"), 22, {} }, path, fast());
    QSignalSpy truncated(&tail, &LogTail::truncated);
    tail.start();
    QTRY_COMPARE(tail.model()->rowCount(), 3);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("new\n");
    }
    QTRY_COMPARE(truncated.size(), 1);
    QTRY_COMPARE(tail.model()->rowCount(), 4);
    QCOMPARE(tail.model()->index(3, 0).data().toString(), QStringLiteral("new"));
}

void TestLogTail::pauseLosesNothing()
{
    const QString path = m_dir.filePath(QStringLiteral("pause.log"));
    append(path, "a\n");
    ShellRunner runner;
    LogTail tail(&runner, CommandTarget { QStringLiteral("n"), QStringLiteral("127.0.0.1"), 22, {} }, path, fast());
    tail.start();
    QTRY_COMPARE(tail.model()->rowCount(), 1);
    QTRY_VERIFY(!tail.isPaused());
    tail.pause();
    QTRY_VERIFY(!tail.isPolling()); // a poll that was in flight has landed
    const int callsPaused = runner.calls.load();
    const int rowsPaused = tail.model()->rowCount();
    append(path, "b\nc\n");
    QTest::qWait(300);
    QCOMPARE(runner.calls.load(), callsPaused); // no polling while paused
    QCOMPARE(tail.model()->rowCount(), rowsPaused);
    tail.resume();
    QTRY_COMPARE(tail.model()->rowCount(), 3);
    QCOMPARE(tail.model()->index(2, 0).data().toString(), QStringLiteral("c"));
}

void TestLogTail::boundedBufferAndSearch()
{
    LogTailModel model(5);
    QAbstractItemModelTester tester(&model);
    LogMatcher matcher;
    QList<LogLine> lines;
    for (int i = 0; i < 8; ++i) {
        LogLine l;
        l.offset = i * 10;
        l.text = i == 6 ? QStringLiteral("EI0013: error CQE occurred") : QStringLiteral("INFO step %1").arg(i);
        l.cls = matcher.classify(l.text.toUtf8());
        lines.append(l);
    }
    model.appendLines(lines.mid(0, 4));
    model.appendLines(lines.mid(4));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.droppedLines(), 3);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("INFO step 3"));
    QCOMPARE(model.find(QStringLiteral("step 5"), 0), 2);
    QCOMPARE(model.find(QStringLiteral("STEP"), 3), 4);
    QCOMPARE(model.find(QStringLiteral("STEP"), 3, false, Qt::CaseSensitive), -1);
    QCOMPARE(model.find(QStringLiteral("step"), 4, true), 4);
    QCOMPARE(model.find(QStringLiteral("step 0"), 0), -1); // dropped
    QCOMPARE(model.firstErrorRow(), 3);
    QCOMPARE(model.index(3, 0).data(LogTailModel::SignatureRole).toInt(), 15);
    QCOMPARE(model.index(3, 0).data(LogTailModel::SeverityRole).toInt(), int(LogSeverity::Error));
}

void TestLogTail::missingFileIsReported()
{
    ShellRunner runner;
    LogTail tail(&runner, CommandTarget { QStringLiteral("n7"), QStringLiteral("127.0.0.1"), 22, {} },
        m_dir.filePath(QStringLiteral("absent.log")), fast());
    QSignalSpy failed(&tail, &LogTail::failed);
    tail.start();
    QTRY_VERIFY(failed.size() >= 1);
    QVERIFY2(
        failed.first().first().toString().contains(QLatin1String("n7")), qPrintable(failed.first().first().toString()));
    QVERIFY(failed.first().first().toString().contains(QLatin1String("cannot read")));
}

void TestLogTail::pathWithQuotesAndSpaces()
{
    const QString path = m_dir.filePath(QStringLiteral("it's a $(log) `x`.log"));
    append(path, "quoted\n");
    ShellRunner runner;
    LogTail tail(&runner, CommandTarget { QStringLiteral("n"), QStringLiteral("127.0.0.1"), 22, {} }, path, fast());
    tail.start();
    QTRY_COMPARE(tail.model()->rowCount(), 1);
    QCOMPARE(tail.model()->index(0, 0).data().toString(), QStringLiteral("quoted"));
}

QTEST_GUILESS_MAIN(TestLogTail)
#include "tst_logtail.moc"
