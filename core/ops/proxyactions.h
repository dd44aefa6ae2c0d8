// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

// The proxy's process started, stopped or restarted by the operator, through the scaling context's
// EngineControl (the launcher through the proxy node's runner, or pdsim's control API), one action at
// a time. Read-only mode refuses (audited as refused). Every start and every stop is one audit entry
// with its outcome and duration ("proxy.start", "proxy.stop"; a restart writes both with
// params.restart = true).
//
//   Start    start the process (a running one is not started twice), then poll /healthcheck until it
//            answers (healthTimeout): a process that never answers is a failed start
//   Stop     stop the process, then reconcile the membership table at once (bounded) so that it sees
//            the outage: when the proxy comes back with only its command line's instances, the table
//            emits restartDetected and the Operations tab offers to restore the runtime membership
//   Restart  Stop, then Start; a failed stop does not start
//
// GUI thread; never blocks (every step is a callback); deleting it mid-action drops the callbacks.
namespace pd {

struct ScaleContext;

enum class ProxyAction { Start, Stop, Restart };
QString proxyActionName(ProxyAction action); // "start" | "stop" | "restart" (audit, tests)

class ProxyActions final : public QObject {
    Q_OBJECT
public:
    enum class Phase { Idle, Stopping, ConfirmingDown, Starting, WaitingForHealth };
    Q_ENUM(Phase)

    explicit ProxyActions(ScaleContext *context, QObject *parent = nullptr);

    void setHealthTimeout(int ms) { m_healthTimeoutMs = ms; }
    int healthTimeout() const { return m_healthTimeoutMs; }

    bool isReadOnly() const;
    bool isBusy() const { return m_phase != Phase::Idle; }
    Phase phase() const { return m_phase; }
    ProxyAction action() const { return m_action; } // the running one, or the last one

    // Starts `action`. False when nothing was started, with the reason in *why: read-only (the refusal
    // is audited), no engine control, or another proxy action still runs.
    bool run(ProxyAction action, QString *why = nullptr);

Q_SIGNALS:
    void phaseChanged(pd::ProxyActions::Phase phase);
    // The action ended: whether it did what was asked, and what happened or why not.
    void finished(pd::ProxyAction action, bool ok, const QString &detail);

private:
    void stop();
    void confirmDown(int roundsLeft);
    void start();
    void pollHealth();
    void finish(bool ok, const QString &detail);
    void setPhase(Phase phase);
    void later(std::function<void()> next); // after settings.pollMs; dropped by finish()
    void audit(ProxyAction action, bool restart, const QString &result, const QString &detail, qint64 durationMs);
    QString target() const;

    ScaleContext *m_ctx;
    Phase m_phase = Phase::Idle;
    ProxyAction m_action = ProxyAction::Start;
    int m_healthTimeoutMs = 60000;
    QElapsedTimer m_stepClock;  // the running start or stop, for its audit entry
    QString m_startDetail;      // what the control said about the start
    QString m_stopDetail;       // what the control said about the stop (a restart reports both)
    QString m_healthError;      // the last /healthcheck failure while waiting
    QTimer m_poll;              // single shot: runs m_next (the next /healthcheck or reconcile round)
    std::function<void()> m_next;
    quint64 m_serial = 0;       // bumps per action; callbacks of an earlier one are dropped
};

} // namespace pd
