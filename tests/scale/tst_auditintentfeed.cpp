// SPDX-License-Identifier: MIT
// The intents another process wrote to the shared audit log (pdctl scale beside a console): read from
// the recent past at start, then line by line as they are appended; other lines ignored; a line still
// being written waits; a file replaced under the same name is read from its start.
#include "audit/auditintentfeed.h"
#include "audit/auditlog.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestAuditIntentFeed : public QObject {
    Q_OBJECT

    static AuditEntry entry(const QString &action, const QString &target, const QString &detail = {})
    {
        AuditEntry e;
        e.action = action;
        e.target = target;
        e.result = QStringLiteral("ok");
        e.detail = detail;
        return e;
    }
    static QList<AuditIntent> intents(const QSignalSpy &spy)
    {
        QList<AuditIntent> out;
        for (const QList<QVariant> &args : spy)
            out << args.first().value<AuditIntent>();
        return out;
    }

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<AuditIntent>(); }

    void readsWhatOthersDeclared()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditLog log(path);
        QVERIFY(log.append(entry(QStringLiteral("scale-in.remove"), QStringLiteral("decode 127.0.0.8:9004"))));
        QVERIFY(log.append(entry(QStringLiteral("intent.drain"), QStringLiteral("decode 127.0.0.8:9004"), QStringLiteral("scale-in"))));

        AuditIntentFeed feed(path);
        QSignalSpy spy(&feed, &AuditIntentFeed::intentRead);
        feed.poll(); // the recent past: a scale-in that began before this console started
        QCOMPARE(spy.size(), 1);
        AuditIntent first = intents(spy).first();
        QCOMPARE(first.engineId, QStringLiteral("127.0.0.8:9004"));
        QCOMPARE(first.intent, OperatorIntent::Drain);
        QCOMPARE(first.detail, QStringLiteral("scale-in"));
        QVERIFY(first.atMs > 0);
        QVERIFY(!first.who.isEmpty());

        QVERIFY(log.append(entry(QStringLiteral("scale-in.stop-engine"), QStringLiteral("decode 127.0.0.8:9004"))));
        QVERIFY(log.append(entry(QStringLiteral("intent.stop"), QStringLiteral("decode 127.0.0.8:9004"), QStringLiteral("scale-in"))));
        QVERIFY(log.append(entry(QStringLiteral("intent.sideways"), QStringLiteral("decode 127.0.0.8:9005")))); // unknown: ignored
        QVERIFY(log.append(entry(QStringLiteral("intent.stop"), QStringLiteral("pool decode")))); // no engine: ignored
        feed.poll();
        QCOMPARE(spy.size(), 2);
        QCOMPARE(intents(spy).last().intent, OperatorIntent::Stop);
        feed.poll(); // nothing new: nothing said twice
        QCOMPARE(spy.size(), 2);

        // A line being written is left for the next read.
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.none\",\"target\":\"decode 127.0.0.8:9004\"");
        f.flush();
        feed.poll();
        QCOMPARE(spy.size(), 2);
        f.write(",\"result\":\"ok\"}\n");
        f.close();
        feed.poll();
        QCOMPARE(spy.size(), 3);
        QCOMPARE(intents(spy).last().intent, OperatorIntent::None);

        // Replaced by a shorter file (log rotation): read again from its start.
        QVERIFY(QFile::remove(path));
        AuditLog rotated(path);
        QVERIFY(rotated.append(entry(QStringLiteral("intent.stop"), QStringLiteral("prefill 127.0.0.2:9000"))));
        feed.poll();
        QCOMPARE(spy.size(), 4);
        QCOMPARE(intents(spy).last().engineId, QStringLiteral("127.0.0.2:9000"));
    }

    void hostileLinesAreSkippedNotFatal()
    {
        // What a shared file can hold: a 10 MB line, bad UTF-8, truncated JSON, a number too big for a
        // double, NaN where JSON has none, a target that names no engine or is no string. None is an
        // intent, none stops the good line after them from being read.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(10 * 1024 * 1024, 'x') + '\n');
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.stop\",\"target\":\"decode \xff\xfe\xc3:9004\"}\n");
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.st\n");
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.stop\",\"target\":\"decode 127.0.0.8:9004\",\"duration_ms\":1e400}\n");
        f.write("{\"time\":NaN,\"action\":\"intent.stop\",\"target\":\"decode 127.0.0.8:9004\"}\n");
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.stop\",\"target\":\"\"}\n");
        f.write("{\"time\":\"2026-12-03T10:00:00.000Z\",\"action\":\"intent.stop\",\"target\":42}\n");
        f.write("[1,2,3]\n\x00\x01\x02\n");
        f.write("{\"time\":\"2026-12-03T10:00:01.000Z\",\"action\":\"intent.drain\",\"target\":\"decode 127.0.0.9:9001\"}\n");
        f.close();
        AuditIntentFeed feed(path);
        QSignalSpy spy(&feed, &AuditIntentFeed::intentRead);
        feed.poll(); // starts within the last 256 KB: past the 10 MB line
        feed.poll();
        // The JSON parser refuses ill-formed UTF-8 and a number no double holds, so those lines are
        // skipped whole, as the truncated and non-object ones are: one intent is read, the good one.
        const QList<AuditIntent> read = intents(spy);
        QCOMPARE(read.size(), 1);
        QCOMPARE(read.first().engineId, QStringLiteral("127.0.0.9:9001"));
        QCOMPARE(read.first().intent, OperatorIntent::Drain);

        // Read from the start (a feed that saw the file shrink): the 10 MB line is skipped too.
        AuditIntentFeed whole(path);
        whole.poll();
        QVERIFY(f.resize(0));
        QSignalSpy again(&whole, &AuditIntentFeed::intentRead);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(10 * 1024 * 1024, 'y') + '\n');
        f.write("{\"time\":\"2026-12-03T10:00:02.000Z\",\"action\":\"intent.none\",\"target\":\"prefill 127.0.0.2:9000\"}\n");
        f.close();
        whole.poll();
        QCOMPARE(again.size(), 1);
        QCOMPARE(intents(again).first().intent, OperatorIntent::None);
    }

    void startsNearTheEndOfABigLog()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
        AuditLog log(path);
        // An old intent a megabyte back is history; the recent one is read.
        QVERIFY(log.append(entry(QStringLiteral("intent.stop"), QStringLiteral("decode 127.0.0.6:9000"))));
        for (int i = 0; i < 4000; ++i)
            QVERIFY(log.append(entry(QStringLiteral("scale-out.wait-ready"), QStringLiteral("decode 127.0.0.6:9001"),
                                     QString(200, QLatin1Char('x')))));
        QVERIFY(log.append(entry(QStringLiteral("intent.drain"), QStringLiteral("decode 127.0.0.6:9002"))));
        AuditIntentFeed feed(path);
        QSignalSpy spy(&feed, &AuditIntentFeed::intentRead);
        feed.poll();
        QCOMPARE(spy.size(), 1);
        QCOMPARE(intents(spy).first().engineId, QStringLiteral("127.0.0.6:9002"));
    }
};

QTEST_GUILESS_MAIN(TestAuditIntentFeed)
#include "tst_auditintentfeed.moc"
