// SPDX-License-Identifier: MIT
// The composition root: builds the store and the window, wires them, and owns shutdown.
#include "clustertools.h"
#include "consoleoptions.h"
#include "democluster.h"
#include "monitoring.h"
#include "operations.h"

#include "cluster/clusterstore.h"
#include "mainwindow.h"

#include <QApplication>
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
    // A screenshot needs no display: render offscreen unless the caller chose a platform.
    if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("pdconsole"));
    QApplication::setApplicationName(QStringLiteral("pdconsole"));
    QApplication::setApplicationVersion(QStringLiteral(PDCONSOLE_VERSION));

    int exitCode = 0;
    const auto options = parseConsoleOptions(QApplication::arguments(), &exitCode);
    if (!options)
        return exitCode;

    pd::ClusterStore store;
    pd::MainWindow window(&store);
    std::optional<pd::PrometheusSourceConfig> prometheus;
    if (!options->prometheusUrl.isEmpty()) {
        prometheus.emplace();
        prometheus->endpoint.base = options->prometheusUrl;
        prometheus->endpoint.bearerToken = options->prometheusToken;
        prometheus->engineLabel = options->prometheusLabel.toStdString();
    }
    Monitoring monitoring(&store, &window, prometheus);
    monitoring.start();
    Operations operations(&store, &window, monitoring.tracker());
    operations.setTriage(monitoring.triage());
    ClusterTools tools(&store, &window, monitoring.tracker(), operations.sshRunner());
    QObject::connect(&operations, &Operations::logRequested, &tools, &ClusterTools::showEngineLog);
    QObject::connect(&operations, &Operations::nodeChecksRequested, &tools, &ClusterTools::runNodeChecks);
    DemoCluster demo;
    if (options->demo) {
        QString error;
        if (demo.start(QStringLiteral(":/profiles/demo-loopback.json"), &error)) {
            window.openProfile(demo.profilePath());
            window.showNote(QObject::tr("Starting the simulated cluster (pdsim)…"));
            QObject::connect(&demo, &DemoCluster::ready, &window, [&window, &demo, &operations](const QString &proxy, int engines) {
                if (!demo.controlAddress().isEmpty())
                    operations.setSimControl(QUrl(QStringLiteral("http://") + demo.controlAddress()));
                window.showNote(QObject::tr("Demo: simulated cluster with %1 engines ready, proxy %2, background load 4 req/s")
                                    .arg(engines)
                                    .arg(proxy));
            });
            QObject::connect(&demo, &DemoCluster::failed, &window, [&window](const QString &reason) {
                window.showError(QObject::tr("The demo cluster stopped"), {reason});
            });
        } else {
            window.openProfile(QStringLiteral(":/profiles/demo-loopback.json"));
            window.showError(QObject::tr("The demo cluster could not start; showing its profile only"), {error});
        }
    } else if (!options->profilePath.isEmpty())
        window.openProfile(options->profilePath);
    if (options->view == QLatin1String("pools"))
        window.showPools();
    else if (options->view == QLatin1String("cluster"))
        window.showCluster();
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
