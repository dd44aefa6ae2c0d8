// SPDX-License-Identifier: MIT
// The audit log: one JSON line per action, fsync'ed; a writer killed with SIGKILL loses no line it
// reported as written; the reader names bad lines by file:line and keeps the rest.
#include "audit/auditlog.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestAuditLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void appendsAndReadsBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/audit.jsonl")); // the folder is created
        AuditLog log(path);
        AuditEntry e;
        e.action = QStringLiteral("scale-in.remove");
        e.target = QStringLiteral("decode 10.0.0.5:9000");
        e.params = {{"node", "d0"}, {"dp_rank", 3}};
        e.result = QStringLiteral("done");
        e.detail = QStringLiteral("out of the proxy's list — \"quoted\"\nnewline");
        e.durationMs = 42;
        QString error;
        QVERIFY2(log.append(e, &error), qPrintable(error));
        QVERIFY(log.append(e, &error));
        const AuditReadResult r = readAuditLog(path);
        QVERIFY(r.opened);
        QVERIFY(r.problems.isEmpty());
        QCOMPARE(r.entries.size(), 2);
        QCOMPARE(r.entries.at(0).action, e.action);
        QCOMPARE(r.entries.at(0).detail, e.detail);
        QCOMPARE(r.entries.at(0).durationMs, 42);
        QCOMPARE(QString::fromStdString(r.entries.at(0).params["node"].get<std::string>()), QStringLiteral("d0"));
        QVERIFY(!r.entries.at(0).user.isEmpty());
        QVERIFY(r.entries.at(0).time.isValid());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 2); // one line per entry, the newline in detail escaped
    }

    void badLinesAreNamedAndSkipped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"time\":\"2026-11-29T10:00:00.000Z\",\"action\":\"a\",\"target\":\"t\",\"result\":\"done\"}\n");
        f.write("garbage\n");
        f.write("{\"time\":\"2026-11-29T10:00:01.000Z\",\"action\":\"b\"}\n");
        f.write("{\"time\":\"2026-11-29T10:00:02.000Z\",\"act"); // cut mid-line
        f.close();
        const AuditReadResult r = readAuditLog(path);
        QCOMPARE(r.entries.size(), 2);
        QCOMPARE(r.problems.size(), 2);
        QVERIFY2(r.problems.at(0).startsWith(QStringLiteral("audit.jsonl:2:")), qPrintable(r.problems.at(0)));
        QVERIFY2(r.problems.at(1).contains(QStringLiteral("incomplete last line")), qPrintable(r.problems.at(1)));
        const AuditReadResult missing = readAuditLog(dir.filePath(QStringLiteral("nope.jsonl")));
        QVERIFY(!missing.opened);
        QVERIFY(missing.error.contains(QStringLiteral("nope.jsonl")));
    }

    // A line torn by a crash (no newline) must not swallow the entry written after it.
    void aTornLastLineDoesNotSwallowTheNextEntry()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"time\":\"2026-11-29T10:00:00.000Z\",\"action\":\"a\",\"target\":\"t\",\"result\":\"done\"}\n");
        f.write("{\"time\":\"2026-11-29T10:00:02.000Z\",\"act"); // the writer died here
        f.close();
        AuditLog log(path);
        AuditEntry e;
        e.action = QStringLiteral("scale-out.add");
        e.target = QStringLiteral("decode 10.0.0.6:9001");
        e.result = QStringLiteral("done");
        QString error;
        QVERIFY2(log.append(e, &error), qPrintable(error));
        const AuditReadResult r = readAuditLog(path);
        QCOMPARE(r.entries.size(), 2);
        QCOMPARE(r.entries.last().action, QStringLiteral("scale-out.add"));
        QCOMPARE(r.problems.size(), 1); // the torn line, named by its line number
        QVERIFY2(r.problems.first().startsWith(QStringLiteral("audit.jsonl:2:")), qPrintable(r.problems.first()));
    }

    void anUnwritableLogSaysWhy()
    {
        AuditLog log(QStringLiteral("/proc/version/audit.jsonl"));
        QString error;
        QVERIFY(!log.append(AuditEntry{}, &error));
        QVERIFY2(error.contains(QStringLiteral("/proc/version/audit.jsonl")), qPrintable(error));
    }

    void linesSurviveKill9OfTheWriter()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        QProcess writer;
        writer.setProgram(QStringLiteral(PD_BINARY_DIR "/tests/scale/pd_auditwriter"));
        writer.setArguments({path});
        writer.start();
        QVERIFY(writer.waitForStarted(5000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += writer.readAllStandardOutput()).count('\n') >= 200, 30000);
        writer.kill(); // SIGKILL, mid-stream
        QVERIFY(writer.waitForFinished(5000));
        out += writer.readAllStandardOutput();
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
        const QList<QByteArray> reported = out.trimmed().split('\n');
        const int lastReported = reported.last().toInt();
        QVERIFY(lastReported >= 200);
        const AuditReadResult r = readAuditLog(path);
        // Every line the writer reported is there, complete and in order; at most one more (written,
        // not yet reported) follows.
        QVERIFY2(r.problems.isEmpty(), qPrintable(r.problems.join(QLatin1Char('\n'))));
        QVERIFY(r.entries.size() >= lastReported);
        QVERIFY(r.entries.size() <= lastReported + 1);
        for (int i = 0; i < lastReported; ++i)
            QCOMPARE(r.entries.at(i).params["seq"].get<int>(), i + 1);
    }
};

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
