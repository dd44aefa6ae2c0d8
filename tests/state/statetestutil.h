// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "net/polltypes.h"
#include "state/statetracker.h"

#include <QTest>

#include <functional>

// Helpers for the state and triage tests: the demo-loopback cluster (8 prefill engines on p0-p3, 64
// decode engines on d0-d3) in a store, and poll outcomes as the poller reports them.
namespace pd::test {

// The demo's DP groups are coupled (a dead rank breaks its whole group: groupstate.h). Tests about one
// engine's own state ask for independent ranks, so the other ranks keep their own states.
enum class DemoCoupling { AsBundled, Independent };

inline bool loadDemo(ClusterStore *store, DemoCoupling coupling = DemoCoupling::AsBundled)
{
    const ProfileLoadResult r = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
    if (!r.profile)
        return false;
    Profile profile = *r.profile;
    if (coupling == DemoCoupling::Independent) {
        // Dense-model ranks: independent is refused with --enable-expert-parallel, so drop that too.
        for (RoleConfig *role : { &profile.prefill, &profile.decode }) {
            role->dpCoupling = DpCoupling::Independent;
            role->extraArgs.removeAll(QStringLiteral("--enable-expert-parallel"));
        }
    }
    store->setProfile(profile, QStringLiteral("demo-loopback.json"));
    return true;
}

// The demo in a new store and a tracker on it that reads the time from `nowMs`, both owned by `parent`;
// false when the demo does not load.
inline bool trackDemo(
    QObject *parent, ClusterStore **store, StateTracker **tracker, std::function<std::int64_t()> nowMs)
{
    *store = new ClusterStore(parent);
    if (!loadDemo(*store))
        return false;
    *tracker = new StateTracker(*store, parent);
    (*tracker)->setClock(std::move(nowMs));
    return true;
}

inline PollOutcome ok(int engine, double generation, double prompt, double success, double running, int health = 200,
                      double waiting = 0, double kvUsage = kAbsent)
{
    PollOutcome o;
    o.engine = engine;
    o.status = PollStatus::Ok;
    o.httpStatus = 200;
    o.healthStatus = health;
    EngineMetrics m;
    m.generationTokens = generation;
    m.promptTokens = prompt;
    m.requestSuccess = success;
    m.running = running;
    m.waiting = waiting;
    m.kvUsage = kvUsage;
    o.metrics = m;
    return o;
}

inline PollOutcome failed(int engine, PollStatus status, int httpStatus = 0)
{
    PollOutcome o;
    o.engine = engine;
    o.status = status;
    o.httpStatus = httpStatus;
    o.error = QStringLiteral("/metrics: %1").arg(pollStatusName(status));
    return o;
}

// One round in which every engine answers, counters advanced by `tick`.
inline PollBatch healthyRound(int engines, int tick, double running = 2)
{
    PollBatch b;
    for (int i = 0; i < engines; ++i)
        b.outcomes.append(ok(i, 100.0 * tick, 50.0 * tick, tick, running));
    return b;
}

// Consecutive rounds of the demo's 72 engines: each healthy with counters one tick further, but for
// the outcomes given, which replace their engines'.
struct DemoRounds {
    int tick = 0;
    PollBatch operator()(const QList<PollOutcome> &special)
    {
        PollBatch b = healthyRound(72, ++tick);
        for (const PollOutcome &o : special)
            b.outcomes[o.engine] = o;
        return b;
    }
};

} // namespace pd::test
