// SPDX-License-Identifier: MIT
// Every engine's log watched in the background: one read per node per interval through a real /bin/sh,
// bounded per log, incremental, from the start again after a truncation, a missing log waited for, a
// path full of shell metacharacters, a node that does not answer; the framing parser on bad answers.
#include "logs/clusterlogwatch.h"
#include "logs/logmatcher.h"
#include "shellrunner.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

void append(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    f.write(bytes);
}

WatchedLog watched(int engine, const QString &node, const QString &path)
{
    WatchedLog w;
    w.engine = engine;
    w.engineId = QStringLiteral("127.0.0.%1:9000").arg(engine + 1);
    w.target.node = node;
    w.target.host = QStringLiteral("127.0.0.1");
    w.target.transport = CommandTarget::Transport::Local;
    w.path = path;
    return w;
}

const QByteArray kMooncake = "2026-12-03 10:00:01 ERROR [mooncake] Mooncake transfer failed, ret: -1\n";
const QByteArray kHccl = "[ERROR] HCCL(12345): hccl fftsplus task timeout, stream 3\n";

} // namespace

class TestClusterLogWatch : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void oneReadPerNodeFindsEveryEnginesSignature()
    {
        const QString a = m_dir.filePath(QStringLiteral("a.log"));
        const QString b = m_dir.filePath(QStringLiteral("b $(touch pwned) 'q'.log")); // reaches a shell
        const QString c = m_dir.filePath(QStringLiteral("c.log"));
        append(a, "INFO starting\n");
        append(b, "INFO starting\n");
        ShellRunner runner;
        ClusterLogWatchOptions options;
        options.interval = std::chrono::milliseconds(50);
        options.foldWindow = std::chrono::seconds(0);
        ClusterLogWatch watch(&runner, options);
        watch.setLogs({watched(0, QStringLiteral("n0"), a), watched(1, QStringLiteral("n0"), b),
                       watched(2, QStringLiteral("n1"), c)}); // c does not exist yet
        QCOMPARE(watch.nodeCount(), 2);
        QSignalSpy diagnosed(&watch, &ClusterLogWatch::diagnosed);
        QSignalSpy read(&watch, &ClusterLogWatch::nodeRead);
        watch.start();
        QTRY_VERIFY(read.size() >= 2);
        QCOMPARE(diagnosed.size(), 0);
        append(a, kMooncake);
        append(b, "INFO fine\n" + kHccl);
        append(c, kMooncake);
        QTRY_COMPARE(diagnosed.size(), 3);
        QSet<int> engines;
        for (const QList<QVariant> &args : diagnosed) {
            engines.insert(args.at(0).toInt());
            const auto e = args.at(1).value<DiagnosisEvent>();
            QVERIFY(e.signatureId > 0);
            QVERIFY2(e.line.contains(QStringLiteral("failed, ret: -1")) || e.line.contains(QStringLiteral("fftsplus")), qPrintable(e.line));
        }
        QCOMPARE(engines, (QSet<int>{0, 1, 2}));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("pwned"))));
        QVERIFY(!QFile::exists(QStringLiteral("pwned")));
        // One command per node per read, never one per log.
        const QHash<QString, int> calls = runner.callsPerNode();
        QVERIFY(calls.value(QStringLiteral("n0")) >= 1);
        QCOMPARE(runner.calls.load(), calls.value(QStringLiteral("n0")) + calls.value(QStringLiteral("n1")));
    }

    void boundedIncrementalAndTruncation()
    {
        const QString log = m_dir.filePath(QStringLiteral("big.log"));
        append(log, QByteArray(200 * 1024, 'x') + '\n'); // history before the watch: only its end is read
        ShellRunner runner;
        ClusterLogWatchOptions options;
        options.interval = std::chrono::milliseconds(20);
        options.maxBytesPerLog = 8 * 1024;
        options.firstReadBytes = 4 * 1024;
        options.foldWindow = std::chrono::seconds(0);
        ClusterLogWatch watch(&runner, options);
        watch.setLogs({watched(0, QStringLiteral("n0"), log)});
        QSignalSpy diagnosed(&watch, &ClusterLogWatch::diagnosed);
        QSignalSpy read(&watch, &ClusterLogWatch::nodeRead);
        watch.start();
        QTRY_VERIFY(read.size() >= 1);
        QCOMPARE(watch.bytesRead(), qint64(4 * 1024));
        // A flood of 100 KB then the signature: caught up 8 KB per read, never the whole file at once.
        QByteArray flood;
        for (int i = 0; i < 1000; ++i)
            flood += "INFO step " + QByteArray::number(i).rightJustified(88, '.') + '\n';
        append(log, flood + kMooncake);
        const int readsBefore = watch.reads();
        const qint64 bytesBefore = watch.bytesRead();
        QTRY_COMPARE_WITH_TIMEOUT(diagnosed.size(), 1, 20000);
        QCOMPARE(watch.bytesRead() - bytesBefore, qint64(flood.size() + kMooncake.size()));
        QVERIFY2(watch.reads() - readsBefore >= int((flood.size() + kMooncake.size()) / (8 * 1024)),
                 qPrintable(QStringLiteral("%1 reads").arg(watch.reads() - readsBefore)));
        QCOMPARE(diagnosed.first().at(1).value<DiagnosisEvent>().offset, qint64(200 * 1024 + 1 + flood.size()));
        // Rotated: the file starts again, smaller than the offset; its new lines are read from 0.
        {
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(kHccl);
        }
        QTRY_COMPARE(diagnosed.size(), 2);
        QCOMPARE(diagnosed.last().at(1).value<DiagnosisEvent>().offset, qint64(0));
    }

    void aSignatureIsSaidOncePerFoldWindow()
    {
        const QString log = m_dir.filePath(QStringLiteral("fold.log"));
        append(log, "");
        ShellRunner runner;
        ClusterLogWatchOptions options;
        options.interval = std::chrono::milliseconds(20);
        ClusterLogWatch watch(&runner, options); // the default 60 s window
        watch.setLogs({watched(0, QStringLiteral("n0"), log)});
        QSignalSpy diagnosed(&watch, &ClusterLogWatch::diagnosed);
        QSignalSpy read(&watch, &ClusterLogWatch::nodeRead);
        watch.start();
        QTRY_VERIFY(read.size() >= 1);
        append(log, kMooncake + kMooncake + kMooncake);
        QTRY_COMPARE(diagnosed.size(), 1);
        const int reads = int(read.size());
        append(log, kMooncake);
        QTRY_VERIFY(read.size() >= reads + 2);
        QCOMPARE(diagnosed.size(), 1);
    }

    void aNodeThatDoesNotAnswerIsSaid()
    {
        ShellRunner runner;
        runner.refused.insert(QStringLiteral("down"));
        ClusterLogWatch watch(&runner);
        watch.setLogs({watched(0, QStringLiteral("down"), QStringLiteral("/var/log/x.log"))});
        QSignalSpy failed(&watch, &ClusterLogWatch::nodeFailed);
        watch.start();
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("connection refused")));
    }

    void framingIsChecked()
    {
        QList<LogChunk> chunks;
        QVERIFY(ClusterLogWatch::parseAnswer("@@PDLOG 0 10 5 5\nabcde\n@@PDLOG 1 missing\n", &chunks));
        QCOMPARE(chunks.size(), 2);
        QCOMPARE(chunks.at(0).bytes, QByteArray("abcde"));
        QCOMPARE(chunks.at(0).start, qint64(5));
        QVERIFY(chunks.at(1).missing);
        chunks.clear();
        QVERIFY(!ClusterLogWatch::parseAnswer("@@PDLOG 0 10 5 5\nabc\n@@PDLOG 1 missing\n", &chunks)); // short
        QVERIFY(!ClusterLogWatch::parseAnswer("garbage\n", &chunks));
        QVERIFY(!ClusterLogWatch::parseAnswer("@@PDLOG 0 10 5 x\nabcde\n", &chunks));
        QVERIFY(ClusterLogWatch::parseAnswer("", &chunks));
    }
};

QTEST_GUILESS_MAIN(TestClusterLogWatch)
#include "tst_clusterlogwatch.moc"
