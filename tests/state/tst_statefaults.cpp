// SPDX-License-Identifier: MIT
// Fault injection end to end: `pdsim cluster` runs tests/data/state/faults-cluster.json (12 engines on
// 127.0.42.2-5:19000-19003, the proxy on 127.0.42.1:18400, clear of the demo's ports); the real poller, store, state
// tracker and triage watch it while the control API injects faults. crash -> unreachable, kv-stuck -> stalled
// (waiting, none running), kv-pinned -> stalled (KV cache pinned), stall -> stalled (with
// /health still 200), http500 -> unhealthy, proxy stopped -> proxy unreachable as the top problem. Bounded by poll
// counts, not by time.
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "metrics/metricsextractor.h"
#include "net/metricspoller.h"
#include "net/proxyhealthpoller.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include "blockinghttp.h"
#include "pdsimcluster.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace pd;

class TestStateFaults : public QObject {
    Q_OBJECT

private:
    pd::test::PdsimCluster m_sim;
    QString m_control;
    ClusterStore m_store;
    std::unique_ptr<MetricsPoller> m_poller;
    std::unique_ptr<ProxyHealthPoller> m_proxy;
    std::unique_ptr<StateTracker> m_tracker;
    std::unique_ptr<Triage> m_triage;
    int m_rounds = 0;
    static constexpr int kIntervalMs = 500;
    const QString kDecodeGroupProblem = QStringLiteral("group-broken:decode@127.0.42.4:13395");

    static bool extract(std::string_view body, EngineMetrics *m, QString *error)
    {
        const auto r = MetricsExtractor::extract(body, *m);
        if (!r.ok())
            *error = QString::fromStdString(r.error.toString());
        return r.ok();
    }

    int post(const QString &path, const QByteArray &body)
    {
        int status = 0;
        pd::test::blockingHttp("POST", m_control + path, body, &status);
        return status;
    }

    // The engine's fault through the control API: the status of the answer.
    int fault(const QString &engine, const char *kind)
    {
        return post(QStringLiteral("/cluster/engines/fault"),
            QStringLiteral(R"({"engines":["%1"],"kind":"%2"})").arg(engine, QLatin1String(kind)).toUtf8());
    }

    int engineIndex(const QString &id) const
    {
        for (int i = 0; i < m_store.engines().size(); ++i)
            if (m_store.engines().at(i).id() == id)
                return i;
        return -1;
    }

    // Waits for `done` for at most `polls` poll rounds of the tracker; returns the rounds it took, -1 if never.
    template<typename F> int roundsUntil(F done, int polls)
    {
        const int start = m_rounds;
        // 60 s: a hard stop in case rounds stop arriving at all.
        if (!QTest::qWaitFor([&] { return done() || m_rounds - start > polls; }, 60000) || !done())
            return -1;
        return m_rounds - start;
    }

    void sendCompletion(quint16 port, const QString &host, int maxTokens, const QByteArray &extra = {})
    {
        auto *socket = new QTcpSocket(this);
        const QByteArray body = "{\"model\":\"deepseek_r1\",\"prompt\":\"hello hello hello hello\",\"max_tokens\":"
            + QByteArray::number(maxTokens) + ",\"ignore_eos\":true" + extra + "}";
        const QByteArray request = "POST /v1/completions HTTP/1.1\r\nHost: " + host.toLatin1()
            + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
            + "\r\nConnection: close\r\n\r\n" + body;
        connect(socket, &QTcpSocket::connected, socket, [socket, request] { socket->write(request); });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->connectToHost(host, port);
    }

    QString describeProblems() const
    {
        QStringList lines;
        for (const Problem &p : m_triage->problems())
            lines.append(QStringLiteral("%1 [%2] %3").arg(p.key, p.where, p.detail));
        return QStringLiteral("%1 problems: %2").arg(m_triage->count()).arg(lines.join(QStringLiteral("; ")));
    }

    const Problem *problem(const QString &key) const
    {
        const int i = m_triage->indexOf(key);
        return i >= 0 ? &m_triage->problems().at(i) : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString started = m_sim.start(QStringLiteral(PD_SOURCE_DIR "/tests/data/state/faults-cluster.json"),
            { QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--load"), QStringLiteral("2"),
                QStringLiteral("--no-jitter") });
        QVERIFY2(started.isEmpty(), qPrintable(started));
        m_control = QStringLiteral("http://") + m_sim.control();

        const ProfileLoadResult profile
            = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/data/state/faults-cluster.json"));
        QVERIFY(profile.profile);
        m_store.setProfile(*profile.profile, QStringLiteral("faults-cluster.json"));
        m_tracker = std::make_unique<StateTracker>(&m_store);
        m_triage = std::make_unique<Triage>(m_tracker.get(), &m_store);
        connect(m_tracker.get(), &StateTracker::roundDerived, this, [this] { ++m_rounds; });

        m_poller = std::make_unique<MetricsPoller>(&TestStateFaults::extract);
        m_poller->setInterval(kIntervalMs);
        m_poller->setTimeout(2000);
        QList<PollTarget> targets;
        for (int i = 0; i < m_store.engines().size(); ++i)
            targets.append({ i, m_store.engines().at(i).host.toUtf8(), quint16(m_store.engines().at(i).port), false, {} });
        m_poller->setTargets(targets);
        connect(m_poller.get(), &MetricsPoller::batchReady, &m_store, &ClusterStore::applyPollBatch);
        m_proxy = std::make_unique<ProxyHealthPoller>();
        m_proxy->setInterval(kIntervalMs);
        m_proxy->setTimeout(1000);
        m_proxy->setTarget(QUrl(QStringLiteral("http://127.0.42.1:18400")));
        connect(m_proxy.get(), &ProxyHealthPoller::updated, m_tracker.get(), &StateTracker::applyProxyHealth);
        m_poller->start();
        m_proxy->start();
    }

    void cleanupTestCase()
    {
        if (m_poller)
            m_poller->stop();
        if (m_proxy)
            m_proxy->stop();
        m_sim.stop();
    }

    void everyEngineServesAndThereIsNoProblem()
    {
        const int took = roundsUntil([this] { return m_tracker->stateCounts()[int(EngineState::Serving)] == 12; }, 40);
        QVERIFY2(took >= 0,
            qPrintable(QStringLiteral("%1 serving").arg(m_tracker->stateCounts()[int(EngineState::Serving)])));
        QTRY_VERIFY_WITH_TIMEOUT(m_tracker->proxyKnown() && m_tracker->proxyHealth().reachable, 10000);
        QCOMPARE(m_triage->count(), 0);
    }

    void crashBecomesUnreachable()
    {
        const int e = engineIndex(QStringLiteral("127.0.42.5:19002"));
        QVERIFY(e >= 0);
        QCOMPARE(fault(QStringLiteral("127.0.42.5:19002"), "crash"), 200);
        // Two failed polls make the verdict; failed polls back off (1, 2 intervals), so allow a few rounds more.
        const int took = roundsUntil([&] { return m_tracker->state(e) == EngineState::Unreachable; }, 12);
        QVERIFY2(took >= 0, qPrintable(m_tracker->derived(e).reason));
        qInfo("crash -> unreachable after %d poll rounds", took);
        QCOMPARE(m_tracker->facts(e).http, HttpFact::Refused);
        // The rank belongs to the coupled decode group (8 ranks on d0 and d1): in the same round the group is
        // broken, one problem names the dead rank, and every other rank leaves Serving.
        const Problem *p = problem(kDecodeGroupProblem);
        QVERIFY2(p, qPrintable(describeProblems()));
        QCOMPARE(p->engine, e);
        QCOMPARE(p->kind, ProblemKind::GroupBroken);
        QVERIFY2(p->detail.contains(QStringLiteral("127.0.42.5:19002")) && p->detail.contains(QStringLiteral("the other 7 ranks")),
            qPrintable(p->detail));
        QVERIFY2(p->evidence.join(QLatin1Char(' ')).contains(QStringLiteral("refused")), qPrintable(p->evidence.join(QLatin1Char(' '))));
        QVERIFY(!problem(QStringLiteral("engine-unreachable:%1").arg(e))); // folded under the group
        for (int i = 0; i < m_store.engines().size(); ++i) {
            if (m_store.engines().at(i).role == Role::Decode && i != e)
                QCOMPARE(m_tracker->state(i), EngineState::GroupBroken);
        }
        // The change is an event with its evidence.
        bool found = false;
        for (int i = 0; i < m_tracker->events().size(); ++i) {
            const StateEvent &ev = m_tracker->events().at(i);
            found |= ev.engine == e && ev.to == EngineState::Unreachable && !ev.evidence.isEmpty();
        }
        QVERIFY(found);

        // Starting the dead rank alone cannot help: the survivors hang in the broken collective (pdsim couples
        // them like a real group). The whole group is started again (pdsim stops the frozen ranks first), it
        // forms and serves: the per-engine faults below start clean.
        QCOMPARE(post(QStringLiteral("/cluster/engines/start"), R"({"group":"decode@127.0.42.4:13395"})"), 200);
        const int healed = roundsUntil([&] { return !problem(kDecodeGroupProblem) && m_tracker->state(e) == EngineState::Serving; }, 60);
        QVERIFY2(healed >= 0, qPrintable(describeProblems()));
    }

    // A decoder whose KV never arrives (pdsim's kv-stuck: pulls from the prefiller never complete):
    // waiting, none running, nothing moving. Stalled at the threshold with that reason; cleared, it serves.
    void kvTransferThatNeverArrivesIsAStall()
    {
        const int e = engineIndex(QStringLiteral("127.0.42.4:19002"));
        QVERIFY(e >= 0);
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19002"), "kv-stuck"), 200);
        for (int i = 0; i < 2; ++i)
            sendCompletion(19002, QStringLiteral("127.0.42.4"), 200, R"(,"kv_transfer_params":{"do_remote_prefill":true,"remote_engine_id":"p1"})");
        const int stall = m_tracker->thresholds().stallPolls;
        const int took = roundsUntil([&] { return m_tracker->state(e) == EngineState::Stalled; }, stall + 8);
        QVERIFY2(took >= 0, qPrintable(m_tracker->derived(e).reason));
        QVERIFY2(m_tracker->derived(e).reason.contains(QStringLiteral("none running")), qPrintable(m_tracker->derived(e).reason));
        QCOMPARE(m_tracker->facts(e).running, 0.0);
        QVERIFY(m_tracker->facts(e).waiting >= 1);
        QVERIFY2(problem(QStringLiteral("engine-stalled:%1").arg(e)), qPrintable(describeProblems()));
        qInfo("kv-stuck -> stalled after %d poll rounds", took);
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19002"), "none"), 200);
        QVERIFY2(roundsUntil([&] { return m_tracker->state(e) == EngineState::Serving; }, 20) >= 0, qPrintable(m_tracker->derived(e).reason));
    }

    // The KV cache pinned (pdsim's kv-pinned: ~99 % used, nothing moves) is named as such.
    void kvCachePinnedIsNamed()
    {
        const int e = engineIndex(QStringLiteral("127.0.42.4:19002"));
        QVERIFY(e >= 0);
        for (int i = 0; i < 2; ++i)
            sendCompletion(19002, QStringLiteral("127.0.42.4"), 15000);
        QVERIFY(roundsUntil([&] { return m_tracker->facts(e).running >= 2; }, 20) >= 0);
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19002"), "kv-pinned"), 200);
        const int stall = m_tracker->thresholds().stallPolls;
        QVERIFY2(roundsUntil([&] { return m_tracker->state(e) == EngineState::Stalled; }, stall + 8) >= 0,
                 qPrintable(m_tracker->derived(e).reason));
        QVERIFY2(m_tracker->derived(e).reason.contains(QStringLiteral("KV cache pinned at 99 %")), qPrintable(m_tracker->derived(e).reason));
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19002"), "none"), 200);
        QVERIFY2(roundsUntil([&] { return m_tracker->state(e) == EngineState::Serving; }, 20) >= 0, qPrintable(m_tracker->derived(e).reason));
    }

    void stallBecomesStalledWhateverHealthSays()
    {
        const int e = engineIndex(QStringLiteral("127.0.42.4:19001"));
        QVERIFY(e >= 0);
        for (int i = 0; i < 3; ++i)
            sendCompletion(19001, QStringLiteral("127.0.42.4"), 15000);
        QVERIFY(roundsUntil([&] { return m_tracker->facts(e).running >= 3; }, 20) >= 0);
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19001"), "stall"), 200);
        const int stall = m_tracker->thresholds().stallPolls;
        const int took = roundsUntil([&] { return m_tracker->state(e) == EngineState::Stalled; }, stall + 4);
        QVERIFY2(took >= 0, qPrintable(m_tracker->derived(e).reason));
        qInfo("stall -> stalled after %d poll rounds (threshold %d frozen polls)", took, stall);
        QCOMPARE(m_tracker->facts(e).healthStatus, 200);
        QCOMPARE(m_tracker->facts(e).http, HttpFact::Ok);
        QVERIFY(problem(QStringLiteral("engine-stalled:%1").arg(e)));
    }

    void http500BecomesUnhealthy()
    {
        const int e = engineIndex(QStringLiteral("127.0.42.4:19003"));
        QVERIFY(e >= 0);
        QCOMPARE(fault(QStringLiteral("127.0.42.4:19003"), "http500"), 200);
        // /health is probed every second poll: within two polls, six rounds allowed for a loaded machine.
        const int took = roundsUntil([&] { return m_tracker->state(e) == EngineState::Unhealthy; }, 8);
        QVERIFY2(took >= 0, qPrintable(m_tracker->derived(e).reason));
        qInfo("http500 -> unhealthy after %d poll rounds", took);
        QCOMPARE(m_tracker->facts(e).healthStatus, 500);
        // An unhealthy rank is a dead rank of its coupled group: the group problem names it (the stalled rank
        // above is folded under it too).
        const Problem *p = problem(kDecodeGroupProblem);
        QVERIFY2(p && p->detail.contains(QStringLiteral("127.0.42.4:19003")), qPrintable(describeProblems()));
        QVERIFY(!problem(QStringLiteral("engine-unhealthy:%1").arg(e)));
    }

    void proxyStoppedIsTheTopProblem()
    {
        QCOMPARE(post(QStringLiteral("/cluster/proxy/stop"), {}), 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_tracker->proxyKnown() && !m_tracker->proxyHealth().reachable, 10000);
        // The engine faults injected above still stand, below the proxy: the broken decode group.
        QTRY_VERIFY2_WITH_TIMEOUT(m_triage->count() >= 2, qPrintable(describeProblems()), 10000);
        const Problem &top = m_triage->problems().first();
        QCOMPARE(top.kind, ProblemKind::ProxyUnreachable);
        QCOMPARE(top.severity, ProblemSeverity::Critical);
        QCOMPARE(top.where, QStringLiteral("proxy 127.0.42.1:18400"));
        // The group's problem follows, ranked below it.
        QCOMPARE(m_triage->problems().at(1).key, kDecodeGroupProblem);
        QCOMPARE(post(QStringLiteral("/cluster/proxy/start"), {}), 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_tracker->proxyHealth().reachable, 15000);
        QVERIFY(m_triage->indexOf(QStringLiteral("proxy-unreachable")) < 0);
    }
};

QTEST_GUILESS_MAIN(TestStateFaults)
#include "tst_statefaults.moc"
