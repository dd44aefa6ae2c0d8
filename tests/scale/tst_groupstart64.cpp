// SPDX-License-Identifier: MIT
// The 8-node guide's decode pool is ONE coupled DP group of 64 ranks (resources/profiles/demo-loopback.json).
// pdsim couples it like a real cluster: no rank answers until all 64 have started, and ranks started
// without the rest give up after the join timeout. Started through the console's own path (the engine
// actions' "Start and add" on the 64 ranks, the runner with the GUI's parallel cap of 4), the group forms: one
// group-start operation starts every rank at once and waits with one deadline. Time-scaled (x100).
#include "../sim/blockinghttp.h"
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/dpgroupoperation.h"
#include "ops/engineactions.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scaletesthelpers.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace pd;
using json = nlohmann::json;

class TestGroupStart64 : public QObject {
    Q_OBJECT

    QNetworkAccessManager m_network;

    json get(const QString &url)
    {
        return json::parse(pdtest::blockingHttp(m_network, "GET", url).toStdString(), nullptr, false);
    }
    int post(const QString &url, const QByteArray &body)
    {
        int status = 0;
        pdtest::blockingHttp(m_network, "POST", url, body, &status);
        return status;
    }
    static json groupOf(const json &state, const std::string &id)
    {
        for (const json &g : state.value("groups", json::array()))
            if (g.value("id", std::string()) == id)
                return g;
        return json::object();
    }

private Q_SLOTS:
    void theConsolesStartPathFormsAGroupOf64()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        const Profile profile = *loaded.profile;
        const QList<EngineRef> refs = engineRefs(profile);
        QList<EngineRef> decode;
        for (const EngineRef &e : refs)
            if (e.role == Role::Decode)
                decode << e;
        QCOMPARE(decode.size(), 64);
        const std::string group = "decode@127.0.0.6:13395";

        QTemporaryDir dir;
        sim::ClusterOptions options;
        options.profile = profile;
        options.timeScale = 100;
        options.startupSeconds = 300; // a real engine loads for ~5 min: 3 s here
        options.jitter = false;
        options.seed = 64;
        // The join deadline is a real guard, not the subject here: 1,800 simulated s are 18 real s at x100,
        // short on a loaded machine under ASan. 10 simulated hours keep it out of the way.
        options.dpJoinTimeoutSeconds = 36000;
        sim::SimCluster cluster(options);
        QString error;
        if (!cluster.start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(QStringLiteral("cannot start the simulated cluster (ports busy?): ") + error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(cluster.isReady(), 60000);
        const QString control = QStringLiteral("http://127.0.0.1:%1").arg(cluster.controlPort());
        QCOMPARE(QString::fromStdString(groupOf(get(control + QStringLiteral("/cluster")), group).value("state", std::string())),
                 QStringLiteral("serving"));
        // The group stopped as a whole, as after a maintenance window.
        QCOMPARE(post(control + QStringLiteral("/cluster/engines/stop"), R"({"group":"decode@127.0.0.6:13395"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(
            QString::fromStdString(groupOf(get(control + QStringLiteral("/cluster")), group).value("state", std::string())),
            QStringLiteral("stopped"), 20000);

        ProxyClient proxy;
        proxy.setEndpoint({QUrl(QStringLiteral("http://127.0.0.1:8000")), {}, {}, 5000});
        MembershipReconciler table(&proxy);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : refs)
            configured.append({e.id, e.role});
        table.setConfigured(configured);
        SimClusterEngineControl engines{QUrl(control)};
        engines.setTimeout(30000); // 64 ranks answer slowly under a sanitizer; a slow answer is not the failure looked for here
        EngineProbe probe;
        AuditLog audit(dir.filePath(QStringLiteral("audit.jsonl")));
        ScaleContext ctx;
        ctx.proxy = &proxy;
        ctx.membership = &table;
        ctx.control = &engines;
        ctx.probe = &probe;
        ctx.audit = &audit;
        setScaleContextProfile(ctx, profile);
        ctx.settings.pollMs = 200;
        ctx.settings.groupReadyTimeoutMs = 120000;
        ScaleRunner runner(&ctx);
        runner.setParallelCap(4); // the GUI's cap: a group is one slot, never split into batches of 4
        EngineActions actions(&ctx, &runner);

        // Stopped for maintenance, the group was also taken out of the proxy (a group starts only outside it).
        QStringList ids;
        for (const EngineRef &e : decode)
            ids << e.id;
        std::optional<ProxyReply> removed;
        proxy.removeInstances(Role::Decode, ids, [&removed](const ProxyReply &r) { removed = r; });
        QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 10000);
        QVERIFY2(removed->ok, qPrintable(removed->error));
        QVERIFY(test::reconcileNow(&table));
        QCOMPARE(table.activeCount(Role::Decode), 0);

        const EngineActionPlan plan = actions.plan(EngineAction::StartAndAdd, decode, QStringLiteral("decode pool"));
        QVERIFY2(plan.canRun(false), qPrintable(plan.text()));
        QCOMPARE(plan.groups, QStringList{QString::fromStdString(group)});
        const QList<ScaleOperation *> ops = actions.run(plan, false);
        QCOMPARE(ops.size(), 1); // one group operation, not 64 engine operations
        QVERIFY(test::waitIdle(&runner, 150000));
        const ScaleOperation *op = ops.first();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(test::describeOperation(op)));
        QCOMPARE(op->steps().at(DpGroupOperation::StartRanks).detail, QStringLiteral("start accepted for all 64 ranks"));

        // Ground truth from pdsim: the group formed and every rank serves.
        const json state = get(control + QStringLiteral("/cluster"));
        const json g = groupOf(state, group);
        QCOMPARE(QString::fromStdString(g.value("state", std::string())), QStringLiteral("serving"));
        int ready = 0;
        for (const json &e : state["engines"])
            if (e.value("group", std::string()) == group && e.value("status", std::string()) == "ready")
                ++ready;
        QCOMPARE(ready, 64);
        // And the proxy routes to all 64 again.
        QTRY_VERIFY_WITH_TIMEOUT(test::reconcileNow(&table) && table.activeCount(Role::Decode) == 64, 30000);
        cluster.shutdown();
    }
};

QTEST_GUILESS_MAIN(TestGroupStart64)
#include "tst_groupstart64.moc"
