// SPDX-License-Identifier: MIT
// The canary through a real (simulated) proxy: pdsim's SimCluster in this process on 127.0.0.170-172
// (1 prefill node x 2 engines, 1 decode node x 2 engines, the proxy with its §8 defects). With every
// decoder given the same fault through the control API, each canary request meets it, so each kind
// is classified for certain: http500 -> the proxy's empty 200, cut-stream -> a stream without
// [DONE], stall -> a timeout; a refused port -> connection failed. The history's verdict counts the
// run of failures and forgets it at the first good answer. Waits are on conditions (signals, the
// cluster's state), never on time.
#include "net/profileproxyendpoint.h"
#include "ops/canaryprobe.h"
#include "ops/warmuprun.h"
#include "simscalefixture.h"

#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using json = nlohmann::json;

class TestCanary : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;
    const QStringList m_decoders { QStringLiteral("127.0.0.172:9000"), QStringLiteral("127.0.0.172:9001") };

    // Every decoder gets `kind`; returns once the cluster reports it applied.
    bool faultDecoders(const QString &kind)
    {
        int status = 0;
        m_sim.callControl("POST", QStringLiteral("/cluster/engines/fault"),
            QStringLiteral(R"({"engines":["%1","%2"],"kind":"%3"})")
                .arg(m_decoders.at(0), m_decoders.at(1), kind)
                .toUtf8(),
            &status);
        if (status != 200)
            return false;
        for (const QString &d : m_decoders) {
            [&] { QTRY_COMPARE_WITH_TIMEOUT(m_sim.engineFault(d), kind, 10000); }();
            if (m_sim.engineFault(d) != kind)
                return false;
        }
        return true;
    }
    // The first sample the probe sends after this call.
    static CanarySample nextSample(CanaryProbe &probe)
    {
        const std::int64_t after = QDateTime::currentMSecsSinceEpoch();
        QSignalSpy spy(&probe, &CanaryProbe::sampled);
        for (int i = 0; i < 20; ++i) {
            if (!spy.wait(30000))
                break;
            for (const QList<QVariant> &args : std::as_const(spy)) {
                const CanarySample s = args.first().value<CanarySample>();
                if (s.atMs >= after)
                    return s;
            }
            spy.clear();
        }
        CanarySample none; // never taken for an answer
        none.outcome = WarmUpOutcome::Cancelled;
        none.detail = QStringLiteral("no canary sample within the wait");
        return none;
    }
    CanaryOptions fast() const
    {
        CanaryOptions o;
        o.intervalMs = 500;
        o.timeoutMs = 10000; // generous: a sanitizer build on a loaded machine is slow, never this slow
        o.fallbackModel = m_sim.profile().decode.servedModelName;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<CanarySample>();
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/canary-loopback.json")));
        sim::ClusterOptions options;
        options.timeScale = 1;
        options.jitter = false;
        options.seed = 17;
        PD_START_SIM_CLUSTER(m_sim, options);
    }

    void itsTrafficIsMarked()
    {
        WarmUpOptions o;
        o.trafficTag = QString::fromLatin1(CanaryProbe::kTrafficTag);
        const json body = json::parse(WarmUpRun::requestBody(o, QStringLiteral("m"), 3).toStdString());
        QCOMPARE(body["user"].get<std::string>(), "pdconsole-canary");
        QVERIFY(QString::fromStdString(body["prompt"].get<std::string>()).startsWith(QLatin1String("pdconsole-canary request #3:")));
        WarmUpOptions plain;
        QVERIFY(!json::parse(WarmUpRun::requestBody(plain, QStringLiteral("m"), 3).toStdString()).contains("user"));
    }

    void theChartsKeepTheWorst()
    {
        // 40 samples 5 s apart, the 20th failing: the rate line dips for a window's length and the
        // latency line breaks; folded into 4 columns, the dip and the slowest answer stay.
        CanaryHistory history(30); // the oldest 10 give way
        for (int i = 0; i < 40; ++i) {
            CanarySample s;
            s.atMs = 5000 * i;
            s.e2eMs = i == 25 ? 900 : 100;
            if (i == 20)
                s.outcome = WarmUpOutcome::Timeout;
            history.append(s);
        }
        QCOMPARE(history.size(), 30);
        QCOMPARE(history.samples().front().atMs, 50000);
        const QList<QPointF> rate = history.points(CanaryHistory::Series::SuccessRate, 0, 200000, 0, 4);
        QCOMPARE(rate.size(), 30);
        QCOMPARE(rate.at(9).y(), 100.0); // i = 19
        for (int i = 10; i < 14; ++i) // i = 20..23: the failure is in the last four
            QCOMPARE(rate.at(i).y(), 75.0);
        QCOMPARE(rate.at(14).y(), 100.0);
        const QList<QPointF> latency = history.points(CanaryHistory::Series::LatencyMs, 0, 200000, 0);
        QCOMPARE(latency.size(), 30); // 29 answers and one break
        QVERIFY(std::isnan(latency.at(10).y()));
        const QList<QPointF> folded = history.points(CanaryHistory::Series::LatencyMs, 0, 200000, 4);
        double top = 0;
        for (const QPointF &p : folded)
            top = std::isfinite(p.y()) ? std::max(top, p.y()) : top;
        QCOMPARE(top, 900.0);
        QVERIFY(folded.size() <= 8);
        const QList<QPointF> foldedRate = history.points(CanaryHistory::Series::SuccessRate, 0, 200000, 4, 4);
        double bottom = 100;
        for (const QPointF &p : foldedRate)
            bottom = std::min(bottom, p.y());
        QCOMPARE(bottom, 75.0);

        const CanaryStatus status = history.status(12);
        QCOMPARE(status.window, 12);
        QCOMPARE(status.failed, 0); // i = 28..39
        QCOMPARE(status.consecutiveFailures, 0);
        const CanaryStatus wide = history.status(30);
        QCOMPARE(wide.failed, 1);
        QCOMPARE(wide.lastFailure.atMs, 100000);
    }

    void aHealthyClusterAnswers()
    {
        CanaryProbe probe;
        probe.setEndpoint(profileProxyEndpoint(m_sim.profile()));
        probe.setOptions(fast());
        probe.start();
        const CanarySample s = nextSample(probe);
        QVERIFY2(s.ok(), qPrintable(warmUpOutcomeName(s.outcome) + QLatin1Char(' ') + s.detail));
        QCOMPARE(s.httpStatus, 200);
        QVERIFY(s.e2eMs > 0);
        QVERIFY(s.ttftMs > 0 && s.ttftMs <= s.e2eMs);
        const CanaryStatus status = probe.status();
        QVERIFY(status.enabled);
        QCOMPARE(status.consecutiveFailures, 0);
        QCOMPARE(status.failed, 0);
        probe.stop();
        QVERIFY(!probe.status().enabled);
    }

    void eachFailureIsClassified_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<int>("outcome");
        QTest::newRow("decoders answer 500: the proxy's empty 200") << "http500" << int(WarmUpOutcome::EmptyOk);
        QTest::newRow("decoders cut the stream: no [DONE]") << "cut-stream" << int(WarmUpOutcome::NoDone);
        QTest::newRow("decoders stall: timeout") << "stall" << int(WarmUpOutcome::Timeout);
    }
    void eachFailureIsClassified()
    {
        QFETCH(QString, fault);
        QFETCH(int, outcome);
        CanaryProbe probe;
        probe.setEndpoint(profileProxyEndpoint(m_sim.profile()));
        CanaryOptions options = fast();
        if (fault == QLatin1String("stall"))
            options.timeoutMs = 3000; // the stall's requests never end: the timeout is the verdict
        probe.setOptions(options);
        probe.start();
        const CanarySample before = nextSample(probe);
        QVERIFY2(before.ok(), qPrintable(before.detail)); // a known-good start: the failures below are the fault's

        QVERIFY(faultDecoders(fault));
        const CanarySample first = nextSample(probe);
        const CanarySample second = nextSample(probe);
        // Read before the fault clears: clearing it runs the event loop, and a good sample landing
        // then would reset the failure count.
        const CanaryStatus failing = probe.status();
        const bool cleared = faultDecoders(QStringLiteral("none")); // before any assertion can return
        QVERIFY(cleared);
        for (const CanarySample &s : {first, second}) {
            QVERIFY2(s.outcome == WarmUpOutcome(outcome),
                qPrintable(QStringLiteral("%1: %2").arg(warmUpOutcomeName(s.outcome), s.detail)));
            QVERIFY(!s.detail.isEmpty());
            QVERIFY(std::isnan(s.e2eMs)); // a failure has no latency to plot
        }
        QVERIFY2(failing.consecutiveFailures >= 2, qPrintable(QString::number(failing.consecutiveFailures)));
        QVERIFY(failing.failingSinceMs > 0 && failing.failingSinceMs <= second.atMs);
        QCOMPARE(failing.lastFailure.outcome, WarmUpOutcome(outcome));

        // A stalled decoder keeps the canary's abandoned requests; they end when the stall clears.
        CanarySample back = nextSample(probe);
        for (int i = 0; i < 10 && !back.ok(); ++i)
            back = nextSample(probe);
        QVERIFY2(back.ok(), qPrintable(back.detail));
        const CanaryStatus recovered = probe.status();
        QString seen;
        for (const CanarySample &s : probe.history().samples())
            seen += warmUpOutcomeName(s.outcome) + QLatin1Char(' ');
        QVERIFY2(recovered.last.ok(), qPrintable(seen));
        QCOMPARE(recovered.consecutiveFailures, 0);
        QVERIFY(probe.status().failed >= 2); // still in the window: the rate shows the dip
    }

    void aRefusedProxyIsAFailure()
    {
        CanaryProbe probe;
        ProxyEndpoint closed;
        closed.base = QUrl(QStringLiteral("http://127.0.0.170:1"));
        probe.setEndpoint(closed);
        probe.setOptions(fast());
        probe.start();
        const CanarySample s = nextSample(probe);
        QCOMPARE(s.outcome, WarmUpOutcome::ConnectionFailed);
        QVERIFY(!s.detail.isEmpty());
    }

    void cleanupTestCase()
    {
        if (m_sim.cluster())
            m_sim.cluster()->shutdown();
    }
};

QTEST_GUILESS_MAIN(TestCanary)
#include "tst_canary.moc"
