// SPDX-License-Identifier: MIT
// The Prometheus source against a running Prometheus: how long the backfill of the history takes
// for N engines, how many bytes it reads, and what one refresh costs (request + decode + assembly on
// the source's thread; ingest on the GUI thread). Prints figures; asserts nothing.
//
//   bench_promsource --url http://127.0.0.1:PORT --engines N --host 127.0.0.1 --base-port P
//                    [--backfill-seconds 3600] [--refreshes 10] [--roles prefill-first]
// Engines are host:P .. host:P+N-1 (what bench/prom_history.py writes), or --profile FILE's engines.
#include "cluster/profileformat.h"
#include "metrics/seriesstore.h"
#include "net/prometheussource.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <ctime>

namespace {

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption url(QStringLiteral("url"), QStringLiteral("Prometheus URL"), QStringLiteral("URL"));
    const QCommandLineOption engines(
        QStringLiteral("engines"), QStringLiteral("engine count"), QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption host(
        QStringLiteral("host"), QStringLiteral("engine host"), QStringLiteral("HOST"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption basePort(
        QStringLiteral("base-port"), QStringLiteral("first engine port"), QStringLiteral("P"), QStringLiteral("9000"));
    const QCommandLineOption profile(
        QStringLiteral("profile"), QStringLiteral("take the engines from FILE"), QStringLiteral("FILE"));
    const QCommandLineOption backfill(QStringLiteral("backfill-seconds"), QStringLiteral("history to read"),
        QStringLiteral("S"), QStringLiteral("3600"));
    const QCommandLineOption refreshes(QStringLiteral("refreshes"), QStringLiteral("live refreshes to time"),
        QStringLiteral("N"), QStringLiteral("10"));
    parser.addOptions({ url, engines, host, basePort, profile, backfill, refreshes });
    parser.process(app);
    QTextStream out(stdout);

    std::vector<std::string> hostPorts;
    std::vector<pd::Role> roles;
    if (parser.isSet(profile)) {
        const pd::ProfileLoadResult parsed = pd::loadProfileFile(parser.value(profile));
        if (!parsed.profile) {
            out << "cannot read the profile\n";
            return 1;
        }
        for (const pd::Engine &e : parsed.profile->engines()) {
            hostPorts.push_back(pd::PromEngineMap::key(e.host.toStdString(), e.port));
            roles.push_back(e.role);
        }
    } else {
        const int n = parser.value(engines).toInt();
        for (int i = 0; i < n; ++i) {
            hostPorts.push_back(
                pd::PromEngineMap::key(parser.value(host).toStdString(), parser.value(basePort).toInt() + i));
            roles.push_back(i % 2 ? pd::Role::Decode : pd::Role::Prefill);
        }
    }

    pd::PrometheusSourceConfig config;
    config.endpoint.base = QUrl(parser.value(url));
    config.endpoint.timeoutMs = 120000;
    config.backfillSeconds = parser.value(backfill).toInt();
    pd::PrometheusSource source(config);
    pd::SeriesStore store(roles);
    const int wantRefreshes = parser.value(refreshes).toInt();
    QElapsedTimer wall;
    wall.start();
    double ingestCpuMs = 0;
    double refreshIngestCpuMs = 0;
    std::size_t backfillRounds = 0;
    std::size_t liveRounds = 0;
    int liveDeliveries = 0;
    std::vector<qint64> refreshMs;
    std::vector<qint64> refreshBytes;
    pd::PrometheusStatus last;

    QObject::connect(&source, &pd::PrometheusSource::delivered, &app, [&](const pd::PrometheusDelivery &d) {
        const double c0 = threadCpuMs();
        for (const pd::PollRound &r : d.rounds)
            store.ingest(r);
        const double spent = threadCpuMs() - c0;
        if (d.backfill) {
            ingestCpuMs += spent;
            backfillRounds += d.rounds.size();
        } else {
            refreshIngestCpuMs += spent;
            liveRounds += d.rounds.size();
            ++liveDeliveries;
        }
    });
    QObject::connect(&source, &pd::PrometheusSource::statusChanged, &app, [&](const pd::PrometheusStatus &s) {
        const bool wentLive
            = s.phase == pd::PrometheusStatus::Phase::Live && last.phase != pd::PrometheusStatus::Phase::Live;
        if (s.phase == pd::PrometheusStatus::Phase::Failed) {
            out << "failed: " << s.error << '\n';
            QCoreApplication::exit(1);
        }
        if (wentLive) {
            out << "backfill: " << hostPorts.size() << " engines, " << config.backfillSeconds << " s of history, "
                << s.backfillChunks << " chunks, " << backfillRounds << " rounds, " << s.backfillBytes / (1024 * 1024)
                << " MB of JSON in " << s.backfillMs << " ms wall; GUI-thread ingest " << qint64(ingestCpuMs)
                << " ms CPU\n";
            out << "engines seen: " << s.v091Engines << " on 0.9.1 names, " << s.currentEngines << " current, "
                << s.notTargets.size() << " not targets, " << s.unmapped.size() << " unmapped\n";
            out.flush();
        }
        if (s.phase == pd::PrometheusStatus::Phase::Live && s.refreshes > last.refreshes) {
            refreshMs.push_back(s.lastRefreshMs);
            refreshBytes.push_back(s.lastRefreshBytes);
            if (int(refreshMs.size()) >= wantRefreshes) {
                std::vector<qint64> sorted = refreshMs;
                std::sort(sorted.begin(), sorted.end());
                qint64 bytes = 0;
                for (qint64 b : refreshBytes)
                    bytes += b;
                out << "refresh: " << refreshMs.size() << " refreshes, wall p50 " << sorted[sorted.size() / 2]
                    << " ms, max " << sorted.back() << " ms, " << bytes / qint64(refreshBytes.size()) / 1024
                    << " KB per answer; " << liveRounds << " rounds; GUI-thread ingest "
                    << (liveDeliveries ? refreshIngestCpuMs / liveDeliveries : 0.0) << " ms CPU per refresh\n";
                out.flush();
                QCoreApplication::quit();
            }
        }
        last = s;
    });
    source.setEngines(hostPorts);
    source.start();
    QTimer::singleShot(15 * 60 * 1000, &app, [&] {
        out << "timed out\n";
        QCoreApplication::exit(2);
    });
    return QCoreApplication::exec();
}
