// SPDX-License-Identifier: MIT
// The console as pdconsole's main() builds it, in-process (ConsoleAssembly over a real store and
// window, offscreen): every part is made and wired in each start mode. A profile's engines nobody serves
// reach Problems through the poller, the tracker and triage; the Operations page and the Logs page are
// tabs of the window; an engine's "Show log" from the operations opens the Logs tab; the Preferences'
// settingsChanged is applied; a last profile that is gone, and an unreachable Prometheus, are said in
// the window; the demo starts pdsim and its engines come up Serving. The executable's own start modes
// are tst_consolemodes'.
#include "clustertools.h"
#include "consoleassembly.h"
#include "democluster.h"
#include "monitoring.h"
#include "operations.h"

#include "cluster/clusterstore.h"
#include "errorbanner.h"
#include "mainwindow.h"
#include "operations/operationspage.h"
#include "settings/consolesettings.h"
#include "state/enginestate.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

// demo-loopback.json: 8 nodes on 127.0.0.2-9, engines on ports 9000-9015 (nobody serves them here: the
// test holds the demo-loopback-ports lock).
const QString kLoopbackProfile = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json");

QWidget *currentTab(const MainWindow &window)
{
    const auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
    return tabs ? tabs->currentWidget() : nullptr;
}

// The console as main() builds it, with names for its store and window.
struct Console {
    explicit Console(ConsoleSettings *settings, const std::optional<PrometheusSourceConfig> &prometheus = std::nullopt)
        : parts(settings, prometheus)
        , store(parts.store())
        , window(parts.window())
    {
    }
    ConsoleAssembly parts;
    ClusterStore &store;
    MainWindow &window;
};

// The console started as main() starts it: its parts from the options, then what they ask to show first.
struct StartedConsole : Console {
    StartedConsole(ConsoleSettings *settings, const ConsoleOptions &options)
        : Console(settings, prometheusFromOptions(options))
    {
        parts.openStartProfile(options);
    }
};

} // namespace

class TestConsoleAssembly : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void aProfileIsMonitoredOperatedAndItsLogsReachable();
    void preferencesAreAppliedAgain();
    void aLastProfileThatIsGoneIsSaid();
    void anUnreachablePrometheusIsSaid();
    void theDemoStartsPdsimAndServes();

private:
    QTemporaryDir m_home;
    std::unique_ptr<ConsoleSettings> newSettings(const QString &name);
};

void TestConsoleAssembly::initTestCase()
{
    QVERIFY(m_home.isValid());
    // The audit log and anything else the parts write go to the test's own directories.
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
}

std::unique_ptr<ConsoleSettings> TestConsoleAssembly::newSettings(const QString &name)
{
    return std::make_unique<ConsoleSettings>(m_home.filePath(name + QStringLiteral(".ini")));
}

void TestConsoleAssembly::aProfileIsMonitoredOperatedAndItsLogsReachable()
{
    auto settings = newSettings(QStringLiteral("profile"));
    ConsoleOptions options;
    options.profilePath = kLoopbackProfile;
    StartedConsole c(settings.get(), options);
    c.window.show();
    QVERIFY(c.store.hasProfile());
    QCOMPARE(int(c.store.engines().size()), 72);

    // Monitoring gave the window its Problems dock; Operations and the cluster tools their tabs.
    QVERIFY(c.window.problemsDock());
    QVERIFY(c.parts.operations().page());
    QVERIFY(c.window.pageIndex(c.parts.operations().page()) >= 0);

    // Nothing serves the profile's engines: poller -> store -> tracker -> triage -> Problems.
    QTRY_VERIFY_WITH_TIMEOUT(c.parts.triage().count() > 0, 60000);
    // Engine 0 derived from what was observed: nothing listens, and its node (this machine, reached by
    // the local runner) runs no engine process, so Stopped; Unreachable until the process facts arrive.
    QTRY_VERIFY_WITH_TIMEOUT(c.parts.tracker().state(0) != EngineState::Unknown, 60000);
    const EngineState first = c.parts.tracker().state(0);
    QVERIFY2(first == EngineState::Stopped || first == EngineState::Unreachable, qPrintable(engineStateLabel(first)));
    QVERIFY(!c.window.problemStatusText().isEmpty());

    // An engine's log, asked for from the operations (engine menu, detail panel), opens the Logs tab.
    Q_EMIT c.parts.operations().logRequested(0);
    QWidget *tab = currentTab(c.window);
    QVERIFY(tab);
    QCOMPARE(tab->objectName(), QStringLiteral("logsPage"));
}

void TestConsoleAssembly::preferencesAreAppliedAgain()
{
    auto settings = newSettings(QStringLiteral("preferences"));
    Console c(settings.get());
    Q_EMIT c.window.settingsChanged();
    QVERIFY2(c.window.statusBar()->currentMessage().contains(settings->fileName()),
             qPrintable(c.window.statusBar()->currentMessage()));
}

void TestConsoleAssembly::aLastProfileThatIsGoneIsSaid()
{
    auto settings = newSettings(QStringLiteral("last"));
    const QString gone = m_home.filePath(QStringLiteral("gone.json"));
    QVERIFY(settings->setValue(ConsoleSettings::Key::ReopenLastProfile, true));
    QVERIFY(settings->setValue(ConsoleSettings::Key::LastProfile, gone));
    StartedConsole c(settings.get(), ConsoleOptions {});
    QVERIFY(!c.store.hasProfile());
    QVERIFY2(c.window.statusBar()->currentMessage().contains(gone), qPrintable(c.window.statusBar()->currentMessage()));
}

void TestConsoleAssembly::anUnreachablePrometheusIsSaid()
{
    auto settings = newSettings(QStringLiteral("prometheus"));
    ConsoleOptions options;
    options.profilePath = kLoopbackProfile;
    options.prometheusUrl = QUrl(QStringLiteral("http://127.0.0.1:1")); // nothing listens on port 1
    StartedConsole c(settings.get(), options);
    QTRY_VERIFY_WITH_TIMEOUT(c.window.errorBanner()->text().contains(QStringLiteral("Prometheus")), 60000);
}

void TestConsoleAssembly::theDemoStartsPdsimAndServes()
{
    auto settings = newSettings(QStringLiteral("demo"));
    ConsoleOptions options;
    options.demo = true;
    StartedConsole c(settings.get(), options);
    QVERIFY2(c.parts.demo(), "the demo was not started");
    QVERIFY2(c.window.errorBanner()->text().isEmpty(), qPrintable(c.window.errorBanner()->text()));
    QSignalSpy ready(c.parts.demo(), &DemoCluster::ready);
    QVERIFY(ready.wait(120000));
    QVERIFY(c.store.hasProfile());
    // The demo's first prefill engine is served by pdsim: the tracker derives Serving from its answers.
    QTRY_VERIFY_WITH_TIMEOUT(c.parts.tracker().state(0) == EngineState::Serving, 60000);
}

QTEST_MAIN(TestConsoleAssembly)
#include "tst_consoleassembly.moc"
