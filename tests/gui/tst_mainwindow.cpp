// SPDX-License-Identifier: MIT
// The main window offscreen: opening profiles, the engine table, filtering, and the error banner.
#include "../state/statetestutil.h"
#include "cluster/clusterstore.h"
#include "errorbanner.h"
#include "mainwindow.h"
#include "state/statetracker.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Validating the profile again (F7) changes its issues, not the cluster: the topology keeps what the
    // tracker derived (an engine stopped on purpose stays Stopped instead of the HTTP polls' Unreachable).
    void aValidationKeepsTheTopologysStates()
    {
        test::WindowFixture f;
        ClusterStore &store = f.store;
        StateTracker &tracker = f.tracker;
        MainWindow &window = f.window;
        std::int64_t now = 1'800'000'000'000;
        tracker.setClock([&now] { return now; });
        QVERIFY(test::loadDemo(&store, test::DemoCoupling::Independent));
        window.show();
        int tick = 0;
        auto round = [&](const QList<PollOutcome> &special) {
            PollBatch batch = test::healthyRound(tracker.engineCount(), ++tick);
            for (const PollOutcome &o : special)
                batch.outcomes[o.engine] = o;
            now += 1000;
            store.applyPollBatch(batch);
        };
        round({});
        tracker.setIntent(3, OperatorIntent::Stop, QStringLiteral("scale-in"));
        round({test::failed(3, PollStatus::Refused)});
        round({test::failed(3, PollStatus::Refused)});
        QCOMPARE(tracker.state(3), EngineState::Stopped);
        TopologyView *view = window.topologyPanel()->view();
        QCOMPARE(view->state(3), EngineState::Stopped);
        QCOMPARE(view->state(5), EngineState::Serving);
        QSignalSpy validated(&store, &ClusterStore::issuesChanged);
        store.revalidate();
        QCOMPARE(validated.size(), 1);
        QCOMPARE(view->state(3), EngineState::Stopped);
        QCOMPARE(view->state(5), EngineState::Serving);
    }

    void opensTheEightNodeProfile()
    {
        test::WindowFixture f;
        MainWindow &window = f.window;
        window.show();
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        QCOMPARE(window.engineView()->model()->rowCount(), 72);
        QCOMPARE(window.nodeView()->model()->rowCount(), 8);
        QVERIFY(window.windowTitle().contains(QStringLiteral("deepseek-r1-8node")));
        QVERIFY(window.recentProfiles().value(0).endsWith(QStringLiteral("deepseek-r1-8node.json")));
        QVERIFY(!window.errorBanner()->isVisible());

        const QString shot = QStringLiteral(PD_BINARY_DIR "/screenshots/mainwindow-8node.png");
        QDir().mkpath(QFileInfo(shot).absolutePath());
        QVERIFY(window.grab().save(shot));
        QVERIFY(QFileInfo(shot).size() > 10000);
    }

    // Reload, open and quit ask the leave guard first (the console's asks when operations run: they would
    // be cancelled); "no" keeps the profile, the store untouched and the window open.
    void theLeaveGuardCanKeepTheProfileAndTheWindow()
    {
        const QString first = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json");
        const QString second = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json");
        QStringList asked;
        bool allow = false;
        std::function<void()> later; // what a guard that waits keeps, to do it when operations end
        test::WindowFixture f(nullptr, [&](const QString &what, std::function<void()> proceed) {
            asked << what;
            later = std::move(proceed);
            return allow;
        });
        ClusterStore &store = f.store;
        MainWindow &window = f.window;
        window.show();
        QVERIFY(window.openProfile(first)); // nothing open yet: nothing to leave, not asked
        QVERIFY(asked.isEmpty());
        QSignalSpy changed(&store, &ClusterStore::profileChanged);
        QVERIFY(!window.openProfile(second));
        QVERIFY(!window.openProfile(first));
        QCOMPARE(asked, (QStringList{QStringLiteral("open demo-loopback.json"), QStringLiteral("reload the profile")}));
        QCOMPARE(changed.count(), 0);
        QVERIFY(store.profilePath().endsWith(QStringLiteral("deepseek-r1-8node.json")));
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        QCOMPARE(asked.last(), QStringLiteral("quit"));
        // "Wait for them": refused now, done when the guard calls back (asked again, now allowed).
        QVERIFY(!window.openProfile(second));
        QCOMPARE(changed.count(), 0);
        allow = true;
        std::function<void()> proceed = later; // the guard is asked again (and keeps a new one) inside
        proceed();
        QCOMPARE(changed.count(), 1);
        QVERIFY(store.profilePath().endsWith(QStringLiteral("demo-loopback.json")));
        allow = false;
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        allow = true;
        proceed = later;
        proceed(); // the quit that waited
        QVERIFY(!window.isVisible());
    }

    // The status bar says which variable the bearer token comes from, and whether it is set or refused.
    void theApiKeyVariableInUseIsShown()
    {
        QTemporaryDir dir;
        QFile in(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray original = in.readAll();
        const auto withKey = [&](const char *name) {
            QByteArray text = original;
            const QByteArray replacement = QByteArray("\"api_key_env\": \"") + name + "\"";
            text.replace(QByteArray("\"api_key_env\": \"\""), replacement);
            const QString path = dir.filePath(QString::fromLatin1(name) + QStringLiteral(".json"));
            QFile out(path);
            if (out.open(QIODevice::WriteOnly))
                out.write(text);
            return path;
        };
        test::WindowFixture f;
        MainWindow &window = f.window;
        qputenv("PDTEST_SHOWN_API_KEY", "secret");
        QVERIFY(window.openProfile(withKey("PDTEST_SHOWN_API_KEY")));
        QVERIFY2(window.summaryLabel()->text().contains(QStringLiteral("API key from $PDTEST_SHOWN_API_KEY (set)")),
                 qPrintable(window.summaryLabel()->text()));
        QVERIFY(!window.summaryLabel()->text().contains(QStringLiteral("secret")));
        qunsetenv("PDTEST_SHOWN_API_KEY");
        QVERIFY(window.openProfile(withKey("PDTEST_UNSET_TOKEN")));
        QVERIFY2(window.summaryLabel()->text().contains(QStringLiteral("API key from $PDTEST_UNSET_TOKEN (not set)")),
                 qPrintable(window.summaryLabel()->text()));
        QVERIFY(window.openProfile(withKey("AWS_SECRET_ACCESS_KEY")));
        QVERIFY2(window.summaryLabel()->text().contains(QStringLiteral("$AWS_SECRET_ACCESS_KEY (refused")),
                 qPrintable(window.summaryLabel()->text()));
    }

    void selectingNodesNarrowsTheEngineList()
    {
        test::WindowFixture f;
        MainWindow &window = f.window;
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        QTableView *nodes = window.nodeView();
        // Rows are sorted by node name in the view; find d1 by its text.
        int d1Row = -1;
        for (int r = 0; r < nodes->model()->rowCount(); ++r)
            if (nodes->model()->index(r, 0).data().toString() == QLatin1String("d1"))
                d1Row = r;
        QVERIFY(d1Row >= 0);
        nodes->selectionModel()->select(nodes->model()->index(d1Row, 0),
                                        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(window.engineView()->model()->rowCount(), 16);
        auto *filter = window.findChild<QLineEdit *>(QStringLiteral("engineFilterEdit"));
        QVERIFY(filter);
        filter->setText(QStringLiteral("9015"));
        QCOMPARE(window.engineView()->model()->rowCount(), 1);
        nodes->selectionModel()->clearSelection();
        QCOMPARE(window.engineView()->model()->rowCount(), 4); // port 9015: the last engine of each decode node
    }

    void aBrokenProfileShowsWhereAndKeepsTheOpenCluster()
    {
        test::WindowFixture f;
        MainWindow &window = f.window;
        window.show();
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n  \"format\": \"pdconsole-profile\",\n  \"version\": 1,\n  \"name\": \"x\"\n  \"nodes\": []\n}\n");
        file.close();
        QVERIFY(!window.openProfile(broken));
        QVERIFY(window.errorBanner()->isVisible());
        QVERIFY2(window.errorBanner()->text().contains(QStringLiteral("broken.json:5:")), qPrintable(window.errorBanner()->text()));
        QCOMPARE(window.engineView()->model()->rowCount(), 72);
        QCOMPARE(f.store.profile().name, QStringLiteral("deepseek-r1-8node"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
