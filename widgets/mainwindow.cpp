// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "apptheme.h"
#include "clusterpage.h"
#include "clustertables.h"
#include "importdialog.h"
#include "stateappearance.h"

#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "errorbanner.h"
#include "models/validationissuemodel.h"
#include "net/proxyhealth.h"
#include "poolsview.h"
#include "state/statetracker.h"
#include "statussummary.h"
#include "topology/trackedengineinfo.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologystatefeed.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "triageviews/problemspanel.h"
#include "triageviews/timelineview.h"
// settings and keyboard
#include "actioncatalog.h"
#include "commandpalette.h"
#include "jknavigation.h"
#include "settings/consolesettings.h"
#include "settingsdialog.h"
#include "shortcutsdialog.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace pd {

namespace {

// The Problems dock with no problem: its title and the one line saying so.
constexpr int kCompactProblemsHeight = 56;

constexpr int kMaxRecent = 8;

// How long a transient status-bar line stays: a note (what an action did), a selection count.
constexpr int kNoteMs = 15000;
constexpr int kSelectionNoteMs = 5000;

// The platform's key for a standard action, or the usual one where the platform has none (offscreen,
// minimal): so the shortcuts, the palette and the docs' table are the same everywhere.
QKeySequence standardOr(QKeySequence::StandardKey key, const QKeySequence &fallback)
{
    const QKeySequence standard(key);
    return standard.isEmpty() ? fallback : standard;
}

} // namespace

MainWindow::MainWindow(const MainWindowParts &parts, QWidget *parent)
    : QMainWindow(parent)
    , m_store(parts.store)
    , m_clusterPage(new ClusterPage(parts.store, parts.tracker, this))
    , m_issueModel(new ValidationIssueModel(parts.store, this))
    , m_issueView(makeClusterTable(this))
    , m_issueDock(new QDockWidget(tr("Profile problems"), this))
    , m_banner(new ErrorBanner(this))
    , m_summaryLabel(new QLabel(this))
    , m_validationLabel(new QLabel(this))
    , m_proxyLabel(new QLabel(this))
    , m_poolsView(new PoolsView(this))
    , m_topology(new TopologyPanel(this))
    , m_tabs(new QTabWidget(this))
    , m_tracker(parts.tracker)
    , m_triage(parts.triage)
    , m_ownSettings(parts.settings ? nullptr : std::make_unique<ConsoleSettings>())
    , m_settings(parts.settings ? parts.settings : m_ownSettings.get())
    , m_engineMenuProvider(parts.engineMenu)
    , m_leaveGuard(parts.leaveGuard)
{
    Q_ASSERT(m_store && m_tracker && m_triage);
    setObjectName(QStringLiteral("mainWindow"));
    m_issueView->setModel(m_issueModel);
    m_issueView->setObjectName(QStringLiteral("issueView"));
    m_issueView->setSortingEnabled(false);
    m_issueView->horizontalHeader()->setStretchLastSection(true);
    m_issueDock->setObjectName(QStringLiteral("issueDock"));
    m_issueDock->setWidget(m_issueView);
    addDockWidget(Qt::BottomDockWidgetArea, m_issueDock);

    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_topology, tr("&Topology"));
    m_tabs->addTab(m_clusterPage, tr("&Cluster"));
    m_tabs->addTab(m_poolsView, tr("&Pools"));
    connect(m_clusterPage, &ClusterPage::engineDoubleClicked, this, &MainWindow::showEngineCharts);
    connect(m_topology->view(), &TopologyView::activated, this, &MainWindow::showEngineCharts);
    connect(m_topology->view(), &TopologyView::selectionChanged, this, [this](const QList<int> &engines) {
        if (engines.size() > 1)
            statusBar()->showMessage(tr("%n engine(s) selected", nullptr, int(engines.size())), kSelectionNoteMs);
    });
    JkNavigation::install(m_topology->view());

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 8, 8, 4);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    statusBar()->addWidget(m_summaryLabel, 1);
    m_proxyLabel->setObjectName(QStringLiteral("proxyStatus"));
    statusBar()->addPermanentWidget(m_proxyLabel);
    statusBar()->addPermanentWidget(m_validationLabel);

    createMenus();
    createTriageViews();
    connect(m_store, &ClusterStore::profileChanged, this, &MainWindow::onProfileChanged);
    // A validation (F7) changes the issues, not the cluster: the topology keeps its states and badges.
    connect(m_store, &ClusterStore::issuesChanged, this, &MainWindow::updateFromStore);
    onProfileChanged();
    resize(1400, 900);
}

MainWindow::~MainWindow() = default;

QTableView *MainWindow::engineView() const
{
    return m_clusterPage->engineView();
}

QTableView *MainWindow::nodeView() const
{
    return m_clusterPage->nodeView();
}

QSortFilterProxyModel *MainWindow::engineFilter() const
{
    return m_clusterPage->engineFilter();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *open = file->addAction(tr("&Open Profile…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction *import = file->addAction(tr("&Import Cluster…"), this, &MainWindow::importDialog);
    import->setObjectName(QStringLiteral("importClusterAction"));
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction *saveAs = file->addAction(tr("Save Profile &As…"), this, &MainWindow::saveAsDialog);
    saveAs->setShortcut(standardOr(QKeySequence::SaveAs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(standardOr(QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q)));
    updateRecentMenu();

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    QAction *problems = m_issueDock->toggleViewAction();
    problems->setText(tr("&Profile Problems"));
    view->addAction(problems);
    QAction *topologyTab = view->addAction(tr("&Topology"), this, &MainWindow::showTopology);
    topologyTab->setShortcut(QKeySequence(Qt::ALT | Qt::Key_0));
    QAction *clusterTab = view->addAction(tr("&Cluster"), this, &MainWindow::showCluster);
    clusterTab->setShortcut(QKeySequence(Qt::ALT | Qt::Key_1));
    QAction *poolsTab = view->addAction(tr("P&ools Dashboard"), this, &MainWindow::showPools);
    poolsTab->setShortcut(QKeySequence(Qt::ALT | Qt::Key_2));
    QAction *filter = view->addAction(tr("&Filter Engines"), this, [this] {
        if (m_tabs->currentWidget() == m_topology) {
            m_topology->filterEdit()->setFocus();
            return;
        }
        showCluster();
        m_clusterPage->filterEdit()->setFocus();
    });
    filter->setShortcut(QKeySequence(Qt::Key_Slash));

    QMenu *cluster = menuBar()->addMenu(tr("&Cluster"));
    QAction *validate = cluster->addAction(tr("&Validate Profile"), this, [this] {
        if (!m_store->hasProfile())
            return;
        // Validation only reads the profile: operations, polling and state go on untouched.
        m_store->revalidate();
        m_issueDock->show();
    });
    validate->setShortcut(QKeySequence(Qt::Key_F7));
    QAction *reload = cluster->addAction(tr("&Reload Profile"), this, [this] {
        if (!m_store->profilePath().isEmpty())
            openProfile(m_store->profilePath());
    });
    reload->setShortcut(QKeySequence::Refresh);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    createKeyboardActions(edit, view, help);
    help->addAction(tr("&About pdconsole"), this, &MainWindow::showAbout);
    showShortcutsInToolTips(menuBar());
}

bool MainWindow::openProfile(const QString &path)
{
    if (m_leaveGuard && m_store->hasProfile()) {
        const bool reload = QFileInfo(path).absoluteFilePath() == m_store->profilePath();
        const QPointer<MainWindow> self(this);
        if (!m_leaveGuard(reload ? tr("reload the profile") : tr("open %1").arg(QFileInfo(path).fileName()),
                          [self, path] {
                              if (self)
                                  self->openProfile(path);
                          }))
            return false;
    }
    const ProfileLoadResult result = loadProfileFile(path);
    if (!result.profile) {
        QStringList lines;
        for (const ProfileError &error : result.errors)
            lines.append(error.format(QFileInfo(path).fileName()));
        m_banner->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)), lines);
        return false;
    }
    m_banner->hide();
    m_store->setProfile(*result.profile, QFileInfo(path).absoluteFilePath());
    rememberRecent(QFileInfo(path).absoluteFilePath());
    return true;
}

void MainWindow::onProfileChanged()
{
    m_topology->setProfile(m_store->profile()); // every engine Unknown until the tracker's reset() names them
    updateFromStore();
}

void MainWindow::updateFromStore()
{
    updateTitle();
    m_summaryLabel->setText(StatusSummary::profile(*m_store));
    m_validationLabel->setText(StatusSummary::validationHtml(*m_store));
    if (!m_store->hasProfile())
        return;
    m_issueDock->setVisible(m_store->errorCount() + m_store->warningCount() > 0);
    m_problemsDock->raise();
    m_clusterPage->fitColumns();
    m_issueView->resizeColumnsToContents();
}

void MainWindow::updateTitle()
{
    const int problems = m_triage->count();
    QString title = m_store->hasProfile() ? tr("%1 — pdconsole").arg(m_store->profile().name) : tr("pdconsole");
    if (problems > 0)
        title = (problems == 1 ? tr("(1 problem) ") : tr("(%1 problems) ").arg(problems)) + title;
    setWindowTitle(title);
}

void MainWindow::updateProblemCount()
{
    updateTitle();
    int critical = 0;
    for (const Problem &p : m_triage->problems())
        critical += p.severity == ProblemSeverity::Critical ? 1 : 0;
    const int n = m_triage->count();
    const QString count = n == 1 ? tr("1 problem") : tr("%1 problems").arg(n);
    // The painted glyphs of the one vocabulary (stateappearance.h), never a font's character.
    const int px = m_problemsLabel->fontMetrics().height();
    if (n == 0) {
        const QColor ok = stateMark(EngineState::Serving, isDark(m_problemsLabel->palette()));
        m_problemsLabel->setText(QStringLiteral("%1 <span style='color:%2'>%3</span>")
                                     .arg(stateGlyphHtml(EngineState::Serving, px, ok), ok.name(), tr("no problems")));
    } else {
        const ProblemSeverity worst = critical > 0 ? ProblemSeverity::Critical : ProblemSeverity::Error;
        const QColor badge = severityBadge(worst);
        const QColor mark = isDark(m_problemsLabel->palette()) ? badge.lighter(170) : badge; // text on the window
        m_problemsLabel->setText(QStringLiteral("%1 <span style='color:%2'><b>%3</b></span>")
                                     .arg(severityGlyphHtml(worst, px, mark), mark.name(), count.toHtmlEscaped()));
    }
    m_problemsLabel->setToolTip(n > 0 ? m_triage->problems().first().what + QStringLiteral(" — ") + m_triage->problems().first().where
                                      : QString());
    const bool compact = n == 0;
    if (compact != m_problemsCompact && !m_problemsDock->isFloating()) {
        if (compact) {
            if (m_problemsDock->isVisible() && m_problemsDock->height() > 2 * kCompactProblemsHeight)
                m_problemsHeight = m_problemsDock->height();
            resizeDocks({ m_problemsDock }, { kCompactProblemsHeight }, Qt::Vertical);
        } else {
            resizeDocks({ m_problemsDock }, { m_problemsHeight }, Qt::Vertical);
        }
        m_problemsCompact = compact;
    }
}

QString MainWindow::problemStatusText() const
{
    return m_problemsLabel ? m_problemsLabel->text() : QString();
}

void MainWindow::createTriageViews()
{
    StateTracker *tracker = m_tracker;
    Triage *triage = m_triage;
    m_trackedInfo = std::make_unique<TrackedEngineInfo>(tracker, m_store);
    feedTopologyFromTracker(tracker, m_trackedInfo.get(), m_topology->view());
    connect(m_topology->view(), &TopologyView::currentChanged, this, [this](int engine) {
        if (engine >= 0 && m_detailDock->isVisible())
            m_detail->setEngine(engine);
    });

    m_problemsPanel = new ProblemsPanel(triage, this);
    m_problemsDock = new QDockWidget(tr("Problems"), this);
    m_problemsDock->setObjectName(QStringLiteral("problemsDock"));
    m_problemsDock->setWidget(m_problemsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_problemsDock);
    tabifyDockWidget(m_problemsDock, m_issueDock);
    m_problemsDock->raise();
    resizeDocks({m_problemsDock}, {m_problemsHeight}, Qt::Vertical); // the topology keeps most of the height

    m_detail = new EngineDetailPanel(m_store, tracker, this);
    m_detailDock = new QDockWidget(tr("Engine"), this);
    m_detailDock->setObjectName(QStringLiteral("engineDetailDock"));
    m_detailDock->setWidget(m_detail);
    addDockWidget(Qt::RightDockWidgetArea, m_detailDock);
    resizeDocks({m_detailDock}, {460}, Qt::Horizontal);
    m_detailDock->hide();
    // A dock's size given before the window is laid out does not hold: the first time it shows, it gets
    // a third of the window (at least 420 px); after that the operator's drag (and the saved state) rule.
    connect(m_detailDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || m_detailSized || m_detailDock->isFloating())
            return;
        m_detailSized = true;
        resizeDocks({ m_detailDock }, { std::max(420, width() / 3) }, Qt::Horizontal);
    });

    m_timeline = new TimelineView(tracker, this);
    m_tabs->addTab(m_timeline, tr("&Timeline"));

    m_problemsLabel = new QLabel(this);
    m_problemsLabel->setObjectName(QStringLiteral("problemsStatus"));
    statusBar()->insertPermanentWidget(1, m_problemsLabel); // first of the permanent ones, after the summary

    connect(m_problemsPanel, &ProblemsPanel::engineFocusRequested, this, &MainWindow::focusEngine);
    connect(m_problemsPanel, &ProblemsPanel::nodeFocusRequested, this, &MainWindow::focusNode);
    connect(m_timeline, &TimelineView::engineFocusRequested, this, &MainWindow::focusEngine);
    connect(triage, &Triage::problemsChanged, this, &MainWindow::updateProblemCount);
    // The headline follows every round and every change of the problems (the canary's among them).
    connect(triage, &Triage::problemsChanged, this, &MainWindow::updateProxyStatus);
    connect(m_tracker, &StateTracker::roundDerived, this, &MainWindow::updateProxyStatus);
    connect(m_clusterPage, &ClusterPage::currentEngineChanged, this, [this](int engine) {
        if (m_detailDock->isVisible())
            m_detail->setEngine(engine);
    });
    connect(m_clusterPage, &ClusterPage::engineActivated, this, [this](int engine) {
        m_detail->setEngine(engine);
        m_detailDock->show();
    });
    connect(m_topology->view(), &TopologyView::activated, this, [this](int engine) { // Enter, double-click
        m_detail->setEngine(engine);
        m_detailDock->show();
    });

    QAction *problems = m_problemsDock->toggleViewAction();
    problems->setText(tr("P&roblems"));
    problems->setShortcut(QKeySequence(Qt::Key_F8));
    m_viewMenu->insertAction(m_viewMenu->actions().value(0), problems);
    QAction *detail = m_detailDock->toggleViewAction();
    detail->setText(tr("&Engine Detail"));
    m_viewMenu->insertAction(m_viewMenu->actions().value(1), detail);
    QAction *timelineTab = m_viewMenu->addAction(tr("&Timeline"), this, [this] { m_tabs->setCurrentWidget(m_timeline); });
    timelineTab->setShortcut(QKeySequence(Qt::ALT | Qt::Key_3));
    updateProblemCount();
    showShortcutsInToolTips(menuBar());
}

void MainWindow::focusEngine(int engine)
{
    if (engine < 0 || engine >= m_store->engines().size())
        return;
    // The topology when it is showing, else the engines table.
    if (m_tabs->currentWidget() == m_topology) {
        m_topology->view()->setSelectedEngines({engine});
        m_topology->view()->setCurrentEngine(engine);
    } else {
        m_tabs->setCurrentWidget(m_clusterPage);
    }
    m_clusterPage->selectEngine(engine);
    m_detail->setEngine(engine);
    m_detailDock->show();
    m_detailDock->raise();
}

void MainWindow::focusNode(int node)
{
    m_tabs->setCurrentWidget(m_clusterPage);
    m_clusterPage->selectNode(node);
}

void MainWindow::showProxyHealth(const ProxyHealth &health)
{
    m_topology->view()->setProxyHealth(health);
    m_lastProxyHealth = health;
    updateProxyStatus();
}

void MainWindow::updateProxyStatus()
{
    if (!m_lastProxyHealth)
        return;
    const StatusSummary::Headline headline = StatusSummary::headline(*m_store, *m_tracker, m_triage->canary());
    m_proxyLabel->setText(StatusSummary::proxyHtml(*m_store, *m_lastProxyHealth, headline));
    m_proxyLabel->setToolTip(StatusSummary::proxyToolTip(*m_lastProxyHealth)
        + tr("\nServing: engines in the proxy that serve, of those expected to (listed by the proxy, unless taken out "
             "on purpose). Clients: the canary's requests through the proxy that succeeded."));
}

void MainWindow::showEngineCharts(int engine)
{
    if (engine < 0 || engine >= m_store->engines().size())
        return;
    const Engine &e = m_store->engines().at(engine);
    m_poolsView->setEngine(engine, tr("%1 · %2 · DP rank %3")
                                       .arg(m_store->profile().nodes.at(e.nodeIndex).name, e.id())
                                       .arg(e.dpRank));
    showPools();
}

void MainWindow::showCluster()
{
    m_tabs->setCurrentWidget(m_clusterPage);
}

void MainWindow::addPage(QWidget *page, const QString &title, int index)
{
    m_tabs->insertTab(index, page, title);
}

int MainWindow::pageIndex(QWidget *page) const
{
    return m_tabs->indexOf(page);
}

void MainWindow::showPage(QWidget *page)
{
    if (m_tabs->indexOf(page) >= 0)
        m_tabs->setCurrentWidget(page);
}

void MainWindow::showTopology()
{
    m_tabs->setCurrentWidget(m_topology);
    m_topology->view()->setFocus();
}

void MainWindow::setSeriesStore(SeriesStore *series)
{
    m_series = series;
    m_poolsView->setSeriesStore(series);
    m_trackedInfo->setSeriesStore(series);
    m_detail->setSeriesStore(series);
    m_topology->view()->refreshMetrics();
}

void MainWindow::showPools()
{
    m_tabs->setCurrentWidget(m_poolsView);
    m_poolsView->refresh();
}

void MainWindow::showNote(const QString &text)
{
    statusBar()->showMessage(text, kNoteMs);
    if (!isVisible())
        m_noteBeforeShow = text;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (m_noteBeforeShow.isEmpty())
        return;
    if (statusBar()->currentMessage() == m_noteBeforeShow)
        statusBar()->showMessage(m_noteBeforeShow, kNoteMs);
    m_noteBeforeShow.clear();
}

void MainWindow::showError(const QString &title, const QStringList &details)
{
    m_banner->showMessage(title, details);
}

QString MainWindow::proxyStatusText() const
{
    return m_proxyLabel->text();
}

QStringList MainWindow::recentProfiles() const
{
    return m_settings->recentProfiles();
}

void MainWindow::rememberRecent(const QString &path)
{
    QStringList recent = recentProfiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    m_settings->setValue(ConsoleSettings::Key::RecentProfiles, recent);
    m_settings->setValue(ConsoleSettings::Key::LastProfile, path);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentProfiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this, [this, path] { openProfile(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Cluster Profile"), QString(),
                                                      tr("Cluster profiles (*.json);;All files (*)"));
    if (!path.isEmpty())
        openProfile(path);
}

void MainWindow::importDialog()
{
    auto *dialog = new ImportDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ImportDialog::saved, this, [this](const QString &path) { openProfile(path); });
    dialog->open();
}

void MainWindow::saveAsDialog()
{
    if (!m_store->hasProfile())
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Cluster Profile"), m_store->profilePath(),
                                                      tr("Cluster profiles (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveProfileFile(m_store->profile(), path, &error))
        m_banner->showMessage(tr("Could not save the profile"), {error});
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About pdconsole"),
                       tr("<b>pdconsole %1</b><br>Operations console for prefill/decode disaggregated "
                          "vLLM-Ascend clusters.").arg(QStringLiteral(PDCONSOLE_VERSION)));
}

// --- settings, keyboard ---------------------------------------------------------------------------

void MainWindow::createKeyboardActions(QMenu *edit, QMenu *view, QMenu *help)
{
    QAction *preferences = edit->addAction(tr("&Preferences…"), this, &MainWindow::showSettings);
    preferences->setObjectName(QStringLiteral("actionPreferences"));
    preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    preferences->setMenuRole(QAction::PreferencesRole);

    view->addSeparator();
    QAction *palette = view->addAction(tr("Command &Palette…"), this, &MainWindow::openCommandPalette);
    palette->setObjectName(QStringLiteral("actionCommandPalette"));
    palette->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));

    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setObjectName(QStringLiteral("actionKeyboardShortcuts"));
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));

    m_tabs->setTabToolTip(m_tabs->indexOf(m_topology),
        tr("Topology (%1)").arg(QKeySequence(Qt::ALT | Qt::Key_0).toString(QKeySequence::NativeText)));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_clusterPage),
        tr("Cluster (%1)").arg(QKeySequence(Qt::ALT | Qt::Key_1).toString(QKeySequence::NativeText)));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_poolsView),
        tr("Pools (%1)").arg(QKeySequence(Qt::ALT | Qt::Key_2).toString(QKeySequence::NativeText)));
}

void MainWindow::restoreLayout()
{
    const QByteArray geometry = m_settings->value(ConsoleSettings::Key::WindowGeometry).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_settings->value(ConsoleSettings::Key::WindowState).toByteArray();
    if (!state.isEmpty())
        restoreState(state);
    const QByteArray splitter = m_settings->value(ConsoleSettings::Key::SplitterState).toByteArray();
    if (!splitter.isEmpty())
        m_clusterPage->restoreState(splitter);
}

void MainWindow::saveLayout()
{
    m_settings->setValue(ConsoleSettings::Key::WindowGeometry, saveGeometry());
    m_settings->setValue(ConsoleSettings::Key::WindowState, saveState());
    m_settings->setValue(ConsoleSettings::Key::SplitterState, m_clusterPage->saveState());
    m_settings->sync();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    const QPointer<MainWindow> self(this);
    if (m_leaveGuard && !m_leaveGuard(tr("quit"), [self] {
            if (self)
                self->close();
        })) {
        event->ignore();
        return;
    }
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::openCommandPalette()
{
    auto *palette = new CommandPalette(this);
    palette->addEntries(actionCatalog(menuBar()));
    if (m_engineMenuProvider) {
        if (QMenu *engines = m_engineMenuProvider(palette)) // owned by the palette, gone with it
            palette->addEntries(actionCatalog(engines, tr("Engines") + QStringLiteral(" ▸ ")));
    }
    const QRect area = rect();
    palette->move(mapToGlobal(QPoint(area.center().x() - palette->width() / 2, area.top() + 60)));
    palette->show();
    palette->filterEdit()->setFocus();
}

void MainWindow::showShortcuts()
{
    auto *dialog = new ShortcutsDialog(actionCatalog(menuBar()), this);
    dialog->show();
}

void MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SettingsDialog::applied, this, &MainWindow::settingsChanged);
    dialog->show();
}

} // namespace pd
