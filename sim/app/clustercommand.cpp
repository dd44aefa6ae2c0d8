// SPDX-License-Identifier: MIT
#include "commands.h"

#include "clustersim/simcluster.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTextStream>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace {

int g_signalPipe[2] = {-1, -1};

void onTerminate(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &c, 1);
}

// A 1,024-engine cluster holds a listening socket per engine plus its clients' connections.
qulonglong raiseFileLimit()
{
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }
    return rl.rlim_cur;
}

} // namespace

int pd::sim::runClusterCommand(const QStringList &arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QString error;
    int exitCode = 0;
    const auto options = ClusterOptions::fromArguments(arguments, &error, &exitCode);
    if (!options) {
        (exitCode == 0 ? out : err) << (exitCode == 0 ? QString() : QStringLiteral("pdsim cluster: ")) << error << '\n';
        return exitCode;
    }
    const qulonglong files = raiseFileLimit();
    const qsizetype engines = options->profile.engines().size();
    // Each engine listens once and serves a few connections (console, proxy, probes).
    if (files > 0 && qulonglong(engines) * 4 + 64 > files)
        err << "pdsim cluster: warning: " << engines << " engines may need more than the " << files
            << " open files this process may hold (ulimit -n)\n";

    if (::pipe(g_signalPipe) != 0) {
        err << "pdsim cluster: cannot create the signal pipe\n";
        return 1;
    }
    std::signal(SIGTERM, onTerminate);
    std::signal(SIGINT, onTerminate);
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, qApp, [] { QCoreApplication::quit(); });

    SimCluster cluster(*options);
    QObject::connect(&cluster, &SimCluster::message, qApp, [&err](const QString &line) {
        err << line << '\n';
        err.flush();
    });
    QObject::connect(&cluster, &SimCluster::ready, qApp, [&out, &cluster](const QString &proxy, int n) {
        out << "ready proxy=" << proxy << " engines=" << n << " control=" << cluster.proxyAddress().section(QLatin1Char(':'), 0, 0)
            << ':' << cluster.controlPort() << '\n';
        out.flush();
    });
    if (!cluster.start(&error)) {
        err << "pdsim cluster: " << error << '\n';
        return 1;
    }
    const int status = QCoreApplication::exec();
    cluster.shutdown();
    return status;
}
