// SPDX-License-Identifier: MIT
// The translation plumbing: the console's .qm is embedded and loads, a translator installed before the
// window is built turns its title and menus into the language, and English needs nothing. The words
// core/ builds are looked up in the contexts lupdate files them under, and what is audited stays
// English.
#include "cluster/clusterstore.h"
#include "cluster/profilevalidator.h"
#include "mainwindow.h"
#include "ops/engineactions.h"
#include "ops/scalecontext.h"
#include "ops/scalein.h"
#include "settings/consolesettings.h"
#include "settings/translations.h"
#include "state/enginestate.h"
#include "triage/findproblems.h"
#include "windowfixture.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <algorithm>

using namespace pd;

class TestTranslations : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString titleOfANewWindow()
    {
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("tr.ini")));
        test::WindowFixture f(&settings);
        MainWindow &window = f.window;
        return window.windowTitle() + QLatin1Char('|') + window.menuBar()->actions().value(0)->text();
    }

private Q_SLOTS:
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

    // With the translator of the test above installed.
    void coreWordsAreTranslatedAndTheAuditedOnesStayEnglish()
    {
        TriageInput in;
        TriageEngine stalled;
        stalled.state = EngineState::Stalled;
        stalled.label = QStringLiteral("d1 · 127.0.0.7:9003 (DP 19)");
        in.engines = { stalled };
        const QList<Problem> problems = findProblems(in); // the engine, and its pool serving nothing
        const auto engine0 = std::find_if(problems.cbegin(), problems.cend(),
            [](const Problem &p) { return p.key == QStringLiteral("engine-stalled:0"); }); // keys stay English
        QVERIFY(engine0 != problems.cend());
        QCOMPARE(engine0->what, QStringLiteral("引擎停滞"));
        QCOMPARE(engineStateLabel(EngineState::Stalled), QStringLiteral("停滞"));
        QCOMPARE(engineStateName(EngineState::Stalled), QStringLiteral("stalled"));

        ScaleContext context;
        context.settings.readOnly = true;
        const EngineRef engine { QStringLiteral("127.0.0.7:9003"), Role::Decode, QStringLiteral("d1"), 19 };
        ScaleIn stop(engine, &context, false);
        stop.setImmediate(true);
        QCOMPARE(stepLabelText(stop.steps().first()), QStringLiteral("预检"));
        QCOMPARE(stop.steps().first().label, QStringLiteral("Preflight")); // in audit lines and pdctl
        QCOMPARE(operationKindText(stop.kind()), QStringLiteral("停止"));
        QCOMPARE(stop.kind(), QStringLiteral("stop"));

        EngineActions actions(&context, nullptr);
        const EngineActionPlan plan = actions.plan(EngineAction::Start, { engine });
        QCOMPARE(plan.refusal, QStringLiteral("the console is in read-only mode")); // audited as it is
        QCOMPARE(plan.refusalText(), QStringLiteral("控制台处于只读模式"));

        Profile profile;
        bool saidSo = false;
        for (const ValidationIssue &issue : validateProfile(profile))
            saidSo = saidSo || issue.message == QStringLiteral("prefill 池为空：没有角色为“prefill”的节点运行引擎");
        QVERIFY(saidSo);
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
