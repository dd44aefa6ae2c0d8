// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>
#include <QStringList>

#include <optional>

// pdconsole's command line.
struct ConsoleOptions {
    QString profilePath;
    bool demo = false;
    QString screenshotPath;
    double quitAfterSeconds = -1; // < 0: run until the window closes
    QString view = QStringLiteral("topology"); // the tab shown first: topology | cluster | pools
    // Feed the charts from this Prometheus server instead of polling every engine (empty: poll).
    QUrl prometheusUrl;
    QByteArray prometheusToken;              // from the environment variable --prometheus-token-env names
    QString prometheusLabel = QStringLiteral("instance"); // the label holding an engine's host:port
    QString theme; // --theme system|light|dark; empty: the settings' theme
    QString language; // --lang en|zh_CN; empty: the settings' language
};

// Parses argv. Returns nullopt when the process should exit (help, version, usage error); *exitCode
// then holds the status. Needs a QCoreApplication.
std::optional<ConsoleOptions> parseConsoleOptions(const QStringList &arguments, int *exitCode);
