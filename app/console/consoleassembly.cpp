// SPDX-License-Identifier: MIT
#include "consoleassembly.h"

#include "clustertools.h"
#include "democluster.h"
#include "monitoring.h"
#include "operations.h"

#include "apptheme.h"
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QFileInfo>
#include <QUrl>

namespace {

// The demo's profile, embedded in the executable (resources/resources.qrc).
const QString kDemoProfile = QStringLiteral(":/profiles/demo-groups.json");

} // namespace

ConsoleAssembly::ConsoleAssembly(
    pd::ConsoleSettings *settings, const std::optional<pd::PrometheusSourceConfig> &prometheus)
    : m_settings(settings)
    , m_store(std::make_unique<pd::ClusterStore>())
    , m_tracker(std::make_unique<pd::StateTracker>(m_store.get()))
    , m_triage(std::make_unique<pd::Triage>(m_tracker.get(), m_store.get()))
{
    pd::MainWindowParts parts { m_store.get(), m_tracker.get(), m_triage.get(), settings, {}, {} };
    // Reload, open and quit cancel what runs: the operations ask first while any run.
    parts.leaveGuard = [this](const QString &what, std::function<void()> proceed) {
        return !m_operations || m_operations->confirmLeave(what, std::move(proceed));
    };
    parts.engineMenu = [this](QWidget *parent) { return m_operations ? m_operations->selectionMenu(parent) : nullptr; };
    m_window = std::make_unique<pd::MainWindow>(parts);
    pd::MainWindow *window = m_window.get();
    const ConsoleShared shared { m_store.get(), m_tracker.get(), m_triage.get(), window };
    m_monitoring = std::make_unique<Monitoring>(shared, prometheus);
    m_monitoring->applySettings(*settings);
    m_monitoring->start();
    m_operations = std::make_unique<Operations>(shared,
        OperationsSetup { settings->knownHostsPath(), settings->auditLogPath(), settings->readOnlyByDefault() });
    m_operations->setWatchSettings(settings->ejectionSettings(), settings->webhookUrl());
    QObject::connect(window, &pd::MainWindow::settingsChanged, m_monitoring.get(), [this] {
        m_monitoring->applySettings(*m_settings);
        m_operations->setWatchSettings(m_settings->ejectionSettings(), m_settings->webhookUrl());
        pd::applyTheme(m_settings->theme());
        m_window->showNote(QObject::tr("Preferences stored in %1").arg(m_settings->fileName()));
    });
    m_tools = std::make_unique<ClusterTools>(shared, m_operations->sshRunner());
    Operations *operations = m_operations.get();
    ClusterTools *tools = m_tools.get();
    QObject::connect(operations, &Operations::logRequested, tools, &ClusterTools::showEngineLog);
    QObject::connect(operations, &Operations::proxyLogRequested, tools, &ClusterTools::showProxyLog);
    QObject::connect(operations, &Operations::nodeChecksRequested, tools, &ClusterTools::runNodeChecks);
    QObject::connect(operations, &Operations::engineLogFound, tools, &ClusterTools::setEngineLogPath);
}

// The demo (pdsim) stops before the parts that watch it, the parts before the window they wire, the
// window before what it shows.
ConsoleAssembly::~ConsoleAssembly()
{
    m_demo.reset();
    m_tools.reset();
    m_operations.reset();
    m_monitoring.reset();
    m_window.reset();
    m_triage.reset();
    m_tracker.reset();
    m_store.reset();
}

void ConsoleAssembly::openStartProfile(const ConsoleOptions &options)
{
    if (options.demo) {
        startDemo();
    } else if (!options.profilePath.isEmpty()) {
        m_window->openProfile(options.profilePath);
    } else if (m_settings->reopenLastProfile() && !m_settings->lastProfile().isEmpty()) {
        const QString last = m_settings->lastProfile();
        if (QFileInfo::exists(last))
            m_window->openProfile(last);
        else
            m_window->showNote(QObject::tr("The last profile %1 is gone; nothing reopened").arg(last));
    }
}

void ConsoleAssembly::startDemo()
{
    m_demo = std::make_unique<DemoCluster>();
    DemoCluster *demo = m_demo.get();
    pd::MainWindow *window = m_window.get();
    QString error;
    if (!demo->start(kDemoProfile, &error)) {
        window->openProfile(kDemoProfile);
        window->showError(QObject::tr("The demo cluster could not start; showing its profile only"), { error });
        return;
    }
    window->openProfile(demo->profilePath());
    window->showNote(QObject::tr("Starting the simulated cluster (pdsim)…"));
    Operations *operations = m_operations.get();
    QObject::connect(demo, &DemoCluster::ready, window, [window, demo, operations](const QString &proxy, int engines) {
        if (!demo->controlAddress().isEmpty())
            operations->setSimControl(QUrl(QStringLiteral("http://") + demo->controlAddress()));
        if (demo->heldGroups().isEmpty())
            window->showNote(QObject::tr("Demo: simulated cluster with %1 engines ready, proxy %2, background load 4 req/s")
                                 .arg(engines)
                                 .arg(proxy));
        else
            window->showNote(QObject::tr("Demo: %1 engines serving, proxy %2, background load 4 req/s; not started: %3 "
                                         "(scale the pool to start it as a whole group)")
                                 .arg(engines)
                                 .arg(proxy, demo->heldGroups().join(QStringLiteral(", "))));
    });
    QObject::connect(demo, &DemoCluster::failed, window, [window](const QString &reason) {
        window->showError(QObject::tr("The demo cluster stopped"), { reason });
    });
}

std::optional<pd::PrometheusSourceConfig> prometheusFromOptions(const ConsoleOptions &options)
{
    if (options.prometheusUrl.isEmpty())
        return std::nullopt;
    pd::PrometheusSourceConfig config;
    config.endpoint.base = options.prometheusUrl;
    config.endpoint.bearerToken = options.prometheusToken;
    config.engineLabel = options.prometheusLabel.toStdString();
    return config;
}
