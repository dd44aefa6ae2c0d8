// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyhealth.h"
#include "topology/trackedengineinfo.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTableView;
class QDockWidget;
class QSplitter;

namespace pd {

class ClusterPage;
class ClusterStore;
struct ProxyHealth;
class EngineTableModel;
class ErrorBanner;
class NodeTableModel;
class PoolsView;
class SeriesStore;
class TopologyPanel;
class ValidationIssueModel;
class StateTracker;
class Triage;
class ProblemsPanel;
class EngineDetailPanel;
class TimelineView;
class ConsoleSettings;

// Asked before the profile is replaced (open, reload) or the window closes, with what is about to
// happen ("reload", "open x.json", "quit"); false keeps everything as it is. A guard that chose to
// wait (operations still running) calls `proceed` later, which asks again and then does it.
using LeaveGuard = std::function<bool(const QString &what, std::function<void()> proceed)>;
// The engine actions for the topology's selection as a menu the command palette lists (nullptr: none).
using EngineMenuProvider = std::function<QMenu *(QWidget *parent)>;

// What the window shows and asks, given at construction; none is owned and each outlives the window.
struct MainWindowParts {
    // The opened cluster: nodes, engines, the profile's problems (required).
    ClusterStore *store = nullptr;
    // Derived states and triage (required): the status column, the topology's states, the Problems
    // dock, the engine detail dock, the Timeline tab and the problem count in the title.
    StateTracker *tracker = nullptr;
    Triage *triage = nullptr;
    // Recent profiles, the last profile and the window layout; null: the per-user settings.
    ConsoleSettings *settings = nullptr;
    // The composition root's answers (empty: leave without asking; no engine actions in the palette).
    LeaveGuard leaveGuard;
    EngineMenuProvider engineMenu;
};

// The console's main window: the opened cluster's nodes and engines, the profile's problems, and the
// menus. It reads the ClusterStore and never blocks on I/O other than reading a profile file.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowParts &parts, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads a profile into the store; on failure the store keeps the cluster it had and the error
    // banner says where the file is wrong. Returns whether the profile was opened.
    bool openProfile(const QString &path);
    QLabel *summaryLabel() const { return m_summaryLabel; } // the status bar's profile summary (tests)

    QTableView *engineView() const;
    QTableView *nodeView() const;
    QSortFilterProxyModel *engineFilter() const;
    ErrorBanner *errorBanner() const { return m_banner; }
    PoolsView *poolsView() const { return m_poolsView; }
    // Adds a page after the built-in tabs (Operations, ...); the window owns it.
    // index: where among the tabs (-1: last), so a page rebuilt for a new profile keeps its place.
    void addPage(QWidget *page, const QString &title, int index = -1);
    int pageIndex(QWidget *page) const;
    void showPage(QWidget *page); // makes an added page the visible tab
    TopologyPanel *topologyPanel() const { return m_topology; }
    void showPools();
    void showCluster();
    void showTopology();
    // The history behind the charts and the topology's metric colours (nullptr: none); a new one comes
    // with each opened cluster.
    void setSeriesStore(SeriesStore *series);
    // What double-click in the engine table and activating an engine on the topology do: the engine's
    // own charts on the Pools tab.
    void showEngineCharts(int engine);
    QStringList recentProfiles() const;
    // The status bar's proxy section: reachable with its counts, or why not.
    void showProxyHealth(const ProxyHealth &health);
    QString proxyStatusText() const;
    // A transient line in the status bar, and the inline error banner.
    void showNote(const QString &text);
    void showError(const QString &title, const QStringList &details);

    ProblemsPanel *problemsPanel() const { return m_problemsPanel; }
    EngineDetailPanel *engineDetail() const { return m_detail; }
    TimelineView *timeline() const { return m_timeline; }
    QDockWidget *problemsDock() const { return m_problemsDock; }
    QDockWidget *detailDock() const { return m_detailDock; }
    QString problemStatusText() const;
    // Selects the engine in the engines table (clearing filters that hide it) and opens its detail.
    void focusEngine(int engine);
    void focusNode(int node);

    // --- settings, keyboard ---
    ConsoleSettings *settings() const { return m_settings; }
    // Geometry, docks and splitter from the settings.
    void restoreLayout();
    void saveLayout();
    void openCommandPalette(); // Ctrl+K
    void showShortcuts(); // Help ▸ Keyboard Shortcuts
    void showSettings(); // Edit ▸ Preferences (Ctrl+,)

Q_SIGNALS:
    void settingsChanged(); // the Preferences dialog stored new settings

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void updateProxyStatus(); // the proxy's mark and the incident headline in the status bar
    void createKeyboardActions(QMenu *edit, QMenu *view, QMenu *help);
    void createMenus();
    void createTriageViews(); // the Problems and engine detail docks, the Timeline tab
    void onProfileChanged();
    void updateFromStore();
    void updateTitle();
    void updateProblemCount();
    void updateRecentMenu();
    void rememberRecent(const QString &path);
    void openDialog();
    void saveAsDialog();
    void importDialog(); // File ▸ Import Cluster…: the importers with a preview; the saved profile opens
    void showAbout();

    ClusterStore *m_store;
    ClusterPage *m_clusterPage; // the Cluster tab: nodes and engines tables
    ValidationIssueModel *m_issueModel;
    QTableView *m_issueView;
    QDockWidget *m_issueDock;
    ErrorBanner *m_banner;
    QLabel *m_summaryLabel;
    QLabel *m_validationLabel;
    QLabel *m_proxyLabel;
    QMenu *m_recentMenu = nullptr;
    PoolsView *m_poolsView;
    TopologyPanel *m_topology;
    SeriesStore *m_series = nullptr;
    class QTabWidget *m_tabs;
    StateTracker *m_tracker;
    std::unique_ptr<TrackedEngineInfo> m_trackedInfo; // the topology's states, figures and tooltips
    Triage *m_triage;
    std::optional<ProxyHealth> m_lastProxyHealth; // the headline is redrawn between answers too
    ProblemsPanel *m_problemsPanel = nullptr;
    EngineDetailPanel *m_detail = nullptr;
    TimelineView *m_timeline = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_detailDock = nullptr;
    QLabel *m_problemsLabel = nullptr;
    // With no problem the Problems dock shrinks to its one line, giving the topology the height; the
    // height it had (or the operator gave it) comes back with the first problem.
    bool m_problemsCompact = false;
    bool m_detailSized = false; // the detail dock got its first width
    int m_problemsHeight = 220;
    // A note given before the window first showed: QStatusBar hides the profile summary under a note
    // only if the summary is visible then, so the note is given again once it is (else both overlap).
    QString m_noteBeforeShow;
    QMenu *m_viewMenu = nullptr;
    // settings and keyboard
    std::unique_ptr<ConsoleSettings> m_ownSettings; // the per-user settings when none were given
    ConsoleSettings *m_settings;
    EngineMenuProvider m_engineMenuProvider;
    LeaveGuard m_leaveGuard;
};

} // namespace pd
