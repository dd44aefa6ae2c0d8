// SPDX-License-Identifier: MIT
// What the topology's tooltip shows of an engine (the tracker's state with the observed figures and the
// latest error), and the filter box's matching.
#include "cluster/clusterstore.h"
#include "state/statetracker.h"
#include "topology/syntheticprofile.h"
#include "topology/topologyfilter.h"
#include "topology/trackedengineinfo.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace pd;

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
    void trackedInfoShowsTheTrackersStateWithTheObservedFigures()
    {
        ClusterStore store;
        StateTracker tracker(&store);
        std::int64_t now = 1'800'000'000'000;
        tracker.setClock([&now] { return now; });
        const TrackedEngineInfo info(&tracker, &store);
        store.setProfile(syntheticProfile(8, 4), QString());
        QCOMPARE(info.summary(0).state, EngineState::Unknown);

        PollBatch batch;
        batch.outcomes = { outcome(0, PollStatus::Ok), outcome(1, PollStatus::Ok), outcome(5, PollStatus::Ok) };
        store.applyPollBatch(batch);
        // The state, its age and its reason are the tracker's: no second opinion.
        const EngineSummary serving = info.summary(0);
        QCOMPARE(serving.state, tracker.state(0));
        QVERIFY(serving.since.isValid());
        QVERIFY(serving.evidence.startsWith(tracker.derived(0).reason));
        QVERIFY(serving.lastError.isEmpty());
        QCOMPARE(info.metricValue(0, Metric::KvUsage), 0.425);
        QStringList figures;
        for (const auto &[label, value] : serving.metrics)
            figures.append(label + QLatin1Char('=') + value);
        QVERIFY2(figures.contains(QStringLiteral("KV cache=42.5 %")), qPrintable(figures.join(QLatin1Char(' '))));
        QVERIFY(figures.contains(QStringLiteral("running=3")));
        QVERIFY(std::isnan(info.metricValue(7, Metric::Running))); // never polled

        // The latest error is shown with the tracker's state, whatever that state is yet.
        batch.outcomes = { outcome(1, PollStatus::HttpError) };
        now += 1000;
        store.applyPollBatch(batch);
        const EngineSummary failing = info.summary(1);
        QCOMPARE(failing.state, tracker.state(1));
        QVERIFY(failing.lastError.contains(QStringLiteral("test")));

        // An engine that stops answering keeps its last good figures, marked with their time; once the
        // tracker calls it unreachable, the summary says so.
        batch.outcomes = { outcome(5, PollStatus::Timeout) };
        for (int poll = 0; poll < tracker.thresholds().stalePolls; ++poll) {
            now += 1000;
            store.applyPollBatch(batch);
        }
        const EngineSummary silent = info.summary(5);
        QCOMPARE(silent.state, EngineState::Unreachable);
        QCOMPARE(silent.state, tracker.state(5));
        QVERIFY(!silent.metrics.isEmpty());
        QVERIFY(silent.metrics.first().second.contains(QStringLiteral("(at ")));
        QVERIFY(silent.lastError.contains(QStringLiteral("timeout")));

        // A different cluster: the engines are new.
        store.setProfile(syntheticProfile(16, 4), QString());
        QCOMPARE(info.summary(15).state, EngineState::Unknown);
        QVERIFY(info.summary(5).metrics.isEmpty());
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
