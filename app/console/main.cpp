// SPDX-License-Identifier: MIT
// The composition root: builds the store and the window, wires them, and owns shutdown.
#include "appicon.h"
#include "clustertools.h"
#include "consoleoptions.h"
#include "democluster.h"
#include "firstpaintprobe.h"
#include "monitoring.h"
#include "operations.h"

#include "apptheme.h"
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "settings/translations.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>
#include <QTimer>
#include <QUrl>

namespace {

bool wantsScreenshot(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--screenshot") == 0 || qstrncmp(argv[i], "--screenshot=", 13) == 0)
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    QElapsedTimer sinceMain;
    sinceMain.start();
    // --help, --version and a usage error answer without a display: the options are read once by a
    // windowless application before the real one (which would abort on a machine without a display).
    {
        QCoreApplication plain(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("pdconsole"));
        QCoreApplication::setApplicationVersion(QStringLiteral(PDCONSOLE_VERSION));
        int exitCode = 0;
        if (!parseConsoleOptions(QCoreApplication::arguments(), &exitCode))
            return exitCode;
    }
    // A screenshot needs no display: render offscreen unless the caller chose a platform.
    if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("pdconsole"));
    QApplication::setApplicationName(QStringLiteral("pdconsole"));
    QApplication::setApplicationVersion(QStringLiteral(PDCONSOLE_VERSION));
    QApplication::setWindowIcon(pdconsoleAppIcon());
    QGuiApplication::setDesktopFileName(QStringLiteral("pdconsole")); // packaging/pdconsole.desktop

    int exitCode = 0;
    const auto options = parseConsoleOptions(QApplication::arguments(), &exitCode);
    if (!options)
        return exitCode;

    // Settings, language and looks come before any window.
    pd::ConsoleSettings settings;
    const QString language = options->language.isEmpty() ? settings.language() : options->language;
    const pd::TranslationLoad translation = pd::installTranslations(&app, language);
    for (const QString &note : translation.notes)
        QTextStream(stderr) << "pdconsole: " << note << '\n';
    pd::applyTheme(options->theme.isEmpty()
            ? settings.theme()
            : pd::ConsoleSettings::themeFromName(options->theme).value_or(pd::Theme::System));

    pd::ClusterStore store;
    pd::MainWindow window(&store);
    std::optional<pd::PrometheusSourceConfig> prometheus;
    if (!options->prometheusUrl.isEmpty()) {
        prometheus.emplace();
        prometheus->endpoint.base = options->prometheusUrl;
        prometheus->endpoint.bearerToken = options->prometheusToken;
        prometheus->engineLabel = options->prometheusLabel.toStdString();
    }
    window.setSettings(&settings);
    Monitoring monitoring(&store, &window, prometheus);
    monitoring.applySettings(settings);
    monitoring.start();
    Operations operations(&store, &window, monitoring.tracker(),
        { settings.knownHostsPath(), settings.auditLogPath(), settings.readOnlyByDefault() });
    operations.setWatchSettings(settings.ejectionSettings(), settings.webhookUrl());
    QObject::connect(&window, &pd::MainWindow::settingsChanged, &monitoring, [&monitoring, &operations, &settings, &window] {
        monitoring.applySettings(settings);
        operations.setWatchSettings(settings.ejectionSettings(), settings.webhookUrl());
        pd::applyTheme(settings.theme());
        window.showNote(QObject::tr("Preferences stored in %1").arg(settings.fileName()));
    });
    operations.setTriage(monitoring.triage());
    ClusterTools tools(&store, &window, monitoring.tracker(), operations.sshRunner());
    tools.setTriage(monitoring.triage());
    QObject::connect(&operations, &Operations::logRequested, &tools, &ClusterTools::showEngineLog);
    QObject::connect(&operations, &Operations::proxyLogRequested, &tools, &ClusterTools::showProxyLog);
    QObject::connect(&operations, &Operations::nodeChecksRequested, &tools, &ClusterTools::runNodeChecks);
    QObject::connect(&operations, &Operations::engineLogFound, &tools, &ClusterTools::setEngineLogPath);
    DemoCluster demo;
    if (options->demo) {
        QString error;
        if (demo.start(QStringLiteral(":/profiles/demo-groups.json"), &error)) {
            window.openProfile(demo.profilePath());
            window.showNote(QObject::tr("Starting the simulated cluster (pdsim)…"));
            QObject::connect(&demo, &DemoCluster::ready, &window, [&window, &demo, &operations](const QString &proxy, int engines) {
                if (!demo.controlAddress().isEmpty())
                    operations.setSimControl(QUrl(QStringLiteral("http://") + demo.controlAddress()));
                if (demo.heldGroups().isEmpty())
                    window.showNote(QObject::tr("Demo: simulated cluster with %1 engines ready, proxy %2, background load 4 req/s")
                                        .arg(engines)
                                        .arg(proxy));
                else
                    window.showNote(QObject::tr("Demo: %1 engines serving, proxy %2, background load 4 req/s; not started: %3 "
                                                "(scale the pool to start it as a whole group)")
                                        .arg(engines)
                                        .arg(proxy, demo.heldGroups().join(QStringLiteral(", "))));
            });
            QObject::connect(&demo, &DemoCluster::failed, &window, [&window](const QString &reason) {
                window.showError(QObject::tr("The demo cluster stopped"), {reason});
            });
        } else {
            window.openProfile(QStringLiteral(":/profiles/demo-groups.json"));
            window.showError(QObject::tr("The demo cluster could not start; showing its profile only"), {error});
        }
    } else if (!options->profilePath.isEmpty()) {
        window.openProfile(options->profilePath);
    } else if (settings.reopenLastProfile() && !settings.lastProfile().isEmpty()) {
        const QString last = settings.lastProfile();
        if (QFileInfo::exists(last))
            window.openProfile(last);
        else
            window.showNote(QObject::tr("The last profile %1 is gone; nothing reopened").arg(last));
    }
    if (!settings.warnings().isEmpty())
        window.showNote(QObject::tr("Settings: %1").arg(settings.warnings().first()));
    if (options->screenshotPath.isEmpty()) // screenshots keep the default layout, so they are repeatable
        window.restoreLayout();
    if (options->view == QLatin1String("pools"))
        window.showPools();
    else if (options->view == QLatin1String("cluster"))
        window.showCluster();
    FirstPaintProbe::installIfAsked(sinceMain);
    window.show();

    if (options->quitAfterSeconds >= 0) {
        QTimer::singleShot(int(options->quitAfterSeconds * 1000), &window, [&window, &options] {
            if (!options->screenshotPath.isEmpty()) {
                if (!window.grab().save(options->screenshotPath)) {
                    QTextStream(stderr) << "pdconsole: cannot write " << options->screenshotPath << '\n';
                    QApplication::exit(1);
                    return;
                }
            }
            QApplication::quit();
        });
    }
    return QApplication::exec();
}
