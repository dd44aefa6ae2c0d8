// SPDX-License-Identifier: MIT
// StateTracker over a real ClusterStore fed poll batches: facts in, states and events out, one
// batched signal per round.
#include "state/statetracker.h"
#include "statetestutil.h"

#include <QDateTime>
#include <QSignalSpy>

#include <algorithm>

using namespace pd;
using namespace pd::test;

class TestStateTracker : public QObject {
    Q_OBJECT

private:
    ClusterStore *m_store = nullptr;
    StateTracker *m_tracker = nullptr;
    std::int64_t m_now = 1'800'000'000'000;
    int m_tick = 0;

    void round(PollBatch batch)
    {
        m_now += 1000;
        m_store->applyPollBatch(batch);
    }
    // Every engine healthy, except the outcomes given for some.
    void roundWith(const QList<PollOutcome> &special)
    {
        ++m_tick;
        PollBatch b = healthyRound(m_tracker->engineCount(), m_tick);
        for (const PollOutcome &o : special)
            b.outcomes[o.engine] = o;
        round(b);
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(trackDemo(this, &m_store, &m_tracker, [this] { return m_now; }));
        m_tick = 0;
    }
    void cleanup()
    {
        delete m_tracker;
        delete m_store;
    }

    void startsUnknownWithMembershipFromTheProxyCommand()
    {
        QCOMPARE(m_tracker->engineCount(), 72);
        for (int i = 0; i < 72; ++i) {
            QCOMPARE(m_tracker->state(i), EngineState::Unknown);
            QCOMPARE(m_tracker->facts(i).membership, MembershipFact::Active);
        }
        QCOMPARE(m_tracker->stateCounts()[int(EngineState::Unknown)], 72);
        QCOMPARE(m_tracker->engineLabel(0), QStringLiteral("p0 · 127.0.0.2:9000 (DP 0)"));
    }

    void oneBatchedSignalPerRound()
    {
        QSignalSpy changed(m_tracker, &StateTracker::statesChanged);
        QSignalSpy rounds(m_tracker, &StateTracker::roundDerived);
        QSignalSpy events(m_tracker, &StateTracker::eventsAppended);
        roundWith({});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).value<QList<int>>().size(), 72);
        QCOMPARE(rounds.size(), 1);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).at(0).toInt(), 72);
        QCOMPARE(m_tracker->state(5), EngineState::Serving);
        // Nothing changes: no statesChanged, but a derived round.
        roundWith({});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(rounds.size(), 2);
        QCOMPARE(events.size(), 1);
    }

    void frozenCountersWithRunningRequestsStall()
    {
        roundWith({});
        const int e = 20;
        const double g = 100.0 * m_tick, p = 50.0 * m_tick, s = m_tick;
        QSignalSpy changed(m_tracker, &StateTracker::statesChanged);
        for (int i = 0; i < 2; ++i) {
            roundWith({ ok(e, g, p, s, 7) });
            QCOMPARE(m_tracker->state(e), EngineState::Serving);
        }
        roundWith({ ok(e, g, p, s, 7) });
        QCOMPARE(m_tracker->state(e), EngineState::Stalled);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).value<QList<int>>(), QList<int> { e });
        const StateEvent &last = m_tracker->events().at(m_tracker->events().size() - 1);
        QCOMPARE(last.kind, StateEvent::Kind::State);
        QCOMPARE(last.engine, e);
        QCOMPARE(last.from, EngineState::Serving);
        QCOMPARE(last.to, EngineState::Stalled);
        QCOMPARE(last.what, QStringLiteral("serving → stalled"));
        QVERIFY2(last.evidence.join(QLatin1Char(' ')).contains(QStringLiteral("frozen for 3 polls")),
            qPrintable(last.evidence.join(QLatin1Char(' '))));
        QCOMPARE(m_tracker->stateSinceMs(e), m_now);
        // One counter moving again ends the stall.
        roundWith({ ok(e, g, p, s + 1, 7) });
        QCOMPARE(m_tracker->state(e), EngineState::Serving);
    }

    void aMissedPollNeitherEndsNorRestartsAStall()
    {
        roundWith({});
        const int e = 21;
        const double g = 100.0 * m_tick, p = 50.0 * m_tick, s = m_tick; // this round's counters, then frozen
        roundWith({ ok(e, g, p, s, 4) });
        roundWith({ ok(e, g, p, s, 4) });
        QCOMPARE(m_tracker->facts(e).frozenPolls, 2);
        QCOMPARE(m_tracker->state(e), EngineState::Serving);
        roundWith({ failed(e, PollStatus::Timeout) }); // a loaded host misses one poll: no verdict
        QCOMPARE(m_tracker->facts(e).frozenPolls, 2);
        roundWith({ ok(e, g, p, s, 4) });
        QCOMPARE(m_tracker->state(e), EngineState::Stalled); // the third frozen poll, the miss not counted
        roundWith({ failed(e, PollStatus::Timeout) });
        QCOMPARE(m_tracker->state(e), EngineState::Stalled); // one miss is below the failure threshold
        roundWith({ ok(e, g, p, s, 4) });
        QCOMPARE(m_tracker->state(e), EngineState::Stalled);
        QCOMPARE(m_tracker->facts(e).frozenPolls, 4);
    }

    // The decoder whose KV transfer never arrives: waiting 1, running 0, nothing moving. Counted as
    // frozen although nothing runs, stalled at the threshold; the KV cache full and frozen is named so.
    void waitingThatNeverRunsIsAStall()
    {
        roundWith({});
        const int e = 22;
        for (int i = 0; i < 3; ++i)
            roundWith({ ok(e, 10, 20, 2, 0, 200, 1) });
        QCOMPARE(m_tracker->facts(e).frozenPolls, 2); // the first scrape sets the counters
        QCOMPARE(m_tracker->state(e), EngineState::Serving);
        roundWith({ ok(e, 10, 20, 2, 0, 200, 1) });
        QCOMPARE(m_tracker->state(e), EngineState::Stalled);
        QVERIFY2(m_tracker->derived(e).reason.contains(QStringLiteral("none running")), qPrintable(m_tracker->derived(e).reason));
        roundWith({ ok(e, 10, 20, 2, 0, 200, 4, 0.99) });
        QVERIFY2(m_tracker->derived(e).reason.contains(QStringLiteral("KV cache pinned at 99 %")), qPrintable(m_tracker->derived(e).reason));
        roundWith({ ok(e, 11, 20, 2, 1, 200, 3, 0.99) }); // a token: it moves again
        QCOMPARE(m_tracker->state(e), EngineState::Serving);
    }

    void idleEnginesNeverStall()
    {
        roundWith({});
        for (int i = 0; i < 10; ++i)
            roundWith({ ok(3, 1, 1, 1, 0) });
        QCOMPARE(m_tracker->state(3), EngineState::Serving);
    }

    void failuresBecomeUnreachableAndUnhealthy()
    {
        roundWith({});
        roundWith(
            { failed(8, PollStatus::Refused), failed(9, PollStatus::Timeout), failed(10, PollStatus::HttpError, 503) });
        QCOMPARE(m_tracker->state(8), EngineState::Serving); // one failed poll: not yet
        QCOMPARE(m_tracker->facts(8).consecutiveFailures, 1);
        roundWith(
            { failed(8, PollStatus::Refused), failed(9, PollStatus::Timeout), failed(10, PollStatus::HttpError, 503) });
        QCOMPARE(m_tracker->state(8), EngineState::Unreachable);
        QCOMPARE(m_tracker->state(9), EngineState::Unreachable);
        QCOMPARE(m_tracker->state(10), EngineState::Unhealthy);
        QCOMPARE(m_tracker->facts(9).http, HttpFact::Timeout);
        QCOMPARE(freshnessOf(m_tracker->facts(9), m_tracker->thresholds()), FreshnessFact::Stale);
        QVERIFY(m_tracker->derived(10).reason.contains(QStringLiteral("HTTP 503")));
        // /health 500 with /metrics fine (the http500 fault): unhealthy at once.
        roundWith({ ok(11, 1e6, 1e6, 1e6, 1, 500) });
        QCOMPARE(m_tracker->state(11), EngineState::Unhealthy);
        // Recovery keeps the last error for the detail view.
        roundWith({});
        QCOMPARE(m_tracker->state(8), EngineState::Serving);
        QCOMPARE(m_tracker->facts(8).lastError, QStringLiteral("/metrics: refused"));
        QCOMPARE(m_tracker->facts(8).consecutiveFailures, 0);
    }

    void factSettersDeriveAndRecord()
    {
        roundWith({});
        QSignalSpy changed(m_tracker, &StateTracker::statesChanged);
        m_tracker->setMembership(4, MembershipFact::Gone, QStringLiteral("removed by the console"));
        QCOMPARE(m_tracker->state(4), EngineState::ReadyNotInProxy);
        QCOMPARE(changed.size(), 1);
        const int n = m_tracker->events().size();
        QCOMPARE(m_tracker->events().at(n - 2).kind, StateEvent::Kind::Membership);
        QCOMPARE(m_tracker->events().at(n - 2).what, QStringLiteral("proxy membership active → gone"));
        QCOMPARE(m_tracker->events().at(n - 1).to, EngineState::ReadyNotInProxy);

        m_tracker->setProcess(5, ProcessFact::Exited, QStringLiteral("exit status 137"));
        QCOMPARE(m_tracker->state(5), EngineState::Stopped);
        m_tracker->setProcess(6, ProcessFact::Running, QStringLiteral("pid 42"));
        QCOMPARE(m_tracker->state(6), EngineState::Serving);
        m_tracker->setModelsReady(7, false);
        QCOMPARE(m_tracker->state(7), EngineState::Starting);
        m_tracker->recordAction(7, -1, QStringLiteral("restart requested"));
        QCOMPARE(m_tracker->events().at(m_tracker->events().size() - 1).kind, StateEvent::Kind::Action);
        QCOMPARE(m_tracker->events().recent(7, -1, 10).size(), 3); // unknown → serving, serving → starting, the action
    }

    void aFactBatchIsOneChangeWhenItsLastScopeEnds()
    {
        roundWith({});
        QSignalSpy changed(m_tracker, &StateTracker::statesChanged);
        QSignalSpy rounds(m_tracker, &StateTracker::roundDerived);
        const int eventsBefore = m_tracker->events().size();
        {
            const StateTracker::FactBatch outer(m_tracker);
            {
                const StateTracker::FactBatch inner(m_tracker);
                for (int i = 4; i < 10; ++i)
                    m_tracker->setMembership(i, MembershipFact::Gone);
            }
            m_tracker->setProcess(12, ProcessFact::Exited, QStringLiteral("exit status 137"));
            // Nothing announced while a batch is open; each engine's own state is derived at once.
            QCOMPARE(changed.size(), 0);
            QCOMPARE(rounds.size(), 0);
            QCOMPARE(m_tracker->ownState(4), EngineState::ReadyNotInProxy);
        }
        QCOMPARE(rounds.size(), 1);
        QCOMPARE(changed.size(), 1);
        // The engines set, and the live ranks of engine 12's coupled group, which its exit broke: the
        // groups are settled at the batch's end as after a single setter.
        const QList<int> announced = changed.at(0).at(0).value<QList<int>>();
        const int group = m_tracker->groupOf(12);
        QVERIFY(group >= 0);
        const QList<int> ranks = m_tracker->groups().groups().at(group).engines;
        QList<int> expected { 4, 5, 6, 7, 8, 9 };
        for (const int rank : ranks)
            expected.append(rank);
        std::sort(expected.begin(), expected.end());
        expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
        QCOMPARE(announced, expected);
        for (int i = 4; i < 10; ++i)
            QCOMPARE(m_tracker->ownState(i), EngineState::ReadyNotInProxy);
        QCOMPARE(m_tracker->state(12), EngineState::Stopped);
        for (const int rank : ranks)
            if (rank != 12)
                QCOMPARE(m_tracker->state(rank), EngineState::GroupBroken); // 4-9 among them when in its group
        // Every fact and every state change is on the timeline, as without the batch.
        QCOMPARE(m_tracker->events().size() - eventsBefore, 7 + int(announced.size()));
        // An empty batch announces nothing.
        {
            const StateTracker::FactBatch none(m_tracker);
        }
        QCOMPARE(rounds.size(), 1);
    }

    void aDeliberateStopIsStoppedACrashIsUnreachable()
    {
        QVERIFY(loadDemo(m_store, DemoCoupling::Independent)); // one engine's own state, no group
        roundWith({});
        // Scale-in under load: out of the proxy (it keeps the instance listed as draining), then stopped.
        m_tracker->setIntent(3, OperatorIntent::Drain, QStringLiteral("scale-in"));
        m_tracker->setMembership(3, MembershipFact::Draining);
        QCOMPARE(m_tracker->state(3), EngineState::Draining);
        QVERIFY2(m_tracker->derived(3).reason.contains(QStringLiteral("taken out of the proxy by the operator (scale-in)")),
                 qPrintable(m_tracker->derived(3).reason));
        m_tracker->setIntent(3, OperatorIntent::Stop, QStringLiteral("scale-in"));
        const std::int64_t stoppedAt = m_now;
        m_tracker->setMembership(4, MembershipFact::Draining); // the same membership, no intent: it crashes
        roundWith({ failed(3, PollStatus::Refused), failed(4, PollStatus::Refused) });
        roundWith({ failed(3, PollStatus::Refused), failed(4, PollStatus::Refused) });
        QCOMPARE(m_tracker->state(3), EngineState::Stopped);
        QCOMPARE(m_tracker->state(4), EngineState::Unreachable);
        const QString clock = QDateTime::fromMSecsSinceEpoch(stoppedAt).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(m_tracker->derived(3).reason,
                 QStringLiteral("stopped by the operator (scale-in) at %1; the proxy still lists it as draining until it is idle")
                     .arg(clock));
        QCOMPARE(m_tracker->stateCounts()[int(EngineState::Stopped)], 1);
        // The intent is on the engine's timeline.
        bool recorded = false;
        for (const StateEvent &e : m_tracker->events().recent(3, -1, 20))
            recorded |= e.kind == StateEvent::Kind::Action && e.what == QStringLiteral("operator intent drain → stop");
        QVERIFY(recorded);
    }

    void aStartClearsTheIntent()
    {
        QVERIFY(loadDemo(m_store, DemoCoupling::Independent));
        roundWith({});
        // The console starts it again: from then on its silence is news.
        m_tracker->setIntent(5, OperatorIntent::Stop, QStringLiteral("stop"));
        roundWith({ failed(5, PollStatus::Refused) });
        roundWith({ failed(5, PollStatus::Refused) });
        QCOMPARE(m_tracker->state(5), EngineState::Stopped);
        m_tracker->setIntent(5, OperatorIntent::None);
        QCOMPARE(m_tracker->facts(5).intent, OperatorIntent::None);
        QCOMPARE(m_tracker->state(5), EngineState::Unreachable);

        // Started elsewhere: it answers again after it went down, and the intent goes with the old run.
        m_tracker->setIntent(6, OperatorIntent::Stop, QStringLiteral("stop"));
        roundWith({ ok(6, 1, 1, 1, 0) }); // still answering while it shuts down: the intent stands
        QCOMPARE(m_tracker->facts(6).intent, OperatorIntent::Stop);
        roundWith({ failed(6, PollStatus::Refused) });
        roundWith({ failed(6, PollStatus::Refused) });
        QCOMPARE(m_tracker->state(6), EngineState::Stopped);
        roundWith({});
        QCOMPARE(m_tracker->facts(6).intent, OperatorIntent::None);
        QCOMPARE(m_tracker->state(6), EngineState::Serving);
        roundWith({ failed(6, PollStatus::Refused) });
        roundWith({ failed(6, PollStatus::Refused) });
        QCOMPARE(m_tracker->state(6), EngineState::Unreachable); // a crash of the new run

        // SSH sees the process exit, then run again.
        m_tracker->setIntent(7, OperatorIntent::Stop, QStringLiteral("stop"));
        m_tracker->setProcess(7, ProcessFact::Exited);
        QCOMPARE(m_tracker->state(7), EngineState::Stopped);
        m_tracker->setProcess(7, ProcessFact::Running);
        QCOMPARE(m_tracker->facts(7).intent, OperatorIntent::None);

        // Taken out of the proxy, then added back by anyone.
        m_tracker->setIntent(8, OperatorIntent::Drain, QStringLiteral("remove from the proxy"));
        m_tracker->setMembership(8, MembershipFact::Gone);
        QCOMPARE(m_tracker->facts(8).intent, OperatorIntent::Drain);
        m_tracker->setMembership(8, MembershipFact::Waiting);
        QCOMPARE(m_tracker->facts(8).intent, OperatorIntent::None);
        QCOMPARE(m_tracker->state(8), EngineState::WaitingInProxy);
    }

    void thresholdsChangeTheVerdict()
    {
        roundWith({});
        roundWith({ failed(8, PollStatus::Refused) });
        QCOMPARE(m_tracker->state(8), EngineState::Serving);
        StateThresholds t;
        t.stalePolls = 1;
        QSignalSpy changed(m_tracker, &StateTracker::statesChanged);
        m_tracker->setThresholds(t);
        QCOMPARE(m_tracker->state(8), EngineState::Unreachable);
        QCOMPARE(changed.size(), 1);
    }

    void proxyReachabilityIsAnEvent()
    {
        QSignalSpy proxy(m_tracker, &StateTracker::proxyChanged);
        ProxyHealth h;
        h.reachable = true;
        h.prefillInstances = 8;
        h.decodeInstances = 64;
        m_tracker->applyProxyHealth(h);
        QCOMPARE(m_tracker->events().size(), 0);
        h.decodeInstances = 63;
        m_tracker->applyProxyHealth(h);
        QCOMPARE(m_tracker->events().at(0).what, QStringLiteral("proxy counts 8/64 → 8/63 (prefill/decode)"));
        m_now += 5000;
        ProxyHealth down;
        down.error = QStringLiteral("Connection refused");
        m_tracker->applyProxyHealth(down);
        QCOMPARE(m_tracker->events().at(1).what, QStringLiteral("proxy unreachable"));
        QCOMPARE(m_tracker->events().at(1).reason, QStringLiteral("Connection refused"));
        QCOMPARE(m_tracker->proxySinceMs(), m_now);
        QCOMPARE(proxy.size(), 3);
        // The timeline draws a recovery in the serving colour, not the outage's red.
        QCOMPARE(m_tracker->events().at(1).to, EngineState::Unreachable);
        m_tracker->applyProxyHealth(h);
        QCOMPARE(m_tracker->events().at(2).what, QStringLiteral("proxy reachable again"));
        QCOMPARE(m_tracker->events().at(2).to, EngineState::Serving);
    }

    void aNewProfileStartsOver()
    {
        roundWith({});
        QSignalSpy reset(m_tracker, &StateTracker::reset);
        QVERIFY(loadDemo(m_store));
        QCOMPARE(reset.size(), 1);
        QCOMPARE(m_tracker->events().size(), 0);
        QCOMPARE(m_tracker->state(0), EngineState::Unknown);
    }

    void eventLogIsBounded()
    {
        EventLog log(3);
        int dropped = 0;
        for (int i = 0; i < 5; ++i) {
            StateEvent e;
            e.engine = i % 2;
            e.atMs = i;
            dropped += log.append(e);
        }
        QCOMPARE(log.size(), 3);
        QCOMPARE(dropped, 2);
        QCOMPARE(log.at(0).atMs, 2);
        QCOMPARE(log.at(2).serial, quint64(5));
        const QList<StateEvent> recent = log.recent(0, -1, 5);
        QCOMPARE(recent.size(), 2);
        QCOMPARE(recent.at(0).atMs, 4); // newest first
    }
};

QTEST_GUILESS_MAIN(TestStateTracker)
#include "tst_statetracker.moc"
