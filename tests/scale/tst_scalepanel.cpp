// SPDX-License-Identifier: MIT
// The scale panel on a simulated cluster: the decode control shows the pool, typing 6 and Apply shows
// the plan (rank order), confirming runs the operations with their steps in the progress tree, and
// the pool ends at 6. The operation model passes QAbstractItemModelTester; read-only disables Apply.
// A screenshot goes to the build folder (scalepanel.png).
#include "models/operationmodel.h"
#include "net/membershipreconciler.h"
#include "ops/scalerunner.h"
#include "scale/poolscalecontrol.h"
#include "scale/scalepanel.h"
#include "scalepanelhelpers.h"
#include "simscalefixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QPushButton>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace pd;

class TestScalePanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scaleDecodeFromThePanel()
    {
        test::SimScaleFixture fixture;
        QVERIFY(fixture.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-loopback.json")));
        sim::ClusterOptions options;
        options.timeScale = 20;
        options.waitingRetryInterval = 0.5;
        options.jitter = false;
        PD_START_SIM_CLUSTER(fixture, options);
        QCOMPARE(fixture.postControl(QStringLiteral("/cluster/engines/stop"),
                     R"({"engines":["127.0.0.63:9004","127.0.0.63:9005","127.0.0.63:9006","127.0.0.63:9007"]})"),
            200);

        fixture.setUpScaling(5000);
        ScaleContext &ctx = fixture.context();
        ctx.settings.pollMs = 200;
        ctx.settings.verifyTrafficTimeoutMs = 2000;
        ScaleRunner &runner = *fixture.runner();
        MembershipReconciler &table = *fixture.table();
        const QList<EngineRef> &refs = fixture.refs();

        ScalePanel panel(&ctx, &runner, refs);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::optional<ScalePlan> shown;
        test::showConfirmingPanel(panel, table, &shown);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 4, 10000);
        PoolScaleControl *decode = panel.control(Role::Decode);
        QTRY_COMPARE(decode->target(), 4);
        QVERIFY(!decode->applyButton()->isEnabled()); // nothing to apply yet

        decode->setTarget(6);
        QVERIFY(decode->applyButton()->isEnabled());
        QTest::mouseClick(decode->applyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown.has_value(), 10000);
        QCOMPARE(shown->toStart.size(), 2);
        QCOMPARE(shown->toStart.at(0).id, QStringLiteral("127.0.0.63:9004"));
        QVERIFY(shown->describe().contains(QStringLiteral("start and add  127.0.0.63:9005")));
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->rowCount(), 2, 5000);
        QCOMPARE(panel.model()->rowCount(panel.model()->index(0, 0)), 6); // the six visible steps
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isIdle() && panel.model()->index(0, OperationModel::StatusColumn).data().toString().startsWith(QStringLiteral("running")), 10000);
        // Far enough into the first operation for the picture to show its progress: a step done.
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle()
                || std::any_of(runner.operations().constFirst()->steps().cbegin(),
                    runner.operations().constFirst()->steps().cend(),
                    [](const OperationStep &step) { return step.status == StepStatus::Done; }),
            10000);
        panel.grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel-running.png"));
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 60000);
        for (const ScaleOperation *op : runner.operations())
            QCOMPARE(op->outcome(), OperationOutcome::Succeeded);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 6, 10000);
        QCOMPARE(panel.model()->index(1, OperationModel::StatusColumn).data().toString(), QStringLiteral("succeeded"));
        panel.grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel.png"));

        panel.setReadOnly(true);
        decode->setTarget(3);
        QVERIFY(!decode->applyButton()->isEnabled());
        table.stop();
    }
};

QTEST_MAIN(TestScalePanel)
#include "tst_scalepanel.moc"
