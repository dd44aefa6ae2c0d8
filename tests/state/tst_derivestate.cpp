// SPDX-License-Identifier: MIT
// The derivation table: combinations of facts and the state an operator must see for them.
#include "state/derivestate.h"

#include <QDateTime>
#include <QTest>

using namespace pd;

namespace {

constexpr std::int64_t kNow = 1'800'000'000'000;

// A compact way to write a row: start from a serving engine and change what the row is about.
struct F {
    EngineFacts f;
    F()
    {
        f.http = HttpFact::Ok;
        f.httpAtMs = kNow - 500;
        f.lastOkMs = kNow - 500;
        f.healthStatus = 200;
        f.healthAtMs = kNow - 60000;
        f.membership = MembershipFact::Active;
        f.membershipAtMs = kNow - 600000;
        f.hasCounters = true;
        f.counters = { 1000, 5000, 40 };
        f.running = 4;
        f.lastProgressMs = kNow - 500;
    }
    F &never()
    {
        f = EngineFacts();
        return *this;
    }
    F &process(ProcessFact p)
    {
        f.process = p;
        f.processAtMs = kNow - 1000;
        return *this;
    }
    F &processAt(ProcessFact p, std::int64_t at)
    {
        f.process = p;
        f.processAtMs = at;
        return *this;
    }
    F &fail(HttpFact h, int polls, int status = 0)
    {
        f.http = h;
        f.consecutiveFailures = polls;
        f.failingSinceMs = kNow - 1000 * polls;
        f.httpStatus = status;
        f.httpError = QStringLiteral("/metrics: %1").arg(httpFactName(h));
        return *this;
    }
    F &neverOk()
    {
        f.lastOkMs = 0;
        f.hasCounters = false;
        f.running = 0;
        return *this;
    }
    F &health(int s)
    {
        f.healthStatus = s;
        return *this;
    }
    F &running(double r)
    {
        f.running = r;
        return *this;
    }
    F &waiting(double w)
    {
        f.waiting = w;
        return *this;
    }
    F &kv(double usage)
    {
        f.kvUsage = usage;
        return *this;
    }
    F &frozen(int polls)
    {
        f.frozenPolls = polls;
        return *this;
    }
    F &member(MembershipFact m)
    {
        f.membership = m;
        return *this;
    }
    // The operator's intent, declared 30 s before now by `detail`.
    F &intent(OperatorIntent i, const char *detail = "scale-in")
    {
        f.intent = i;
        f.intentAtMs = kNow - 30000;
        f.intentDetail = QString::fromUtf8(detail);
        return *this;
    }
    F &models(bool ready)
    {
        f.modelsKnown = true;
        f.modelsReady = ready;
        f.modelsAtMs = kNow - 100;
        return *this;
    }
};

} // namespace

Q_DECLARE_METATYPE(pd::EngineFacts)
Q_DECLARE_METATYPE(pd::EngineState)

class TestDeriveState : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void table_data()
    {
        QTest::addColumn<EngineFacts>("facts");
        QTest::addColumn<EngineState>("expected");
        QTest::addColumn<QString>("reasonHas");
        using S = EngineState;
        using H = HttpFact;
        using M = MembershipFact;
        using P = ProcessFact;
        auto row = [](const char *name, const F &f, S s, const char *reason) {
            QTest::newRow(name) << f.f << s << QString::fromUtf8(reason);
        };
        // Nothing known
        row("never observed", F().never(), S::Unknown, "not observed");
        row("process running, never polled", F().never().process(P::Running), S::Starting, "not polled");
        row("process exited, never polled", F().never().process(P::Exited), S::Stopped, "exited");
        // Healthy, by membership
        row("healthy active", F(), S::Serving, "active");
        row("healthy idle active", F().running(0).frozen(0), S::Serving, "active");
        row("healthy waiting", F().member(M::Waiting), S::WaitingInProxy, "waiting");
        row("healthy draining", F().member(M::Draining), S::Draining, "finishing");
        row("healthy configured", F().member(M::Configured), S::ReadyNotInProxy, "not added");
        row("healthy gone", F().member(M::Gone), S::ReadyNotInProxy, "removed");
        row("healthy dropped", F().member(M::Dropped), S::ReadyNotInProxy, "dropped");
        row("healthy membership unknown", F().member(M::Unknown), S::Serving, "not reconciled");
        row("healthy, process running", F().process(P::Running), S::Serving, "active");
        row("models not ready", F().models(false), S::Starting, "/v1/models");
        row("models ready", F().models(true), S::Serving, "active");
        // Progress
        row("frozen below threshold", F().frozen(2), S::Serving, "active");
        row("frozen at threshold", F().frozen(3), S::Stalled, "no token");
        row("frozen long", F().frozen(40), S::Stalled, "for 40 polls");
        row("frozen but idle", F().running(0).frozen(10), S::Serving, "active");
        // Requests that wait and never run (the decoder whose KV never arrives: waiting 1, running 0)
        row("waiting, none running, below threshold", F().running(0).waiting(1).frozen(2), S::Serving, "active");
        row("waiting, none running, frozen", F().running(0).waiting(1).frozen(3), S::Stalled, "1 waiting, none running");
        row("waiting, none running, named as a KV transfer", F().running(0).waiting(3).frozen(9), S::Stalled, "KV transfer hung");
        // The KV cache full and nothing moving
        row("KV pinned", F().running(2).waiting(5).kv(0.99).frozen(3), S::Stalled, "KV cache pinned at 99 %");
        row("KV pinned, nothing running", F().running(0).waiting(5).kv(0.97).frozen(4), S::Stalled, "KV cache pinned at 97 %");
        row("KV full but moving", F().kv(0.99).frozen(0), S::Serving, "active");
        row("KV below the pinned mark", F().kv(0.90).frozen(3), S::Stalled, "no token");
        row("stalled with health 200", F().frozen(5).health(200), S::Stalled, "running");
        row("stalled while draining", F().member(M::Draining).frozen(5), S::Stalled, "no token");
        row("stalled out of proxy", F().member(M::Gone).frozen(5), S::Stalled, "no token");
        // /health
        row("health 500", F().health(500), S::Unhealthy, "/health answers 500");
        row("health 503", F().health(503), S::Unhealthy, "503");
        row("health 500 and frozen", F().health(500).frozen(5), S::Unhealthy, "/health");
        row("health 500 one failed poll", F().health(500).fail(H::Refused, 1), S::Unhealthy, "/health");
        row("health none yet", F().health(0), S::Serving, "active");
        // One failed poll: the last good picture stands
        row("one refused", F().fail(H::Refused, 1), S::Serving, "active");
        row("one timeout", F().fail(H::Timeout, 1), S::Serving, "active");
        row("one 500", F().fail(H::ServerError, 1, 500), S::Serving, "active");
        row("one refused while frozen", F().frozen(4).fail(H::Refused, 1), S::Stalled, "no token");
        row("one refused never ok", F().never().fail(H::Refused, 1), S::Unknown, "no good poll");
        row("one refused never ok, process running", F().never().process(P::Running).fail(H::Refused, 1), S::Starting,
            "not answering");
        // Failures at and over the threshold
        row("refused 2 after ok", F().fail(H::Refused, 2), S::Unreachable, "refused");
        row("refused 10 after ok", F().fail(H::Refused, 10), S::Unreachable, "refused 10 polls");
        row("refused never ok", F().neverOk().fail(H::Refused, 3), S::Stopped, "never answered");
        row("refused, process running", F().process(P::Running).fail(H::Refused, 3), S::Starting, "loading");
        row("refused, process exited", F().process(P::Exited).fail(H::Refused, 3), S::Stopped, "exited");
        row("refused, removed from proxy", F().member(M::Gone).fail(H::Refused, 3), S::Stopped, "out of the proxy");
        row("refused, configured only", F().member(M::Configured).fail(H::Refused, 3), S::Stopped, "out of the proxy");
        row("refused, draining", F().member(M::Draining).fail(H::Refused, 3), S::Unreachable, "refused");
        row("timeout 2", F().fail(H::Timeout, 2), S::Unreachable, "no answer");
        row("timeout, process running", F().process(P::Running).fail(H::Timeout, 4), S::Unreachable, "no answer");
        row("timeout never ok", F().neverOk().fail(H::Timeout, 4), S::Unreachable, "no answer");
        row("failed transport", F().fail(H::Failed, 3), S::Unreachable, "failed");
        row("metrics 500", F().fail(H::ServerError, 2, 500), S::Unhealthy, "HTTP 500");
        row("metrics 503", F().fail(H::ServerError, 5, 503), S::Unhealthy, "HTTP 503");
        row("metrics 404", F().fail(H::ClientError, 2, 404), S::Unhealthy, "HTTP 404");
        row("malformed metrics", F().fail(H::Malformed, 2), S::Unhealthy, "does not parse");
        row("timeout beats health 500", F().health(500).fail(H::Timeout, 3), S::Unreachable, "no answer");
        row("timeout beats frozen", F().frozen(5).fail(H::Timeout, 3), S::Unreachable, "no answer");
        // Process fact against HTTP
        row("exited, http older", F().processAt(P::Exited, kNow - 100), S::Stopped, "exited");
        row("exited, http answered since", F().processAt(P::Exited, kNow - 5000), S::Serving, "active");
        row("exited, draining", F().member(M::Draining).processAt(P::Exited, kNow - 100), S::Stopped, "exited");
        // The operator's intent: a deliberate stop is no crash, a crash (no intent) stays one
        using I = OperatorIntent;
        row("stopped on purpose, refused", F().member(M::Gone).intent(I::Stop).fail(H::Refused, 3), S::Stopped,
            "stopped by the operator (scale-in) at ");
        row("stopped on purpose, still listed as draining", F().member(M::Draining).intent(I::Stop).fail(H::Refused, 3),
            S::Stopped, "the proxy still lists it as draining until it is idle");
        row("stopped on purpose, still listed as active", F().intent(I::Stop, "stop").fail(H::Refused, 3), S::Stopped,
            "stopped by the operator (stop) at ");
        row("stopped on purpose, the process exited", F().member(M::Draining).intent(I::Stop).processAt(P::Exited, kNow - 100),
            S::Stopped, "the proxy still lists it as draining");
        row("stopped on purpose, not polled since", F().never().intent(I::Stop), S::Stopped, "stopped by the operator");
        row("stopped on purpose, one refused poll", F().member(M::Draining).intent(I::Stop).fail(H::Refused, 1),
            S::Draining, "taken out of the proxy by the operator (scale-in)");
        row("stopped on purpose, started since", F().intent(I::Stop).processAt(P::Running, kNow - 100).fail(H::Refused, 3),
            S::Starting, "loading");
        row("stopped on purpose, then a timeout", F().intent(I::Stop).fail(H::Timeout, 3), S::Unreachable, "no answer");
        row("crash, listed as draining", F().member(M::Draining).fail(H::Refused, 3), S::Unreachable, "refused");
        row("crash, listed as active", F().fail(H::Refused, 3), S::Unreachable, "refused");
        row("drained on purpose, finishing requests", F().member(M::Gone).intent(I::Drain).running(3),
            S::Draining, "taken out of the proxy by the operator (scale-in) at ");
        row("drained on purpose, finishing waiting requests", F().member(M::Gone).intent(I::Drain).running(0).waiting(2),
            S::Draining, "finishing 2 requests");
        row("drained on purpose, idle", F().member(M::Gone).intent(I::Drain).running(0), S::ReadyNotInProxy, "idle");
        row("drained on purpose, still listed as draining", F().member(M::Draining).intent(I::Drain).running(5),
            S::Draining, "by the operator (scale-in) at ");
        row("drained on purpose, stalled", F().member(M::Gone).intent(I::Drain).frozen(5), S::Stalled, "no token");
        row("removed without intent, busy", F().member(M::Gone).running(3), S::ReadyNotInProxy, "removed");
    }

    void table()
    {
        QFETCH(EngineFacts, facts);
        QFETCH(EngineState, expected);
        QFETCH(QString, reasonHas);
        const DerivedState d = deriveState(facts, kNow, StateThresholds {});
        QVERIFY2(d.state == expected,
            qPrintable(QStringLiteral("got %1 (%2), want %3")
                           .arg(engineStateName(d.state), d.reason, engineStateName(expected))));
        QVERIFY2(d.reason.contains(reasonHas), qPrintable(d.reason));
        QVERIFY(!d.evidence.isEmpty() || expected == EngineState::Unknown);
        // Pure: the same input gives the same output; the cheap form agrees on the state.
        QCOMPARE(deriveState(facts, kNow, StateThresholds {}), d);
        const DerivedState cheap = deriveState(facts, kNow, StateThresholds {}, DeriveDetail::StateOnly);
        QCOMPARE(cheap.state, expected);
        QVERIFY(cheap.reason.isEmpty() && cheap.evidence.isEmpty());
    }

    void thresholdsAreConfigurable()
    {
        F f;
        f.frozen(3);
        StateThresholds t;
        t.stallPolls = 5;
        QCOMPARE(deriveState(f.f, kNow, t).state, EngineState::Serving);
        t.stallPolls = 3;
        QCOMPARE(deriveState(f.f, kNow, t).state, EngineState::Stalled);
        F g;
        g.fail(HttpFact::Refused, 2);
        t.stalePolls = 3;
        QCOMPARE(deriveState(g.f, kNow, t).state, EngineState::Serving);
        t.stalePolls = 1;
        QCOMPARE(deriveState(g.f, kNow, t).state, EngineState::Unreachable);
    }

    void evidenceCarriesFactsWithTheirAge()
    {
        F f;
        f.frozen(4);
        const DerivedState d = deriveState(f.f, kNow, StateThresholds {});
        const QString all = d.evidence.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("frozen for 4 polls")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("/health 200")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("generation 1000")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("membership active")), qPrintable(all));
        F g;
        g.fail(HttpFact::Refused, 3);
        const QString gone = deriveState(g.f, kNow, StateThresholds {}).evidence.join(QLatin1Char('\n'));
        QVERIFY2(gone.contains(QStringLiteral("/metrics refused × 3 since 3 s ago")), qPrintable(gone));
        QVERIFY2(gone.contains(QStringLiteral("metrics stale")), qPrintable(gone));
    }

    void intentIsEvidence()
    {
        F f;
        f.member(MembershipFact::Draining).intent(OperatorIntent::Stop, "rolling restart").fail(HttpFact::Refused, 4);
        const DerivedState d = deriveState(f.f, kNow, StateThresholds {});
        const QString clock = QDateTime::fromMSecsSinceEpoch(kNow - 30000).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(d.reason, QStringLiteral("stopped by the operator (rolling restart) at %1; the proxy still lists it as "
                                          "draining until it is idle").arg(clock));
        const QString all = d.evidence.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("operator intent stop, rolling restart (30 s ago)")), qPrintable(all));
        QVERIFY(!isFailureState(d.state));
    }

    void freshness()
    {
        StateThresholds t;
        F f;
        QCOMPARE(freshnessOf(f.f, t), FreshnessFact::Fresh);
        f.fail(HttpFact::Timeout, 1);
        QCOMPARE(freshnessOf(f.f, t), FreshnessFact::Fresh);
        f.fail(HttpFact::Timeout, 2);
        QCOMPARE(freshnessOf(f.f, t), FreshnessFact::Stale);
        f.fail(HttpFact::Timeout, 5);
        QCOMPARE(freshnessOf(f.f, t), FreshnessFact::Unreachable);
        QCOMPARE(freshnessOf(EngineFacts(), t), FreshnessFact::Unknown);
    }

    void ages()
    {
        QCOMPARE(formatAge(0), QStringLiteral("0 s"));
        QCOMPARE(formatAge(59999), QStringLiteral("59 s"));
        QCOMPARE(formatAge(60000), QStringLiteral("1 min"));
        QCOMPARE(formatAge(3600000), QStringLiteral("1 h"));
        QCOMPARE(formatAge(3600000 + 5 * 60000), QStringLiteral("1 h 5 min"));
        QCOMPARE(formatAge(2 * 86400000LL + 3 * 3600000), QStringLiteral("2 d 3 h"));
        QCOMPARE(formatAge(-5), QStringLiteral("0 s"));
    }
};

QTEST_GUILESS_MAIN(TestDeriveState)
#include "tst_derivestate.moc"
