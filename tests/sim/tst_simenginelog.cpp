// SPDX-License-Identifier: MIT
// A simulated engine's log file, as the console reads it: vLLM's start-up lines, uvicorn's access
// lines, the stats line while there is work, the fault lines (diagnosed by the console's own
// LogMatcher as the signature each fault stands for), the shutdown lines, rotation; and the console's
// LogTail following the file through the LocalRunner.
#include "engine/enginescheduler.h"
#include "engine/simengine.h"
#include "exec/localrunner.h"
#include "logs/logmatcher.h"
#include "logs/logtail.h"
#include "simlog/enginelog.h"
#include "simtestclient.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace pd::sim;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray completion(int maxTokens)
{
    return "{\"model\":\"deepseek_r1\",\"prompt\":\"" + QByteArray(400, 'x')
        + "\",\"max_tokens\":" + QByteArray::number(maxTokens) + ",\"ignore_eos\":true}";
}

struct Scan {
    QSet<int> signatures;
    int errorLines = 0;
};

Scan scan(const QByteArray &text)
{
    static const pd::LogMatcher matcher;
    Scan s;
    matcher.scan(text, [&s](qint64, qsizetype, qsizetype, const pd::LogLineClass &c) {
        if (c.signatureId)
            s.signatures.insert(c.signatureId);
        if (c.error)
            ++s.errorLines;
    });
    return s;
}

QByteArray lastLine(const QByteArray &text)
{
    const QByteArray t = text.endsWith('\n') ? text.chopped(1) : text;
    return t.mid(t.lastIndexOf('\n') + 1);
}

} // namespace

class TestSimEngineLog final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startupAndAccessLines();
    void statsWhileBusyThenSilent();
    void faultsWriteTheirSignature_data();
    void faultsWriteTheirSignature();
    void shutdownLines();
    void restartRotatesAndTheCapBounds();
    void aLinkedLogIsNeverMoved();
    void logTailFollowsTheEngineLog();

private:
    EngineOptions options(const QString &name, double timeScale = 100) const
    {
        EngineOptions o;
        o.port = 0;
        o.timeScale = timeScale;
        o.timing.jitter = false;
        o.logPath = m_dir.filePath(name);
        o.hcclExecTimeoutSeconds = 20;
        return o;
    }
    QTemporaryDir m_dir;
};

void TestSimEngineLog::startupAndAccessLines()
{
    EngineScheduler scheduler;
    const EngineOptions o = options(QStringLiteral("engines/d1-9000.log"));
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    const QByteArray url = "Starting vLLM API server on http://127.0.0.1:" + QByteArray::number(engine.port());
    QTRY_VERIFY(readFile(o.logPath).contains("Application startup complete."));
    const QByteArray start = readFile(o.logPath);
    QVERIFY(start.startsWith("INFO "));
    QVERIFY(start.contains("vLLM API server version 0.9.1"));
    QVERIFY(start.contains("Platform plugin ascend is activated"));
    QVERIFY(start.contains(url));
    QVERIFY(start.contains("GPU KV cache size: 300,032 tokens")); // 2,344 decode blocks of 128
    QVERIFY(start.indexOf(url) < start.indexOf("INFO:     Application startup complete."));

    SimClient client(engine.port());
    QCOMPARE(client.request("POST", "/v1/completions", completion(4)).status, 200);
    QCOMPARE(client.request("GET", "/metrics").status, 200);
    QCOMPARE(client.request("GET", "/nope").status, 404);
    const QRegularExpression post(
        QStringLiteral(R"(^INFO:     127\.0\.0\.1:\d+ - "POST /v1/completions HTTP/1\.1" 200 OK$)"),
        QRegularExpression::MultilineOption);
    QTRY_VERIFY(post.match(QString::fromUtf8(readFile(o.logPath))).hasMatch());
    const QByteArray text = readFile(o.logPath);
    QVERIFY(text.contains("\"GET /metrics HTTP/1.1\" 200 OK\n"));
    QVERIFY(text.contains("\"GET /nope HTTP/1.1\" 404 Not Found\n"));
    QCOMPARE(scan(text).errorLines, 0); // a healthy engine's log has no error line for the console
}

void TestSimEngineLog::statsWhileBusyThenSilent()
{
    EngineScheduler scheduler;
    const EngineOptions o = options(QStringLiteral("stats.log"), 50);
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    SimClient client(engine.port());
    // ~1,000 tokens at 2 per 42 ms step: ~21 simulated seconds, two stats intervals.
    QCOMPARE(client.request("POST", "/v1/completions", completion(1000)).status, 200);
    const QRegularExpression busy(
        QStringLiteral(R"(\[loggers\.py:\d+\] Engine 000: Avg prompt throughput: [\d.]+ tokens/s, )"
                       R"(Avg generation throughput: [1-9][\d.]* tokens/s, Running: 1 reqs, )"
                       R"(Waiting: 0 reqs, GPU KV cache usage: [\d.]+%, Prefix cache hit rate: [\d.]+%)"));
    QTRY_VERIFY(busy.match(QString::fromUtf8(readFile(o.logPath))).hasMatch());
    QVERIFY(readFile(o.logPath).contains("SpecDecoding metrics: Draft acceptance rate: "));
    // Idle again: one all-zero line, then nothing pending at all.
    QTRY_VERIFY(
        readFile(o.logPath).contains("Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs"));
    QTRY_COMPARE(scheduler.pendingWakeups(), 0);
    const qint64 size = readFile(o.logPath).size();
    QTest::qWait(500); // 2.5 stats intervals of silence
    QCOMPARE(readFile(o.logPath).size(), size);
}

void TestSimEngineLog::faultsWriteTheirSignature_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("signature"); // 0: a generic error (no known signature)
    QTest::addColumn<QByteArray>("marker");
    QTest::newRow("crash: device task failure") << QStringLiteral("crash") << 24 << QByteArray("EZ9999: Inner Error!");
    QTest::newRow("http500: error CQE") << QStringLiteral("http500") << 15 << QByteArray("EngineDeadError");
    QTest::newRow("stall: HCCL exec timeout") << QStringLiteral("stall") << 14 << QByteArray("EI0002");
    QTest::newRow("hang: HCCL exec timeout") << QStringLiteral("hang") << 14 << QByteArray("EI0002");
    QTest::newRow("malformed-metrics: ASGI exception")
        << QStringLiteral("malformed-metrics") << 0 << QByteArray("Exception in ASGI application");
}

void TestSimEngineLog::faultsWriteTheirSignature()
{
    QFETCH(QString, kind);
    QFETCH(int, signature);
    QFETCH(QByteArray, marker);
    EngineScheduler scheduler;
    const EngineOptions o = options(QStringLiteral("fault-%1.log").arg(kind));
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    QTRY_VERIFY(readFile(o.logPath).contains("Application startup complete."));
    const qsizetype before = readFile(o.logPath).size();
    QCOMPARE(scan(readFile(o.logPath)).errorLines, 0);
    engine.setFault(*faultKindFromName(kind));
    if (kind == QLatin1String("malformed-metrics")) {
        SimClient client(engine.port());
        QCOMPARE(client.request("GET", "/metrics").status, 200);
        QCOMPARE(client.request("GET", "/metrics").status, 200);
    }
    // hang / stall: the timeout lines come HCCL_EXEC_TIMEOUT (20 simulated s, 0.2 s here) later.
    QTRY_VERIFY(readFile(o.logPath).contains(marker));
    // The lines around the marker come in more than one write: wait until the fault's whole signature is in.
    QTRY_VERIFY([&] {
        const Scan now = scan(readFile(o.logPath).mid(before));
        return now.errorLines > 0 && (signature == 0 || now.signatures.contains(signature));
    }());
    const QByteArray after = readFile(o.logPath).mid(before);
    const Scan s = scan(after);
    QVERIFY2(s.errorLines > 0, after.constData());
    if (signature == 0)
        QVERIFY2(s.signatures.isEmpty(), after.constData());
    else
        QCOMPARE(s.signatures, QSet<int> { signature });
    if (kind == QLatin1String("malformed-metrics"))
        QCOMPARE(after.count("Exception in ASGI application"), 1); // once per fault, not per scrape
}

void TestSimEngineLog::shutdownLines()
{
    EngineScheduler scheduler;
    {
        const EngineOptions o = options(QStringLiteral("stopped.log"));
        SimEngine engine(o, &scheduler);
        QVERIFY(engine.start());
        engine.stop();
        const QByteArray text = readFile(o.logPath);
        QVERIFY(text.contains("INFO:     Shutting down\n"));
        QVERIFY(text.contains("Shutting down FastAPI HTTP server."));
        QVERIFY(text.contains("INFO:     Application shutdown complete.\n"));
        QVERIFY(lastLine(text).startsWith("INFO:     Finished server process ["));
    }
    {
        const EngineOptions o = options(QStringLiteral("terminated.log"));
        SimEngine engine(o, &scheduler);
        QSignalSpy stopped(&engine, &SimEngine::stopped);
        QVERIFY(engine.start());
        engine.shutdown(1000);
        QVERIFY(stopped.wait(3000));
        QVERIFY(lastLine(readFile(o.logPath)).startsWith("INFO:     Finished server process ["));
    }
    {
        const EngineOptions o = options(QStringLiteral("crashed.log"));
        SimEngine engine(o, &scheduler);
        QVERIFY(engine.start());
        engine.setFault(FaultKind::Crash);
        engine.stop();
        const QByteArray text = readFile(o.logPath);
        QVERIFY(!text.contains("Finished server process")); // a crashed process says nothing more
        QCOMPARE(lastLine(text), QByteArray("Fatal Python error: Aborted"));
    }
}

void TestSimEngineLog::restartRotatesAndTheCapBounds()
{
    EngineScheduler scheduler;
    EngineOptions o = options(QStringLiteral("restart.log"));
    o.logCapBytes = 8192;
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    engine.stop();
    QVERIFY(engine.start());
    QTRY_VERIFY(readFile(o.logPath).contains("Application startup complete."));
    // The launcher's convention: the previous process's log is <log>.1.
    QVERIFY(lastLine(readFile(o.logPath + QStringLiteral(".1"))).startsWith("INFO:     Finished server process ["));
    QVERIFY(readFile(o.logPath).startsWith("INFO "));
    QVERIFY(!readFile(o.logPath).contains("Finished server process"));

    SimClient client(engine.port());
    for (int i = 0; i < 150; ++i)
        QCOMPARE(client.request("GET", "/metrics").status, 200);
    QVERIFY(engine.log());
    QTRY_VERIFY(engine.log()->file().rotations() >= 2); // an access line is written after its answer is sent
    QVERIFY(QFileInfo(o.logPath).size() <= o.logCapBytes);
    QVERIFY(readFile(o.logPath + QStringLiteral(".1")).contains("\"GET /metrics HTTP/1.1\" 200 OK"));
    QCOMPARE(engine.log()->file().droppedBytes(), 0);
}

void TestSimEngineLog::aLinkedLogIsNeverMoved()
{
    // `--log /dev/stdout` under a launcher's `> log`: the path is not the engine's to rename.
    const QString target = m_dir.filePath(QStringLiteral("launcher.log"));
    const QString link = m_dir.filePath(QStringLiteral("stdout-link"));
    QVERIFY(QFile(target).open(QIODevice::WriteOnly));
    QVERIFY(QFile::link(target, link));
    EngineScheduler scheduler;
    EngineOptions o = options(QStringLiteral("unused"));
    o.logPath = link;
    o.logCapBytes = 4096;
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    engine.stop();
    QVERIFY(engine.start());
    engine.stop();
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(!QFileInfo::exists(link + QStringLiteral(".1")));
    QCOMPARE(readFile(target).count("Application startup complete."), 2);
}

void TestSimEngineLog::logTailFollowsTheEngineLog()
{
    EngineScheduler scheduler;
    const EngineOptions o = options(QStringLiteral("engines/d3-9003.log"));
    SimEngine engine(o, &scheduler);
    QVERIFY(engine.start());
    QTRY_VERIFY(readFile(o.logPath).contains("Application startup complete."));

    pd::LocalRunner runner;
    pd::LogTailOptions to;
    to.pollInterval = std::chrono::milliseconds(50);
    pd::LogTail tail(
        &runner, pd::CommandTarget { QStringLiteral("d3"), QStringLiteral("127.0.0.1"), 22, {} }, o.logPath, to);
    tail.setEngine(QStringLiteral("127.0.0.1:%1").arg(engine.port()));
    QSignalSpy diagnosed(&tail, &pd::LogTail::diagnosed);
    tail.start();
    QTRY_VERIFY(tail.model()->find(QStringLiteral("Application startup complete."), 0) >= 0);

    SimClient client(engine.port());
    QCOMPARE(client.request("POST", "/v1/completions", completion(4)).status, 200);
    QTRY_VERIFY(tail.model()->find(QStringLiteral("\"POST /v1/completions HTTP/1.1\" 200 OK"), 0) >= 0);
    QCOMPARE(diagnosed.count(), 0);

    engine.setFault(FaultKind::Crash);
    QTRY_VERIFY(!diagnosed.isEmpty());
    const auto event = diagnosed.first().first().value<pd::DiagnosisEvent>();
    QCOMPARE(event.signatureId, 24);
    QCOMPARE(event.node, QStringLiteral("d3"));
    QVERIFY(event.line.contains(QStringLiteral("EZ9999")));
    const int row = tail.model()->firstErrorRow();
    QVERIFY(row >= 0);
    QCOMPARE(tail.model()->line(row).cls.signatureId, 24);
}

QTEST_GUILESS_MAIN(TestSimEngineLog)
#include "tst_simenginelog.moc"
