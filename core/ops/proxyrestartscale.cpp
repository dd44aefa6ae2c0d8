// SPDX-License-Identifier: MIT
#include "ops/proxyrestartscale.h"

#include "net/membershipreconciler.h"
#include "ops/proxyrelaunch.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <memory>

namespace pd {

namespace {

enum Step { StartEngines, WaitReady, WaitIdle, RestartProxy, Verify, StopEngines };

QString ids(const QList<EngineRef> &engines)
{
    QStringList out;
    for (const EngineRef &e : engines)
        out << e.id;
    return out.join(QStringLiteral(", "));
}

QStringList &listOf(ProxyLists &lists, Role role)
{
    return role == Role::Prefill ? lists.prefill : lists.decode;
}

} // namespace

ProxyRestartScale::ProxyRestartScale(
    const ScalePlan &plan, const ProxyLists &current, ScaleContext *context, QObject *parent)
    : ScaleOperation(plan.toStart.isEmpty() ? QStringLiteral("scale-in-restart") : QStringLiteral("scale-out-restart"),
        !plan.toStart.isEmpty()        ? plan.toStart.first()
            : !plan.toRemove.isEmpty() ? plan.toRemove.first()
                                       : EngineRef(),
        context, parent)
    , m_plan(plan)
    , m_current(current)
    , m_next(listsAfter(current, plan))
{
    addStep(QStringLiteral("start-engines"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Start the new engines"));
    addStep(QStringLiteral("wait-ready"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait for /v1/models and /health"));
    addStep(QStringLiteral("wait-idle"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Wait until no request is in flight"));
    addStep(QStringLiteral("restart-proxy"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Restart the proxy with the new lists"));
    addStep(QStringLiteral("verify"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Verify the proxy's counts"));
    addStep(QStringLiteral("stop-engines"), QT_TRANSLATE_NOOP("pd::ScaleOps", "Stop the engines that left"));
}

void ProxyRestartScale::markPlan(ScalePlan &plan, const ProxyLists &current)
{
    plan.byProxyRestart = true;
    plan.listAfterRestart = listsAfter(current, plan).of(plan.role);
}

ProxyLists ProxyRestartScale::listsAfter(const ProxyLists &current, const ScalePlan &plan)
{
    ProxyLists next = current;
    QStringList &list = listOf(next, plan.role);
    for (const EngineRef &e : plan.toRemove)
        list.removeAll(e.id);
    for (const EngineRef &e : plan.toStart)
        if (!list.contains(e.id))
            list.append(e.id);
    return next;
}

QStringList ProxyRestartScale::engineIds() const
{
    QStringList out;
    for (const EngineRef &e : m_plan.toStart + m_plan.toRemove)
        out << e.id;
    return out;
}

void ProxyRestartScale::run()
{
    if (m_next.prefill.isEmpty() || m_next.decode.isEmpty()) {
        begin(StartEngines);
        return fail(QStringLiteral(
            "the new lists leave the %1 pool empty, and a proxy cannot start without an instance in each pool")
                        .arg(m_next.prefill.isEmpty() ? roleName(Role::Prefill) : roleName(Role::Decode)));
    }
    if (m_plan.toStart.isEmpty()) {
        skip(StartEngines, QStringLiteral("nothing to start"));
        skip(WaitReady, QStringLiteral("nothing to start"));
        return waitIdle();
    }
    startEngines();
}

void ProxyRestartScale::startEngines()
{
    begin(StartEngines, QStringLiteral("starting %1").arg(ids(m_plan.toStart)));
    m_pending = int(m_plan.toStart.size());
    m_failures.clear();
    for (const EngineRef &e : m_plan.toStart) {
        declareIntent(e, OperatorIntent::None);
        m_ctx->control->start(e, guarded([this, e](const ControlResult &r) {
            if (!r.ok)
                m_failures << QStringLiteral("%1: %2").arg(e.id, r.error);
            if (--m_pending > 0)
                return;
            if (!m_failures.isEmpty())
                return fail(QStringLiteral("%1; the proxy was not touched").arg(m_failures.join(QStringLiteral("; "))));
            done(QStringLiteral("%1 engine(s) started").arg(m_plan.toStart.size()));
            waitReady();
        }));
    }
}

void ProxyRestartScale::waitReady()
{
    begin(WaitReady, QStringLiteral("waiting for %1").arg(ids(m_plan.toStart)));
    const int timeout
        = m_plan.groupsToStart.isEmpty() ? m_ctx->settings.engineReadyTimeoutMs : m_ctx->settings.groupReadyTimeoutMs;
    auto notReady = std::make_shared<QStringList>();
    pollUntil(
        timeout,
        [this, notReady](Report report) {
            auto pending = std::make_shared<int>(int(m_plan.toStart.size()));
            auto waiting = std::make_shared<QStringList>();
            for (const EngineRef &e : m_plan.toStart) {
                m_ctx->probe->readiness(
                    e, guarded([this, e, pending, waiting, notReady, report](const EngineReadiness &r) {
                        if (!r.ready())
                            *waiting << e.id;
                        if (--*pending > 0)
                            return;
                        *notReady = *waiting;
                        if (!waiting->isEmpty())
                            progress(QStringLiteral("not serving yet: %1").arg(waiting->join(QStringLiteral(", "))));
                        report(waiting->isEmpty());
                    }));
            }
        },
        [this, notReady](bool timedOut) {
            if (checkCancelled(QStringLiteral("the new engines run outside the proxy; the proxy was not touched")))
                return;
            if (timedOut)
                return fail(QStringLiteral("%1 did not serve in time; the proxy was not touched (they run outside it)")
                                .arg(notReady->join(QStringLiteral(", "))));
            done(QStringLiteral("all serve"));
            waitIdle();
        });
}

void ProxyRestartScale::inFlight(std::function<void(std::optional<int>, const QString &)> done)
{
    ProxyRelaunch::countInFlight(m_ctx, m_current, this, std::move(done));
}

void ProxyRestartScale::waitIdle()
{
    if (checkCancelled(QStringLiteral("the proxy was not touched")))
        return;
    begin(WaitIdle);
    if (m_allowInFlight) {
        inFlight(guarded([this](std::optional<int> count, const QString &source) {
            done(QStringLiteral("not waiting (override): %1 request(s) in flight by %2 will fail when the proxy stops")
                     .arg(count.value_or(0))
                     .arg(source));
            restartProxy();
        }));
        return;
    }
    auto last = std::make_shared<QString>();
    pollUntil(
        m_ctx->settings.idleTimeoutMs,
        [this, last](Report report) {
            inFlight(guarded([this, last, report](std::optional<int> count, const QString &source) {
                *last = QStringLiteral("%1 in flight (%2)").arg(count.value_or(-1)).arg(source);
                progress(*last);
                report(count && *count == 0);
            }));
        },
        [this, last](bool timedOut) {
            if (checkCancelled(QStringLiteral("the proxy was not touched")))
                return;
            if (timedOut)
                return fail(
                    QStringLiteral("never idle within %1 s (last: %2); the proxy was not touched. Retry in a quiet "
                                   "moment, or override and accept that the in-flight requests fail")
                        .arg(m_ctx->settings.idleTimeoutMs / 1000)
                        .arg(*last));
            done(QStringLiteral("no request in flight"));
            restartProxy();
        });
}

void ProxyRestartScale::restartProxy()
{
    if (checkCancelled(QStringLiteral("the proxy was not touched")))
        return;
    begin(RestartProxy, QStringLiteral("stopping the proxy"));
    setCancellable(false); // a stopped proxy is always started again, with one list or the other
    auto *relaunch = new ProxyRelaunch(m_ctx, m_next, m_current, this);
    connect(relaunch, &ProxyRelaunch::progress, this, [this](const QString &detail) { progress(detail); });
    connect(relaunch, &ProxyRelaunch::finished, this, [this, relaunch](const RelaunchResult &r) {
        relaunch->deleteLater();
        if (!r.ok)
            return fail(r.detail);
        done(QStringLiteral("restarted with the new lists"));
        verify(r.detail);
    });
    relaunch->start();
}

void ProxyRestartScale::verify(const QString &counts)
{
    begin(Verify);
    // The running proxy's command line is now the new lists: the next plan starts from them (the
    // membership table was told by the relaunch).
    m_ctx->commandLineMembership = m_next;
    done(counts);
    stopEngines();
}

void ProxyRestartScale::stopEngines()
{
    const QString lists = QStringLiteral("%1 now %2").arg(roleName(m_plan.role)).arg(m_next.of(m_plan.role).size());
    if (m_plan.toRemove.isEmpty()) {
        skip(StopEngines, QStringLiteral("nothing left the proxy"));
        return succeed(QStringLiteral("proxy restarted with %1 (%2 started)").arg(lists, ids(m_plan.toStart)));
    }
    begin(StopEngines, QStringLiteral("stopping %1").arg(ids(m_plan.toRemove)));
    m_pending = int(m_plan.toRemove.size());
    m_failures.clear();
    for (const EngineRef &e : m_plan.toRemove) {
        declareIntent(e, OperatorIntent::Stop);
        m_ctx->control->stop(e, guarded([this, e, lists](const ControlResult &r) {
            if (!r.ok)
                m_failures << QStringLiteral("%1: %2").arg(e.id, r.error);
            if (--m_pending > 0)
                return;
            if (!m_failures.isEmpty())
                return fail(QStringLiteral("the proxy no longer lists them, but %1")
                                .arg(m_failures.join(QStringLiteral("; "))));
            done(QStringLiteral("%1 engine(s) stopped").arg(m_plan.toRemove.size()));
            succeed(QStringLiteral("proxy restarted with %1 (%2 left and stopped)").arg(lists, ids(m_plan.toRemove)));
        }));
    }
}

} // namespace pd
