// SPDX-License-Identifier: MIT
// The item models over the cluster store, run under QAbstractItemModelTester.
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "models/enginetablemodel.h"
#include "models/modelroles.h"
#include "models/nodetablemodel.h"
#include "models/validationissuemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace pd;

class TestClusterModels : public QObject {
    Q_OBJECT

private:
    static Profile loadBundled(const char *name)
    {
        const ProfileLoadResult result =
            loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/") + QLatin1String(name));
        if (!result.profile)
            qFatal("bundled profile %s does not load", name);
        return *result.profile;
    }

private Q_SLOTS:
    void engineModelShowsEveryEngineInProfileOrder()
    {
        ClusterStore store;
        EngineTableModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        store.setProfile(loadBundled("deepseek-r1-8node.json"), QStringLiteral("x.json"));
        QCOMPARE(model.rowCount(), 72);
        QCOMPARE(model.index(0, EngineTableModel::NodeColumn).data().toString(), QStringLiteral("p0"));
        QCOMPARE(model.index(0, EngineTableModel::PortColumn).data().toInt(), 9000);
        QCOMPARE(model.index(0, EngineTableModel::PoolColumn).data(PoolRole).toInt(), int(Role::Prefill));
        // The 9th engine is the first decode engine: node d0, DP rank 0 of 64, master 192.0.0.5.
        QCOMPARE(model.index(8, EngineTableModel::NodeColumn).data().toString(), QStringLiteral("d0"));
        QCOMPARE(model.index(8, EngineTableModel::DpRankColumn).data().toString(), QStringLiteral("0 / 64"));
        QCOMPARE(model.index(8, EngineTableModel::DpGroupColumn).data().toString(), QStringLiteral("192.0.0.5:13395"));
        // The 8-node guide's launcher: dp_size, master ip, master port, local rank, rank, port, local size.
        QCOMPARE(model.index(71, EngineTableModel::LauncherColumn).data().toString(),
                 QStringLiteral("64 192.0.0.5 13395 15 63 9015 16"));
        QCOMPARE(model.index(71, EngineTableModel::DpRankColumn).data(SortRole).toInt(), 63);
    }

    void engineModelShowsWhatThePollerObserved()
    {
        ClusterStore store;
        EngineTableModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        store.setProfile(loadBundled("deepseek-r1-8node.json"), QString());
        QCOMPARE(model.index(3, EngineTableModel::StatusColumn).data(PollStatusRole).toInt(), -1);

        PollBatch batch;
        PollOutcome ok;
        ok.engine = 3;
        ok.status = PollStatus::Ok;
        ok.httpStatus = 200;
        ok.healthStatus = 200;
        EngineMetrics m;
        m.running = 3;
        m.waiting = 1;
        m.kvUsage = 0.125;
        ok.metrics = m;
        PollOutcome refused;
        refused.engine = 40;
        refused.status = PollStatus::Refused;
        refused.error = QStringLiteral("/metrics: Failed to connect to 192.0.0.7 port 9008");
        batch.outcomes = {ok, refused};
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        store.applyPollBatch(batch);
        QCOMPARE(changed.size(), 1); // one signal for the round, not one per engine
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 3);
        QCOMPARE(changed.first().at(1).toModelIndex().row(), 40);
        QCOMPARE(model.index(3, EngineTableModel::StatusColumn).data().toString(), QStringLiteral("responding"));
        QCOMPARE(model.index(3, EngineTableModel::RunningColumn).data().toInt(), 3);
        QCOMPARE(model.index(3, EngineTableModel::WaitingColumn).data().toInt(), 1);
        QCOMPARE(model.index(3, EngineTableModel::KvColumn).data().toString(), QStringLiteral("12.5 %"));
        QCOMPARE(model.index(40, EngineTableModel::StatusColumn).data().toString(), QStringLiteral("refused"));
        QVERIFY(model.index(40, EngineTableModel::StatusColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("port 9008")));
        QVERIFY(!model.index(40, EngineTableModel::RunningColumn).data().isValid());

        // Unhealthy: metrics answer but /health says 500.
        ok.healthStatus = 500;
        batch.outcomes = {ok};
        store.applyPollBatch(batch);
        QCOMPARE(model.index(3, EngineTableModel::StatusColumn).data().toString(), QStringLiteral("unhealthy (/health 500)"));
        QVERIFY(!model.index(3, EngineTableModel::StatusColumn).data(HealthyRole).toBool());
        // An outcome for an engine the profile does not have is ignored.
        batch.outcomes[0].engine = 500;
        store.applyPollBatch(batch);
        QCOMPARE(store.observations().size(), 72);
    }

    void nodeModelSummarisesNodes()
    {
        ClusterStore store;
        NodeTableModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        store.setProfile(loadBundled("deepseek-r1-8node.json"), QString());
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.index(4, NodeTableModel::NameColumn).data().toString(), QStringLiteral("d0"));
        QCOMPARE(model.index(4, NodeTableModel::EnginesColumn).data().toInt(), 16);
        QCOMPARE(model.index(0, NodeTableModel::NpuColumn).data().toString(), QStringLiteral("A3 × 16 (16 used)"));
        store.setProfile(loadBundled("deepseek-v3-2node-a2.json"), QString());
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.index(0, NodeTableModel::NpuColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("29.0.0.1")));
    }

    void issueModelListsErrorsBeforeWarnings()
    {
        ClusterStore store;
        ValidationIssueModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Profile profile = loadBundled("deepseek-r1-8node.json");
        store.setProfile(profile, QString());
        QCOMPARE(model.rowCount(), 0);
        profile.nodes[5].engineGroups[0].dpRankStart = 0;   // overlaps d0's ranks, leaves 16-31 empty
        profile.nodes[1].name = QStringLiteral("p0");       // duplicate name
        profile.proxy.decodeInstances = {QStringLiteral("192.0.0.5:9000")}; // 63 engines missing: warnings
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        store.setProfile(profile, QString());
        QCOMPARE(reset.size(), 1);
        QVERIFY(store.errorCount() >= 3);
        QVERIFY(store.warningCount() >= 63);
        QCOMPARE(model.rowCount(), store.errorCount() + store.warningCount());
        for (int row = 0; row < store.errorCount(); ++row)
            QCOMPARE(model.index(row, 0).data(SeverityRole).toInt(), int(Severity::Error));
        QCOMPARE(model.index(store.errorCount(), 0).data(SeverityRole).toInt(), int(Severity::Warning));
        bool sawOverlap = false;
        for (int row = 0; row < model.rowCount(); ++row)
            sawOverlap = sawOverlap || model.index(row, ValidationIssueModel::MessageColumn).data().toString().contains(QStringLiteral("claimed by d0 and d1"));
        QVERIFY(sawOverlap);
    }
};

QTEST_GUILESS_MAIN(TestClusterModels)
#include "tst_clustermodels.moc"
