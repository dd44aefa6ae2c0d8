// SPDX-License-Identifier: MIT
// The topology canvas offscreen: selection by click, Shift/Ctrl-click and rubber band, the filter box,
// keyboard navigation and activation, zoom and fit, what a state change repaints, tooltips, node
// badges, the main window's Topology tab; and the screenshots at 72 and 1,024 engines.
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "mainwindow.h"
#include "poolsview.h"
#include "state/statetracker.h"
#include "topology/engineinfoprovider.h"
#include "topology/syntheticprofile.h"
#include "topologyview/statestyle.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "windowfixture.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace pd;

namespace {

Profile bundledProfile()
{
    return loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json"))
        .profile.value_or(Profile());
}

// A realistic mix: mostly serving, one engine of every other state, a stalled node's worth of cells.
QVector<EngineState> mixedStates(int engines)
{
    QVector<EngineState> states(engines, EngineState::Serving);
    for (int s = 0; s < StateStyle::kStateCount && s < engines; ++s)
        states[(s * 7 + 3) % engines] = EngineState(s);
    return states;
}

class FakeProvider final : public EngineInfoProvider {
public:
    EngineSummary summary(int engine) const override
    {
        EngineSummary s;
        s.state = EngineState::Stalled;
        s.since = QDateTime::currentDateTimeUtc().addSecs(-300);
        s.evidence = QStringLiteral("3 running, tokens frozen for 5 polls");
        s.lastError = QStringLiteral("engine %1: no progress").arg(engine);
        s.metrics = { { QStringLiteral("KV cache"), QStringLiteral("87.5 %") } };
        return s;
    }
    double metricValue(int engine, Metric metric) const override
    {
        if (metric == Metric::KvUsage)
            return engine % 3 == 0 ? kAbsent : (engine % 10) / 10.0;
        return engine;
    }
};

QString screenshotPath(const QString &name)
{
    const QString path = QStringLiteral(PD_BINARY_DIR "/screenshots/") + name;
    QDir().mkpath(QFileInfo(path).absolutePath());
    return path;
}

QPoint centreOf(const TopologyView &view, int engine)
{
    return view.engineViewRect(engine).center();
}

} // namespace

class TestTopologyView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clickSelectsShiftAdds()
    {
        TopologyView view;
        view.resize(1400, 900);
        view.setProfile(bundledProfile());
        view.show();
        QSignalSpy selection(&view, &TopologyView::selectionChanged);
        QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, 10));
        QCOMPARE(view.selectedEngines(), QList<int> { 10 });
        QCOMPARE(view.currentEngine(), 10);
        QCOMPARE(selection.last().at(0).value<QList<int>>(), QList<int> { 10 });

        QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, centreOf(view, 40));
        QCOMPARE(view.selectedEngines(), (QList<int> { 10, 40 }));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ControlModifier, centreOf(view, 41));
        QCOMPARE(view.selectedEngines(), (QList<int> { 10, 40, 41 }));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, centreOf(view, 10));
        QCOMPARE(view.selectedEngines(), (QList<int> { 40, 41 }));
        QCOMPARE(selection.last().at(0).value<QList<int>>(), (QList<int> { 40, 41 }));

        // A plain click elsewhere replaces; a click on empty canvas clears.
        QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, 5));
        QCOMPARE(view.selectedEngines(), QList<int> { 5 });
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(3, 3));
        QVERIFY(view.selectedEngines().isEmpty());
    }

    void rightClickAsksForTheMenuOfTheSelection()
    {
        TopologyView view;
        view.resize(1400, 900);
        view.setProfile(bundledProfile());
        view.show();
        QSignalSpy menu(&view, &TopologyView::contextMenuRequested);
        // On an unselected engine: it becomes the selection, and the menu is for it.
        QTest::mouseClick(&view, Qt::RightButton, {}, centreOf(view, 12));
        QCOMPARE(menu.size(), 1);
        QCOMPARE(menu.last().at(0).toInt(), 12);
        QCOMPARE(menu.last().at(1).toInt(), -1);
        QCOMPARE(view.selectedEngines(), QList<int>{12});
        // On an engine of a larger selection: the selection stays.
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, centreOf(view, 13));
        QTest::mouseClick(&view, Qt::RightButton, {}, centreOf(view, 13));
        QCOMPARE(menu.size(), 2);
        QCOMPARE(view.selectedEngines(), (QList<int>{12, 13}));
        // On a node's box outside its cells: the node.
        const int node = view.layout().nodeAt(view.mapToScene(QPointF(view.engineViewRect(0).topLeft()) - QPointF(0, 4)));
        if (node >= 0) {
            QTest::mouseClick(&view, Qt::RightButton, {}, view.engineViewRect(0).topLeft() - QPoint(0, 4));
            QCOMPARE(menu.last().at(0).toInt(), -1);
            QCOMPARE(menu.last().at(1).toInt(), node);
        }
        // On the proxy's box: the proxy's menu, not an engine's or a node's.
        QSignalSpy proxyMenu(&view, &TopologyView::proxyContextMenuRequested);
        const int engineMenus = int(menu.size());
        const QPoint proxy = view.mapToView(view.layout().proxyRect().center()).toPoint();
        QTest::mouseClick(&view, Qt::RightButton, {}, proxy);
        QCOMPARE(proxyMenu.size(), 1);
        QCOMPARE(proxyMenu.last().at(0).toPoint(), view.mapToGlobal(proxy));
        QCOMPARE(menu.size(), engineMenus);
        QCOMPARE(view.selectedEngines(), (QList<int>{12, 13})); // the selection is left alone
        // A right-drag pans and asks for nothing.
        const QPoint from = centreOf(view, 30);
        QTest::mousePress(&view, Qt::RightButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(60, 40)), view.mapToGlobal(QPointF(from + QPoint(60, 40))),
                         Qt::NoButton, Qt::RightButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        const int before = int(menu.size());
        QTest::mouseRelease(&view, Qt::RightButton, {}, from + QPoint(60, 40));
        QCOMPARE(menu.size(), before);
    }

    void rubberBandSelectsAndShiftAdds()
    {
        TopologyView view;
        view.resize(1400, 900);
        const Profile profile = bundledProfile();
        view.setProfile(profile);
        view.show();
        // Engines 8.. are d0's 16 cells in two rows of 8: drag from cell 8 to cell 19 (row 1, col 3).
        const QPoint from = view.engineViewRect(8).topLeft() + QPoint(2, 2);
        const QPoint to = view.engineViewRect(19).bottomRight() - QPoint(2, 2);
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QTest::mouseMove(&view, from + QPoint(10, 10));
        QTest::mouseMove(&view, to);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
        QCOMPARE(view.selectedEngines(), (QList<int> { 8, 9, 10, 11, 16, 17, 18, 19 }));

        // Shift keeps what was selected and adds the prefill engines 0-1.
        const QPoint p0 = view.engineViewRect(0).topLeft() + QPoint(2, 2);
        const QPoint p1 = view.engineViewRect(1).bottomRight() - QPoint(2, 2);
        QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, p0);
        QTest::mouseMove(&view, p1);
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, p1);
        QCOMPARE(view.selectedEngines(), (QList<int> { 0, 1, 8, 9, 10, 11, 16, 17, 18, 19 }));

        // With a filter, a band takes only what the filter shows.
        TopologyFilter filter;
        filter.text = QStringLiteral(":9010");
        view.setFilter(filter);
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QTest::mouseMove(&view, to);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
        QCOMPARE(view.selectedEngines(), QList<int> { 18 });
    }

    void filterDimsWhatDoesNotMatch()
    {
        TopologyPanel panel;
        panel.resize(1400, 900);
        const Profile profile = bundledProfile();
        panel.setProfile(profile);
        TopologyView *view = panel.view();
        view->setStates(mixedStates(72));
        QCOMPARE(view->matchCount(), 72);

        panel.filterEdit()->setText(QStringLiteral("d1"));
        QCOMPARE(view->matchCount(), 16);
        for (int e = 0; e < 72; ++e)
            QCOMPARE(view->matchesFilter(e),
                profile.nodes.at(profile.engines().at(e).nodeIndex).name == QLatin1String("d1"));
        // A dimmed cell is painted pale, a matching one in its state colour.
        QImage shot = view->grab().toImage();
        const int dimmed = 0; // p0, not d1
        const int shown = 24; // d1's first engine (8 prefill + 16 on d0)
        QVERIFY(view->matchesFilter(shown));
        QCOMPARE(shot.pixelColor(view->engineViewRect(shown).topLeft() + QPoint(6, 14)).rgb(),
            StateStyle::fill(view->state(shown)).rgb());
        QVERIFY(shot.pixelColor(view->engineViewRect(dimmed).topLeft() + QPoint(6, 14)).rgb()
            != StateStyle::fill(view->state(dimmed)).rgb());

        panel.filterEdit()->clear();
        panel.stateCombo()->setCurrentIndex(1); // problems: stalled, unhealthy, unreachable, group broken
        QCOMPARE(view->matchCount(), 4);
        // A state change moves an engine in or out of a state filter.
        view->setState(30, EngineState::Unreachable);
        QCOMPARE(view->matchCount(), 5);
        QVERIFY(view->matchesFilter(30));

        panel.stateCombo()->setCurrentIndex(0);
        panel.roleCombo()->setCurrentIndex(1); // prefill
        QCOMPARE(view->matchCount(), 8);
        panel.roleCombo()->setCurrentIndex(0);
        panel.nodeCombo()->setCurrentIndex(5); // "All nodes" then the nodes in order: d0
        QCOMPARE(view->matchCount(), 16);
        QCOMPARE(view->filter().node, 4);
    }

    void aBrokenGroupIsFramedAtAGlance()
    {
        TopologyView view;
        view.resize(1400, 900);
        const Profile profile = bundledProfile();
        view.setProfile(profile);
        view.setStates(QVector<EngineState>(72, EngineState::Serving));
        view.show();
        // The 8-node guide: 4 prefill groups of 2 (one node each), one coupled decode group of 64 on 4 nodes.
        const QString decode = QStringLiteral("decode@192.0.0.5:13395");
        QCOMPARE(int(view.groupFrames().size()), 5);
        int f = -1;
        for (int i = 0; i < int(view.groupFrames().size()); ++i)
            f = view.groupFrames()[std::size_t(i)].id == decode ? i : f;
        QVERIFY(f >= 0);
        const TopologyView::GroupFrame &frame = view.groupFrames()[std::size_t(f)];
        QCOMPARE(frame.nodeCount, 4);
        QCOMPARE(frame.engines.size(), 64);
        // The frame holds all four decode node boxes.
        for (const NodeBox &box : view.layout().nodes()) {
            if (box.role == Role::Decode)
                QVERIFY(frame.rect.contains(box.rect));
        }
        QVERIFY(!view.isGroupBroken(decode));
        const QRect label = view.groupLabelViewRect(f);
        const QColor bad = StateStyle::canvasColors(false).bad;
        QVERIFY(view.grab().toImage().pixelColor(label.left() + 3, label.center().y()).rgb() != bad.rgb());

        // Rank 127.0.0.x:… of d1 dies, the 63 others show "group broken": a red frame and band at a glance.
        const int dead = 8 + 16 + 3;
        for (int e = 8; e < 72; ++e)
            view.setState(e, e == dead ? EngineState::Unreachable : EngineState::GroupBroken);
        QVERIFY(view.isGroupBroken(decode));
        QCOMPARE(view.stateCount(EngineState::GroupBroken), 63);
        const QImage shot = view.grab().toImage();
        QCOMPARE(shot.pixelColor(label.left() + 3, label.center().y()).rgb(), bad.rgb());
        const QRect outline = QRectF(view.mapToView(frame.rect.topLeft()), view.mapToView(frame.rect.bottomRight())).toRect();
        QCOMPARE(shot.pixelColor(outline.left(), outline.center().y()).rgb(), bad.rgb());
        // The prefill groups stay unframed (one node each, nothing broken).
        QVERIFY(!view.isGroupBroken(QStringLiteral("prefill@") + profile.nodes.first().engineGroups.first().dpAddress
            + QStringLiteral(":") + QString::number(profile.nodes.first().engineGroups.first().dpPort)));
        QVERIFY(shot.save(screenshotPath(QStringLiteral("topology-group-broken-1400.png"))));
        view.resize(2400, 1500);
        QVERIFY(view.grab().save(screenshotPath(QStringLiteral("topology-group-broken-2400.png"))));
        view.resize(1400, 900);

        // Healed: every rank serves, the frame is plain again.
        for (int e = 8; e < 72; ++e)
            view.setState(e, EngineState::Serving);
        QVERIFY(!view.isGroupBroken(decode));
        QVERIFY(view.grab().toImage().pixelColor(label.left() + 3, label.center().y()).rgb() != bad.rgb());
    }

    void keyboardMovesAndActivates()
    {
        TopologyView view;
        view.resize(1400, 900);
        view.setProfile(bundledProfile());
        view.show();
        view.setFocus();
        QSignalSpy activated(&view, &TopologyView::activated);
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.currentEngine(), 0);
        view.setCurrentEngine(8);
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.currentEngine(), 9);
        QCOMPARE(view.selectedEngines(), QList<int> { 9 });
        QTest::keyClick(&view, Qt::Key_Down);
        QCOMPARE(view.currentEngine(), 17);
        QTest::keyClick(&view, Qt::Key_Left, Qt::ShiftModifier);
        QCOMPARE(view.currentEngine(), 16);
        QCOMPARE(view.selectedEngines(), (QList<int> { 16, 17 }));
        QTest::keyClick(&view, Qt::Key_Return);
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), 16);
        QTest::keyClick(&view, Qt::Key_Escape);
        QVERIFY(view.selectedEngines().isEmpty());
        // Double-click activates too.
        QTest::mouseDClick(&view, Qt::LeftButton, {}, centreOf(view, 3));
        QCOMPARE(activated.size(), 2);
        QCOMPARE(activated.at(1).at(0).toInt(), 3);
    }

    void zoomAndFit()
    {
        TopologyView view;
        view.resize(1200, 800);
        view.setProfile(syntheticProfile(1024));
        view.show();
        // Fit shows the whole layout above the legend.
        const QRectF fitted(
            view.mapToView(view.layout().bounds().topLeft()), view.mapToView(view.layout().bounds().bottomRight()));
        QVERIFY(QRectF(view.rect()).contains(fitted));
        QVERIFY(fitted.bottom() <= view.legendRect().top());
        const double fit = view.zoom();
        QTest::keyClick(&view, Qt::Key_Plus);
        QVERIFY(view.zoom() > fit);
        // The wheel zooms around the cursor: the scene point under it stays put.
        const QPoint cursor = centreOf(view, 500);
        const QPointF before = view.mapToScene(cursor);
        QWheelEvent wheel(
            cursor, view.mapToGlobal(cursor), {}, QPoint(0, 240), Qt::NoButton, {}, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.zoom() > fit * 1.25);
        QVERIFY((view.mapToScene(cursor) - before).manhattanLength() < 0.01);
        QCOMPARE(view.layout().engineAt(view.mapToScene(cursor)), 500);
        // Alt-drag pans.
        const QPointF anchor = view.mapToView(QPointF(0, 0));
        QTest::mousePress(&view, Qt::LeftButton, Qt::AltModifier, QPoint(600, 400));
        QTest::mouseMove(&view, QPoint(650, 380));
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::AltModifier, QPoint(650, 380));
        QCOMPARE(view.mapToView(QPointF(0, 0)), anchor + QPointF(50, -20));
        QVERIFY(view.selectedEngines().isEmpty());
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.zoom(), fit);
        // Keyboard navigation scrolls the current engine into view.
        QTest::keyClick(&view, Qt::Key_Plus);
        QTest::keyClick(&view, Qt::Key_Plus);
        QTest::keyClick(&view, Qt::Key_Plus);
        view.setCurrentEngine(1023);
        QVERIFY(view.rect().contains(view.engineViewRect(1023)));
    }

    void aStateChangeRepaintsItsCellAndCounts()
    {
        TopologyView view;
        view.resize(1400, 900);
        view.setProfile(bundledProfile());
        view.setStates(QVector<EngineState>(72, EngineState::Serving));
        QCOMPARE(view.stateCount(EngineState::Serving), 72);
        view.setState(12, EngineState::Stalled);
        QCOMPARE(view.stateCount(EngineState::Serving), 71);
        QCOMPARE(view.stateCount(EngineState::Stalled), 1);
        const QRegion dirty = view.lastUpdateRegion();
        QVERIFY(dirty.contains(view.engineViewRect(12)));
        QVERIFY(!dirty.contains(view.engineViewRect(13).center()));
        QVERIFY(dirty.boundingRect().height() < view.height()); // not the whole widget...
        QVERIFY(dirty.rectCount() <= 4); // ...but the cell, a title, two legend entries
        const QImage shot = view.grab().toImage();
        QCOMPARE(shot.pixelColor(view.engineViewRect(12).topLeft() + QPoint(8, 18)).rgb(),
            StateStyle::fill(EngineState::Stalled).rgb());
        QCOMPARE(shot.pixelColor(view.engineViewRect(13).topLeft() + QPoint(8, 18)).rgb(),
            StateStyle::fill(EngineState::Serving).rgb());
        // Setting the same state again repaints nothing new.
        view.setState(12, EngineState::Stalled);
        QCOMPARE(view.stateCount(EngineState::Stalled), 1);
    }

    void tooltipsTellStateSinceErrorAndFigures()
    {
        TopologyView view;
        view.resize(1400, 900);
        view.setProfile(bundledProfile());
        view.setState(9, EngineState::Stalled);
        QString tip = view.toolTipFor(centreOf(view, 9));
        QVERIFY(tip.contains(QStringLiteral("d0")));
        QVERIFY(tip.contains(QStringLiteral("DP rank 1 / 64")));
        QVERIFY(tip.contains(QStringLiteral("Stalled")));
        FakeProvider provider;
        view.setInfoProvider(&provider);
        tip = view.toolTipFor(centreOf(view, 9));
        QVERIFY(tip.contains(QStringLiteral("since")));
        QVERIFY(tip.contains(QStringLiteral("5 min ago")));
        QVERIFY(tip.contains(QStringLiteral("engine 9: no progress")));
        QVERIFY(tip.contains(QStringLiteral("tokens frozen")));
        QVERIFY(tip.contains(QStringLiteral("87.5 %")));

        // Node badges: set, shown in the tooltip, cleared.
        const NodeBox &d1 = view.layout().nodes().at(5);
        view.setNodeBadges(5, NodeBadge::SshDown | NodeBadge::NpuUnhealthy, QStringLiteral("ssh: connection refused"));
        QCOMPARE(view.nodeBadges(5), NodeBadge::SshDown | NodeBadge::NpuUnhealthy);
        const QPoint title = view.mapToView(d1.titleRect.topLeft() + QPointF(4, 4)).toPoint();
        tip = view.toolTipFor(title);
        QVERIFY(tip.contains(QStringLiteral("SSH down")));
        QVERIFY(tip.contains(QStringLiteral("NPU")));
        QVERIFY(tip.contains(QStringLiteral("connection refused")));
        view.setNodeBadges(5, {});
        QVERIFY(!view.toolTipFor(title).contains(QStringLiteral("SSH down")));
        // The proxy box.
        QVERIFY(view.toolTipFor(view.mapToView(view.layout().proxyRect().center()).toPoint())
                    .contains(QStringLiteral("not answered")));
        ProxyHealth down;
        down.error = QStringLiteral("connection refused");
        view.setProxyHealth(down);
        QVERIFY(view.toolTipFor(view.mapToView(view.layout().proxyRect().center()).toPoint())
                    .contains(QStringLiteral("unreachable")));
    }

    void colourByMetric()
    {
        TopologyView view;
        view.resize(1200, 800);
        view.setProfile(syntheticProfile(64));
        FakeProvider provider;
        view.setInfoProvider(&provider);
        view.setColorBy(TopologyView::ColorBy::KvUsage);
        const QImage shot = view.grab().toImage();
        // Engine 5: 50 % KV; engine 3: no value (grey, hatched).
        QCOMPARE(shot.pixelColor(view.engineViewRect(5).topLeft() + QPoint(3, 3)).rgb(), metricColor(0.5).rgb());
        QVERIFY(shot.pixelColor(view.engineViewRect(3).topLeft() + QPoint(3, 3)).rgb() != metricColor(0).rgb());
    }

    void mainWindowTabOpensEngineCharts()
    {
        test::WindowFixture f;
        ClusterStore &store = f.store;
        StateTracker &tracker = f.tracker;
        MainWindow &window = f.window;
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget(), window.topologyPanel());
        TopologyView *view = window.topologyPanel()->view();
        QCOMPARE(view->layout().engineCount(), 72);
        QCOMPARE(view->stateCount(EngineState::Unknown), 72);
        // Observations reach the canvas through the state tracker, the one deriver of states.
        PollOutcome ok;
        ok.engine = 3;
        ok.status = PollStatus::Ok;
        ok.healthStatus = 200;
        ok.metrics = EngineMetrics();
        PollOutcome answered = ok;
        answered.engine = 4;
        PollOutcome refused;
        refused.engine = 4;
        refused.status = PollStatus::Refused;
        refused.error = QStringLiteral("connection refused");
        PollBatch batch;
        batch.outcomes = { ok, answered };
        store.applyPollBatch(batch);
        batch.outcomes = { ok, refused };
        for (int poll = 0; poll < tracker.thresholds().stalePolls; ++poll)
            store.applyPollBatch(batch);
        QCOMPARE(view->state(3), tracker.state(3));
        QCOMPARE(view->state(3), EngineState::Serving);
        QCOMPARE(view->state(4), EngineState::Unreachable);
        QVERIFY(view->toolTipFor(view->engineViewRect(4).center()).contains(QStringLiteral("connection refused")));
        // Activating an engine opens its charts, like double-click in the engine table.
        Q_EMIT view->activated(20);
        QCOMPARE(tabs->currentWidget(), window.poolsView());
        QCOMPARE(window.poolsView()->engine(), 20);
    }

    void screenshots()
    {
        {
            test::WindowFixture f;
            MainWindow &window = f.window;
            window.resize(1500, 950);
            QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
            TopologyView *view = window.topologyPanel()->view();
            view->setStates(mixedStates(72));
            for (int e = 60; e < 64; ++e)
                view->setState(e, EngineState::Stalled);
            view->setNodeBadges(7, NodeBadge::SshDown | NodeBadge::NetworkCheckFailed);
            ProxyHealth health;
            health.reachable = true;
            health.prefillInstances = 8;
            health.decodeInstances = 63;
            health.requestNum = 42;
            health.when = QDateTime::currentDateTimeUtc();
            window.showProxyHealth(health);
            view->setSelectedEngines({ 24, 25 });
            window.show();
            QVERIFY(window.grab().save(screenshotPath(QStringLiteral("topology-8.png"))));
        }
        {
            TopologyPanel panel;
            panel.resize(1500, 950);
            panel.setProfile(syntheticProfile(1024));
            QVector<EngineState> states = mixedStates(1024);
            for (int e = 205 + 25 * 16; e < 205 + 26 * 16; ++e)
                states[e] = EngineState::Unreachable; // all of d25 gone (205 prefill engines come first)
            for (int e : { 100, 333, 777, 901 })
                states[e] = EngineState::Stalled;
            panel.view()->setStates(states);
            panel.view()->setNodeBadges(40, NodeBadge::SshDown);
            panel.show();
            QVERIFY(panel.grab().save(screenshotPath(QStringLiteral("topology-1024.png"))));
        }
    }
};

QTEST_MAIN(TestTopologyView)
#include "tst_topologyview.moc"
