// SPDX-License-Identifier: MIT
#include "ops/scalein.h"
#include "ops/operationjournal.h"

#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <memory>

namespace pd {

ScaleIn::ScaleIn(EngineRef engine, ScaleContext *context, bool allowLastInstance, QObject *parent)
    : ScaleOperation(QStringLiteral("scale-in"), std::move(engine), context, parent)
    , m_allowLast(allowLastInstance)
{
    addStep(QStringLiteral("preflight"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Preflight"));
    addStep(QStringLiteral("remove"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Remove from the proxy"));
    addStep(QStringLiteral("drain"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Drain: wait until it runs no request"));
    addStep(QStringLiteral("stop-engine"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Stop the engine"));
    addStep(QStringLiteral("verify"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Verify it stopped"));
}

void ScaleIn::setImmediate(bool immediate)
{
    m_immediate = immediate;
    setKind(immediate ? QStringLiteral("stop") : QStringLiteral("scale-in"));
}

void ScaleIn::describeForJournal(OperationRecord &record) const
{
    record.stopsEngines = m_stopEngine;
}

void ScaleIn::run()
{
    preflight();
}

void ScaleIn::preflight()
{
    begin(Preflight, QStringLiteral("reading the proxy's membership"));
    auto afterCaps = guarded([this](const ProxyCapabilities &caps) {
        // A plain stop does not need the proxy: nothing can be removed from a proxy that is down or has
        // no /instances API, and the engine is stopped all the same.
        const auto withoutProxy = [this](const QString &why) {
            m_inProxy = false;
            done(QStringLiteral("membership not checked: %1").arg(why));
            removeFromProxy();
        };
        if (!caps.reachable) {
            if (m_immediate)
                return withoutProxy(QStringLiteral("the proxy does not answer (%1)").arg(caps.error));
            return fail(QStringLiteral("the proxy does not answer: %1").arg(caps.error));
        }
        if (!caps.hasInstancesApi) {
            if (m_immediate)
                return withoutProxy(QStringLiteral("this proxy (%1) has no /instances API").arg(caps.generationLabel()));
            return fail(QStringLiteral("this proxy (%1) has no /instances API").arg(caps.generationLabel()));
        }
        m_ctx->membership->reconcileNow(guarded([this, withoutProxy](bool listed) {
            if (checkCancelled(QStringLiteral("nothing was done")))
                return;
            if (!listed && m_immediate)
                return withoutProxy(QStringLiteral("cannot read the proxy's membership (%1)").arg(m_ctx->membership->lastError()));
            if (!listed)
                return fail(QStringLiteral("cannot read the proxy's membership: %1").arg(m_ctx->membership->lastError()));
            const MembershipFact fact = m_ctx->membership->fact(m_engine.id, m_engine.role);
            if (fact == MembershipFact::Waiting)
                return fail(QStringLiteral("%1 is still WAITING in the proxy: removing it now can kill the proxy's listener "
                                           "for good. Wait until it is active or dropped").arg(m_engine.id));
            // A draining engine is removed again (the proxy taints a key it already taints, §2.3): an
            // operation cut short may have been killed before its remove reached the proxy.
            m_inProxy = fact == MembershipFact::Active || fact == MembershipFact::Draining;
            if (fact == MembershipFact::Active) {
                const int others = m_ctx->membership->activeCount(m_engine.role) - 1 - m_ctx->removalsInFlight.value(m_engine.role);
                if (others < 1 && !m_allowLast)
                    return fail(QStringLiteral("%1 is the last active instance of the %2 pool: without it every request fails. "
                                               "Removing it needs the explicit override").arg(m_engine.id, roleName(m_engine.role)));
            }
            done(fact == MembershipFact::Active ? QStringLiteral("active in the proxy; %1 other active %2 instance(s)")
                                                      .arg(m_ctx->membership->activeCount(m_engine.role) - 1)
                                                      .arg(roleName(m_engine.role))
                    : m_inProxy ? QStringLiteral("draining in the proxy: removed again to be sure")
                                : QStringLiteral("not active in the proxy (%1)").arg(membershipFactName(fact)));
            removeFromProxy();
        }));
    });
    m_ctx->proxy->currentCapabilities(afterCaps);
}

void ScaleIn::removeFromProxy()
{
    if (checkCancelled(QStringLiteral("nothing was done")))
        return;
    if (!m_inProxy) {
        skip(RemoveFromProxy, QStringLiteral("not active in the proxy"));
        return drain();
    }
    begin(RemoveFromProxy, QStringLiteral("POST /instances/remove"));
    ++m_ctx->removalsInFlight[m_engine.role];
    m_ctx->proxy->removeInstances(m_engine.role, {m_engine.id}, guarded([this](const ProxyReply &reply) {
        --m_ctx->removalsInFlight[m_engine.role];
        if (!reply.ok)
            return fail(reply.error);
        m_ctx->membership->noteRemoveSent(m_engine.id, m_engine.role, reply);
        declareIntent(m_engine, OperatorIntent::Drain);
        const bool draining = m_ctx->membership->fact(m_engine.id, m_engine.role) == MembershipFact::Draining;
        done(draining ? QStringLiteral("the proxy is busy: it keeps the instance listed, isolated, until it is idle")
                      : QStringLiteral("out of the proxy's list"));
        drain();
    }));
}

void ScaleIn::drain()
{
    if (checkCancelled(QStringLiteral("the engine is out of the proxy (or draining) and still running")))
        return;
    if (m_immediate) {
        skip(Drain, QStringLiteral("not drained: stopped at once, its requests in flight end with it"));
        return stopEngine();
    }
    begin(Drain, QStringLiteral("reading the engine's running requests"));
    m_zeroReads = 0;
    const int timeout = m_ctx->settings.idleTimeoutMs;
    auto last = std::make_shared<QString>();
    pollUntil(
        timeout,
        [this, last](Report report) {
            m_ctx->probe->load(m_engine, guarded([this, last, report](std::optional<EngineLoad> load, const QString &error) {
                const MembershipFact fact = m_ctx->membership->fact(m_engine.id, m_engine.role);
                const QString where = fact == MembershipFact::Draining ? QStringLiteral("draining (still listed)")
                                                                       : membershipFactName(fact);
                if (!load) {
                    // Nothing listening runs nothing; a slow or broken /metrics is waited out.
                    m_ctx->probe->readiness(m_engine, guarded([this, last, report, where, error](const EngineReadiness &r) {
                        *last = r.listening ? error : QStringLiteral("the engine does not answer (not running)");
                        progress(QStringLiteral("%1; engine: %2").arg(where, *last));
                        report(!r.listening);
                    }));
                    return;
                }
                m_zeroReads = load->running == 0 && load->waiting == 0 ? m_zeroReads + 1 : 0;
                *last = QStringLiteral("%1 running, %2 waiting").arg(load->running).arg(load->waiting);
                progress(QStringLiteral("%1; engine: %2").arg(where, *last));
                report(m_zeroReads >= 2);
            }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut)
                return fail(QStringLiteral("still busy after %1 s (%2); the engine was left running").arg(timeout / 1000).arg(*last));
            done(QStringLiteral("no request running (%1)").arg(*last));
            stopEngine();
        });
}

void ScaleIn::stopEngine()
{
    if (checkCancelled(QStringLiteral("the engine is idle, out of the proxy (or draining), still running")))
        return;
    if (!m_stopEngine) {
        skip(StopEngine, QStringLiteral("kept running (only taken out of the proxy)"));
        skip(Verify, QStringLiteral("nothing stopped"));
        return succeed(QStringLiteral("%1 is out of the proxy, still running").arg(m_engine.id));
    }
    begin(StopEngine, QStringLiteral("through %1").arg(m_ctx->control->describe()));
    // Declared before the stop is sent: the engine may go quiet before the answer comes.
    declareIntent(m_engine, OperatorIntent::Stop);
    m_ctx->control->stop(m_engine, guarded([this](const ControlResult &r) {
        if (!r.ok) {
            // Not stopped: it keeps running, out of the proxy or not, and its silence would be news.
            declareIntent(m_engine, m_inProxy ? OperatorIntent::Drain : OperatorIntent::None);
            return fail(r.error);
        }
        done(QStringLiteral("stop accepted"));
        verify();
    }));
}

void ScaleIn::verify()
{
    begin(Verify, QStringLiteral("waiting for the process to end"));
    const int timeout = m_ctx->settings.stopTimeoutMs;
    auto last = std::make_shared<QString>();
    pollUntil(
        timeout,
        [this, last](Report report) {
            m_ctx->control->isRunning(m_engine, guarded([this, last, report](std::optional<bool> running, const QString &error) {
                if (!running || *running) {
                    *last = running ? QStringLiteral("process still running") : error;
                    progress(*last);
                    return report(false);
                }
                m_ctx->probe->readiness(m_engine, guarded([this, last, report](const EngineReadiness &r) {
                    *last = r.listening ? QStringLiteral("process gone, but something still answers on %1").arg(m_engine.id)
                                        : QString();
                    if (r.listening)
                        progress(*last);
                    report(!r.listening);
                }));
            }));
        },
        [this, last, timeout](bool timedOut) {
            if (timedOut)
                return fail(QStringLiteral("not stopped after %1 s: %2").arg(timeout / 1000).arg(*last));
            const MembershipFact fact = m_ctx->membership->fact(m_engine.id, m_engine.role);
            const QString proxy = fact == MembershipFact::Draining
                                      ? QStringLiteral("the proxy still lists it as draining until it is idle")
                                      : QStringLiteral("out of the proxy");
            done(QStringLiteral("stopped; %1").arg(proxy));
            succeed(QStringLiteral("%1 stopped; %2").arg(m_engine.id, proxy));
        });
}

} // namespace pd
