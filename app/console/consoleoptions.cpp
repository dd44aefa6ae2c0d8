// SPDX-License-Identifier: MIT
#include "consoleoptions.h"

#include <QCommandLineParser>
#include <QTextStream>

std::optional<ConsoleOptions> parseConsoleOptions(const QStringList &arguments, int *exitCode)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Operations console for prefill/decode disaggregated vLLM-Ascend clusters."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("Open the cluster profile FILE."),
                                     QStringLiteral("FILE"));
    const QCommandLineOption demo(QStringLiteral("demo"),
                                  QStringLiteral("Open the embedded demo cluster (8 nodes, 72 engines)."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the main window to the PNG FILE and exit "
                                                       "(offscreen unless a platform is set)."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption quitAfter(QStringLiteral("quit-after"),
                                       QStringLiteral("Exit after SECONDS (with --screenshot: when it is taken)."),
                                       QStringLiteral("SECONDS"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("The view shown first: topology, cluster or pools."),
                                  QStringLiteral("VIEW"), QStringLiteral("topology"));
    const QCommandLineOption prometheus(QStringLiteral("prometheus"),
                                        QStringLiteral("Feed the pool and engine charts from the Prometheus server at URL "
                                                       "(http or https) instead of polling every engine."),
                                        QStringLiteral("URL"));
    const QCommandLineOption prometheusTokenEnv(QStringLiteral("prometheus-token-env"),
                                                QStringLiteral("Send the bearer token held in the environment variable "
                                                               "VAR to Prometheus."),
                                                QStringLiteral("VAR"));
    const QCommandLineOption prometheusLabel(QStringLiteral("prometheus-label"),
                                             QStringLiteral("The Prometheus label whose value is an engine's host:port "
                                                            "(default: instance)."),
                                             QStringLiteral("LABEL"), QStringLiteral("instance"));
    const QCommandLineOption theme(QStringLiteral("theme"),
        QStringLiteral("The looks: system, light or dark (default: the settings')."), QStringLiteral("THEME"));
    const QCommandLineOption language(QStringLiteral("lang"),
        QStringLiteral("The language: en or zh_CN (default: the settings')."), QStringLiteral("LANG"));
    parser.addOptions({profile, demo, screenshot, quitAfter, view, prometheus, prometheusTokenEnv, prometheusLabel, theme, language});
    QTextStream err(stderr);
    if (!parser.parse(arguments)) {
        err << parser.errorText() << "\n\n" << parser.helpText();
        *exitCode = 2;
        return std::nullopt;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << parser.helpText();
        *exitCode = 0;
        return std::nullopt;
    }
    if (parser.isSet(version)) {
        QTextStream(stdout) << "pdconsole " << PDCONSOLE_VERSION << '\n';
        *exitCode = 0;
        return std::nullopt;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "pdconsole: unexpected argument \"" << parser.positionalArguments().first() << "\"\n";
        *exitCode = 2;
        return std::nullopt;
    }
    ConsoleOptions options;
    options.profilePath = parser.value(profile);
    options.demo = parser.isSet(demo);
    options.screenshotPath = parser.value(screenshot);
    options.view = parser.value(view);
    if (options.view != QLatin1String("topology") && options.view != QLatin1String("cluster")
        && options.view != QLatin1String("pools")) {
        err << "pdconsole: --view expects topology, cluster or pools\n";
        *exitCode = 2;
        return std::nullopt;
    }
    options.theme = parser.value(theme);
    if (!options.theme.isEmpty() && options.theme != QLatin1String("system") && options.theme != QLatin1String("light")
        && options.theme != QLatin1String("dark")) {
        err << "pdconsole: --theme expects system, light or dark\n";
        *exitCode = 2;
        return std::nullopt;
    }
    options.language = parser.value(language);
    if (!options.language.isEmpty() && options.language != QLatin1String("en")
        && options.language != QLatin1String("zh_CN")) {
        err << "pdconsole: --lang expects en or zh_CN\n";
        *exitCode = 2;
        return std::nullopt;
    }
    if (options.demo && !options.profilePath.isEmpty()) {
        err << "pdconsole: --demo and --profile exclude each other\n";
        *exitCode = 2;
        return std::nullopt;
    }
    if (parser.isSet(prometheus)) {
        options.prometheusUrl = QUrl(parser.value(prometheus), QUrl::StrictMode);
        const QString scheme = options.prometheusUrl.scheme();
        if (!options.prometheusUrl.isValid() || options.prometheusUrl.host().isEmpty()
            || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
            err << "pdconsole: --prometheus expects an http:// or https:// URL, got \"" << parser.value(prometheus)
                << "\"\n";
            *exitCode = 2;
            return std::nullopt;
        }
    }
    if (parser.isSet(prometheusTokenEnv)) {
        const QString var = parser.value(prometheusTokenEnv);
        if (!parser.isSet(prometheus)) {
            err << "pdconsole: --prometheus-token-env needs --prometheus\n";
            *exitCode = 2;
            return std::nullopt;
        }
        options.prometheusToken = qgetenv(var.toLocal8Bit().constData()).trimmed();
        if (options.prometheusToken.isEmpty()) {
            err << "pdconsole: the environment variable " << var << " (--prometheus-token-env) is not set or empty\n";
            *exitCode = 2;
            return std::nullopt;
        }
    }
    options.prometheusLabel = parser.value(prometheusLabel);
    if (options.prometheusLabel.isEmpty()) {
        err << "pdconsole: --prometheus-label expects a label name\n";
        *exitCode = 2;
        return std::nullopt;
    }
    if (parser.isSet(quitAfter)) {
        bool ok = false;
        options.quitAfterSeconds = parser.value(quitAfter).toDouble(&ok);
        if (!ok || options.quitAfterSeconds < 0) {
            err << "pdconsole: --quit-after expects a number of seconds\n";
            *exitCode = 2;
            return std::nullopt;
        }
    } else if (!options.screenshotPath.isEmpty()) {
        options.quitAfterSeconds = 1.0;
    }
    return options;
}
