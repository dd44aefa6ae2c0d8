// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <memory>

namespace pd {
class AuditLog;
class ClusterStore;
class EngineControl;
class EngineController;
class EngineProbe;
class MainWindow;
class MembershipReconciler;
class ProxyClient;
class ScalePanel;
class ScaleRunner;
class SshRunner;
class StateTracker;
struct ScaleContext;
} // namespace pd

// Acting on the cluster, wired: the engine controller (launcher through each node's runner: local for
// this machine, SSH for the rest), the proxy client and its membership table, scaling operations and
// their audit log, and the Operations page with a scale control per pool. Membership and process
// facts flow into the state tracker, so the topology and triage show what scaling does.
// Follows the store: opening a profile rebuilds everything for it. In the demo, engines are started
// and stopped through pdsim's control API instead (setSimControl).
class Operations final : public QObject {
    Q_OBJECT
public:
    Operations(pd::ClusterStore *store, pd::MainWindow *window, pd::StateTracker *tracker, QObject *parent = nullptr);
    ~Operations() override;

    // The demo's simulated cluster: engines start and stop through its control API.
    void setSimControl(const QUrl &controlBase);
    pd::ScaleRunner *runner() const { return m_runner.get(); }
    pd::MembershipReconciler *membership() const { return m_membership.get(); }

private:
    void rebuild();
    void teardown();

    pd::ClusterStore *m_store;
    pd::MainWindow *m_window;
    pd::StateTracker *m_tracker;
    QUrl m_simControl;
    std::shared_ptr<pd::SshRunner> m_ssh; // sessions kept open across profiles; host keys asked in a dialog
    std::unique_ptr<pd::AuditLog> m_audit;
    std::unique_ptr<pd::ProxyClient> m_proxy;
    std::unique_ptr<pd::MembershipReconciler> m_membership;
    std::unique_ptr<pd::EngineController> m_controller;
    std::unique_ptr<pd::EngineControl> m_control;
    std::unique_ptr<pd::EngineProbe> m_probe;
    std::unique_ptr<pd::ScaleContext> m_context;
    std::unique_ptr<pd::ScaleRunner> m_runner;
    QPointer<QWidget> m_page;
};
