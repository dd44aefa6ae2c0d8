// SPDX-License-Identifier: MIT
// What the background log watch costs the console: N nodes of E engine logs each (files on this machine,
// read through the production LocalRunner with the node's real shell command), each log growing by
// ~2 KB of vLLM-shaped lines per interval with a known signature now and then. Prints per node per
// interval: the CPU the watch spends applying answers on the GUI thread (parsing and matching), then end
// to end with the local runner: the whole process (including spawning the commands locally; over SSH it
// is one exec on an open session, see bench_ssh), the GUI thread alone, bytes read, and the same figures
// for the baseline of one LogTail per engine log (one command per log instead of one per node), measured
// in the same run. Rounds are driven by the bench (an event loop that quits when every node answered).
// Usage: bench_logwatch [nodes=64] [engines-per-node=8] [rounds=10]
#include "exec/localrunner.h"
#include "logs/clusterlogwatch.h"
#include "logs/logtail.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>
#include <memory>
#include <sys/resource.h>

using namespace pd;

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double processCpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

void grow(const QStringList &logs, int round)
{
    for (int i = 0; i < logs.size(); ++i) {
        QFile f(logs.at(i));
        if (!f.open(QIODevice::Append))
            continue;
        QByteArray chunk;
        for (int l = 0; l < 16; ++l)
            chunk += "INFO 12-03 10:11:12 [loggers.py:116] Engine 000: Avg prompt throughput: 1520.3 tokens/s, "
                     "Running: 28 reqs, Waiting: 3 reqs, KV cache usage: 71.2%\n";
        if ((i + round) % 97 == 0)
            chunk += "ERROR 12-03 10:11:12 [mooncake_connector.py:88] Mooncake transfer failed, ret: -1\n";
        f.write(chunk);
    }
}

struct Figures {
    double processMs = 0;
    double guiMs = 0;
    double wallMs = 0;
    qint64 bytes = 0;
    int commands = 0;
};

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int nodes = argc > 1 ? std::atoi(argv[1]) : 64;
    const int perNode = argc > 2 ? std::atoi(argv[2]) : 8;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 10;
    QTemporaryDir dir;
    QStringList paths;
    QList<WatchedLog> logs;
    for (int n = 0; n < nodes; ++n) {
        for (int e = 0; e < perNode; ++e) {
            WatchedLog w;
            w.engine = n * perNode + e;
            w.engineId = QStringLiteral("127.0.%1.%2:%3").arg(n / 250).arg(n % 250 + 1).arg(9000 + e);
            w.target.node = QStringLiteral("node%1").arg(n);
            w.target.host = QStringLiteral("127.0.0.1");
            w.target.transport = CommandTarget::Transport::Local;
            w.path = dir.filePath(QStringLiteral("n%1-e%2.log").arg(n).arg(e));
            paths << w.path;
            logs << w;
        }
    }
    grow(paths, 0);
    LocalRunner runner;

    // The watch: one command per node per interval.
    Figures watchFig;
    {
        ClusterLogWatchOptions options;
        options.interval = std::chrono::hours(1); // rounds are driven below
        options.parallelNodes = 4;
        ClusterLogWatch watch(&runner, options);
        watch.setLogs(logs);
        int answered = 0, diagnoses = 0;
        QObject::connect(&watch, &ClusterLogWatch::nodeRead, [&answered] { ++answered; });
        QObject::connect(&watch, &ClusterLogWatch::nodeFailed, [](const QString &, const QString &e) { std::fprintf(stderr, "%s\n", qPrintable(e)); });
        QObject::connect(&watch, &ClusterLogWatch::diagnosed, [&diagnoses] { ++diagnoses; });
        watch.start();
        while (answered < nodes)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        const double p0 = processCpuMs(), g0 = threadCpuMs();
        const qint64 b0 = watch.bytesRead();
        const double applyBefore = watch.applyCpuMs();
        QElapsedTimer wall;
        wall.start();
        for (int r = 1; r <= rounds; ++r) {
            grow(paths, r);
            const double gGrow = threadCpuMs(), pGrow = processCpuMs();
            answered = 0;
            watch.readAllNow();
            QEventLoop loop;
            const auto done = QObject::connect(&watch, &ClusterLogWatch::nodeRead, &loop, [&] {
                if (answered >= nodes)
                    loop.quit();
            });
            if (answered < nodes)
                loop.exec();
            QObject::disconnect(done);
            Q_UNUSED(gGrow) Q_UNUSED(pGrow)
        }
        const double apply0 = applyBefore;
        watchFig = {processCpuMs() - p0, threadCpuMs() - g0, double(wall.elapsed()), watch.bytesRead() - b0, nodes * rounds};
        std::printf("watch: %d diagnoses; applying the answers (parse + match) on the GUI thread: %.1f us per node "
                    "per interval, %.1f us per engine log\n",
                    diagnoses, 1000.0 * (watch.applyCpuMs() - apply0) / double(nodes * rounds),
                    1000.0 * (watch.applyCpuMs() - apply0) / double(nodes * perNode * rounds));
    }
    // The file growth is in both figures (the bench writes from the GUI thread): measure it alone.
    double growGui = 0;
    {
        const double g0 = threadCpuMs();
        for (int r = 0; r < rounds; ++r)
            grow(paths, 1000 + r);
        growGui = threadCpuMs() - g0;
    }
    // The baseline: one LogTail per engine log (what following every log the Logs tab's way would cost).
    Figures tailFig;
    {
        LogTailOptions options;
        options.pollInterval = std::chrono::hours(1);
        options.backlogBytes = 16 * 1024;
        options.maxChunkBytes = 16 * 1024;
        std::vector<std::unique_ptr<LogTail>> tails;
        int polled = 0;
        for (const WatchedLog &w : logs) {
            tails.push_back(std::make_unique<LogTail>(&runner, w.target, w.path, options));
            QObject::connect(tails.back().get(), &LogTail::polled, [&polled] { ++polled; });
            QObject::connect(tails.back().get(), &LogTail::failed, [&polled] { ++polled; });
        }
        for (auto &t : tails)
            t->start();
        while (polled < int(tails.size()))
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        const double p0 = processCpuMs(), g0 = threadCpuMs();
        qint64 o0 = 0;
        for (auto &t : tails)
            o0 += t->offset();
        QElapsedTimer wall;
        wall.start();
        for (int r = 1; r <= rounds; ++r) {
            grow(paths, 2000 + r);
            polled = 0;
            QEventLoop loop;
            QList<QMetaObject::Connection> done;
            for (auto &t : tails)
                done << QObject::connect(t.get(), &LogTail::polled, &loop, [&] {
                    if (polled >= int(tails.size()))
                        loop.quit();
                });
            for (auto &t : tails)
                t->pollNow();
            if (polled < int(tails.size()))
                loop.exec();
            for (const auto &c : done)
                QObject::disconnect(c);
        }
        qint64 o1 = 0;
        for (auto &t : tails)
            o1 += t->offset();
        tailFig = {processCpuMs() - p0, threadCpuMs() - g0, double(wall.elapsed()), o1 - o0, int(tails.size()) * rounds};
    }
    const double perRead = double(nodes * rounds);
    const double growPer = growGui / perRead;
    std::printf("nodes %d x %d engine logs, %d rounds; file growth on the GUI thread %.1f us per node per round "
                "(subtracted below)\n",
                nodes, perNode, rounds, 1000.0 * growPer);
    std::printf("%-34s %12s %12s %12s %10s %12s\n", "per node per interval", "process us", "GUI us", "KB read",
                "commands", "wall ms/rnd");
    auto row = [&](const char *name, const Figures &f) {
        std::printf("%-34s %12.1f %12.1f %12.1f %10.0f %12.0f\n", name, 1000.0 * f.processMs / perRead - 1000.0 * growPer,
                    1000.0 * f.guiMs / perRead - 1000.0 * growPer, double(f.bytes) / 1024.0 / perRead,
                    double(f.commands) / perRead, f.wallMs / rounds);
    };
    row("ClusterLogWatch (1 command/node)", watchFig);
    row("LogTail per engine (baseline)", tailFig);
    std::printf("ratio baseline / watch, process CPU: %.1fx\n",
                (tailFig.processMs / perRead - growPer) / std::max(1e-9, watchFig.processMs / perRead - growPer));
    return 0;
}
