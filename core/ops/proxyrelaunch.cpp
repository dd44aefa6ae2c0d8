// SPDX-License-Identifier: MIT
#include "ops/proxyrelaunch.h"

#include "net/membershipreconciler.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scaleprobe.h"

#include <memory>

namespace pd {

namespace {

constexpr int kVerifyTimeoutMs = 60000;

// Wraps a callback so it does nothing once `guard` is gone.
template<typename F> auto whileAlive(QObject *guard, F f)
{
    return [alive = QPointer<QObject>(guard), f = std::move(f)](auto &&...args) {
        if (alive)
            f(std::forward<decltype(args)>(args)...);
    };
}

} // namespace

ProxyRelaunch::ProxyRelaunch(ScaleContext *context, ProxyLists lists, ProxyLists fallback, QObject *parent)
    : QObject(parent)
    , m_ctx(context)
    , m_lists(std::move(lists))
    , m_fallback(std::move(fallback))
{
    m_timer.setSingleShot(true);
}

void ProxyRelaunch::countInFlight(ScaleContext *context, const ProxyLists &members, QObject *guard,
    std::function<void(std::optional<int>, const QString &)> done)
{
    context->proxy->healthcheck(whileAlive(guard, [context, members, guard, done](const ProxyHealth &h) {
        if (h.reachable && h.requestNum)
            return done(*h.requestNum, QStringLiteral("the proxy's request_num"));
        // No request_num (v0.9.1-dev), or no answer: every request through the proxy runs on a member.
        QList<EngineRef> listed;
        for (const EngineRef &e : std::as_const(context->engines))
            if (members.of(e.role).contains(e.id))
                listed << e;
        context->probe->loads(listed, whileAlive(guard, [done, listed](const QHash<QString, EngineLoad> &loads) {
            double sum = 0;
            for (const EngineLoad &l : loads)
                sum += l.running + l.waiting;
            const int silent = int(listed.size() - loads.size());
            done(int(sum + 0.5),
                silent > 0 ? QStringLiteral("the members' running + waiting requests (%1 member(s) did not answer)")
                                 .arg(silent)
                           : QStringLiteral("the members' running + waiting requests"));
        }));
    }));
}

void ProxyRelaunch::start()
{
    if (m_lists.prefill.isEmpty() || m_lists.decode.isEmpty())
        return finish(false,
            QStringLiteral("the new lists leave the %1 pool empty, and a proxy cannot start without an instance in "
                           "each pool; the proxy was not touched")
                .arg(m_lists.prefill.isEmpty() ? roleName(Role::Prefill) : roleName(Role::Decode)));
    Q_EMIT progress(QStringLiteral("counting the requests in flight"));
    countInFlight(m_ctx, m_fallback, this, [this](std::optional<int> count, const QString &source) {
        m_result.failedInFlight = count;
        m_result.inFlightSource = source;
        stopProxy();
    });
}

void ProxyRelaunch::stopProxy()
{
    Q_EMIT progress(
        QStringLiteral("stopping the proxy (%1 request(s) in flight fail)")
            .arg(m_result.failedInFlight ? QString::number(*m_result.failedInFlight) : QStringLiteral("?")));
    m_ctx->control->stopProxy(whileAlive(this, [this](const ControlResult &r) {
        if (!r.ok)
            return finish(
                false, QStringLiteral("the proxy did not stop: %1; its membership is unchanged").arg(r.error));
        Q_EMIT progress(QStringLiteral("waiting until the proxy is down"));
        pollUntil(
            m_ctx->settings.stopTimeoutMs,
            [this](std::function<void(bool)> report) {
                m_ctx->control->isProxyRunning(whileAlive(
                    this, [report](std::optional<bool> running, const QString &) { report(running && !*running); }));
            },
            [this](bool timedOut) {
                if (timedOut)
                    return finish(false,
                        QStringLiteral("the proxy's process still runs %1 s after the stop; nothing was started")
                            .arg(m_ctx->settings.stopTimeoutMs / 1000));
                startWith(m_lists, false);
            });
    }));
}

void ProxyRelaunch::startWith(const ProxyLists &lists, bool rollback)
{
    Q_EMIT progress(rollback ? QStringLiteral("starting the proxy again with the previous lists")
                             : QStringLiteral("starting the proxy with %1 prefill and %2 decode instance(s)")
                                   .arg(lists.prefill.size())
                                   .arg(lists.decode.size()));
    m_ctx->control->startProxyWith(lists, whileAlive(this, [this, rollback](const ControlResult &r) {
        if (r.ok) {
            m_result.rolledBack = rollback;
            return verify(rollback ? m_fallback : m_lists);
        }
        if (rollback) {
            // Refused twice: say whether it is down, or runs because someone else started it meanwhile.
            const QString error = r.error;
            return m_ctx->control->isProxyRunning(
                whileAlive(this, [this, error](std::optional<bool> running, const QString &) {
                    if (running && *running)
                        return finish(false,
                            QStringLiteral("the proxy runs, but not as started here: someone else started it meanwhile "
                                           "(%1); its lists are what that start gave it")
                                .arg(error));
                    m_result.proxyDown = true;
                    finish(false,
                        QStringLiteral("THE PROXY IS DOWN: it started neither with the new lists (%1) nor with the "
                                       "previous ones (%2). Start it by hand (pdctl proxy start)")
                            .arg(m_firstError, error));
                }));
        }
        m_firstError = r.error;
        startWith(m_fallback, true);
    }));
}

void ProxyRelaunch::verify(const ProxyLists &expected)
{
    Q_EMIT progress(QStringLiteral("waiting for /healthcheck to report %1 prefill and %2 decode instance(s)")
                        .arg(expected.prefill.size())
                        .arg(expected.decode.size()));
    auto last = std::make_shared<QString>();
    pollUntil(
        kVerifyTimeoutMs,
        [this, last, expected](std::function<void(bool)> report) {
            m_ctx->proxy->healthcheck(whileAlive(this, [last, expected, report](const ProxyHealth &h) {
                if (!h.reachable) {
                    *last = h.error;
                    return report(false);
                }
                *last = QStringLiteral("prefill %1, decode %2").arg(h.prefillInstances).arg(h.decodeInstances);
                report(h.prefillInstances == expected.prefill.size() && h.decodeInstances == expected.decode.size());
            }));
        },
        [this, last, expected](bool timedOut) {
            // Whatever it reports, this process has no drain and no waiting add of the old one.
            if (m_ctx->membership)
                m_ctx->membership->noteProxyRestarted(expected);
            if (m_result.rolledBack)
                return finish(false,
                    QStringLiteral("the proxy did not start with the new lists (%1); it runs again with the previous "
                                   "ones")
                        .arg(m_firstError));
            if (timedOut)
                return finish(false,
                    QStringLiteral("the restarted proxy does not report %1 prefill and %2 decode instances (last: %3)")
                        .arg(expected.prefill.size())
                        .arg(expected.decode.size())
                        .arg(*last));
            finish(true, *last);
        });
}

void ProxyRelaunch::finish(bool ok, const QString &detail)
{
    m_result.ok = ok;
    m_result.detail = detail;
    Q_EMIT finished(m_result);
}

void ProxyRelaunch::pollUntil(
    int timeoutMs, std::function<void(std::function<void(bool)>)> attempt, std::function<void(bool)> then)
{
    const quint64 serial = ++m_serial;
    m_clock.start();
    auto tick = std::make_shared<std::function<void()>>();
    *tick = [this, serial, timeoutMs, attempt, then, weakTick = std::weak_ptr<std::function<void()>>(tick)] {
        attempt(whileAlive(this, [this, serial, timeoutMs, then, weakTick](bool reached) {
            if (serial != m_serial)
                return;
            if (reached)
                return then(false);
            if (m_clock.elapsed() >= timeoutMs)
                return then(true);
            const auto next = weakTick.lock();
            if (!next)
                return;
            m_timer.disconnect();
            connect(&m_timer, &QTimer::timeout, this, [next] { (*next)(); });
            m_timer.start(qMax(50, m_ctx->settings.pollMs));
        }));
    };
    // The closure owns itself through the timer's connection; the first call runs at once.
    m_timer.disconnect();
    connect(&m_timer, &QTimer::timeout, this, [tick] { (*tick)(); });
    m_timer.start(0);
}

} // namespace pd
