// SPDX-License-Identifier: MIT
// The composition root: reads the command line, sets up the application (settings, language, theme),
// builds the store, the window and their parts (ConsoleAssembly), and runs until the window closes.
#include "appicon.h"
#include "consoleassembly.h"
#include "consoleoptions.h"
#include "firstpaintprobe.h"
#include "soakprobe.h"

#include "apptheme.h"
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "settings/translations.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

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

    ConsoleAssembly console(&settings, prometheusFromOptions(*options));
    pd::MainWindow &window = console.window();
    console.openStartProfile(*options);
    if (!settings.warnings().isEmpty())
        window.showNote(QObject::tr("Settings: %1").arg(settings.warnings().first()));
    if (options->screenshotPath.isEmpty()) // screenshots keep the default layout, so they are repeatable
        window.restoreLayout();
    if (options->view == QLatin1String("pools"))
        window.showPools();
    else if (options->view == QLatin1String("cluster"))
        window.showCluster();
    FirstPaintProbe::installIfAsked(sinceMain);
    SoakProbe::installIfAsked(&console.store(), &console.tracker(), &console.monitoring());
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
