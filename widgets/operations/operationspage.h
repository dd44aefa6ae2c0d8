// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyclient.h"
#include "ops/proxyactions.h"
#include "ops/scaletypes.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

// The Operations tab: the read-only switch, the offer to restore the proxy's membership after it
// restarted, the proxy's process (start, stop, restart: ProxyActions; stop and restart confirmed
// first), the pool scale controls and the operations' progress (ScalePanel), a rolling restart per
// pool with the operator's floor (pauses on the first failure: resume or cancel), and the audit log.
namespace pd {

class AuditModel;
class InterruptedOperationsBar;
class RollingRestart;
class ScalePanel;
class ScaleRunner;
struct ScaleContext;

class OperationsPage final : public QWidget {
    Q_OBJECT
public:
    OperationsPage(ScaleContext *context, ScaleRunner *runner, QList<EngineRef> profileEngines,
        const QString &auditPath, QWidget *parent = nullptr);
    ~OperationsPage() override;

    // Yes/no for a destructive action the operator started (title, what it does). Tests pre-answer.
    using Confirm = std::function<bool(const QString &title, const QString &text)>;
    void setConfirm(Confirm confirm);

    QCheckBox *readOnlyBox() const { return m_readOnly; }
    void setReadOnly(bool readOnly);
    bool isReadOnly() const;

    // After a proxy restart: offers to bring the membership back to `previous`.
    void offerRestore(const ProxyLists &previous, const ProxyLists &now);
    bool isRestoreOffered() const;
    void restore(); // what the offer's button does

    // Starts, stops or restarts the proxy's process; a stop or restart is confirmed first (every
    // request fails while it is down; it forgets the instances added at runtime). Returns whether it
    // was started: not when declined, refused (read-only: audited) or another proxy action runs.
    bool requestProxyAction(ProxyAction action);
    ProxyActions *proxyActions() const { return m_proxyActions; }
    QString proxyStateText() const; // the proxy group's line: progress, then the last outcome
    static QString proxyActionText(ProxyAction action); // translated button / menu text

    // A rolling restart of a pool's active engines, node by node, never below `floor` active.
    bool startRollingRestart(Role role, int floor);
    RollingRestart *rollingRestart() const;
    // A restart started elsewhere (the engine menu's Restart of active engines): its progress, Resume
    // and Cancel are shown here as for the pool's. The caller keeps ownership.
    void adoptRollingRestart(RollingRestart *restart);

    // The operations a killed console or pdctl left cut short, with Finish, Undo and Forget.
    InterruptedOperationsBar *interruptedBar() const { return m_interrupted; }

    AuditModel *auditModel() const { return m_audit; }
    void reloadAudit();

Q_SIGNALS:
    void readOnlyChanged(bool readOnly);
    void warmUpRequested(); // the "Warm-up / smoke test" button
    // One line for the status bar: a proxy action started, refused or ended.
    void note(const QString &text);
    // An audit line could not be written (the page shows it until acknowledged).
    void auditFailed(const QString &error);

private:
    // The constructor's parts, in the page's order from the top.
    void buildRestoreBar();
    void buildAuditFailureBar();
    QGroupBox *buildProxyGroup();
    QGroupBox *buildRollingGroup();
    QGroupBox *buildAuditGroup();
    void showAuditFailure(const QString &error);
    void showRollingState();
    void showProxyPhase(ProxyActions::Phase phase);
    void proxyFinished(ProxyAction action, bool ok, const QString &detail);
    void showProxyHealth();
    void updateProxyButtons();

    ScaleContext *m_ctx;
    ScaleRunner *m_runner;
    QList<EngineRef> m_engines;
    Confirm m_confirm;
    QCheckBox *m_readOnly;
    InterruptedOperationsBar *m_interrupted;
    QWidget *m_restoreBar;
    QLabel *m_restoreText;
    QWidget *m_auditFailureBar; // an audit append failed: actions refused until acknowledged
    QLabel *m_auditFailureText;
    std::optional<ProxyLists> m_previous;
    std::optional<ProxyLists> m_now;
    ScalePanel *m_scale;
    QSpinBox *m_floor;
    QPushButton *m_restartPrefill;
    QPushButton *m_restartDecode;
    QLabel *m_rollingState;
    QPushButton *m_resume;
    QPushButton *m_cancelRolling;
    QPointer<RollingRestart> m_rolling;
    ProxyActions *m_proxyActions;
    QLabel *m_proxyHealth;
    QLabel *m_proxyState;
    QPushButton *m_startProxy;
    QPushButton *m_stopProxy;
    QPushButton *m_restartProxy;
    AuditModel *m_audit;
    QTableView *m_auditView;
    QLabel *m_auditPath;
};

} // namespace pd
