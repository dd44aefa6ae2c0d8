// SPDX-License-Identifier: MIT
#include "ops/proxyactions.h"

#include "audit/auditlog.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/listenertimingsync.h"
#include "ops/proxycommandlinemembership.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"

#include <QPointer>

namespace pd {

namespace {

// Reconcile rounds after a stop until the table has seen the proxy unreachable: a round already in
// flight when the stop finished may still have read the old lists.
constexpr int kConfirmDownRounds = 3;

} // namespace

QString proxyActionName(ProxyAction action)
{
    switch (action) {
    case ProxyAction::Start: return QStringLiteral("start");
    case ProxyAction::Stop: return QStringLiteral("stop");
    case ProxyAction::Restart: return QStringLiteral("restart");
    }
    return {};
}

ProxyActions::ProxyActions(ScaleContext *context, QObject *parent)
    : QObject(parent)
    , m_ctx(context)
{
    m_poll.setSingleShot(true);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_next)
            std::exchange(m_next, nullptr)();
    });
}

void ProxyActions::later(std::function<void()> next)
{
    m_next = std::move(next);
    m_poll.start(m_ctx->settings.pollMs);
}

bool ProxyActions::isReadOnly() const
{
    return m_ctx->settings.readOnly;
}

QString ProxyActions::target() const
{
    if (m_ctx->proxy && m_ctx->proxy->endpoint().base.isValid())
        return QStringLiteral("proxy %1").arg(m_ctx->proxy->endpoint().base.authority());
    return QStringLiteral("proxy");
}

void ProxyActions::audit(ProxyAction action, bool restart, const QString &result, const QString &detail, qint64 durationMs)
{
    if (!m_ctx->audit)
        return;
    AuditEntry e;
    e.action = QStringLiteral("proxy.") + proxyActionName(action);
    e.target = target();
    e.params = {{"restart", restart}};
    if (m_ctx->control)
        e.params["control"] = m_ctx->control->describe().toStdString();
    e.result = result;
    e.detail = detail;
    e.durationMs = durationMs;
    m_ctx->audit->appendOrWarn(std::move(e));
}

bool ProxyActions::run(ProxyAction action, QString *why)
{
    QString refusal;
    if (const QString invalid = invalidProfileRefusal(*m_ctx); !invalid.isEmpty())
        refusal = invalid;
    else if (m_ctx->settings.readOnly)
        refusal = QStringLiteral("the console is in read-only mode");
    else if (const QString blocked = mutationRefusal(*m_ctx); !blocked.isEmpty())
        refusal = blocked;
    else if (!m_ctx->control)
        refusal = QStringLiteral("no engine control: the console cannot start or stop processes here");
    else if (isBusy())
        refusal = QStringLiteral("a proxy %1 is still running").arg(proxyActionName(m_action));
    if (!refusal.isEmpty()) {
        if (m_ctx->settings.readOnly || m_ctx->settings.profileErrors > 0)
            audit(action, action == ProxyAction::Restart, QStringLiteral("refused"), refusal, 0);
        if (why)
            *why = refusal;
        return false;
    }
    ++m_serial;
    m_action = action;
    m_startDetail.clear();
    m_stopDetail.clear();
    m_healthError.clear();
    if (action == ProxyAction::Start)
        start();
    else
        stop();
    return true;
}

void ProxyActions::stop()
{
    setPhase(Phase::Stopping);
    m_stepClock.start();
    const quint64 serial = m_serial;
    m_ctx->control->stopProxy([self = QPointer<ProxyActions>(this), serial](const ControlResult &r) {
        if (!self || serial != self->m_serial)
            return;
        const qint64 ms = self->m_stepClock.elapsed();
        if (!r.ok) {
            self->audit(ProxyAction::Stop, self->m_action == ProxyAction::Restart, QStringLiteral("failed"), r.error, ms);
            self->finish(false, r.error);
            return;
        }
        self->m_stopDetail = r.detail.isEmpty() ? QStringLiteral("stopped") : r.detail;
        self->audit(ProxyAction::Stop, self->m_action == ProxyAction::Restart, QStringLiteral("ok"), self->m_stopDetail, ms);
        self->confirmDown(kConfirmDownRounds);
    });
}

void ProxyActions::confirmDown(int roundsLeft)
{
    setPhase(Phase::ConfirmingDown);
    const auto next = [this] {
        if (m_action == ProxyAction::Restart)
            start();
        else
            finish(true, m_stopDetail);
    };
    if (!m_ctx->membership || roundsLeft <= 0) {
        next();
        return;
    }
    const quint64 serial = m_serial;
    m_ctx->membership->reconcileNow([self = QPointer<ProxyActions>(this), serial, roundsLeft, next](bool listed) {
        if (!self || serial != self->m_serial)
            return;
        if (!listed) {
            next(); // the table saw the outage
            return;
        }
        self->later([self, roundsLeft] { self->confirmDown(roundsLeft - 1); });
    });
}

void ProxyActions::start()
{
    setPhase(Phase::Starting);
    m_stepClock.start();
    const quint64 serial = m_serial;
    m_ctx->control->startProxy([self = QPointer<ProxyActions>(this), serial](const ControlResult &r) {
        if (!self || serial != self->m_serial)
            return;
        if (!r.ok) {
            self->audit(ProxyAction::Start, self->m_action == ProxyAction::Restart, QStringLiteral("failed"), r.error, self->m_stepClock.elapsed());
            self->finish(false, r.error);
            return;
        }
        self->m_startDetail = r.detail.isEmpty() ? QStringLiteral("started") : r.detail;
        if (!self->m_ctx->proxy) {
            self->audit(ProxyAction::Start, self->m_action == ProxyAction::Restart, QStringLiteral("ok"), self->m_startDetail, self->m_stepClock.elapsed());
            self->finish(true, self->m_startDetail);
            return;
        }
        self->setPhase(Phase::WaitingForHealth);
        self->pollHealth();
    });
}

void ProxyActions::pollHealth()
{
    const quint64 serial = m_serial;
    m_ctx->proxy->healthcheck([self = QPointer<ProxyActions>(this), serial](const ProxyHealth &health) {
        if (!self || serial != self->m_serial)
            return;
        const qint64 ms = self->m_stepClock.elapsed();
        if (health.reachable) {
            const QString detail = QStringLiteral("%1; /healthcheck answers: %2 prefill, %3 decode instances")
                                       .arg(self->m_startDetail)
                                       .arg(health.prefillInstances)
                                       .arg(health.decodeInstances);
            self->audit(ProxyAction::Start, self->m_action == ProxyAction::Restart, QStringLiteral("ok"), detail, ms);
            if (self->m_ctx->membership) {
                // A new process: no drain and no waiting add of the old one survives it.
                self->m_ctx->membership->noteProxyRestarted();
                self->m_ctx->membership->reconcileNow(); // the table (and a restore offer) follows at once
                syncListenerTiming(*self->m_ctx); // WAITING is judged by what this proxy runs with
                syncCommandLineMembership(*self->m_ctx); // a proxy without /instances: its lists are its membership
            }
            self->finish(true, detail);
            return;
        }
        self->m_healthError = health.error;
        if (ms >= self->m_healthTimeoutMs) {
            const QString detail = QStringLiteral("%1, but /healthcheck did not answer within %2 s: %3")
                                       .arg(self->m_startDetail)
                                       .arg(self->m_healthTimeoutMs / 1000.0, 0, 'f', 1)
                                       .arg(self->m_healthError);
            self->audit(ProxyAction::Start, self->m_action == ProxyAction::Restart, QStringLiteral("failed"), detail, ms);
            self->finish(false, detail);
            return;
        }
        self->later([self] { self->pollHealth(); });
    });
}

void ProxyActions::finish(bool ok, const QString &detail)
{
    m_poll.stop();
    m_next = nullptr;
    const QString text = m_action == ProxyAction::Restart && ok ? QStringLiteral("%1; then %2").arg(m_stopDetail, detail) : detail;
    setPhase(Phase::Idle);
    Q_EMIT finished(m_action, ok, text);
}

void ProxyActions::setPhase(Phase phase)
{
    if (m_phase == phase)
        return;
    m_phase = phase;
    Q_EMIT phaseChanged(phase);
}

} // namespace pd
