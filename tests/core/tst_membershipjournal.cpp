// SPDX-License-Identifier: MIT
// The listener timing read from a proxy's command line (the flags' two forms, the proxy's defaults,
// refusals), and the membership journal: a WAITING add and a DRAINING remove survive a console restart
// with their times, the timing read from the running proxy comes back with them, a damaged file is
// named by file:line or field and is not overwritten until the table has news, and a table with
// nothing new writes nothing.
#include "net/membershipjournal.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "net/proxylistenertiming.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

ProxyReply noLists()
{
    ProxyReply r;
    r.ok = true;
    r.httpStatus = 200;
    return r;
}

const QString kBase = QStringLiteral("http://127.0.0.1:8000");

} // namespace

class TestMembershipJournal : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void timingFromACommandLine()
    {
        auto t = listenerTimingFromArguments(words("python3 proxy.py --host 0.0.0.0 --port 8000 --max-waiting-retries 91 "
                                                   "--waiting-retry-interval 10"));
        QVERIFY(t);
        QCOMPARE(t->maxRetries, 91);
        QCOMPARE(t->intervalMs, 10000);
        QCOMPARE(t->waitingWindowMs(), qint64(920000));

        t = listenerTimingFromArguments(words("proxy.py --waiting-retry-interval=2.5 --max-waiting-retries=7"));
        QVERIFY(t);
        QCOMPARE(t->maxRetries, 7);
        QCOMPARE(t->intervalMs, 2500);

        // Absent flags: the proxy's own defaults (3 retries, 10 s), as its argparse has them.
        t = listenerTimingFromArguments(words("proxy.py --port 8000"));
        QVERIFY(t);
        QCOMPARE(t->maxRetries, 3);
        QCOMPARE(t->intervalMs, 10000);

        // The last occurrence wins, as with argparse.
        t = listenerTimingFromArguments(words("p --max-waiting-retries 3 --max-waiting-retries 30"));
        QVERIFY(t);
        QCOMPARE(t->maxRetries, 30);
    }

    void aBadTimingIsRefusedWithTheFlag()
    {
        QString error;
        QVERIFY(!listenerTimingFromArguments(words("p --max-waiting-retries lots"), &error));
        QVERIFY2(error.contains(QLatin1String("--max-waiting-retries lots")), qPrintable(error));
        QVERIFY(!listenerTimingFromArguments(words("p --waiting-retry-interval -1"), &error));
        QVERIFY2(error.contains(QLatin1String("--waiting-retry-interval")), qPrintable(error));
        QVERIFY(!listenerTimingFromArguments(words("p --waiting-retry-interval nan"), &error));
        QVERIFY(!listenerTimingFromArguments(words("p --waiting-retry-interval inf"), &error));
        QVERIFY(!listenerTimingFromArguments(words("p --waiting-retry-interval 1e300"), &error));
        QVERIFY(!listenerTimingFromArguments(words("p --max-waiting-retries 99999999999999999999"), &error));
        QVERIFY(!listenerTimingFromArguments({QStringLiteral("p"), QStringLiteral("--max-waiting-retries"), QString(10 * 1024 * 1024, QLatin1Char('9'))},
                                             &error));
        QVERIFY(!listenerTimingFromArguments({QStringLiteral("p"), QStringLiteral("--max-waiting-retries=\uFFFD3")}, &error));
        QVERIFY(!listenerTimingFromArguments(words("p --max-waiting-retries"), &error));
        QVERIFY2(error.contains(QLatin1String("without a value")), qPrintable(error));
    }

    void pendingIntentsSurviveARestart()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = MembershipJournal::pathFor(kBase, dir.path());
        QVERIFY2(path.startsWith(dir.path() + QStringLiteral("/127.0.0.1-8000-")), qPrintable(path));

        ProxyClient client;
        QDateTime sentAt;
        {
            MembershipReconciler table(&client);
            MembershipJournal journal(path, kBase);
            QString error;
            QVERIFY(journal.attach(&table, &error)); // no file yet: nothing to restore, no error
            QVERIFY(error.isEmpty());
            QVERIFY(journal.flush());
            QVERIFY2(!QFile::exists(path), "nothing to say: nothing written");

            ProxyListenerTiming running;
            running.intervalMs = 2000;
            running.maxRetries = 30;
            running.source = ProxyListenerTiming::Source::RunningProxy;
            running.readAt = QDateTime::currentDateTimeUtc();
            table.setListenerTiming(running, 5000);
            table.noteAddSent(QStringLiteral("127.0.0.3:9000"), Role::Decode, noLists());
            ProxyReply stillListed = noLists();
            stillListed.lists = ProxyLists{{}, {QStringLiteral("127.0.0.3:9001")}};
            table.noteRemoveSent(QStringLiteral("127.0.0.3:9001"), Role::Decode, stillListed);
            QCOMPARE(table.fact(QStringLiteral("127.0.0.3:9001"), Role::Decode), MembershipFact::Draining);
            sentAt = table.record(QStringLiteral("127.0.0.3:9000"), Role::Decode)->addSentAt;
            QVERIFY(journal.flush());
            QVERIFY(QFile::exists(path));
        }
        // The console starts again.
        MembershipReconciler table(&client);
        MembershipJournal journal(path, kBase);
        QString error;
        QVERIFY2(journal.attach(&table, &error), qPrintable(error));
        QCOMPARE(table.fact(QStringLiteral("127.0.0.3:9000"), Role::Decode), MembershipFact::Waiting);
        QCOMPARE(table.record(QStringLiteral("127.0.0.3:9000"), Role::Decode)->addSentAt, sentAt); // the deadline does not restart
        QCOMPARE(table.fact(QStringLiteral("127.0.0.3:9001"), Role::Decode), MembershipFact::Draining);
        QCOMPARE(table.listenerTiming().source, ProxyListenerTiming::Source::RunningProxy);
        QCOMPARE(table.listenerTiming().intervalMs, 2000);
        QCOMPARE(table.listenerTiming().maxRetries, 30);
        QCOMPARE(table.waitingDeadlineMs(), qint64(2000 * 31 + 5000));

        // Restored as it was: nothing to write back.
        const QDateTime before = QFileInfo(path).lastModified();
        QVERIFY(journal.flush());
        QCOMPARE(QFileInfo(path).lastModified(), before);
    }

    void aWorseTimingDoesNotReplaceTheRunningProxysOne()
    {
        ProxyClient client;
        MembershipReconciler table(&client);
        MembershipSnapshot saved;
        saved.timing.intervalMs = 2000;
        saved.timing.maxRetries = 30;
        saved.timing.source = ProxyListenerTiming::Source::Profile;
        table.restore(saved);
        // A profile timing in a journal says nothing the profile does not: the table keeps its own.
        QCOMPARE(table.listenerTiming().intervalMs, 10000);
    }

    void aDamagedJournalIsNamedAndKept_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("where");
        QTest::newRow("syntax") << QByteArray("{\n  \"format\": \"pdconsole-membership\",\n  \"version\": 1,\n  oops\n}\n") << QStringLiteral(":4:");
        QTest::newRow("not ours") << QByteArray(R"({"format": "something-else", "version": 1})") << QStringLiteral("/format");
        QTest::newRow("newer version") << QByteArray(R"({"format": "pdconsole-membership", "version": 2})") << QStringLiteral("/version");
        QTest::newRow("bad fact") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 1000, "max_retries": 3, "source": "running-proxy"},
            "pending": [{"id": "127.0.0.3:9000", "role": "decode", "fact": "active"}]})") << QStringLiteral("/pending/0/fact");
        QTest::newRow("bad role") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 1000, "max_retries": 3, "source": "profile"},
            "pending": [{"id": "127.0.0.3:9000", "role": "router", "fact": "waiting"}]})") << QStringLiteral("/pending/0/role");
        QTest::newRow("bad time") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 1000, "max_retries": 3, "source": "profile"},
            "pending": [{"id": "127.0.0.3:9000", "role": "decode", "fact": "waiting", "add_sent_at": "yesterday"}]})")
                                  << QStringLiteral("/pending/0/add_sent_at");
        QTest::newRow("duplicate key") << QByteArray(R"({"format": "pdconsole-membership", "format": "x"})") << QStringLiteral("/format");
        QTest::newRow("truncated") << QByteArray(R"({"format": "pdconsole-membership", "version": 1, "timing": {"interval_ms": 10)")
                                   << QStringLiteral(":1:");
        QTest::newRow("huge number") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 1000, "max_retries": 99999999999999999999999, "source": "profile"}, "pending": []})")
                                     << QStringLiteral("/timing/max_retries");
        QTest::newRow("float retries") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 1000, "max_retries": 1e308, "source": "profile"}, "pending": []})")
                                       << QStringLiteral("/timing/max_retries");
        QTest::newRow("bad utf-8") << (QByteArray("{\"format\": \"pdconsole-membership\", \"version\": 1, \"x\": \"") + QByteArray("\xff\xfe")
                                       + QByteArray("\"}")) << QStringLiteral(":1:");
        QTest::newRow("empty file") << QByteArray() << QStringLiteral(":");
        QTest::newRow("interval") << QByteArray(R"({"format": "pdconsole-membership", "version": 1,
            "timing": {"interval_ms": 0, "max_retries": 3, "source": "profile"}, "pending": []})") << QStringLiteral("/timing/interval_ms");
    }

    // A journal bigger than any real one (16 MB cap) is refused before it is parsed, and kept.
    void anOversizedJournalIsRefused()
    {
        QTemporaryDir dir;
        const QString path = MembershipJournal::pathFor(kBase, dir.path());
        QVERIFY(QDir().mkpath(dir.path()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray line(10 * 1024 * 1024, 'x'); // two 10 MB lines
        file.write(line + '\n' + line);
        file.close();
        QString error;
        QVERIFY(!MembershipJournal(path, kBase).load(&error));
        QVERIFY2(error.contains(QLatin1String("more than a membership journal can hold")), qPrintable(error));
        QCOMPARE(QFileInfo(path).size(), qint64(2 * line.size() + 1));
    }

    void aDamagedJournalIsNamedAndKept()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QTemporaryDir dir;
        const QString path = MembershipJournal::pathFor(kBase, dir.path());
        QVERIFY(QDir().mkpath(dir.path()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();

        ProxyClient client;
        MembershipReconciler table(&client);
        MembershipJournal journal(path, kBase);
        QString error;
        QVERIFY(!journal.attach(&table, &error));
        QVERIFY2(error.startsWith(path), qPrintable(error));
        QVERIFY2(error.contains(where), qPrintable(error));
        QCOMPARE(table.records().size(), 0);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), text); // kept as it was
        file.close();

        // News from the table replace it with a good file.
        table.noteAddSent(QStringLiteral("127.0.0.3:9000"), Role::Decode, noLists());
        QVERIFY(journal.flush());
        QVERIFY(MembershipJournal(path, kBase).load(&error));
    }

    // Trust (issue 37): entries the profile does not know are forgotten once they leave the lists, so a
    // proxy whose lists keep changing cannot grow the table (and pdctl watch) without bound.
    void unknownEntriesThatLeaveTheListsAreForgotten()
    {
        ProxyClient proxy;
        MembershipReconciler table(&proxy);
        table.setConfigured({ { QStringLiteral("127.0.0.1:9000"), Role::Decode } });
        for (int round = 0; round < 20; ++round) {
            ProxyLists lists;
            lists.decode << QStringLiteral("127.0.0.1:9000");
            for (int i = 0; i < 500; ++i)
                lists.decode << QStringLiteral("10.%1.%2.1:9000").arg(round).arg(i);
            table.applyCommandLineLists(lists);
            QCOMPARE(table.records().size(), 501); // this round's 500 and the profile's engine
        }
        table.applyCommandLineLists({ {}, { QStringLiteral("127.0.0.1:9000") } });
        QCOMPARE(table.records().size(), 1);
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:9000"), Role::Decode), MembershipFact::Active);
        table.applyCommandLineLists({});
        QCOMPARE(table.records().size(), 1); // the profile's engine stays, Gone
        QCOMPARE(table.fact(QStringLiteral("127.0.0.1:9000"), Role::Decode), MembershipFact::Gone);
    }
};

QTEST_GUILESS_MAIN(TestMembershipJournal)
#include "tst_membershipjournal.moc"
