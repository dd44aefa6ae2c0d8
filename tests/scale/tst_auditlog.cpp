// SPDX-License-Identifier: MIT
// The audit log: one JSON line per action, fsync'ed; a writer killed with SIGKILL loses no line it
// reported as written; the reader names bad lines by file:line and keeps the rest.
#include "audit/auditlog.h"
#include "models/auditmodel.h"
#include "ops/engineactions.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "ops/scalerunner.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestAuditLog : public QObject {
    Q_OBJECT

    // The bytes written as they are into `path` (a torn line is one without its newline).
    static bool writeFile(const QString &path, const QList<QByteArray> &chunks)
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return false;
        for (const QByteArray &chunk : chunks)
            f.write(chunk);
        return true;
    }

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
        QVERIFY(writeFile(path,
            { "{\"time\":\"2026-11-29T10:00:00.000Z\",\"action\":\"a\",\"target\":\"t\",\"result\":\"done\"}\n",
                "garbage\n", "{\"time\":\"2026-11-29T10:00:01.000Z\",\"action\":\"b\"}\n",
                "{\"time\":\"2026-11-29T10:00:02.000Z\",\"act" })); // the last cut mid-line
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
        QVERIFY(writeFile(path,
            { "{\"time\":\"2026-11-29T10:00:00.000Z\",\"action\":\"a\",\"target\":\"t\",\"result\":\"done\"}\n",
                "{\"time\":\"2026-11-29T10:00:02.000Z\",\"act" })); // the writer died in the second line
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

    // A failed append is held until acknowledged, and until then every mutating action
    // is refused (the operation, the engine menu's plan), without a second try at the broken log.
    void aFailedAppendStopsActionsUntilAcknowledged()
    {
        AuditLog log(QStringLiteral("/proc/version/audit.jsonl"));
        QStringList heard;
        log.setFailureListener([&heard](const QString &error) { heard << error; });
        QVERIFY(log.unacknowledgedFailure().isEmpty());
        QVERIFY(!log.append(AuditEntry{}));
        QCOMPARE(heard.size(), 1);
        QVERIFY2(log.unacknowledgedFailure().contains(QStringLiteral("/proc/version/audit.jsonl")), qPrintable(log.unacknowledgedFailure()));

        ScaleContext ctx;
        ctx.audit = &log;
        QVERIFY2(mutationRefusal(ctx).contains(QLatin1String("audit log cannot be written")), qPrintable(mutationRefusal(ctx)));
        ScaleIn op(EngineRef{QStringLiteral("127.0.0.3:9000"), Role::Decode, QStringLiteral("d0"), 0}, &ctx, false);
        op.start(); // refused before it reads the proxy (the context has none)
        QCOMPARE(op.outcome(), OperationOutcome::Failed);
        QVERIFY2(op.summary().contains(QLatin1String("audit log")), qPrintable(op.summary()));
        ScaleRunner runner(&ctx);
        EngineActions actions(&ctx, &runner);
        const EngineActionPlan plan = actions.plan(EngineAction::Stop, {EngineRef{QStringLiteral("127.0.0.3:9000"), Role::Decode, QStringLiteral("d0"), 0}});
        QVERIFY2(plan.refusalText().contains(QLatin1String("audit log")), qPrintable(plan.refusalText()));

        log.acknowledge();
        QVERIFY(mutationRefusal(ctx).isEmpty());
        QVERIFY(actions.plan(EngineAction::Stop, {EngineRef{QStringLiteral("127.0.0.3:9000"), Role::Decode, QStringLiteral("d0"), 0}})
                    .refusal.isEmpty());
    }

    // The Operations tab's audit table reads only what was appended since its last read (it used to
    // re-read the whole log after every step), and reads a replaced log anew.
    void theModelReadsOnlyWhatWasAppended()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditLog log(path);
        auto entry = [](const char *action) {
            AuditEntry e;
            e.action = QString::fromLatin1(action);
            e.result = QStringLiteral("ok");
            return e;
        };
        QVERIFY(log.append(entry("one")));
        QVERIFY(log.append(entry("two")));
        AuditModel model(path);
        QCOMPARE(model.rowCount(), 2);

        const AuditReadResult first = readAuditLog(path);
        QVERIFY(first.endOffset > 0);
        QVERIFY(log.append(entry("three")));
        const AuditReadResult rest = readAuditLog(path, first.endOffset, first.lines + 1);
        QCOMPARE(rest.entries.size(), 1); // only the new line
        QCOMPARE(rest.entries.first().action, QStringLiteral("three"));

        // A line still being written is left for the next read.
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"time\":\"2026-11-29T10:00:02.000Z\",\"action\":\"fo");
        f.flush();
        model.reload();
        QCOMPARE(model.rowCount(), 3);
        f.write("ur\"}\n");
        f.close();
        model.reload();
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.data(model.index(3, AuditModel::ActionColumn)).toString(), QStringLiteral("four"));
        QVERIFY2(model.problems().isEmpty(), qPrintable(model.problems().join(QLatin1Char('\n'))));

        // Replaced (rotated) by a shorter log: read anew.
        QVERIFY(QFile::remove(path));
        QVERIFY(log.append(entry("fresh")));
        model.reload();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, AuditModel::ActionColumn)).toString(), QStringLiteral("fresh"));
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
