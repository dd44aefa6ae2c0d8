// SPDX-License-Identifier: MIT
// Keyboard-first use of the main window offscreen: the command palette (Ctrl+K) lists, filters and
// runs the menus' actions and the engine actions; `/` focuses the filter; j/k and arrows move through
// engines; Enter opens the detail; the shortcuts dialog lists every action that has a shortcut.
#include "actioncatalog.h"
#include "cluster/clusterstore.h"
#include "cluster/profileformat.h"
#include "commandpalette.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "shortcutsdialog.h"
#include "state/statetracker.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "triageviews/enginedetailpanel.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace pd;

namespace {

const QString kProfile = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json");

QAction *actionAt(QMenuBar *bar, const QString &path)
{
    for (const CatalogEntry &e : actionCatalog(bar))
        if (e.path == path)
            return e.action;
    return nullptr;
}

} // namespace

class TestKeyboard : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // A window with the 8-node profile, the triage docks and settings in a temporary file, shown and active.
    struct Fixture {
        ClusterStore store;
        ConsoleSettings settings;
        StateTracker tracker { &store };
        Triage triage { &tracker, &store };
        MainWindow window;
        explicit Fixture(const QString &ini, EngineMenuProvider engineMenu = {})
            : settings(ini)
            , window(MainWindowParts { &store, &tracker, &triage, &settings, {}, std::move(engineMenu) })
        {
            window.show();
            window.activateWindow();
        }
    };

private Q_SLOTS:
    // F7 validates the profile in place: nothing that hangs on profileChanged (operations, pollers,
    // state) is reset, which used to cancel every running operation.
    void validateLeavesTheProfileAndItsOperationsAlone()
    {
        Fixture f(m_dir.filePath(QStringLiteral("validate.ini")));
        const QString path = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json");
        const ProfileLoadResult loaded = loadProfileFile(path);
        QVERIFY(loaded.profile);
        f.store.setProfile(*loaded.profile, path);
        QSignalSpy changed(&f.store, &ClusterStore::profileChanged);
        QSignalSpy issues(&f.store, &ClusterStore::issuesChanged);
        QAction *validate = actionAt(f.window.menuBar(), QStringLiteral("Cluster ▸ Validate Profile"));
        QVERIFY(validate);
        validate->trigger();
        QCOMPARE(changed.count(), 0);
        QCOMPARE(issues.count(), 1);
        QCOMPARE(f.store.profilePath(), path);
    }

    void paletteListsTheWindowsActionsFiltersAndRunsTheChosenOne()
    {
        Fixture f(m_dir.filePath(QStringLiteral("palette.ini")));
        QVERIFY(f.window.openProfile(kProfile));
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        QTest::keyClick(&f.window, Qt::Key_K, Qt::ControlModifier);
        QPointer<CommandPalette> palette = f.window.findChild<CommandPalette *>();
        QVERIFY(palette);
        QTRY_VERIFY(palette->isVisible());

        // Every command of the menus, with its shortcut beside it.
        const QList<CatalogEntry> catalog = actionCatalog(f.window.menuBar());
        QVERIFY(catalog.size() >= 15);
        QCOMPARE(palette->list()->topLevelItemCount(), catalog.size());
        const QStringList paths = palette->visiblePaths();
        QVERIFY(paths.contains(QStringLiteral("File ▸ Open Profile…")));
        QVERIFY(paths.contains(QStringLiteral("Edit ▸ Preferences…")));
        QVERIFY(paths.contains(QStringLiteral("Help ▸ Keyboard Shortcuts")));
        QList<QTreeWidgetItem *> open
            = palette->list()->findItems(QStringLiteral("File ▸ Open Profile…"), Qt::MatchExactly);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first()->text(1), QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText));

        // Fuzzy: letters in order, word starts first.
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("valprof"));
        QVERIFY(!palette->visiblePaths().isEmpty());
        QCOMPARE(palette->visiblePaths().first(), QStringLiteral("Cluster ▸ Validate Profile"));
        QVERIFY(palette->visiblePaths().size() < catalog.size());
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("zzz"));
        QVERIFY(palette->visiblePaths().isEmpty());
        palette->filterEdit()->clear();
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("valprof"));

        QAction *validate = actionAt(f.window.menuBar(), QStringLiteral("Cluster ▸ Validate Profile"));
        QVERIFY(validate);
        QSignalSpy triggered(validate, &QAction::triggered);
        QTest::keyClick(palette->filterEdit(), Qt::Key_Return);
        QCOMPARE(triggered.count(), 1);
        QTRY_VERIFY(!palette); // closed and gone

        // Arrows move the highlight from the filter; Esc closes without running anything.
        f.window.openCommandPalette();
        palette = f.window.findChild<CommandPalette *>();
        QVERIFY(palette);
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("pro"));
        QVERIFY(palette->visiblePaths().size() >= 2);
        const QString first = palette->list()->currentItem()->text(0);
        QTest::keyClick(palette->filterEdit(), Qt::Key_Down);
        QVERIFY(palette->list()->currentItem()->text(0) != first);
        QTest::keyClick(palette->filterEdit(), Qt::Key_Escape);
        QTRY_VERIFY(!palette);
        QCOMPARE(triggered.count(), 1);
    }

    void paletteListsTheEngineActionsOfTheSelection()
    {
        QAction *start = nullptr;
        Fixture f(m_dir.filePath(QStringLiteral("engines.ini")), [&start](QWidget *parent) {
            auto *menu = new QMenu(parent);
            menu->addSection(QStringLiteral("d1 · 127.0.0.7:9003"));
            start = menu->addAction(QStringLiteral("Start"));
            menu->addAction(QStringLiteral("Stop"))->setEnabled(false);
            return menu;
        });
        QVERIFY(f.window.openProfile(kProfile));
        f.window.openCommandPalette();
        QPointer<CommandPalette> palette = f.window.findChild<CommandPalette *>();
        QVERIFY(palette);
        QVERIFY(start);
        QVERIFY(palette->visiblePaths().contains(QStringLiteral("Engines ▸ d1 · 127.0.0.7:9003 ▸ Start")));
        QSignalSpy triggered(start, &QAction::triggered);
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("engines stop"));
        QCOMPARE(palette->visiblePaths(), QStringList { QStringLiteral("Engines ▸ d1 · 127.0.0.7:9003 ▸ Stop") });
        QVERIFY(!palette->runCurrent()); // disabled: nothing runs
        palette->filterEdit()->clear();
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("engines start"));
        QTest::keyClick(palette->filterEdit(), Qt::Key_Enter);
        QCOMPARE(triggered.count(), 1);
        QTRY_VERIFY(!palette);
    }

    void fuzzyScoreRanksWordStartsAndRuns()
    {
        QCOMPARE(CommandPalette::fuzzyScore(QStringLiteral("xyz"), QStringLiteral("Validate Profile")), -1);
        QCOMPARE(CommandPalette::fuzzyScore(QStringLiteral("pv"), QStringLiteral("Validate Profile")), -1); // order
        QVERIFY(CommandPalette::fuzzyScore(QStringLiteral("vp"), QStringLiteral("Validate Profile"))
            > CommandPalette::fuzzyScore(QStringLiteral("vp"), QStringLiteral("Develop")));
        QVERIFY(CommandPalette::fuzzyScore(QStringLiteral("VALI"), QStringLiteral("Validate Profile")) > 0);
    }

    void slashFocusesTheFilterOfTheVisibleView()
    {
        Fixture f(m_dir.filePath(QStringLiteral("slash.ini")));
        QVERIFY(f.window.openProfile(kProfile));
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        f.window.showTopology();
        QTest::keyClick(f.window.topologyPanel()->view(), Qt::Key_Slash);
        QTRY_COMPARE(QApplication::focusWidget(), f.window.topologyPanel()->filterEdit());

        f.window.showCluster();
        f.window.engineView()->setFocus();
        QTest::keyClick(f.window.engineView(), Qt::Key_Slash);
        auto *engineFilter = f.window.findChild<QLineEdit *>(QStringLiteral("engineFilterEdit"));
        QTRY_COMPARE(QApplication::focusWidget(), engineFilter);
        QTest::keyClicks(engineFilter, QStringLiteral("9015")); // typing a slash-free filter still works
        QCOMPARE(f.window.engineView()->model()->rowCount(), 4);
    }

    void jAndKMoveThroughTheEnginesTableLikeTheArrows()
    {
        Fixture f(m_dir.filePath(QStringLiteral("jk-table.ini")));
        QVERIFY(f.window.openProfile(kProfile));
        f.window.showCluster();
        QTableView *view = f.window.engineView();
        view->setFocus();
        view->setCurrentIndex(view->model()->index(0, 0));
        QTest::keyClick(view, Qt::Key_J);
        QCOMPARE(view->currentIndex().row(), 1);
        QTest::keyClick(view, Qt::Key_J);
        QCOMPARE(view->currentIndex().row(), 2);
        QTest::keyClick(view, Qt::Key_K);
        QCOMPARE(view->currentIndex().row(), 1);
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex().row(), 2);
        QTest::keyClick(view, Qt::Key_Up);
        QCOMPARE(view->currentIndex().row(), 1);
        QTest::keyClick(view, Qt::Key_J, Qt::ControlModifier); // not ours: the row stays
        QCOMPARE(view->currentIndex().row(), 1);

        // Enter opens the engine's detail.
        QVERIFY(!f.window.detailDock()->isVisible());
        QTest::keyClick(view, Qt::Key_Return);
        QVERIFY(f.window.detailDock()->isVisible());
        const int engine = f.window.engineFilter()->mapToSource(view->currentIndex()).row();
        QCOMPARE(f.window.engineDetail()->engine(), engine);
    }

    void jAndKMoveThroughTheTopologyLikeTheArrowsAndEnterOpensTheDetail()
    {
        Fixture f(m_dir.filePath(QStringLiteral("jk-topology.ini")));
        QVERIFY(f.window.openProfile(kProfile));
        f.window.showTopology();
        TopologyView *view = f.window.topologyPanel()->view();
        view->setFocus();
        view->setCurrentEngine(0);
        QTest::keyClick(view, Qt::Key_Down);
        const int below = view->currentEngine();
        QVERIFY(below != 0);
        view->setCurrentEngine(0);
        QTest::keyClick(view, Qt::Key_J);
        QCOMPARE(view->currentEngine(), below);
        QTest::keyClick(view, Qt::Key_K);
        QCOMPARE(view->currentEngine(), 0);

        f.window.detailDock()->hide();
        view->setCurrentEngine(below);
        QTest::keyClick(view, Qt::Key_Enter);
        QVERIFY(f.window.detailDock()->isVisible());
        QCOMPARE(f.window.engineDetail()->engine(), below);
    }

    void shortcutsDialogListsEveryActionWithAShortcut()
    {
        Fixture f(m_dir.filePath(QStringLiteral("shortcuts.ini")));
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        QAction *help = actionAt(f.window.menuBar(), QStringLiteral("Help ▸ Keyboard Shortcuts"));
        QVERIFY(help);
        help->trigger();
        auto *dialog = f.window.findChild<ShortcutsDialog *>();
        QVERIFY(dialog);
        QTableWidget *table = dialog->table();
        QStringList rows;
        for (int r = 0; r < table->rowCount(); ++r)
            rows << table->item(r, 0)->text() + QLatin1Char('\t') + table->item(r, 1)->text();
        int withShortcut = 0;
        for (const CatalogEntry &e : actionCatalog(f.window.menuBar())) {
            if (e.shortcut().isEmpty())
                continue;
            ++withShortcut;
            const QString row = e.shortcut().toString(QKeySequence::NativeText) + QLatin1Char('\t') + e.path;
            QVERIFY2(rows.contains(row), qPrintable(row));
            // and its tooltip carries it
            QVERIFY2(e.action->toolTip().contains(e.shortcut().toString(QKeySequence::NativeText)), qPrintable(e.path));
        }
        QVERIFY(withShortcut >= 14); // Open, Save As, Quit, Alt+0..3, /, F7, F5, F8, Ctrl+K, Ctrl+,, F1
        QCOMPARE(table->rowCount(), withShortcut + int(ShortcutsDialog::viewKeys().size()));
        QVERIFY(rows.contains(QKeySequence(Qt::CTRL | Qt::Key_K).toString(QKeySequence::NativeText)
            + QStringLiteral("\tView ▸ Command Palette…")));
    }

    // docs/keyboard-and-settings.md carries the table the actions make (written to
    // build/dev/keyboard-table.md for pasting when it changed).
    void theDocsKeyboardTableIsTheOneTheActionsMake()
    {
        Fixture f(m_dir.filePath(QStringLiteral("docs.ini")));
        QStringList table { QStringLiteral("| keys | command |"), QStringLiteral("| --- | --- |") };
        for (const QString &row : ShortcutsDialog::rows(actionCatalog(f.window.menuBar()))) {
            const QStringList cells = row.split(QLatin1Char('\t'));
            table << QStringLiteral("| `%1` | %2 |").arg(cells.value(0), cells.value(1));
        }
        const QString generated = table.join(QLatin1Char('\n'));
        QFile out(QStringLiteral(PD_BINARY_DIR "/keyboard-table.md"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(generated.toUtf8() + '\n');
        out.close();

        QFile doc(QStringLiteral(PD_SOURCE_DIR "/docs/keyboard-and-settings.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const QString begin = QStringLiteral("<!-- keyboard-table: generated by tst_keyboard -->");
        const QString end = QStringLiteral("<!-- /keyboard-table -->");
        const qsizetype from = text.indexOf(begin);
        const qsizetype to = text.indexOf(end);
        QVERIFY(from >= 0 && to > from);
        const QString documented = text.mid(from + begin.size(), to - from - begin.size()).trimmed();
        QVERIFY2(documented == generated,
            "docs/keyboard-and-settings.md: the keyboard table differs from the actions; paste "
            "build/dev/keyboard-table.md");
    }
};

QTEST_MAIN(TestKeyboard)
#include "tst_keyboard.moc"
