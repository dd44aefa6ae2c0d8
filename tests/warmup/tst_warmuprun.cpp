// SPDX-License-Identifier: MIT
// The warm-up through a real (simulated) proxy: pdsim's SimCluster in this process on 127.0.0.110-112
// (1 prefill node x 2 engines, 1 decode node x 2 engines, the proxy with its §8 defects). A clean run
// is 100 % with TTFT and TPOT for every request; a decoder failure injected through the control API
// (http500, crash, stall) is detected and classified, and no failed request is counted as a success:
// the number of empty 200s equals the proxy's own "Error during streaming from decoder" lines. Then a
// hostile local server for the kinds pdsim does not produce (no [DONE], malformed line, error event,
// 503, reset), the model fallback, cancellation, and the audit line of every run.
#include "hostileproxy.h"

#include "simscalefixture.h"

#include "audit/auditlog.h"
#include "net/profileproxyendpoint.h"
#include "ops/warmupreport.h"
#include "ops/warmuprun.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace pd;

class TestWarmUpRun : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;
    int m_decoderErrors = 0; // the proxy's own log of decoder failures: the ground truth
    std::unique_ptr<AuditLog> m_audit;

    WarmUpResult run(
        const WarmUpOptions &options, const ProxyEndpoint &endpoint, QList<QPair<int, int>> *progress = nullptr)
    {
        WarmUpRun warmup(endpoint, options, m_audit.get());
        QSignalSpy finished(&warmup, &WarmUpRun::finished);
        if (progress)
            connect(&warmup, &WarmUpRun::progress, this, [progress](int done, int total) {
                progress->append({ done, total });
            });
        warmup.start();
        if (!finished.wait(120000))
            qWarning("warm-up did not finish");
        QTest::qWait(20); // deliberate: a second finished() would come right after the first
        if (finished.size() != 1)
            qWarning("finished() emitted %d times", int(finished.size()));
        return finished.isEmpty() ? WarmUpResult() : finished.first().first().value<WarmUpResult>();
    }
    ProxyEndpoint proxy() const { return profileProxyEndpoint(m_sim.profile()); }
    static QString describe(const WarmUpResult &r)
    {
        QString s = r.error + QLatin1Char('\n');
        for (const WarmUpSample &x : r.samples)
            s += QStringLiteral("#%1 %2 %3\n").arg(x.index + 1).arg(warmUpOutcomeName(x.outcome), x.detail);
        return s;
    }
    AuditEntry lastAudit() const
    {
        const AuditReadResult r = readAuditLog(m_audit->path());
        return r.entries.isEmpty() ? AuditEntry() : r.entries.last();
    }
    const QString m_firstDecoder = QStringLiteral("127.0.0.112:9000");

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<WarmUpResult>();
        qRegisterMetaType<WarmUpSample>();
        QVERIFY(m_sim.dir().isValid());
        m_audit = std::make_unique<AuditLog>(m_sim.dir().filePath(QStringLiteral("audit.jsonl")));
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/warmup-loopback.json")));
        sim::ClusterOptions options;
        options.timeScale = 1; // real time: TTFT and TPOT as the load model has them
        options.jitter = false;
        options.seed = 11;
        PD_START_SIM_CLUSTER(m_sim, options);
        connect(m_sim.cluster(), &sim::SimCluster::message, this, [this](const QString &line) {
            if (line.contains(QLatin1String("Error during streaming from decoder")))
                ++m_decoderErrors;
        });
    }

    void cleanRunIsComplete()
    {
        WarmUpOptions o;
        o.count = 12;
        o.concurrency = 4;
        o.promptTokens = 64;
        o.maxTokens = 8;
        o.fallbackModel = QStringLiteral("not-used");
        QList<QPair<int, int>> progress;
        const WarmUpResult r = run(o, proxy(), &progress);
        QVERIFY2(r.allOk(), qPrintable(describe(r)));
        QCOMPARE(r.ok(), 12);
        QCOMPARE(r.successRate(), 1.0);
        QCOMPARE(r.model, QStringLiteral("deepseek_r1"));
        QCOMPARE(r.modelSource, QStringLiteral("proxy /v1/models"));
        QCOMPARE(progress.size(), 12);
        QCOMPARE(progress.last(), qMakePair(12, 12));
        for (const WarmUpSample &s : r.samples) {
            QCOMPARE(s.tokens, 8); // ignore_eos: exactly max_tokens, from the usage chunk
            QVERIFY(s.chunks >= 4 && s.chunks <= 8); // MTP: one or two tokens per chunk
            QVERIFY(s.ttftMs > 0 && s.ttftMs <= s.e2eMs);
            QVERIFY(s.tpotMs > 0);
        }
        QCOMPARE(r.ttft.count, 12);
        QCOMPARE(r.tpot.count, 12);
        QVERIFY(r.ttft.p50 <= r.ttft.p90 && r.ttft.p90 <= r.ttft.p99 && r.ttft.p99 <= r.ttft.max);
        QCOMPARE(m_decoderErrors, 0);
        qInfo("clean: %s", qPrintable(warmUpSummaryLine(r)));

        const AuditEntry a = lastAudit();
        QCOMPARE(a.action, QStringLiteral("warmup"));
        QCOMPARE(a.target, QStringLiteral("proxy http://127.0.0.110:8500"));
        QCOMPARE(a.result, QStringLiteral("ok"));
        QCOMPARE(a.params["count"].get<int>(), 12);
        QCOMPARE(a.params["concurrency"].get<int>(), 4);
        QCOMPARE(a.params["model"].get<std::string>(), "deepseek_r1");
        QVERIFY(a.detail.startsWith(QLatin1String("ok 12/12 (100.0 %)")));
        QVERIFY(a.durationMs > 0);
    }

    void decoderFailure_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("stream");
        QTest::newRow("http500, streamed") << "http500" << true;
        QTest::newRow("http500, not streamed") << "http500" << false;
        QTest::newRow("crash, streamed") << "crash" << true;
    }
    void decoderFailure()
    {
        QFETCH(QString, kind);
        QFETCH(bool, stream);
        QVERIFY(m_sim.setFault(m_firstDecoder, kind));
        const int errorsBefore = m_decoderErrors;
        WarmUpOptions o;
        o.count = 12;
        o.concurrency = 2;
        o.promptTokens = 32;
        o.maxTokens = 4;
        o.stream = stream;
        const WarmUpResult r = run(o, proxy());
        // Restore the decoder before any assertion can return.
        QVERIFY(m_sim.setFault(m_firstDecoder, QStringLiteral("none")));
        if (kind == QLatin1String("crash")) {
            m_sim.postControl(QStringLiteral("/cluster/engines/start"),
                QStringLiteral(R"({"engines":["%1"]})").arg(m_firstDecoder).toUtf8());
            QTRY_COMPARE_WITH_TIMEOUT(m_sim.engineStatus(m_firstDecoder), QStringLiteral("ready"), 10000);
        }
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sent(), 12);
        QVERIFY(!r.allOk());
        const int empty = r.counts[int(WarmUpOutcome::EmptyOk)];
        // The dead decoder is least loaded after each failure, so it keeps being picked (§8.2).
        QVERIFY2(empty > 0, qPrintable(describe(r)));
        QCOMPARE(r.ok() + empty, 12);
        // Every failure the proxy logged is a failure here, none counted as a success.
        QCOMPARE(empty, m_decoderErrors - errorsBefore);
        for (const WarmUpSample &s : r.samples) {
            if (s.outcome == WarmUpOutcome::Ok)
                QCOMPARE(s.tokens, 4);
            else
                QVERIFY2(s.detail.contains(QLatin1String("empty body")), qPrintable(s.detail));
        }
        QVERIFY(r.examples[int(WarmUpOutcome::EmptyOk)].startsWith(QLatin1Char('#')));
        QCOMPARE(r.ttft.count, stream ? r.ok() : 0);
        const AuditEntry a = lastAudit();
        QCOMPARE(a.result, QStringLiteral("failed"));
        QVERIFY2(a.detail.contains(QStringLiteral("empty-200 %1").arg(empty)), qPrintable(a.detail));
    }

    void stalledDecoderTimesOut()
    {
        QVERIFY(m_sim.setFault(m_firstDecoder, QStringLiteral("stall")));
        WarmUpOptions o;
        o.count = 4;
        o.concurrency = 2;
        o.promptTokens = 32;
        o.maxTokens = 4;
        o.requestTimeoutMs = 1500;
        const WarmUpResult r = run(o, proxy());
        QVERIFY(m_sim.setFault(m_firstDecoder, QStringLiteral("none")));
        const int timeouts = r.counts[int(WarmUpOutcome::Timeout)];
        QVERIFY2(timeouts >= 1, qPrintable(describe(r)));
        QCOMPARE(r.ok() + timeouts, 4);
        for (const WarmUpSample &s : r.samples)
            if (s.outcome == WarmUpOutcome::Timeout)
                QVERIFY2(s.detail == QLatin1String("HTTP 200 but no token within 1500 ms"), qPrintable(s.detail));
    }

    void hostileServer()
    {
        HostileProxy hostile;
        QVERIFY(hostile.listen());
        ProxyEndpoint endpoint;
        endpoint.base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(hostile.port()));
        WarmUpOptions o;
        o.count = 2 * HostileProxy::ModeCount;
        o.concurrency = 3;
        o.promptTokens = 16;
        o.maxTokens = 2;
        o.fallbackModel = QStringLiteral("profile-model");
        o.requestTimeoutMs = 10000;
        const WarmUpResult r = run(o, endpoint);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.model, QStringLiteral("profile-model")); // /v1/models answered 404
        QCOMPARE(r.modelSource, QStringLiteral("profile"));
        QCOMPARE(r.sent(), o.count);
        const QHash<int, WarmUpOutcome> expected { { HostileProxy::Ok, WarmUpOutcome::Ok },
            { HostileProxy::NoDone, WarmUpOutcome::NoDone }, { HostileProxy::MalformedLine3, WarmUpOutcome::Malformed },
            { HostileProxy::Empty200, WarmUpOutcome::EmptyOk }, { HostileProxy::Http503, WarmUpOutcome::HttpError },
            { HostileProxy::CloseSilently, WarmUpOutcome::ConnectionFailed },
            { HostileProxy::ErrorEvent, WarmUpOutcome::ErrorPayload },
            { HostileProxy::ResetMidStream, WarmUpOutcome::NoDone } };
        for (const WarmUpSample &s : r.samples) {
            const WarmUpOutcome want = expected.value(s.index % HostileProxy::ModeCount);
            QVERIFY2(s.outcome == want,
                qPrintable(QStringLiteral("#%1: %2 (%3), expected %4")
                               .arg(s.index)
                               .arg(warmUpOutcomeName(s.outcome), s.detail, warmUpOutcomeName(want))));
        }
        QCOMPARE(r.ok(), 2);
        QVERIFY(r.examples[int(WarmUpOutcome::Malformed)].contains(QLatin1String("line 3: data is not a JSON object")));
        QVERIFY(r.examples[int(WarmUpOutcome::HttpError)].contains(
            QLatin1String("HTTP 503: {\"error\":\"All backend instances failed\"")));
        QVERIFY(r.examples[int(WarmUpOutcome::ErrorPayload)].contains(QLatin1String("KV transfer timed out")));
        QVERIFY(r.examples[int(WarmUpOutcome::NoDone)].contains(QLatin1String("without data: [DONE]")));
    }

    void noModelAnywhere()
    {
        HostileProxy hostile;
        QVERIFY(hostile.listen());
        ProxyEndpoint endpoint;
        endpoint.base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(hostile.port()));
        const WarmUpResult r = run(WarmUpOptions(), endpoint);
        QVERIFY(r.error.contains(QLatin1String("no model to ask for")));
        QVERIFY(r.error.contains(QLatin1String("HTTP 404")));
        QCOMPARE(r.sent(), 0);
        QCOMPARE(hostile.completionsSeen, 0);
        QCOMPARE(lastAudit().result, QStringLiteral("failed"));
    }

    void refusedConnection()
    {
        ProxyEndpoint endpoint;
        endpoint.base = QUrl(QStringLiteral("http://127.0.0.1:1"));
        WarmUpOptions o;
        o.count = 3;
        o.model = QStringLiteral("m");
        const WarmUpResult r = run(o, endpoint);
        QCOMPARE(r.counts[int(WarmUpOutcome::ConnectionFailed)], 3);
        QVERIFY2(r.examples[int(WarmUpOutcome::ConnectionFailed)].contains(QLatin1String("refused")),
            qPrintable(r.examples[int(WarmUpOutcome::ConnectionFailed)]));
    }

    void cancel()
    {
        HostileProxy hostile;
        hostile.hold = true;
        QVERIFY(hostile.listen());
        ProxyEndpoint endpoint;
        endpoint.base = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(hostile.port()));
        WarmUpOptions o;
        o.count = 10;
        o.concurrency = 3;
        o.model = QStringLiteral("m");
        WarmUpRun warmup(endpoint, o, m_audit.get());
        QSignalSpy finished(&warmup, &WarmUpRun::finished);
        warmup.start();
        QVERIFY(warmup.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(hostile.completionsSeen, 3, 10000);
        warmup.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QVERIFY(!warmup.isRunning());
        const WarmUpResult r = finished.first().first().value<WarmUpResult>();
        QVERIFY(r.cancelled);
        QCOMPARE(r.sent(), 3);
        QCOMPARE(r.cancelledCount(), 3);
        QCOMPARE(r.completed(), 0);
        QVERIFY(!r.allOk());
        QTest::qWait(100);
        QCOMPARE(hostile.completionsSeen, 3); // nothing sent after the cancel
        QCOMPARE(finished.size(), 1);
        QCOMPARE(lastAudit().result, QStringLiteral("cancelled"));
    }

    void badOptionsSendNothing()
    {
        WarmUpOptions o;
        o.concurrency = 0;
        const WarmUpResult r = run(o, proxy());
        QCOMPARE(r.error, QStringLiteral("concurrency must be 1..64, got 0"));
        QCOMPARE(r.sent(), 0);
    }

    void cleanupTestCase() { m_sim.stopCluster(); }
};

QTEST_GUILESS_MAIN(TestWarmUpRun)
#include "tst_warmuprun.moc"
