// SPDX-License-Identifier: MIT
// What the topology shows until the derived-state tracker lands: states from the store's observations,
// their batched change signal, the tooltip summary, and the filter box's matching.
#include "cluster/clusterstore.h"
#include "topology/observedstates.h"
#include "topology/syntheticprofile.h"
#include "topology/topologyfilter.h"

#include <QSignalSpy>
#include <QTest>

using namespace pd;

Q_DECLARE_METATYPE(pd::PollStatus)
Q_DECLARE_METATYPE(pd::EngineState)

namespace {

PollOutcome outcome(int engine, PollStatus status, int health = 200)
{
    PollOutcome o;
    o.engine = engine;
    o.status = status;
    o.httpStatus = status == PollStatus::HttpError ? 503 : 200;
    o.healthStatus = health;
    if (status == PollStatus::Ok) {
        EngineMetrics m;
        m.running = 3;
        m.waiting = 1;
        m.kvUsage = 0.425;
        o.metrics = m;
    } else {
        o.error = pollStatusName(status) + QStringLiteral(": test");
    }
    return o;
}

} // namespace

class TestTopologyState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fromObservation_data()
    {
        QTest::addColumn<PollStatus>("status");
        QTest::addColumn<int>("health");
        QTest::addColumn<EngineState>("expected");
        QTest::newRow("ok, healthy") << PollStatus::Ok << 200 << EngineState::Serving;
        QTest::newRow("ok, no health probe yet") << PollStatus::Ok << 0 << EngineState::Serving;
        QTest::newRow("ok, /health 503") << PollStatus::Ok << 503 << EngineState::Unhealthy;
        QTest::newRow("refused") << PollStatus::Refused << 0 << EngineState::Unreachable;
        QTest::newRow("timeout") << PollStatus::Timeout << 0 << EngineState::Unreachable;
        QTest::newRow("transport error") << PollStatus::Failed << 0 << EngineState::Unreachable;
        QTest::newRow("http 5xx") << PollStatus::HttpError << 200 << EngineState::Unhealthy;
        QTest::newRow("unparsable metrics") << PollStatus::Malformed << 200 << EngineState::Unhealthy;
    }

    void fromObservation()
    {
        QFETCH(PollStatus, status);
        QFETCH(int, health);
        QFETCH(EngineState, expected);
        EngineObservation o;
        QCOMPARE(stateFromObservation(o), EngineState::Unknown);
        o.polled = true;
        o.last = outcome(0, status, health);
        QCOMPARE(stateFromObservation(o), expected);
    }

    void changesComeInOneBatchWithTheirTime()
    {
        ClusterStore store;
        ObservedStates states(&store);
        QSignalSpy reset(&states, &ObservedStates::statesReset);
        QSignalSpy changed(&states, &ObservedStates::statesChanged);
        store.setProfile(syntheticProfile(8, 4), QString());
        QCOMPARE(reset.size(), 1);
        QCOMPARE(states.states(), QVector<EngineState>(8, EngineState::Unknown));

        PollBatch batch;
        batch.outcomes = { outcome(0, PollStatus::Ok), outcome(1, PollStatus::Ok), outcome(5, PollStatus::Refused) };
        store.applyPollBatch(batch);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).value<QList<int>>(), (QList<int> { 0, 1, 5 }));
        QCOMPARE(states.states().at(5), EngineState::Unreachable);

        // The same outcomes again change nothing: no signal.
        store.applyPollBatch(batch);
        QCOMPARE(changed.size(), 1);

        batch.outcomes = { outcome(0, PollStatus::Ok), outcome(1, PollStatus::HttpError) };
        store.applyPollBatch(batch);
        QCOMPARE(changed.size(), 2);
        QCOMPARE(changed.at(1).at(0).value<QList<int>>(), QList<int> { 1 });

        const EngineSummary serving = states.summary(0);
        QCOMPARE(serving.state, EngineState::Serving);
        QVERIFY(serving.since.isValid());
        QVERIFY(serving.lastError.isEmpty());
        QCOMPARE(states.metricValue(0, Metric::KvUsage), 0.425);
        QStringList figures;
        for (const auto &[label, value] : serving.metrics)
            figures.append(label + QLatin1Char('=') + value);
        QVERIFY2(figures.contains(QStringLiteral("KV cache=42.5 %")), qPrintable(figures.join(QLatin1Char(' '))));
        QVERIFY(figures.contains(QStringLiteral("running=3")));

        const EngineSummary failing = states.summary(1);
        QCOMPARE(failing.state, EngineState::Unhealthy);
        QVERIFY(failing.lastError.contains(QStringLiteral("test")));
        QVERIFY(std::isnan(states.metricValue(7, Metric::Running)));

        // An engine that stops answering keeps its last good figures, marked with their time.
        batch.outcomes = {outcome(0, PollStatus::Timeout)};
        store.applyPollBatch(batch);
        const EngineSummary silent = states.summary(0);
        QCOMPARE(silent.state, EngineState::Unreachable);
        QVERIFY(!silent.metrics.isEmpty());
        QVERIFY(silent.metrics.first().second.contains(QStringLiteral("(at ")));
        QVERIFY(silent.evidence.contains(QStringLiteral("timeout")));

        // A different cluster resets.
        store.setProfile(syntheticProfile(16, 4), QString());
        QCOMPARE(reset.size(), 2);
        QCOMPARE(states.states().size(), 16);
    }

    void filterMatches()
    {
        const Profile profile = syntheticProfile(64, 16);
        const QList<Engine> engines = profile.engines();
        const Engine &e = engines.at(20); // decode node d0 (13 prefill engines on p0), rank 7
        const QString key = TopologyFilter::searchKey(profile, e);
        TopologyFilter f;
        QVERIFY(f.isEmpty());
        QVERIFY(f.matches(e, EngineState::Serving, key));
        f.text = QStringLiteral("  D0 ");
        QVERIFY(f.matches(e, EngineState::Serving, key));
        f.text = QStringLiteral("d0 stalled");
        QVERIFY(!f.matches(e, EngineState::Serving, key));
        QVERIFY(f.matches(e, EngineState::Stalled, key));
        f.text = QStringLiteral(":%1").arg(e.port);
        QVERIFY(f.matches(e, EngineState::Serving, key));
        f.text = QStringLiteral("not in proxy");
        QVERIFY(f.matches(e, EngineState::ReadyNotInProxy, key));
        QVERIFY(!f.matches(e, EngineState::Serving, key));
        f.text.clear();
        f.role = Role::Prefill;
        QVERIFY(!f.matches(e, EngineState::Serving, key));
        f.role = Role::Decode;
        f.node = e.nodeIndex;
        QVERIFY(f.matches(e, EngineState::Serving, key));
        f.node = 0;
        QVERIFY(!f.matches(e, EngineState::Serving, key));
        f.node = -1;
        f.states = { EngineState::Unreachable, EngineState::Stalled };
        QVERIFY(f.matches(e, EngineState::Stalled, key));
        QVERIFY(!f.matches(e, EngineState::Serving, key));
        QVERIFY(!f.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTopologyState)
#include "tst_topologystate.moc"
