// SPDX-License-Identifier: MIT
// The console's scale panel against a proxy without /instances (pdsim's proxy run as vllm-ascend
// v0.9.1-dev): the context reads the running proxy's command line as its membership, the plan says the
// proxy restarts, the confirmation offers "do not wait for the requests in flight", and Apply runs one
// ProxyRestartScale that leaves the proxy listing the new decoders and the leaving ones stopped; back up
// through the real dialog with the box ticked, the operation does not wait (scalepanel-restart-confirm.png).
#include "net/membershipreconciler.h"
#include "ops/proxycommandlinemembership.h"
#include "ops/proxyrestartscale.h"
#include "ops/scalerunner.h"
#include "scale/poolscalecontrol.h"
#include "scale/scalepanel.h"
#include "scalepanelhelpers.h"
#include "scaletesthelpers.h"
#include "simscalefixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QPushButton>
#include <QTest>
#include <QTimer>

using namespace pd;

class TestScalePanelRestart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scaleInRestartsTheProxyFromThePanel()
    {
        test::SimScaleFixture fixture;
        QVERIFY(fixture.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-v091.json")));
        sim::ClusterOptions options;
        options.timeScale = 20;
        options.jitter = false;
        PD_START_SIM_CLUSTER(fixture, options);

        fixture.setUpScaling(5000, test::SimScaleFixture::ListenerTiming::FromTest);
        ScaleContext &ctx = fixture.context();
        ctx.settings.pollMs = 200;
        ScaleRunner &runner = *fixture.runner();
        MembershipReconciler &table = *fixture.table();
        const QList<EngineRef> &refs = fixture.refs();

        // What the console does on opening the profile and after every proxy start.
        std::optional<QString> why;
        syncCommandLineMembership(ctx, [&why](const QString &w) { why = w; });
        QTRY_VERIFY_WITH_TIMEOUT(why.has_value(), 20000);
        QVERIFY2(why->isEmpty(), qPrintable(*why));
        QVERIFY(ctx.commandLineMembership.has_value());
        QCOMPARE(ctx.commandLineMembership->decode.size(), 4); // the profile's proxy lists four decoders
        QCOMPARE(ctx.commandLineMembership->prefill.size(), 2);

        ScalePanel panel(&ctx, &runner, refs);
        std::optional<ScalePlan> shown;
        test::showConfirmingPanel(panel, table, &shown);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 4, 10000);
        PoolScaleControl *decode = panel.control(Role::Decode);
        QTRY_COMPARE(decode->target(), 4);

        decode->setTarget(2);
        QTest::mouseClick(decode->applyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown.has_value(), 10000);
        QVERIFY(shown->byProxyRestart);
        QCOMPARE(shown->listAfterRestart.size(), 2);
        const QString text = shown->describe();
        QVERIFY2(text.contains(QStringLiteral("applying RESTARTS it with the decode list [")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("once the restarted proxy no longer lists it")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("remove and stop")), qPrintable(text));

        QTRY_COMPARE_WITH_TIMEOUT(runner.operations().size(), 1, 5000);
        auto *op = qobject_cast<ProxyRestartScale *>(runner.operations().constFirst());
        QVERIFY2(op, "the panel ran the per-engine path on a proxy without /instances");
        QCOMPARE(op->newLists().decode, shown->listAfterRestart);
        QTRY_VERIFY2_WITH_TIMEOUT(runner.isIdle(), qPrintable(test::describeOperation(op)), 60000);
        QCOMPARE(op->outcome(), OperationOutcome::Succeeded);

        // The operation verified that the restarted proxy reports two decoders; the context (the next
        // plan's starting point) and the table follow it.
        QVERIFY(ctx.commandLineMembership.has_value());
        QCOMPARE(ctx.commandLineMembership->decode, shown->listAfterRestart);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 2, 10000);
        QCOMPARE(decode->target(), 2);
        panel.grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel-restart.png"));

        // Back to 4 through the real confirmation dialog: it offers "do not wait for the requests in
        // flight"; ticked, the operation does not wait and says so.
        ScalePanel withDialog(&ctx, &runner, refs);
        withDialog.resize(1100, 520);
        withDialog.show();
        QTRY_COMPARE(withDialog.control(Role::Decode)->target(), 2);
        bool offered = false;
        QTimer answer;
        answer.setInterval(50);
        connect(&answer, &QTimer::timeout, this, [&answer, &offered] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            answer.stop();
            auto *box = dialog->findChild<QCheckBox *>(QStringLiteral("allowInFlightBox"));
            offered = box != nullptr;
            if (box)
                box->setChecked(true);
            dialog->grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel-restart-confirm.png"));
            for (QPushButton *button : dialog->findChildren<QPushButton *>())
                if (button->text() == QLatin1String("Apply"))
                    button->click();
        });
        answer.start();
        withDialog.control(Role::Decode)->setTarget(4);
        QTest::mouseClick(withDialog.control(Role::Decode)->applyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(runner.operations().size(), 2, 10000);
        QVERIFY(offered);
        auto *back = qobject_cast<ProxyRestartScale *>(runner.operations().constLast());
        QVERIFY(back);
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 60000);
        QCOMPARE(back->outcome(), OperationOutcome::Succeeded);
        bool toldNotWaiting = false;
        for (const OperationStep &step : back->steps())
            toldNotWaiting |= step.detail.contains(QLatin1String("not waiting (override)"));
        QVERIFY2(toldNotWaiting, "the ticked box did not reach the operation");
        QCOMPARE(ctx.commandLineMembership->decode.size(), 4);
        table.stop();
    }
};

QTEST_MAIN(TestScalePanelRestart)
#include "tst_scalepanelrestart.moc"
