// SPDX-License-Identifier: MIT
// bench_ingest [--engines N] [--rounds R]
// What one poll round costs the GUI thread after the poller has delivered it, the figure bench_poll
// calls "GUI-thread ingest", without bench_poll's sockets, pdsim and second core: ClusterStore::
// applyPollBatch (the store's observations), toPollRound (the round the history takes) and
// SeriesStore::ingest, on N engines (default 1,024) with vLLM-sized histograms, about 1 % of polls
// failing. Before each round the batch's memory is pushed out of the caches (a 64 MB sweep), as a
// batch filled by the poller thread on the other core arrives. Timed with the thread's CPU clock, so
// another process on the machine slows it less than wall time would; still run it twice.
// Prints µs per engine for each part and in all, the median round over R (default 300).
#include "benchprofile.h"
#include "cluster/clusterstore.h"
#include "metrics/seriesstore.h"
#include "net/pollroundadapter.h"
#include "synthmetrics.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace pd;
using namespace pd::bench;

namespace {

double median(std::vector<double> v)
{
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int engines = 1024, rounds = 300;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--engines") && i + 1 < argc)
            engines = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = std::max(3, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::printf("usage: bench_ingest [--engines N] [--rounds R]\n"
                        "The GUI thread's cost of one poll round (store, round, series store), in us per engine.\n");
            return 0;
        }
    }
    ClusterStore store;
    store.setProfile(nodeGroupsProfile(engines, 16), QStringLiteral("bench.json"));
    const int n = int(store.engines().size());
    std::vector<Role> roles;
    for (const Engine &e : store.engines())
        roles.push_back(e.role);
    SeriesStore series(roles, SeriesStoreConfig {});

    Synth synth;
    std::vector<EngineMetrics> state(static_cast<std::size_t>(n));
    for (EngineMetrics &m : state)
        synth.init(m);
    std::vector<char> sweep(64u << 20);
    std::vector<double> storeUs, roundUs, seriesUs;
    const std::int64_t t0 = 1'700'000'000'000;
    for (int r = 0; r < rounds; ++r) {
        PollBatch batch;
        batch.roundAtMs = 1000 * qint64(r) + 150;
        batch.outcomes.resize(n);
        for (int e = 0; e < n; ++e) {
            PollOutcome &o = batch.outcomes[e];
            o.engine = e;
            o.startedAtMs = 1000 * qint64(r);
            o.finishedAtMs = o.startedAtMs + 20 + e % 100;
            EngineMetrics &m = state[std::size_t(e)];
            synth.step(m, roles[std::size_t(e)] == Role::Prefill, 1.0);
            if (synth.u(synth.rng) < 0.01) {
                o.status = PollStatus::Timeout;
                o.error = QStringLiteral("/metrics: timeout after 2000 ms");
                continue;
            }
            o.status = PollStatus::Ok;
            o.httpStatus = 200;
            o.healthStatus = 200;
            o.metrics = m;
        }
        std::memset(sweep.data(), r & 0xff, sweep.size());
        const double a = threadCpuNs();
        store.applyPollBatch(batch);
        const double b = threadCpuNs();
        const PollRound round = toPollRound(batch, n, t0 + 1000 * r);
        const double c = threadCpuNs();
        series.ingest(round);
        const double d = threadCpuNs();
        if (r < 2)
            continue; // the first rounds touch the store's rows for the first time
        storeUs.push_back((b - a) / 1e3 / n);
        roundUs.push_back((c - b) / 1e3 / n);
        seriesUs.push_back((d - c) / 1e3 / n);
    }
    std::vector<double> total(storeUs.size());
    for (std::size_t i = 0; i < total.size(); ++i)
        total[i] = storeUs[i] + roundUs[i] + seriesUs[i];
    std::printf("ingest: %d engines, %d rounds: cluster store %.2f + round %.2f + series store %.2f = %.2f us per "
                "engine (median round)\n",
        n, rounds, median(storeUs), median(roundUs), median(seriesUs), median(total));
    return 0;
}
