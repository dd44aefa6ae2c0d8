// SPDX-License-Identifier: MIT
// The Preferences dialog over a settings file, and the window layout (geometry, docks, splitter) and
// recent profiles kept in it across windows.
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "settingsdialog.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;
using Key = ConsoleSettings::Key;

class TestSettingsDialog : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void theDialogShowsStoresAndRestoresDefaults()
    {
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("dialog.ini")));
        QVERIFY(settings.setValue(Key::PollIntervalMs, 2500));
        QVERIFY(settings.setValue(Key::Theme, QStringLiteral("light")));
        SettingsDialog dialog(&settings);
        QCOMPARE(dialog.pollIntervalBox()->value(), 2500);
        QCOMPARE(dialog.themeBox()->currentData().toString(), QStringLiteral("light"));

        dialog.pollIntervalBox()->setValue(4000);
        dialog.themeBox()->setCurrentIndex(dialog.themeBox()->findData(QStringLiteral("dark")));
        dialog.languageBox()->setCurrentIndex(dialog.languageBox()->findData(QStringLiteral("zh_CN")));
        dialog.store();
        QCOMPARE(settings.pollIntervalMs(), 4000);
        QCOMPARE(settings.theme(), Theme::Dark);
        QCOMPARE(settings.language(), QStringLiteral("zh_CN"));
        QCOMPARE(settings.stateThresholds(), StateThresholds {}); // untouched fields keep their values
        {
            ConsoleSettings again(m_dir.filePath(QStringLiteral("dialog.ini"))); // written to the file
            QCOMPARE(again.pollIntervalMs(), 4000);
        }

        dialog.restoreDefaults();
        dialog.store();
        QCOMPARE(settings.pollIntervalMs(), ConsoleSettings::defaultValue(Key::PollIntervalMs).toInt());
        QCOMPARE(settings.theme(), Theme::System);
        QCOMPARE(settings.language(), QStringLiteral("en"));
        QVERIFY(settings.warnings().isEmpty());
    }

    // The watchdog's settings: auto-eject off by default, stored with its guardrails; a webhook that is no
    // http(s) URL is said in the dialog and stored nowhere.
    void theWatchdogSettings()
    {
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("watch.ini")));
        QVERIFY(!settings.ejectionSettings().enabled);
        QVERIFY(settings.webhookUrl().isEmpty());
        SettingsDialog dialog(&settings);
        auto *autoEject = dialog.findChild<QCheckBox *>();
        QList<QCheckBox *> boxes = dialog.findChildren<QCheckBox *>();
        for (QCheckBox *box : boxes)
            if (box->text().contains(QStringLiteral("auto-eject")))
                autoEject = box;
        QVERIFY(autoEject && autoEject->text().contains(QStringLiteral("auto-eject")));
        QVERIFY(!autoEject->isChecked());
        autoEject->setChecked(true);
        QLineEdit *webhook = nullptr;
        for (QLineEdit *edit : dialog.findChildren<QLineEdit *>())
            if (edit->placeholderText().startsWith(QStringLiteral("https://")))
                webhook = edit;
        QVERIFY(webhook);

        webhook->setText(QStringLiteral("ftp://alerts.example/hook"));
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QSignalSpy applied(&dialog, &SettingsDialog::applied);
        ok->click();
        QCOMPARE(applied.size(), 0); // refused: the dialog stays, nothing stored
        QVERIFY(!settings.ejectionSettings().enabled);
        QVERIFY(settings.webhookUrl().isEmpty());

        webhook->setText(QStringLiteral("http://127.0.0.1:9/hook"));
        ok->click();
        QCOMPARE(applied.size(), 1);
        QVERIFY(settings.ejectionSettings().enabled);
        QCOMPARE(settings.webhookUrl(), QStringLiteral("http://127.0.0.1:9/hook"));
        QCOMPARE(settings.ejectionSettings().maxEjections, EjectionSettings{}.maxEjections);
        ConsoleSettings again(m_dir.filePath(QStringLiteral("watch.ini")));
        QVERIFY(again.ejectionSettings().enabled);
    }

    void preferencesIsInTheMenuAndOkAnnouncesTheChange()
    {
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("menu.ini")));
        test::WindowFixture f(&settings);
        MainWindow &window = f.window;
        auto *preferences = window.findChild<QAction *>(QStringLiteral("actionPreferences"));
        QVERIFY(preferences);
        QCOMPARE(preferences->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));
        QSignalSpy changed(&window, &MainWindow::settingsChanged);
        preferences->trigger();
        auto *dialog = window.findChild<SettingsDialog *>();
        QVERIFY(dialog);
        dialog->pollIntervalBox()->setValue(3000);
        auto *buttons = dialog->findChild<QDialogButtonBox *>();
        QVERIFY(buttons);
        QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(settings.pollIntervalMs(), 3000);
    }

    void theLayoutAndTheRecentProfilesComeBack()
    {
        const QString file = m_dir.filePath(QStringLiteral("layout.ini"));
        const QString profile = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json");
        QList<int> sizes;
        QSize size;
        {
            ConsoleSettings settings(file);
            test::WindowFixture f(&settings);
            MainWindow &window = f.window;
            QVERIFY(window.openProfile(profile));
            window.show();
            window.resize(1000, 700); // the width is held at the window's minimum
            size = window.size();
            QVERIFY(size != QSize(1400, 900)); // not the default size
            auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            window.showCluster();
            splitter->setSizes({ 150, 450 });
            sizes = splitter->sizes();
            window.findChild<QDockWidget *>(QStringLiteral("issueDock"))->hide();
            window.close(); // saves the layout
        }
        ConsoleSettings settings(file);
        QVERIFY(!settings.value(Key::WindowGeometry).toByteArray().isEmpty());
        QCOMPARE(settings.lastProfile(), QFileInfo(profile).absoluteFilePath());
        test::WindowFixture f(&settings);
        MainWindow &window = f.window;
        QCOMPARE(window.recentProfiles().value(0), QFileInfo(profile).absoluteFilePath());
        window.findChild<QDockWidget *>(QStringLiteral("issueDock"))->show();
        window.restoreLayout();
        window.show();
        window.showCluster();
        QCOMPARE(window.size(), size);
        QVERIFY(!window.findChild<QDockWidget *>(QStringLiteral("issueDock"))->isVisible());
        QCOMPARE(window.findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes(), sizes);
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
