// SPDX-License-Identifier: MIT
// The 8-node guide's decode pool is ONE coupled DP group of 64 ranks (resources/profiles/demo-loopback.json).
// pdsim couples it like a real cluster: no rank answers until all 64 have started, and ranks started
// without the rest give up after the join timeout. Started through the console's own path (the engine
// actions' "Start and add" on the 64 ranks, the runner with the GUI's parallel cap of 4), the group forms: one
// group-start operation starts every rank at once and waits with one deadline. Time-scaled (x100).
#include "cluster/profileformat.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using json = nlohmann::json;

class TestGroupStart64 : public QObject {
    Q_OBJECT

    static json groupOf(const json &state, const std::string &id)
    {
        for (const json &g : state.value("groups", json::array()))
            if (g.value("id", std::string()) == id)
                return g;
        return json::object();
    }
    static QString stateOf(const json &group) { return QString::fromStdString(group.value("state", std::string())); }

private Q_SLOTS:
    void theConsolesStartPathFormsAGroupOf64()
    {
        test::SimScaleFixture fixture;
        QVERIFY(fixture.loadProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json")));
        QList<EngineRef> decode;
        for (const EngineRef &e : fixture.refs())
            if (e.role == Role::Decode)
                decode << e;
        QCOMPARE(decode.size(), 64);
        const std::string group = "decode@127.0.0.6:13395";

        sim::ClusterOptions options;
        options.timeScale = 100;
        options.startupSeconds = 300; // a real engine loads for ~5 min: 3 s here
        options.jitter = false;
        options.seed = 64;
        // The join deadline is a real guard, not the subject here: 1,800 simulated s are 18 real s at x100,
        // short on a loaded machine under ASan. 10 simulated hours keep it out of the way.
        options.dpJoinTimeoutSeconds = 36000;
        PD_START_SIM_CLUSTER_WITHIN(fixture, options, 60000);
        QCOMPARE(stateOf(groupOf(fixture.clusterState(), group)), QStringLiteral("serving"));
        // The group stopped as a whole, as after a maintenance window.
        QCOMPARE(
            fixture.postControl(QStringLiteral("/cluster/engines/stop"), R"({"group":"decode@127.0.0.6:13395"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(groupOf(fixture.clusterState(), group)), QStringLiteral("stopped"), 20000);

        fixture.setUpScaling(5000, test::SimScaleFixture::ListenerTiming::FromTest);
        // 64 ranks answer slowly under a sanitizer; a slow answer is not the failure looked for here
        fixture.control()->setTimeout(30000);
        ScaleContext &ctx = fixture.context();
        setScaleContextProfile(ctx, fixture.profile());
        ctx.settings.pollMs = 200;
        ctx.settings.groupReadyTimeoutMs = 120000;
        ScaleRunner &runner = *fixture.runner();
        runner.setParallelCap(4); // the GUI's cap: a group is one slot, never split into batches of 4
        EngineActions &actions = *fixture.actions();
        ProxyClient &proxy = *fixture.proxy();
        MembershipReconciler &table = *fixture.table();

        // Stopped for maintenance, the group was also taken out of the proxy (a group starts only outside it).
        QStringList ids;
        for (const EngineRef &e : decode)
            ids << e.id;
        const std::optional<ProxyReply> removed
            = test::awaitReply<ProxyReply>([&](auto done) { proxy.removeInstances(Role::Decode, ids, done); });
        QVERIFY(removed.has_value());
        QVERIFY2(removed->ok, qPrintable(removed->error));
        QVERIFY(fixture.reconcile());
        QCOMPARE(table.activeCount(Role::Decode), 0);

        const EngineActionPlan plan = actions.plan(EngineAction::StartAndAdd, decode, QStringLiteral("decode pool"));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        QCOMPARE(plan.groups, QStringList{QString::fromStdString(group)});
        const QList<ScaleOperation *> ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1); // one group operation, not 64 engine operations
        QVERIFY(fixture.waitIdle(150000));
        const ScaleOperation *op = ops.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).detail, QStringLiteral("start accepted for all 64 ranks"));

        // Ground truth from pdsim: the group formed and every rank serves.
        const json state = fixture.clusterState();
        const json g = groupOf(state, group);
        QCOMPARE(stateOf(g), QStringLiteral("serving"));
        int ready = 0;
        for (const json &e : state["engines"])
            if (e.value("group", std::string()) == group && e.value("status", std::string()) == "ready")
                ++ready;
        QCOMPARE(ready, 64);
        // And the proxy routes to all 64 again.
        QTRY_VERIFY_WITH_TIMEOUT(fixture.reconcile() && table.activeCount(Role::Decode) == 64, 30000);
    }
};

QTEST_GUILESS_MAIN(TestGroupStart64)
#include "tst_groupstart64.moc"
