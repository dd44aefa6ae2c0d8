// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

// pdconsole's command line.
struct ConsoleOptions {
    QString profilePath;
    bool demo = false;
    QString screenshotPath;
    double quitAfterSeconds = -1; // < 0: run until the window closes
    QString view = QStringLiteral("topology"); // the tab shown first: topology | cluster | pools
    QString theme; // --theme system|light|dark; empty: the settings' theme
    QString language; // --lang en|zh_CN; empty: the settings' language
};

// Parses argv. Returns nullopt when the process should exit (help, version, usage error); *exitCode
// then holds the status. Needs a QCoreApplication.
std::optional<ConsoleOptions> parseConsoleOptions(const QStringList &arguments, int *exitCode);
