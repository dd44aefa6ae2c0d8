// SPDX-License-Identifier: MIT
// What deriving states and triage cost the GUI thread per poll round: a synthetic profile of N engines
// (64 per node, 1/8 prefill), every engine observed each round, a few percent failing or frozen.
// Prints the mean per round of StateTracker (facts + derivation + events) and of Triage's recompute.
#include "cluster/clusterstore.h"
#include "state/statetracker.h"
#include "triage/triage.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

using namespace pd;

namespace {

Profile syntheticProfile(int engines)
{
    Profile p;
    p.name = QStringLiteral("bench");
    const int perNode = 64;
    const int nodes = (engines + perNode - 1) / perNode;
    for (int n = 0; n < nodes; ++n) {
        Node node;
        node.name = QStringLiteral("n%1").arg(n);
        node.address = QStringLiteral("10.%1.%2.1").arg(n / 250).arg(n % 250);
        node.role = n < std::max(1, nodes / 8) ? Role::Prefill : Role::Decode;
        EngineGroup g;
        g.dpSize = perNode;
        g.dpSizeLocal = std::min(perNode, engines - n * perNode);
        g.dpAddress = node.address;
        node.engineGroups.append(g);
        p.nodes.append(node);
    }
    p.proxy.address = QStringLiteral("10.255.0.1");
    p.proxy.port = 8000;
    return p;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    for (int engines : { 512, 1024, 5000 }) {
        ClusterStore store;
        store.setProfile(syntheticProfile(engines), QStringLiteral("bench.json"));
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
