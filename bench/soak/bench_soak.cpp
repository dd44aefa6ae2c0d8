// SPDX-License-Identifier: MIT
// bench_soak [--minutes M] [--engines N] [--load RPS] [--fault-every S] [--fault-for S] [--out DIR] | --report DIR
// The long run of issue-sized questions no short benchmark answers: does the console's memory creep,
// does its GUI ever stall, does it see and clear every fault in time, does it lose polls of its own.
// Starts pdsim (N engines, client load), the console offscreen with the Pools view open and its soak
// probe on, injects a fault every minute (crash, hang, stall, http500, slow, big-metrics, proxy restart
// in turn), then prints the verdict and writes soak.csv and soak.png (soakreport.h). bench/soak.sh runs it.
#include "soakreport.h"
#include "soakrun.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>

#include <cstdio>

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // progress lines show as they come, also into a pipe or file
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Soak the console: N pdsim engines polled at 1 Hz for M minutes, a fault injected and cleared every "
        "minute, the console's memory, GUI stalls, fault detection and polls judged."));
    parser.addHelpOption();
    const soak::RunOptions defaults;
    const QCommandLineOption minutes(QStringLiteral("minutes"), QStringLiteral("How long the faults go on (60)."),
        QStringLiteral("M"), QString::number(defaults.minutes));
    const QCommandLineOption engines(QStringLiteral("engines"), QStringLiteral("Engines in the cluster (1024)."),
        QStringLiteral("N"), QString::number(defaults.engines));
    const QCommandLineOption load(QStringLiteral("load"),
        QStringLiteral("Client requests per second through the proxy (40)."), QStringLiteral("RPS"),
        QString::number(defaults.loadRps));
    const QCommandLineOption out(
        QStringLiteral("out"), QStringLiteral("Folder for the run's files (soak-<time>)."), QStringLiteral("DIR"));
    const QCommandLineOption reportOnly(QStringLiteral("report"),
        QStringLiteral("Only judge the run already in DIR (its files are kept)."), QStringLiteral("DIR"));
    const QCommandLineOption console(QStringLiteral("console"), QStringLiteral("The pdconsole to soak."),
        QStringLiteral("PATH"), QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"));
    const QCommandLineOption every(QStringLiteral("fault-every"), QStringLiteral("Seconds between faults (60)."),
        QStringLiteral("S"), QString::number(defaults.faultEverySeconds));
    const QCommandLineOption lasting(QStringLiteral("fault-for"), QStringLiteral("Seconds a fault lasts (20)."),
        QStringLiteral("S"), QString::number(defaults.faultForSeconds));
    parser.addOptions({ minutes, engines, load, every, lasting, out, reportOnly, console });
    parser.process(app);

    soak::ReportOptions report;
    report.startupSeconds = defaults.startupSeconds;
    if (parser.isSet(reportOnly)) {
        report.dir = parser.value(reportOnly);
        return soak::report(report);
    }
    soak::RunOptions run;
    run.minutes = parser.value(minutes).toDouble();
    run.engines = parser.value(engines).toInt();
    run.loadRps = parser.value(load).toDouble();
    run.console = parser.value(console);
    run.faultEverySeconds = parser.value(every).toInt();
    run.faultForSeconds = parser.value(lasting).toInt();
    run.outDir = parser.isSet(out)
        ? parser.value(out)
        : QStringLiteral("soak-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm"));
    if (run.minutes <= 0 || run.engines < 8 || run.faultForSeconds < 1
        || run.faultEverySeconds <= run.faultForSeconds) {
        std::fprintf(stderr,
            "bench_soak: --minutes must be > 0, --engines at least 8, --fault-for at least 1 and "
            "under --fault-every\n");
        return 2;
    }
    QString error;
    if (!soak::run(run, &error)) {
        std::fprintf(stderr, "bench_soak: %s\n", qPrintable(error));
        return 2;
    }
    report.dir = run.outDir;
    return soak::report(report);
}
