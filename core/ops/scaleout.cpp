// SPDX-License-Identifier: MIT
#include "ops/scaleout.h"

#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <memory>

namespace pd {

ScaleOut::ScaleOut(EngineRef engine, ScaleContext *context, QObject *parent)
    : ScaleOperation(QStringLiteral("scale-out"), std::move(engine), context, parent)
{
    addStep(QStringLiteral("preflight"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Preflight"));
    addStep(QStringLiteral("start-engine"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Start the engine"));
    addStep(QStringLiteral("wait-ready"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait for /v1/models and /health"));
    addStep(QStringLiteral("add"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Add to the proxy"));
    addStep(QStringLiteral("wait-listed"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait until the proxy lists it"));
    addStep(QStringLiteral("verify"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Verify it receives traffic"));
}

void ScaleOut::setAddToProxy(bool add)
{
    m_addToProxy = add;
    setKind(add ? QStringLiteral("scale-out") : QStringLiteral("start"));
}

void ScaleOut::run()
{
    preflight();
}

void ScaleOut::preflight()
{
    if (!m_addToProxy) {
        begin(Preflight, QStringLiteral("checking the node"));
        return checkNode();
    }
    begin(Preflight, QStringLiteral("checking the proxy"));
    auto afterCaps = guarded([this](const ProxyCapabilities &caps) {
        if (checkCancelled(QStringLiteral("nothing was done")))
            return;
        if (!caps.reachable)
            return fail(QStringLiteral("the proxy does not answer: %1").arg(caps.error));
        if (!caps.hasInstancesApi)
            return fail(QStringLiteral("this proxy (%1) has no /instances API: it cannot be scaled at runtime").arg(caps.generationLabel()));
        m_ctx->membership->reconcileNow(guarded([this](bool listed) {
            if (!listed)
                return fail(QStringLiteral("cannot read the proxy's membership: %1").arg(m_ctx->membership->lastError()));
            const MembershipFact fact = m_ctx->membership->fact(m_engine.id, m_engine.role);
            if (fact == MembershipFact::Active)
                return fail(QStringLiteral("%1 is already active in the proxy").arg(m_engine.id));
            if (fact == MembershipFact::Waiting)
                return fail(QStringLiteral("an add of %1 is still waiting in the proxy; wait for it to be activated or dropped").arg(m_engine.id));
            // A draining engine may come back (a scale-in undone): the add step clears its drain first.
            checkNode();
        }));
    });
    m_ctx->proxy->currentCapabilities(afterCaps);
}

void ScaleOut::checkNode()
{
    progress(QStringLiteral("checking the node"));
    m_ctx->control->preflight(m_engine, guarded([this](const PreflightReport &report) {
        if (!report.ok)
            return fail(report.error);
        m_ctx->control->isRunning(m_engine, guarded([this, report](std::optional<bool> running, const QString &error) {
            if (!running)
                return fail(QStringLiteral("cannot tell whether the engine runs: %1").arg(error));
            m_running = *running;
            m_ctx->probe->readiness(m_engine, guarded([this, report](const EngineReadiness &r) {
                if (!m_running && r.listening)
                    return fail(QStringLiteral("port in use: something answers on %1 but the engine's process is not running").arg(m_engine.id));
                m_ready = m_running && r.ready();
                QStringList lines = report.passed;
                lines << (m_running ? QStringLiteral("engine already running%1").arg(m_ready ? QStringLiteral(" and serving") : QString())
                                    : QStringLiteral("port %1 free").arg(m_engine.id.section(QLatin1Char(':'), -1)));
                done(lines.join(QStringLiteral("; ")));
                startEngine();
            }));
        }));
    }));
}

void ScaleOut::startEngine()
{
    if (checkCancelled(QStringLiteral("nothing was done")))
        return;
    if (m_running) {
        skip(StartEngine, QStringLiteral("already running"));
        return waitReady();
    }
    begin(StartEngine, QStringLiteral("through %1").arg(m_ctx->control->describe()));
    declareIntent(m_engine, OperatorIntent::None); // started again: its silence from here on is news
    m_ctx->control->start(m_engine, guarded([this](const ControlResult &r) {
        if (!r.ok)
            return fail(r.error);
        done(QStringLiteral("start accepted by %1").arg(m_ctx->control->describe()));
        waitReady();
    }));
}

void ScaleOut::waitReady()
{
    if (checkCancelled(QStringLiteral("the engine was started and is left running outside the proxy")))
        return;
    if (m_ready) {
        skip(WaitReady, QStringLiteral("already answers /v1/models and /health"));
        return addToProxy();
    }
    begin(WaitReady, QStringLiteral("loading"));
    auto last = std::make_shared<QString>();
    const int timeout = m_ctx->settings.engineReadyTimeoutMs;
    pollUntil(
        timeout,
        [this, last](Report report) {
            m_ctx->probe->readiness(m_engine, guarded([this, last, report](const EngineReadiness &r) {
                *last = r.detail.trimmed();
                if (!r.ready())
                    progress(QStringLiteral("not serving yet: %1").arg(*last));
                report(r.ready());
            }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut)
                return fail(QStringLiteral("not serving after %1 s: %2").arg(timeout / 1000).arg(*last));
            done(QStringLiteral("answers /v1/models and /health"));
            addToProxy();
        });
}

void ScaleOut::addToProxy()
{
    if (checkCancelled(QStringLiteral("the engine runs and serves, but is not in the proxy")))
        return;
    if (!m_addToProxy) {
        skipFrom(AddToProxy, QStringLiteral("start only: not added"));
        return succeed(QStringLiteral("%1 %2 and serves; not in the proxy (add it when wanted)")
                           .arg(m_engine.id, m_running ? QStringLiteral("was already running") : QStringLiteral("started")));
    }
    begin(AddToProxy, QStringLiteral("POST /instances/add"));
    declareIntent(m_engine, OperatorIntent::None); // back in the proxy: the operator's drain is over
    clearDrainsBeforeAdd(m_engine.role, { m_engine.id }, guarded([this](bool relisted) {
        if (!relisted)
            return sendAdd();
        done(QStringLiteral("listed again by the restarted proxy's command line; %1").arg(m_relaunchNote));
        waitListed();
    }));
}

void ScaleOut::sendAdd()
{
    m_ctx->proxy->addInstances(m_engine.role, {m_engine.id}, guarded([this](const ProxyReply &reply) {
        if (!reply.ok)
            return fail(reply.error);
        m_ctx->membership->noteAddSent(m_engine.id, m_engine.role, reply);
        done(QStringLiteral("accepted (the proxy said \"%1\"; only its lists count)").arg(reply.message));
        waitListed();
    }));
}

void ScaleOut::waitListed()
{
    if (m_ctx->membership->fact(m_engine.id, m_engine.role) == MembershipFact::Active) {
        skip(WaitListed, QStringLiteral("listed at once (a proxy older than v0.21 adds synchronously)"));
        return verifyTraffic();
    }
    const int deadline = m_ctx->membership->waitingDeadlineMs();
    begin(WaitListed, QStringLiteral("waiting for the proxy's listener (at most %1 s)").arg(deadline / 1000.0, 0, 'f', 1));
    QElapsedTimer clock;
    clock.start();
    pollUntil(
        deadline,
        [this, clock, deadline](Report report) {
            m_ctx->membership->reconcileNow(guarded([this, clock, deadline, report](bool) {
                const MembershipFact fact = m_ctx->membership->fact(m_engine.id, m_engine.role);
                progress(QStringLiteral("%1 after %2 s of at most %3 s")
                             .arg(membershipFactName(fact)).arg(clock.elapsed() / 1000.0, 0, 'f', 1).arg(deadline / 1000.0, 0, 'f', 1));
                report(fact == MembershipFact::Active || fact == MembershipFact::Dropped);
            }));
        },
        [this, deadline](bool) {
            if (m_ctx->membership->fact(m_engine.id, m_engine.role) == MembershipFact::Active) {
                done(QStringLiteral("active in the proxy's list"));
                return verifyTraffic();
            }
            // Not activated in time. If the engine answers /v1/models, the proxy's probe should have
            // succeeded: its NodeListener is dead (§8.1). Otherwise the proxy dropped it.
            m_ctx->probe->readiness(m_engine, guarded([this, deadline](const EngineReadiness &r) {
                if (r.models) {
                    m_addFailure = AddFailure::ListenerDead;
                    return fail(QStringLiteral("proxy listener dead — restart the proxy: %1 answers /v1/models but was not "
                                               "activated within %2 s").arg(m_engine.id).arg(deadline / 1000.0, 0, 'f', 1));
                }
                m_addFailure = AddFailure::Dropped;
                fail(QStringLiteral("DROPPED: the proxy gave up on %1 (it stopped answering /v1/models: %2)")
                         .arg(m_engine.id, r.detail.trimmed()));
            }));
        });
}

void ScaleOut::verifyTraffic()
{
    if (checkCancelled(QStringLiteral("the engine is in the proxy")))
        return;
    begin(VerifyTraffic, QStringLiteral("watching its token counters"));
    m_tokensBefore = -1;
    const int timeout = m_ctx->settings.verifyTrafficTimeoutMs;
    pollUntil(
        timeout,
        [this](Report report) {
            m_ctx->probe->load(m_engine, guarded([this, report](std::optional<EngineLoad> load, const QString &error) {
                if (!load) {
                    progress(error);
                    return report(false);
                }
                if (m_tokensBefore < 0)
                    m_tokensBefore = load->tokens;
                const bool moving = load->running > 0 || load->tokens > m_tokensBefore;
                progress(QStringLiteral("%1 running, %2 tokens since listed").arg(load->running).arg(load->tokens - m_tokensBefore));
                report(moving);
            }));
        },
        [this, timeout](bool timedOut) {
            if (!timedOut) {
                m_trafficVerified = true;
                done(QStringLiteral("requests reach it"));
                return succeed(QStringLiteral("%1 serves: listed by the proxy, requests reach it").arg(m_engine.id));
            }
            const std::optional<int> inFlight = m_ctx->membership->health().requestNum;
            const QString why = inFlight && *inFlight == 0
                                    ? QStringLiteral("no client traffic through the proxy in %1 s").arg(timeout / 1000)
                                    : QStringLiteral("no request reached it in %1 s (light traffic lands on the first instance)").arg(timeout / 1000);
            done(why);
            succeed(QStringLiteral("%1 is listed by the proxy and healthy; %2").arg(m_engine.id, why));
        });
}

} // namespace pd
