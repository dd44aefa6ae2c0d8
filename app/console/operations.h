// SPDX-License-Identifier: MIT
#pragma once

#include "consoleshared.h"
#include "ops/scaletypes.h"
#include "state/statetracker.h"
#include "triage/findproblems.h"
#include "watch/ejectionsettings.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <memory>
#include <optional>

class QMenu;
class QWidget;

namespace pd {
class AuditIntentFeed;
class AuditLog;
class ClusterStore;
class EngineActionMenu;
class EngineActions;
class EngineControl;
class EngineController;
class OperationsPage;
class EngineProbe;
class MainWindow;
class MembershipJournal;
class OperationJournal;
class MembershipReconciler;
class ProxyClient;
class ScalePanel;
class ScaleRunner;
class SshRunner;
class StateTracker;
class Triage;
class Watchdog;
struct ScaleContext;
} // namespace pd

// Acting on the cluster, wired: the engine controller (launcher through each node's runner: local for
// this machine, SSH for the rest), the proxy client and its membership table, scaling operations and
// their audit log, the Operations page (read-only switch, restore offer, the proxy's start / stop /
// restart, scale controls per pool, rolling restarts, progress, audit), and the actions where an
// operator finds them: the topology's context menus (engines, nodes, the proxy's box), the engine
// detail's buttons, the Problems panel's "Remove from proxy".
// Operations become markers on the charts. Membership and process facts flow into the state tracker,
// so the topology and triage show what is done.
// Follows the store: opening a profile rebuilds everything for it. In the demo, engines are started
// and stopped through pdsim's control API instead (setSimControl).
// What the settings choose for the operations, read once at start.
struct OperationsSetup {
    QString knownHostsPath; // empty: ~/.ssh/known_hosts
    QString auditLogPath; // empty: AuditLog::defaultPath()
    bool readOnly = false; // the read-only switch at start
};

class Operations final : public QObject {
    Q_OBJECT
public:
    explicit Operations(const ConsoleShared &shared, const OperationsSetup &setup = {}, QObject *parent = nullptr);
    ~Operations() override;

    // The demo's simulated cluster: engines start and stop through its control API.
    void setSimControl(const QUrl &controlBase);
    // The watchdog: auto-eject (off by default, never in read-only mode or on an invalid profile) and
    // the alert webhook (empty: none), from the settings (again after the Preferences dialog).
    void setWatchSettings(const pd::EjectionSettings &ejection, const QString &webhookUrl);
    pd::Watchdog *watchdog() const { return m_watchdog.get(); }
    pd::ScaleRunner *runner() const { return m_runner.get(); }
    pd::MembershipReconciler *membership() const { return m_membership.get(); }
    pd::OperationsPage *page() const;
    // Before a reload, open or quit: true when nothing runs or the operator chose to cancel what runs.
    // The window's leave guard: while operations run, asks whether to wait for them (then `proceed`
    // when the runner is idle), cancel them, or stay.
    bool confirmLeave(const QString &what, std::function<void()> proceed);
    // The engine actions for the topology's selection, for the command palette (nullptr: none).
    QMenu *selectionMenu(QWidget *parent) const;
    std::shared_ptr<pd::SshRunner> sshRunner() const { return m_ssh; }

Q_SIGNALS:
    void logRequested(int engine);
    void proxyLogRequested();
    void nodeChecksRequested(int node);
    // An engine started outside pdconsole writes its log here (the file behind its stdout).
    void engineLogFound(int engine, const QString &path);

private:
    QString refusalReason() const; // why actions are unavailable (read-only, invalid profile)
    QMenu *buildProxyMenu(QWidget *parent); // the topology proxy box's menu
    void rebuild();
    void teardown();
    void wireWindow(const QList<pd::EngineRef> &refs);
    void wireOperationOutcomes(const QHash<QString, int> &indexOf); // ended operations -> triage
    void wireInterruptedOperations(const QHash<QString, int> &indexOf); // cut short by a kill -> triage
    void updateMarkers();
    void refreshProcesses(); // one status command per node: process facts and node reachability
    void rebuildWatchdog();

    pd::ClusterStore *m_store;
    pd::MainWindow *m_window;
    pd::StateTracker *m_tracker;
    pd::Triage *m_triage; // node reachability ("SSH down") and the watchdog's problems
    std::optional<pd::StateTracker::FactBatch> m_membershipBatch; // open while a reading of the lists is applied
    QUrl m_simControl;
    std::shared_ptr<pd::SshRunner> m_ssh; // sessions kept open across profiles; host keys asked in a dialog
    std::unique_ptr<pd::AuditLog> m_audit;
    std::unique_ptr<pd::ProxyClient> m_proxy;
    std::unique_ptr<pd::MembershipReconciler> m_membership;
    std::unique_ptr<pd::AuditIntentFeed> m_intentFeed; // intents other processes wrote to the audit log
    std::unique_ptr<pd::MembershipJournal> m_journal; // pending adds and drains across console restarts
    std::unique_ptr<pd::OperationJournal> m_operationJournal; // every operation's intent before it acts
    QList<pd::TriageOperation> m_endedOperations; // the newest finished ones, for triage
    QList<pd::TriageOperation> m_interruptedOperations; // cut short by a killed console or pdctl
    std::unique_ptr<pd::EngineController> m_controller;
    std::unique_ptr<pd::EngineControl> m_control;
    std::unique_ptr<pd::EngineProbe> m_probe;
    std::unique_ptr<pd::ScaleContext> m_context;
    std::unique_ptr<pd::ScaleRunner> m_runner;
    std::unique_ptr<pd::EngineActions> m_actions;
    std::unique_ptr<pd::EngineActionMenu> m_menu;
    QPointer<pd::OperationsPage> m_page;
    QList<QMetaObject::Connection> m_windowConnections; // to the window's panels, cut on rebuild
    QMetaObject::Connection m_waitingToLeave; // "wait for them, then reload/open/quit": to the runner's idle
    std::unique_ptr<pd::Watchdog> m_watchdog;
    pd::EjectionSettings m_ejection;
    QString m_webhookUrl;
    QTimer *m_processRefresh = nullptr;
    bool m_readOnly = false; // kept across profiles
    bool m_invalidProfile = false; // the profile has validation errors: every change is refused
    int m_pageIndex = -1;    // the tab's place, kept across profiles
};
