// SPDX-License-Identifier: MIT
// bench_startup [--engines N] [--runs R] [--console PATH] [--write-profile FILE]
// Start to first paint: runs the console R times (default 5) on a synthetic profile of N engines
// (default 2,048: 20 % prefill, 16 engines per node) and R times on an 8-engine profile as the baseline
// of the same run, offscreen, with its own empty settings, and times each from the process start to the
// line the console prints once its topology view has painted its first frame (PDCONSOLE_BENCH_FIRST_PAINT,
// app/console/firstpaintprobe.h). The profile's nodes are rewritten to 127.0.0.10 and up, reached over
// SSH on port 9, where nothing listens: the console's first polls and SSH connections are refused at
// once and nothing leaves the machine.
// Last line:
//   startup: <ms> ms to first paint (median) for <N> engines, <ms> ms for 8, <x> ratio
#include "cluster/profileformat.h"
#include "topology/syntheticprofile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace pd;

namespace {

Profile loopbackProfile(int engines)
{
    Profile profile = syntheticProfile(engines);
    for (qsizetype n = 0; n < profile.nodes.size(); ++n) {
        Node &node = profile.nodes[n];
        node.address = QStringLiteral("127.0.0.%1").arg(10 + n);
        // Reached over SSH as a real cluster's nodes are (not through local shells, which a loopback
        // address would pick): on a port where nothing listens, so each attempt is refused at once.
        node.transport = NodeTransport::Ssh;
        node.ssh.port = 9;
        for (EngineGroup &group : node.engineGroups)
            group.dpAddress = QStringLiteral("127.0.0.10");
    }
    profile.proxy.address = QStringLiteral("127.0.0.9");
    return profile;
}

struct Run {
    double wallMs = -1;   // process start to the line
    double inMainMs = -1; // as the console measured it from main()
};

Run runOnce(const QString &console, const QString &profilePath, const QString &home)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("PDCONSOLE_BENCH_FIRST_PAINT"), QStringLiteral("1"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    QElapsedTimer clock;
    clock.start();
    p.start(console, {QStringLiteral("--profile"), profilePath});
    Run run;
    static const QRegularExpression line(QStringLiteral("first paint (\\d+) ms"));
    QByteArray out;
    while (clock.elapsed() < 60000) {
        const bool more = p.waitForReadyRead(1000);
        out += p.readAllStandardOutput();
        const auto m = line.match(QString::fromUtf8(out));
        if (m.hasMatch()) {
            run.wallMs = double(clock.nsecsElapsed()) / 1e6;
            run.inMainMs = m.captured(1).toDouble();
            break;
        }
        if (!more && p.state() == QProcess::NotRunning)
            break;
    }
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished(5000);
    }
    if (run.wallMs < 0)
        std::fprintf(stderr, "bench_startup: no first-paint line from %s; stderr: %s\n", qPrintable(console),
                     p.readAllStandardError().left(2000).constData());
    return run;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Start to first paint of the console on a large profile, "
                                                    "against an 8-engine profile in the same run."));
    parser.addHelpOption();
    const QCommandLineOption enginesOpt(QStringLiteral("engines"), QStringLiteral("Engines in the profile (2048)."),
                                        QStringLiteral("N"), QStringLiteral("2048"));
    const QCommandLineOption runsOpt(QStringLiteral("runs"), QStringLiteral("Runs per profile (5)."), QStringLiteral("R"),
                                     QStringLiteral("5"));
    const QCommandLineOption consoleOpt(QStringLiteral("console"), QStringLiteral("The pdconsole binary."),
                                        QStringLiteral("PATH"), QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"));
    const QCommandLineOption writeOpt(QStringLiteral("write-profile"),
                                      QStringLiteral("Only write the large profile to FILE (to profile a start by hand)."),
                                      QStringLiteral("FILE"));
    parser.addOptions({enginesOpt, runsOpt, consoleOpt, writeOpt});
    parser.process(app);
    const int engines = std::max(1, parser.value(enginesOpt).toInt());
    const int runs = std::max(1, parser.value(runsOpt).toInt());
    const QString console = parser.value(consoleOpt);

    QString error;
    if (parser.isSet(writeOpt)) {
        if (!saveProfileFile(loopbackProfile(engines), parser.value(writeOpt), &error)) {
            std::fprintf(stderr, "bench_startup: %s\n", qPrintable(error));
            return 1;
        }
        return 0;
    }
    QTemporaryDir dir;
    const QString large = dir.filePath(QStringLiteral("large.json"));
    const QString small = dir.filePath(QStringLiteral("small.json"));
    if (!saveProfileFile(loopbackProfile(engines), large, &error) || !saveProfileFile(loopbackProfile(8), small, &error)) {
        std::fprintf(stderr, "bench_startup: %s\n", qPrintable(error));
        return 1;
    }
    std::vector<double> largeWall, largeMain, smallWall, smallMain;
    // Alternated, so a change of load on the machine touches both alike.
    for (int i = 0; i < runs; ++i) {
        for (const bool isLarge : {false, true}) {
            QTemporaryDir home;
            const Run r = runOnce(console, isLarge ? large : small, home.path());
            if (r.wallMs < 0)
                return 1;
            (isLarge ? largeWall : smallWall).push_back(r.wallMs);
            (isLarge ? largeMain : smallMain).push_back(r.inMainMs);
            std::printf("run %d, %5d engines: %7.1f ms to first paint (%6.1f ms of it after main)\n", i + 1,
                        isLarge ? engines : 8, r.wallMs, r.inMainMs);
        }
    }
    const double l = median(largeWall), s = median(smallWall);
    std::printf("startup: %.0f ms to first paint (median) for %d engines, %.0f ms for 8, %.2f ratio; after main %.0f and "
                "%.0f ms\n",
                l, engines, s, s > 0 ? l / s : 0.0, median(largeMain), median(smallMain));
    return 0;
}
