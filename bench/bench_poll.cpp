// SPDX-License-Identifier: MIT
// bench_poll --engines N [--seconds S] [--interval MS] [--spread]
// Polls a pdsim cluster of N engines on loopback the way the console does (libcurl poller thread,
// extractor, cluster store, series store, the Pools view open and redrawing) and prints:
//   CPU per engine poll: poller thread (fetch + parse) + GUI-thread store ingest, µs  (target ≤ 100)
//   round time p50 / p99: first start to last completion of a round, all targets fired together
//                         (--spread staggers them over the interval as the console does)  (p99 ≤ 100 ms)
//   GUI event-loop stall p99 / max, measured with a 1 ms precise timer  (≤ 16 ms / ≤ 50 ms)
//   bytes per stored sample (≤ 4)
// The cluster runs as a separate pdsim process sharing the 2 cores; figures are noisy, run it several times.
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "cluster/profileimporter.h"
#include "metrics/metricsextractor.h"
#include "metrics/seriesstore.h"
#include "net/metricspoller.h"
#include "net/pollroundadapter.h"
#include "poolsview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

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

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption enginesOpt(QStringLiteral("engines"), QStringLiteral("Engines."), QStringLiteral("N"), QStringLiteral("1024"));
    const QCommandLineOption secondsOpt(QStringLiteral("seconds"), QStringLiteral("Measured seconds."), QStringLiteral("S"), QStringLiteral("20"));
    const QCommandLineOption intervalOpt(QStringLiteral("interval"), QStringLiteral("Poll interval."), QStringLiteral("MS"), QStringLiteral("1000"));
    const QCommandLineOption spreadOpt(QStringLiteral("spread"), QStringLiteral("Stagger targets over the interval (the console's default)."));
    const QCommandLineOption pdsimOpt(QStringLiteral("pdsim"), QStringLiteral("pdsim binary."), QStringLiteral("PATH"),
                                      QStringLiteral(PD_BINARY_DIR "/sim/pdsim"));
    parser.addOptions({enginesOpt, secondsOpt, intervalOpt, spreadOpt, pdsimOpt});
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
    pdsim.start(parser.value(pdsimOpt), {QStringLiteral("cluster"), QStringLiteral("--profile"), profilePath});
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

    pd::MetricsPoller poller([](std::string_view body, pd::EngineMetrics *m, QString *err) {
        const auto r = pd::MetricsExtractor::extract(body, *m);
        if (!r.ok())
            *err = QString::fromStdString(r.error.toString());
        return r.ok();
    });
    poller.setInterval(interval);
    poller.setTimeout(2000);
    poller.setSpread(parser.isSet(spreadOpt));
    QList<pd::PollTarget> targets;
    for (int i = 0; i < engines; ++i)
        targets.append({i, store.engines().at(i).host.toUtf8(), quint16(store.engines().at(i).port)});

    bool measuring = false;
    std::vector<double> rounds;
    // Round r of the fleet = the r-th poll of every engine: from its first start to its last finish.
    std::vector<int> pollsSeen;
    std::vector<std::pair<double, double>> roundSpan; // (first start, last finish)
    std::vector<int> roundCount;
    std::vector<double> stalls;
    qint64 ingestNs = 0;
    quint64 ingested = 0;
    quint64 failures = 0;
    QObject::connect(&poller, &pd::MetricsPoller::batchReady, &app, [&](const pd::PollBatch &batch) {
        QElapsedTimer t;
        t.start();
        store.applyPollBatch(batch);
        series.ingest(pd::toPollRound(batch, engines, QDateTime::currentMSecsSinceEpoch()));
        if (!measuring)
            return;
        ingestNs += t.nsecsElapsed();
        ingested += quint64(batch.outcomes.size());
        pollsSeen.resize(std::size_t(engines), 0);
        for (const pd::PollOutcome &o : batch.outcomes) {
            const std::size_t r = std::size_t(pollsSeen[std::size_t(o.engine)]++);
            if (roundSpan.size() <= r) {
                roundSpan.resize(r + 1, {1e18, -1e18});
                roundCount.resize(r + 1, 0);
            }
            roundSpan[r].first = std::min(roundSpan[r].first, double(o.finishedAtMs) - o.latencyMs);
            roundSpan[r].second = std::max(roundSpan[r].second, double(o.finishedAtMs));
            if (++roundCount[r] == engines)
                rounds.push_back(roundSpan[r].second - roundSpan[r].first);
            failures += o.status == pd::PollStatus::Ok ? 0 : 1;
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
    quint64 polls0 = 0;
    QTimer::singleShot(5000, &app, [&] { // warm-up: connections open, first rounds done
        measuring = true;
        cpu0 = poller.cpuSeconds();
        polls0 = poller.completedPolls();
    });
    QTimer::singleShot(5000 + seconds * 1000, &app, &QApplication::quit);
    app.exec();
    const double cpuUs = (poller.cpuSeconds() - cpu0) * 1e6;
    const quint64 polls = poller.completedPolls() - polls0;
    poller.stop();
    pdsim.terminate();
    pdsim.waitForFinished(10000);

    const double perPoll = polls ? cpuUs / double(polls) : 0;
    const double ingestUs = ingested ? double(ingestNs) / 1e3 / double(ingested) : 0;
    const pd::StoreMemory memory = series.memory();
    std::printf("bench_poll: %d engines, interval %d ms (%s), %d s measured, %llu polls, %llu failed\n", engines,
                poller.effectiveIntervalMs(), parser.isSet(spreadOpt) ? "spread" : "burst", seconds,
                static_cast<unsigned long long>(polls), static_cast<unsigned long long>(failures));
    std::printf("  poller thread (fetch /metrics + /health, parse, extract): %.1f us per engine poll\n", perPoll);
    std::printf("  GUI thread ingest (cluster store + series store + pools redraw trigger): %.1f us per engine\n", ingestUs);
    std::printf("  round time (first start to last finish of the fleet's n-th poll; start includes /health) p50 %.1f ms, p99 %.1f ms over %zu rounds\n", percentile(rounds, 0.5), percentile(rounds, 0.99),
                rounds.size());
    std::printf("  GUI stall p99 %.1f ms, max %.1f ms\n", percentile(stalls, 0.99),
                stalls.empty() ? 0.0 : *std::max_element(stalls.begin(), stalls.end()));
    std::printf("  series store: %.2f bytes per stored sample, %.1f MB reserved\n", memory.bytesPerSample(),
                double(memory.ringBytes + memory.stateBytes) / 1e6);
    std::printf("poll: %.1f us/engine, round p50 %.1f ms p99 %.1f ms, stall p99 %.1f ms max %.1f ms, %.2f bytes/sample, %d engines\n",
                perPoll + ingestUs, percentile(rounds, 0.5), percentile(rounds, 0.99), percentile(stalls, 0.99),
                stalls.empty() ? 0.0 : *std::max_element(stalls.begin(), stalls.end()), memory.bytesPerSample(), engines);
    return 0;
}
