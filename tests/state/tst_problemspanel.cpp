// SPDX-License-Identifier: MIT
// Offscreen: the main window with the Problems dock. A failing engine shows up as a problem; clicking
// it selects the engine in the engines table and opens its detail; the title and status bar count.
#include "mainwindow.h"
#include "models/enginetablemodel.h"
#include "models/eventmodel.h"
#include "models/modelroles.h"
#include "models/problemmodel.h"
#include "state/statetracker.h"
#include "statetestutil.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "triageviews/problemspanel.h"
#include "triageviews/timelineview.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

using namespace pd;
using namespace pd::test;

class TestProblemsPanel : public QObject {
    Q_OBJECT

private:
    DemoRounds round;

private Q_SLOTS:
    void clickingAProblemOpensTheEngine()
    {
        test::WindowFixture f;
        QVERIFY(loadDemo(&f.store));
        f.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.window));

        f.store.applyPollBatch(round({}));
        QVERIFY(f.window.problemStatusText().contains(QStringLiteral("no problems")));
        QVERIFY(!f.window.windowTitle().contains(QStringLiteral("problem")));

        // Engine 30 (d1, DP 22) refuses twice, engine 9 stalls.
        const QList<PollOutcome> bad { failed(30, PollStatus::Refused) };
        f.store.applyPollBatch(round(bad));
        f.store.applyPollBatch(round(bad));
        QCOMPARE(f.triage.count(), 1);
        QVERIFY2(f.window.windowTitle().startsWith(QStringLiteral("(1 problem) ")), qPrintable(f.window.windowTitle()));
        QVERIFY2(f.window.problemStatusText().contains(QStringLiteral("1 problem")),
            qPrintable(f.window.problemStatusText()));

        // Narrow the engine table to another node so the engine is hidden; the click must still find it.
        f.window.engineFilter()->setFilterFixedString(QStringLiteral("p0"));
        QTableView *problems = f.window.problemsPanel()->view();
        QVERIFY(f.window.problemsDock()->isVisible());
        const QModelIndex first = problems->model()->index(0, ProblemModel::WhereColumn);
        QCOMPARE(first.data(EngineIndexRole).toInt(), 30);
        QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, problems->visualRect(first).center());

        QVERIFY(f.window.detailDock()->isVisible());
        QCOMPARE(f.window.engineDetail()->engine(), 30);
        QVERIFY2(f.window.engineDetail()->stateText().contains(QStringLiteral("Unreachable")),
            qPrintable(f.window.engineDetail()->stateText()));
        QVERIFY(f.window.engineDetail()->factsText().contains(QStringLiteral("refused × 2")));
        const QModelIndex current = f.window.engineView()->selectionModel()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(f.window.engineFilter()->mapToSource(current).row(), 30);
        QVERIFY(f.window.engineView()->selectionModel()->isRowSelected(current.row(), {}));
        // The engines table shows the derived state, with its reason as tooltip.
        const QModelIndex status = current.siblingAtColumn(EngineTableModel::StatusColumn);
        QCOMPARE(status.data().toString(), QStringLiteral("Unreachable"));
        QCOMPARE(status.data(EngineStateRole).toInt(), int(EngineState::Unreachable));
        QVERIFY(status.data(Qt::ToolTipRole).toString().contains(QStringLiteral("refused")));

        // Actions are there, disabled, and say what enables them.
        for (QPushButton *b : f.window.engineDetail()->actionButtons()) {
            QVERIFY(!b->isEnabled());
            QVERIFY2(b->toolTip().contains(QStringLiteral("needs")), qPrintable(b->toolTip()));
        }

        // Acknowledge from the panel: the row says so and the count stays.
        problems->selectRow(0);
        f.window.problemsPanel()->acknowledgeSelected();
        QVERIFY(f.triage.problems().first().acknowledged);
        QVERIFY(problems->model()
                    ->index(0, ProblemModel::WhatColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("acknowledged")));

        // Look at it.
        const QString shot = QStringLiteral(PD_BINARY_DIR "/tst_problemspanel.png");
        QVERIFY(f.window.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void aBrokenGroupOffersRestartGroup()
    {
        test::WindowFixture f;
        QVERIFY(loadDemo(&f.store));
        ProblemsPanel *panel = f.window.problemsPanel();
        f.store.applyPollBatch(round({}));
        QVERIFY(panel->restartGroupButton()->isHidden());
        // Rank DP 22 of the decode group refuses: the group is broken, one problem on top, one click.
        const QList<PollOutcome> bad { failed(30, PollStatus::Refused) };
        f.store.applyPollBatch(round(bad));
        f.store.applyPollBatch(round(bad));
        QCOMPARE(f.triage.problems().first().kind, ProblemKind::GroupBroken);
        QVERIFY(!panel->restartGroupButton()->isHidden());
        QVERIFY(panel->restartGroupButton()->isEnabled());
        QSignalSpy restart(panel, &ProblemsPanel::restartGroupRequested);
        QTest::mouseClick(panel->restartGroupButton(), Qt::LeftButton);
        QCOMPARE(restart.size(), 1);
        QCOMPARE(restart.at(0).at(0).toString(), QStringLiteral("decode@127.0.0.6:13395"));
        // The engines table shows the survivors' distinct state, not Serving.
        QCOMPARE(f.window.engineFilter()
                     ->sourceModel()
                     ->index(20, EngineTableModel::StatusColumn)
                     .data(EngineStateRole)
                     .toInt(),
            int(EngineState::GroupBroken));
        // Read-only: the button stays, disabled, saying why.
        panel->setRestartGroupAvailable(false, QStringLiteral("read-only"));
        QVERIFY(!panel->restartGroupButton()->isEnabled());
        QCOMPARE(panel->restartGroupButton()->toolTip(), QStringLiteral("read-only"));
        // Healed: the button goes.
        f.store.applyPollBatch(round({}));
        QCOMPARE(f.triage.count(), 0);
        QVERIFY(panel->restartGroupButton()->isHidden());
    }

    // A stalled rank of the coupled decode group is restarted only with its group: its advice says so and
    // the panel's Restart group offers that group.
    void aStalledCoupledRankOffersItsGroupsRestart()
    {
        test::WindowFixture f;
        QVERIFY(loadDemo(&f.store));
        ProblemsPanel *panel = f.window.problemsPanel();
        f.store.applyPollBatch(round({}));
        for (int i = 0; i < 4; ++i) // requests running, counters frozen
            f.store.applyPollBatch(round({ ok(30, 100, 50, 1, 2) }));
        QCOMPARE(f.triage.count(), 1);
        const Problem &p = f.triage.problems().first();
        QCOMPARE(p.key, QStringLiteral("engine-stalled:30"));
        QVERIFY2(
            p.nextStep.contains(QStringLiteral("restart DP group decode@127.0.0.6:13395")), qPrintable(p.nextStep));
        QVERIFY(!panel->restartGroupButton()->isHidden());
        QSignalSpy restart(panel, &ProblemsPanel::restartGroupRequested);
        QTest::mouseClick(panel->restartGroupButton(), Qt::LeftButton);
        QCOMPARE(restart.size(), 1);
        QCOMPARE(restart.at(0).at(0).toString(), QStringLiteral("decode@127.0.0.6:13395"));
    }

    void timelineShowsLanesAndExportsCsv()
    {
        test::WindowFixture f;
        QVERIFY(loadDemo(&f.store, DemoCoupling::Independent));
        f.store.applyPollBatch(round({}));
        const QList<PollOutcome> bad { failed(30, PollStatus::Timeout), failed(31, PollStatus::HttpError, 500) };
        f.store.applyPollBatch(round(bad));
        f.store.applyPollBatch(round(bad));
        TimelineView *timeline = f.window.timeline();
        QCOMPARE(timeline->laneCount(), 72);
        timeline->filter()->setNode(5);
        timeline->resize(1000, 500);
        QVERIFY(timeline->grab().save(QStringLiteral(PD_BINARY_DIR "/tst_timeline.png")));
        timeline->filter()->setNode(-1);
        f.window.focusEngine(31);
        f.window.engineDetail()->resize(460, 800);
        QVERIFY(f.window.engineDetail()->grab().save(QStringLiteral(PD_BINARY_DIR "/tst_enginedetail.png")));
        timeline->filter()->setNode(5);
        QCOMPARE(timeline->laneCount(), 16);
        timeline->filter()->setText(QStringLiteral("unhealthy"));
        QCOMPARE(timeline->laneCount(), 1);
        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("events.csv"));
        QVERIFY2(timeline->exportCsv(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0), QByteArray("time,kind,where,engine,node,from,to,what,reason,evidence"));
        QVERIFY2(lines.at(1).contains(",state,d1 · 127.0.0.7:9007 (DP 23),31,5,serving,unhealthy,"),
            lines.at(1).constData());
        QVERIFY(!timeline->exportCsv(dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing/dir")), qPrintable(error));
    }
};

QTEST_MAIN(TestProblemsPanel)
#include "tst_problemspanel.moc"
