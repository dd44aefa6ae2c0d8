// SPDX-License-Identifier: MIT
// The translation plumbing: the console's .qm is embedded and loads, a translator installed before the
// window is built turns its title and menus into the language, and English needs nothing.
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "settings/translations.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace pd;

class TestTranslations : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString titleOfANewWindow()
    {
        ClusterStore store;
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("tr.ini")));
        MainWindow window(&store);
        window.setSettings(&settings);
        return window.windowTitle() + QLatin1Char('|') + window.menuBar()->actions().value(0)->text();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("pdconsole-tests"));
    }

    void theConsolesTranslationIsEmbeddedAndLoads()
    {
        QVERIFY(QFile::exists(QStringLiteral(":/i18n/pdconsole_zh_CN.qm")));
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral("pdconsole_zh_CN"), QStringLiteral(":/i18n")));
        QCOMPARE(translator.language(), QStringLiteral("zh_CN"));
        QVERIFY(!translator.isEmpty()); // at least the finished sample entry
        QVERIFY(QCoreApplication::installTranslator(&translator));
        QCOMPARE(QCoreApplication::translate("pd::MainWindow", "&Help"), QStringLiteral("帮助(&H)"));
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(QCoreApplication::translate("pd::MainWindow", "&Help"), QStringLiteral("&Help"));
    }

    void englishLoadsNothing()
    {
        const TranslationLoad load = installTranslations(qApp, QStringLiteral("en"));
        QVERIFY(!load.loaded);
        QVERIFY(load.notes.isEmpty());
        QCOMPARE(titleOfANewWindow(), QStringLiteral("pdconsole|&File"));
    }

    void anUnknownLanguageIsANoteNotAFailure()
    {
        const TranslationLoad load = installTranslations(qApp, QStringLiteral("xx_XX"));
        QVERIFY(!load.loaded);
        QVERIFY(!load.notes.isEmpty());
        QVERIFY(load.notes.first().contains(QStringLiteral("xx_XX")));
        QCOMPARE(titleOfANewWindow(), QStringLiteral("pdconsole|&File"));
    }

    // Last: the translator stays installed for the rest of the process, as in the console.
    void theWindowIsBuiltInTheChosenLanguage()
    {
        const TranslationLoad load
            = installTranslations(qApp, QStringLiteral("zh_CN"), QStringLiteral(":/i18n-test"), QStringLiteral("tst"));
        QVERIFY2(load.loaded, qPrintable(load.notes.join(QLatin1Char('\n'))));
        QCOMPARE(titleOfANewWindow(), QStringLiteral("pdconsole 控制台|文件(&F)"));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
