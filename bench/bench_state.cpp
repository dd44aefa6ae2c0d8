// SPDX-License-Identifier: MIT
// What deriving states and triage cost the GUI thread per poll round: a synthetic profile of N engines
// (64 per node, 1/8 prefill), every engine observed each round, a few percent failing or frozen.
// Prints the mean per round of StateTracker (facts + derivation + events) and of Triage's recompute.
#include "benchprofile.h"
#include "cluster/clusterstore.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

using namespace pd;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    for (int engines : { 512, 1024, 5000 }) {
        ClusterStore store;
        store.setProfile(bench::nodeGroupsProfile(engines, 64), QStringLiteral("bench.json"));
        StateTracker tracker(&store);
        Triage triage(&tracker, &store);
        const int rounds = 60;
        double trackerMs = 0, triageMs = 0;
        QObject::disconnect(&tracker, &StateTracker::roundDerived, &triage, nullptr);
        for (int r = 1; r <= rounds; ++r) {
            PollBatch batch;
            batch.outcomes.reserve(engines);
            for (int i = 0; i < engines; ++i) {
                PollOutcome o;
                o.engine = i;
                if (i % 37 == 0 && r > 20) { // ~3 % refused after round 20
                    o.status = PollStatus::Refused;
                    o.error = QStringLiteral("/metrics: connection refused");
                } else {
                    o.status = PollStatus::Ok;
                    o.httpStatus = 200;
                    o.healthStatus = 200;
                    EngineMetrics m;
                    const bool frozen = i % 53 == 0 && r > 30; // ~2 % stall after round 30
                    const double t = frozen ? 30 : r;
                    m.generationTokens = 100 * t;
                    m.promptTokens = 50 * t;
                    m.requestSuccess = t;
                    m.running = 4;
                    m.waiting = 0;
                    o.metrics = m;
                }
                batch.outcomes.append(std::move(o));
            }
            QElapsedTimer timer;
            timer.start();
            store.applyPollBatch(batch); // the tracker derives inside enginesObserved
            trackerMs += timer.nsecsElapsed() / 1e6;
            timer.restart();
            triage.recompute();
            triageMs += timer.nsecsElapsed() / 1e6;
        }
        const auto counts = tracker.stateCounts();
        out << QStringLiteral("state: %1 engines, store+tracker %2 ms/round, triage %3 ms/round, %4 problems, "
                              "%5 stalled, %6 unreachable, %7 events\n")
                   .arg(engines)
                   .arg(trackerMs / rounds, 0, 'f', 3)
                   .arg(triageMs / rounds, 0, 'f', 3)
                   .arg(triage.count())
                   .arg(counts[int(EngineState::Stalled)])
                   .arg(counts[int(EngineState::Unreachable)])
                   .arg(tracker.events().size());
        out.flush();
    }
    return 0;
}
