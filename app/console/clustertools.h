// SPDX-License-Identifier: MIT
#pragma once

#include "consoleshared.h"
#include "logs/diagnosisevent.h"
#include "nodecheck/checktypes.h"

#include <QObject>
#include <QPointer>

#include <memory>

namespace pd {
class ClusterLogWatch;
class ClusterStore;
class DefaultRunnerFactory;
class LogsPage;
class MainWindow;
class NodeCheckRunner;
class NodeChecksGrid;
class RoutingRunner;
class SshRunner;
class StateTracker;
class Triage;
struct LogSource;
} // namespace pd

// What the console reads from the nodes, wired: the Logs tab (any engine's or the proxy's log
// followed on its node, diagnoses onto the timeline) and the Node checks tab (the seeds' A2/A3 suite on
// every node, results as node badges on the topology). Both reach the nodes through the same runners
// as the operations (local for this machine, the shared SSH runner for the others). Follows the store:
// opening a profile rebuilds the sources and targets.
class ClusterTools final : public QObject {
    Q_OBJECT
public:
    ClusterTools(const ConsoleShared &shared, std::shared_ptr<pd::SshRunner> ssh, QObject *parent = nullptr);
    ~ClusterTools() override;

    // The demo's fake hccn_tool / npu-smi directory (prepended to PATH on the nodes), and hccn.conf.
    void setNodeToolDir(const QString &dir, const QString &hccnConfPath = {});

    // An adopted engine's log (started outside pdconsole) replaces the launcher's path for it.
    void setEngineLogPath(int engine, const QString &path);
    void showEngineLog(int engine);
    void showProxyLog();
    void runNodeChecks(int node); // -1: every node
    pd::LogsPage *logsPage() const;
    pd::NodeChecksGrid *nodeChecks() const;

private:
    void rebuild();
    void applyBadges(const pd::ClusterReport &report);
    void noteDiagnosis(const pd::LogSource &source, const pd::DiagnosisEvent &event);

    pd::ClusterStore *m_store;
    pd::MainWindow *m_window;
    pd::StateTracker *m_tracker;
    pd::Triage *m_triage; // node check failures and warnings become Problems rows (one per node)
    std::shared_ptr<pd::DefaultRunnerFactory> m_runners;
    std::unique_ptr<pd::RoutingRunner> m_routing;
    std::shared_ptr<pd::SshRunner> m_ssh;
    std::unique_ptr<pd::NodeCheckRunner> m_checkRunner;
    QPointer<pd::LogsPage> m_logs;       // pages of the window, deleted here: they use the runners
    QPointer<pd::NodeChecksGrid> m_grid;
    std::unique_ptr<pd::ClusterLogWatch> m_logWatch; // every engine's log, read in the background
    QString m_toolDir;
    QString m_hccnConf;
};
