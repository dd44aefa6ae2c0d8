// SPDX-License-Identifier: MIT
// bench_poll --engines N [--seconds S] [--interval MS] [--spread] [--transport native|curl|both] [--loops LIST]
//            [--health-every N]
// Polls a pdsim cluster of N engines on loopback the way the console does (poller thread with its own
// HTTP client or libcurl, extractor, cluster store, series store, the Pools view open and redrawing) and prints:
//   CPU per engine poll: poller thread (fetch + parse) + GUI-thread store ingest (its thread CPU time), µs
//   round time p50 / p99 (burst, the default): every engine due at the same tick of the interval; from
//                         the first /metrics out to the last answer in  (p99 ≤ 100 ms). --spread staggers
//                         the engines over the interval as the console does: no rounds then, the
//                         request time start-to-parsed is printed for both.
//   GUI event-loop stall p99 / max, measured with a 1 ms precise timer  (≤ 16 ms / ≤ 50 ms)
//   bytes per stored sample (≤ 4)
// --loops 1,2 alternates phases with that many poll loops (threads), native client, each count twice,
// and prints each count's mean beside the first one's: the ratio against the one-loop baseline, same run.
// The cluster runs as a separate pdsim process sharing the 2 cores; figures are noisy, run it several times.
#include "benchgui.h"
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "cluster/profileimporter.h"
#include "metrics/metricsextractor.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"
#include "poolsview.h"
#include "synthmetrics.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include <unistd.h>

namespace {

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

// N engines on loopback: 4 prefill nodes x 2 engines, the rest in decode nodes of 16 engines.
pd::Profile makeProfile(int engines)
{
    QStringList ph, pp, dh, dp;
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 2; ++k) {
            ph << QStringLiteral("127.0.1.%1").arg(i + 1);
            pp << QString::number(9000 + k);
        }
    const int decodeNodes = std::max(1, (engines - 8 + 15) / 16);
    for (int n = 0; n < decodeNodes; ++n)
        for (int k = 0; k < 16; ++k) {
            dh << QStringLiteral("127.0.%1.%2").arg(2 + n / 250).arg(n % 250 + 1);
            dp << QString::number(9000 + k);
        }
    pd::ImportSources sources;
    sources.clusterName = QStringLiteral("bench-poll");
    sources.proxyCommandLine = QStringLiteral("--host 127.0.0.1 --port 18000 --prefiller-hosts %1 --prefiller-ports %2 "
                                              "--decoder-hosts %3 --decoder-ports %4")
                                   .arg(ph.join(QLatin1Char(' ')), pp.join(QLatin1Char(' ')), dh.join(QLatin1Char(' ')),
                                       dp.join(QLatin1Char(' ')));
    pd::ImportResult result = pd::importProfile(sources);
    result.profile.proxy.address = QStringLiteral("127.0.0.1");
    return result.profile;
}

// CPU seconds (user + system, all threads) a process has used, from /proc; 0 when unreadable.
double processCpuSeconds(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = f.readAll();
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    // After "pid (comm) ", utime and stime are the 12th and 13th fields.
    return (fields.at(11).toDouble() + fields.at(12).toDouble()) / double(sysconf(_SC_CLK_TCK));
}

struct Figures {
    const char *transport = "";
    int loops = 1;
    int interval = 0;
    quint64 polls = 0;
    quint64 failures = 0;
    double perPollUs = 0;
    double ingestUs = 0;
    double roundP50 = 0, roundP99 = 0;
    std::size_t rounds = 0;
    QStringList errors; // the first few distinct failures
    int incompleteRounds = 0; // ticks at which some engine was not polled (back-off, a slow reply)
    double latencyP50 = 0, latencyP99 = 0;
    double pollerMsPerRound = 0, pdsimMsPerRound = 0;
    int healthEvery = 2; // /health with every n-th poll; 0: /metrics alone
    double stallP99 = 0, stallMax = 0;
};

// One measured phase: a fresh poller with `transport` against the running cluster, 5 s of warm-up
// (connections open, first rounds done), then `seconds` measured.
Figures runPhase(QApplication &app, pd::ClusterStore &store, pd::SeriesStore &series,
    const QList<pd::PollTarget> &targets, int engines, pd::PollTransport transport, int loops, int interval,
    int seconds, bool spread, int healthEvery, qint64 pdsimPid)
{
    pd::MetricsPoller poller([](std::string_view body, pd::EngineMetrics *m, QString *err) {
        const auto r = pd::MetricsExtractor::extract(body, *m);
        if (!r.ok())
            *err = QString::fromStdString(r.error.toString());
        return r.ok();
    });
    poller.setInterval(interval);
    poller.setTimeout(2000);
    poller.setSpread(spread);
    poller.setTransport(transport);
    poller.setLoopCount(loops);
    poller.setHealthEvery(healthEvery);

    bool measuring = false;
    std::vector<double> latencies;
    // Burst: round r = the outcomes whose /metrics went out at the r-th tick of the poller's grid (all
    // targets due at the same tick); it is complete when every engine has one, and its time is from the
    // first start to the last finish (including the /health probes of that round).
    std::map<qint64, std::pair<std::pair<double, double>, int>> roundAt; // tick -> ((first start, last finish), n)
    qint64 tickOffset = -1;
    std::vector<double> stalls;
    qint64 ingestNs = 0;
    quint64 ingested = 0;
    quint64 failures = 0;
    QStringList errors;
    QObject::connect(&poller, &pd::MetricsPoller::batchReady, &app, [&](const pd::PollBatch &batch) {
        // The GUI thread's CPU, not wall time: on 2 cores shared with the poller and pdsim, wall time
        // also counts the turns other threads take while the ingest waits for a core.
        const double cpuAt = pd::bench::threadCpuNs();
        store.applyPollBatch(batch);
        series.ingest(pd::toPollRound(batch, engines, QDateTime::currentMSecsSinceEpoch()));
        if (!measuring)
            return;
        ingestNs += qint64(pd::bench::threadCpuNs() - cpuAt);
        ingested += quint64(batch.outcomes.size());
        for (const pd::PollOutcome &o : batch.outcomes) {
            latencies.push_back(o.latencyMs);
            failures += o.status == pd::PollStatus::Ok ? 0 : 1;
            if (o.status != pd::PollStatus::Ok && errors.size() < 3 && !errors.contains(o.error))
                errors.append(o.error);
            if (spread)
                continue;
            const qint64 tickMs = poller.effectiveIntervalMs(); // the grid's period (relaxed for large fleets)
            if (tickOffset < 0)
                tickOffset = o.startedAtMs % tickMs;
            const qint64 tick = (o.startedAtMs - tickOffset + tickMs / 2) / tickMs;
            auto &[span, n] = roundAt.try_emplace(tick, std::make_pair(1e18, -1e18), 0).first->second;
            span.first = std::min(span.first, double(o.startedAtMs));
            span.second = std::max(span.second, double(o.finishedAtMs));
            ++n;
        }
    });
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(1);
    QElapsedTimer lastTick;
    QObject::connect(&ticker, &QTimer::timeout, &app, [&] {
        if (measuring && lastTick.isValid())
            stalls.push_back(std::max(0.0, double(lastTick.nsecsElapsed()) / 1e6 - 1.0));
        lastTick.restart();
    });
    poller.setTargets(targets);
    poller.start();
    ticker.start();

    double cpu0 = 0;
    double pdsim0 = 0;
    quint64 polls0 = 0;
    QTimer::singleShot(5000, &app, [&] {
        measuring = true;
        cpu0 = poller.cpuSeconds();
        polls0 = poller.completedPolls();
        pdsim0 = processCpuSeconds(pdsimPid);
    });
    QTimer::singleShot(5000 + seconds * 1000, &app, &QApplication::quit);
    app.exec();
    const double cpuUs = (poller.cpuSeconds() - cpu0) * 1e6;
    const quint64 polls = poller.completedPolls() - polls0;
    const double pdsimUs = (processCpuSeconds(pdsimPid) - pdsim0) * 1e6;
    poller.stop();
    ticker.stop();

    Figures f;
    f.transport = transport == pd::PollTransport::Curl ? "curl" : "native";
    f.loops = poller.loopCount();
    f.interval = poller.effectiveIntervalMs();
    f.polls = polls;
    f.failures = failures;
    f.errors = errors;
    f.perPollUs = polls ? cpuUs / double(polls) : 0;
    f.ingestUs = ingested ? double(ingestNs) / 1e3 / double(ingested) : 0;
    std::vector<double> rounds;
    for (const auto &[tick, round] : roundAt) {
        if (round.second == engines)
            rounds.push_back(round.first.second - round.first.first);
        else
            ++f.incompleteRounds;
    }
    // The first and last ticks of the window are cut by its edges.
    f.incompleteRounds = std::max(0, f.incompleteRounds - 2);
    f.roundP50 = percentile(rounds, 0.5);
    f.roundP99 = percentile(rounds, 0.99);
    f.rounds = rounds.size();
    f.latencyP50 = percentile(latencies, 0.5);
    f.latencyP99 = percentile(latencies, 0.99);
    const double roundsInWindow = polls ? double(polls) / double(engines) : 0;
    f.pollerMsPerRound = roundsInWindow > 0 ? cpuUs / 1e3 / roundsInWindow : 0;
    f.pdsimMsPerRound = roundsInWindow > 0 ? pdsimUs / 1e3 / roundsInWindow : 0;
    f.healthEvery = healthEvery;
    f.stallP99 = percentile(stalls, 0.99);
    f.stallMax = stalls.empty() ? 0.0 : *std::max_element(stalls.begin(), stalls.end());
    return f;
}

// One phase's figures, as the docs quote them; the last line is the one-line summary.
void printPhase(const Figures &f, int engines, int seconds, bool spread, const pd::StoreMemory &memory)
{
    std::printf("bench_poll [%s, %d loop%s]: %d engines, interval %d ms (%s), %d s measured, %llu polls, %llu "
                "failed\n",
        f.transport, f.loops, f.loops == 1 ? "" : "s", engines, f.interval, spread ? "spread" : "burst", seconds,
        static_cast<unsigned long long>(f.polls), static_cast<unsigned long long>(f.failures));
    std::printf(
        "  poller thread (fetch /metrics + /health, parse, extract): %.1f us per engine poll\n", f.perPollUs);
    std::printf(
        "  GUI thread ingest (cluster store + series store + pools redraw trigger), thread CPU: %.1f us per engine\n",
        f.ingestUs);
    if (spread)
        std::printf("  round time: none (spread: every engine on its own phase, re-armed after its reply)\n");
    else
        std::printf("  round time (all engines due at the same tick: first /metrics out to last answer in, /health "
                    "included) p50 %.1f ms, p99 %.1f ms over %zu rounds (%d ticks with an engine missing)\n",
            f.roundP50, f.roundP99, f.rounds, f.incompleteRounds);
    for (const QString &e : f.errors)
        std::printf("  failure seen: %s\n", qPrintable(e));
    std::printf(
        "  one /metrics request (start to body parsed) p50 %.1f ms, p99 %.1f ms\n", f.latencyP50, f.latencyP99);
    std::printf("  CPU per round: poller thread %.1f ms, pdsim %.1f ms (2 cores = 2,000 ms per second)\n",
        f.pollerMsPerRound, f.pdsimMsPerRound);
    // `engines`: every engine polled (the profile has 1,032 for --engines 1024), each answered by pdsim.
    if (f.healthEvery == 0)
        std::printf(
            "  pdsim CPU per answered /metrics (no /health polled): %.1f us\n", f.pdsimMsPerRound * 1e3 / engines);
    else
        std::printf("  pdsim CPU per engine poll (/metrics, /health every %d polls): %.1f us\n", f.healthEvery,
            f.pdsimMsPerRound * 1e3 / engines);
    std::printf("  GUI stall p99 %.1f ms, max %.1f ms\n", f.stallP99, f.stallMax);
    // A run of seconds holds little history: the hot rows dominate; bench_seriesstore measures a full day.
    if (memory.sealedSamples > 0)
        std::printf("  series store: %.1f MB allocated (hot rows and %.1f MB of sealed history at %.2f bytes per "
                    "sample), %.1f MB of state\n",
            double(memory.ringBytes) / 1e6, double(memory.sealedBytes) / 1e6, memory.sealedBytesPerSample(),
            double(memory.stateBytes) / 1e6);
    else // a run of seconds: the first block is still being sealed, no sealed sample is held yet
        std::printf("  series store: %.1f MB allocated (hot rows; no history sealed yet), %.1f MB of state\n",
            double(memory.ringBytes) / 1e6, double(memory.stateBytes) / 1e6);
    std::printf("poll [%s]: %.1f us/engine, round p50 %.1f ms p99 %.1f ms, stall p99 %.1f ms max %.1f ms, "
                "%.0f MB series store, %d engines\n",
        f.transport, f.perPollUs + f.ingestUs, f.roundP50, f.roundP99, f.stallP99, f.stallMax,
        double(memory.ringBytes + memory.stateBytes) / 1e6, engines);
}

// With a list of loop counts (n of them, each run twice): each count's mean of its two phases and its
// round p99 as a ratio of the first count's. With --transport both (four phases): native against curl.
void printComparison(const std::vector<Figures> &results, std::size_t n)
{
    if (n > 0) {
        auto mean = [&](std::size_t k, double Figures::*field) { return (results[k].*field + results[k + n].*field) / 2; };
        for (std::size_t k = 0; k < n; ++k) {
            const double us = mean(k, &Figures::perPollUs) + mean(k, &Figures::ingestUs);
            std::printf("loops %d (mean of 2 phases): %.1f us/engine (poller %.1f + ingest %.1f), round p50 %.1f ms p99 "
                        "%.1f ms (%.2fx of %d loop%s), stall p99 %.1f ms max %.1f ms\n",
                results[k].loops, us, mean(k, &Figures::perPollUs), mean(k, &Figures::ingestUs),
                mean(k, &Figures::roundP50), mean(k, &Figures::roundP99),
                mean(0, &Figures::roundP99) > 0 ? mean(k, &Figures::roundP99) / mean(0, &Figures::roundP99) : 0.0,
                results[0].loops, results[0].loops == 1 ? "" : "s", mean(k, &Figures::stallP99),
                std::max(results[k].stallMax, results[k + n].stallMax));
        }
    } else if (results.size() == 4) {
        auto mean = [&](std::size_t a, std::size_t b, double Figures::*field) {
            return (results[a].*field + results[b].*field) / 2;
        };
        const double native = mean(0, 2, &Figures::perPollUs);
        const double curl = mean(1, 3, &Figures::perPollUs);
        std::printf("native vs curl, same run (mean of 2 phases each): poller thread %.1f vs %.1f us per poll (%.2fx), "
                    "round p99 %.1f vs %.1f ms, request p99 %.1f vs %.1f ms\n",
            native, curl, native > 0 ? curl / native : 0.0, mean(0, 2, &Figures::roundP99),
            mean(1, 3, &Figures::roundP99), mean(0, 2, &Figures::latencyP99), mean(1, 3, &Figures::latencyP99));
    }
}

} // namespace

int main(int argc, char *argv[])
{
    pd::bench::drawOffscreenUnlessAsked();
    QApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption enginesOpt(
        QStringLiteral("engines"), QStringLiteral("Engines."), QStringLiteral("N"), QStringLiteral("1024"));
    const QCommandLineOption secondsOpt(
        QStringLiteral("seconds"), QStringLiteral("Measured seconds."), QStringLiteral("S"), QStringLiteral("20"));
    const QCommandLineOption intervalOpt(
        QStringLiteral("interval"), QStringLiteral("Poll interval."), QStringLiteral("MS"), QStringLiteral("1000"));
    const QCommandLineOption spreadOpt(
        QStringLiteral("spread"), QStringLiteral("Stagger targets over the interval (the console's default)."));
    const QCommandLineOption pdsimOpt(QStringLiteral("pdsim"), QStringLiteral("pdsim binary."), QStringLiteral("PATH"),
        QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
    const QCommandLineOption transportOpt(QStringLiteral("transport"),
        QStringLiteral("native (the poller's own client), curl (libcurl), or both (native then curl, "
                       "same cluster, for the ratio)."),
        QStringLiteral("T"), QStringLiteral("native"));
    const QCommandLineOption loopsOpt(QStringLiteral("loops"),
        QStringLiteral("Poll loops (threads): 0 = automatic (the console's choice), or a list such as 1,2 to "
                       "alternate phases with each count (native client, twice each) and print their ratio."),
        QStringLiteral("LIST"), QStringLiteral("0"));
    const QCommandLineOption healthOpt(QStringLiteral("health-every"),
        QStringLiteral("/health with every N-th poll of an engine (the console: 2); 0 polls /metrics alone, so "
                       "that pdsim's CPU per answered /metrics is printed."),
        QStringLiteral("N"), QStringLiteral("2"));
    parser.addOptions({ enginesOpt, secondsOpt, intervalOpt, spreadOpt, pdsimOpt, transportOpt, loopsOpt, healthOpt });
    parser.addHelpOption();
    parser.process(app);
    const int wanted = parser.value(enginesOpt).toInt();
    const int seconds = parser.value(secondsOpt).toInt();
    const int interval = parser.value(intervalOpt).toInt();
    QTextStream out(stdout);

    QTemporaryDir dir;
    const pd::Profile profile = makeProfile(wanted);
    const QString profilePath = dir.filePath(QStringLiteral("bench.json"));
    QString error;
    if (!pd::saveProfileFile(profile, profilePath, &error)) {
        out << "bench_poll: " << error << '\n';
        return 1;
    }
    QProcess pdsim;
    pdsim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    pdsim.start(parser.value(pdsimOpt), { QStringLiteral("cluster"), QStringLiteral("--profile"), profilePath });
    QByteArray line;
    QElapsedTimer wait;
    wait.start();
    while (!line.contains("ready") && wait.elapsed() < 120000) {
        pdsim.waitForReadyRead(500);
        line += pdsim.readAllStandardOutput();
        if (pdsim.state() == QProcess::NotRunning)
            break;
    }
    if (!line.contains("ready")) {
        out << "bench_poll: pdsim did not become ready\n";
        return 1;
    }

    pd::ClusterStore store;
    store.setProfile(profile, profilePath);
    const int engines = int(store.engines().size());
    pd::SeriesStore series(pd::SeriesStore::rolesOf(profile));
    pd::PoolsView view;
    view.resize(1400, 900);
    view.setSeriesStore(&series);
    view.show();

    QList<pd::PollTarget> targets;
    for (int i = 0; i < engines; ++i)
        targets.append({ i, store.engines().at(i).host.toUtf8(), quint16(store.engines().at(i).port), false, {} });

    const QString transportArg = parser.value(transportOpt);
    std::vector<int> loopCounts;
    for (const QString &part : parser.value(loopsOpt).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.toInt(&ok);
        if (!ok || n < 0 || n > pd::MetricsPoller::kMaxLoops) {
            out << "bench_poll: --loops takes counts from 0 to " << pd::MetricsPoller::kMaxLoops << ", got " << part
                << '\n';
            return 1;
        }
        loopCounts.push_back(n);
    }
    if (loopCounts.empty())
        loopCounts.push_back(0);
    std::vector<std::pair<pd::PollTransport, int>> phases;
    const bool compareLoops = loopCounts.size() > 1;
    if (compareLoops) {
        for (int pass = 0; pass < 2; ++pass)
            for (int n : loopCounts)
                phases.push_back({ pd::PollTransport::Native, n });
    } else if (transportArg == QLatin1String("both"))
        phases = { { pd::PollTransport::Native, loopCounts[0] }, { pd::PollTransport::Curl, loopCounts[0] },
            { pd::PollTransport::Native, loopCounts[0] }, { pd::PollTransport::Curl, loopCounts[0] } };
    else if (transportArg == QLatin1String("curl"))
        phases = { { pd::PollTransport::Curl, loopCounts[0] } };
    else if (transportArg == QLatin1String("native"))
        phases = { { pd::PollTransport::Native, loopCounts[0] } };
    else {
        out << "bench_poll: --transport is native, curl or both\n";
        return 1;
    }
    const qint64 pdsimPid = pdsim.processId();
    std::vector<Figures> results;
    for (const auto &[transport, loops] : phases) {
        const Figures f = runPhase(app, store, series, targets, engines, transport, loops, interval, seconds,
            parser.isSet(spreadOpt), parser.value(healthOpt).toInt(), pdsimPid);
        results.push_back(f);
        printPhase(f, engines, seconds, parser.isSet(spreadOpt), series.memory());
    }
    pdsim.terminate();
    pdsim.waitForFinished(10000);
    printComparison(results, compareLoops ? loopCounts.size() : 0);
    return 0;
}
