// SPDX-License-Identifier: MIT
// Healing under traffic through the console's own composition (ConsoleAssembly, offscreen) against
// `pdsim cluster` as a process whose proxy is never idle (closed-loop client streams): one rank of a
// coupled decode group crashes; the console shows the group broken; the Problems panel's Restart group
// (its confirmation answered by the test, the plan read) restarts it without draining its frozen ranks and
// brings it back through a proxy restart with the current lists; the console then shows what the proxy
// lists (pool header, headline) within a few polls. A scale-in under the same traffic leaves the pool
// control saying how long the drain lingers and the ways out. PD_SCREENSHOT_DIR set: the window is saved
// there at 1400x900 while the group is broken, while it restarts, and with the lingering drain.
// A `pdctl scale` beside the console, killed (SIGKILL) while it drains a group it takes out, shows on the
// Operations tab as an operation cut short (and in Problems) within seconds; its Undo brings the group back
// routed through the console's own runner.
#include "consoleassembly.h"
#include "operations.h"

#include "cluster/clusterstore.h"
#include "httpcall.h"
#include "mainwindow.h"
#include "net/membershipreconciler.h"
#include "operations/interruptedbar.h"
#include "operations/operationspage.h"
#include "ops/dpgroupoperation.h"
#include "ops/scaleplan.h"
#include "ops/scalerunner.h"
#include "pdctlrun.h"
#include "pdsimcluster.h"
#include "scale/poolscalecontrol.h"
#include "scale/scalepanel.h"
#include "settings/consolesettings.h"
#include "state/statetracker.h"
#include "triage/triage.h"
#include "triageviews/problemspanel.h"

#include <QApplication>
#include <QDialog>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <csignal>

using namespace pd;
using json = nlohmann::json;

namespace {

const QString kProfile = QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-groups.json");
const QString kGroup = QStringLiteral("decode@127.0.0.113:13395");

void saveShot(QWidget &window, const QString &name)
{
    const QString dir = qEnvironmentVariable("PD_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    window.grab().save(dir + QLatin1Char('/') + name + QStringLiteral("-1400x900.png"));
}

} // namespace

class TestConsoleHeal : public QObject {
    Q_OBJECT

    QTemporaryDir m_home;
    test::PdsimCluster m_sim;
    QString m_plan; // the confirmation the console asked for

    json cluster()
    {
        return json::parse(
            test::httpCall("GET", m_sim.controlUrl(QStringLiteral("/cluster"))).body.toStdString(), nullptr, false);
    }
    long long failedRequests()
    {
        const json l = cluster()["load"];
        return l.value("failed", 0LL) + l.value("empty_ok", 0LL);
    }
    int listedDecode()
    {
        const QByteArray body = test::httpCall("GET", QStringLiteral("http://127.0.0.111:8400/healthcheck")).body;
        const json j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
        return j.is_object() ? j.value("decode_instances", -1) : -1;
    }
    static int count(const StateTracker &tracker, const ClusterStore &store, Role role, EngineState state)
    {
        int n = 0;
        for (int i = 0; i < tracker.engineCount(); ++i)
            n += store.engines().at(i).role == role && tracker.state(i) == state;
        return n;
    }

    // The console on the test's profile, its operations through pdsim's control API, shown at 1400x900.
    MainWindow &open(ConsoleAssembly &parts)
    {
        ConsoleOptions options;
        options.profilePath = kProfile;
        parts.openStartProfile(options);
        parts.operations().setSimControl(QUrl(QStringLiteral("http://") + m_sim.control()));
        MainWindow &window = parts.window();
        window.resize(1400, 900);
        window.show();
        return window;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
        PD_START_PDSIM(
            m_sim, kProfile, { QStringLiteral("--time-scale"), QStringLiteral("20"), QStringLiteral("--no-jitter") });
        // Groups d2 and d3 are held back, as on a real cluster.
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/engines/stop")),
            R"({"engines":["127.0.0.115:9000","127.0.0.115:9001","127.0.0.116:9000","127.0.0.116:9001"]})");
    }

    void aBrokenGroupIsRestartedAndRoutedAgain()
    {
        ConsoleSettings settings(m_home.filePath(QStringLiteral("console.ini")));
        ConsoleAssembly parts(&settings, std::nullopt);
        MainWindow &window = open(parts);
        const ClusterStore &store = parts.store();
        StateTracker &tracker = parts.tracker();
        QTRY_VERIFY_WITH_TIMEOUT(count(tracker, store, Role::Decode, EngineState::Serving) == 4, 60000);

        // Steady streams: from here the proxy is never idle.
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/load")), R"({"streams": 6})");
        QTRY_VERIFY_WITH_TIMEOUT(cluster()["load"].value("sent", 0) > 12, 30000);
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/engines/fault")),
            R"({"engines":["127.0.0.113:9001"],"kind":"crash"})");
        QTRY_VERIFY_WITH_TIMEOUT(parts.triage().indexOf(QStringLiteral("group-broken:") + kGroup) >= 0, 30000);
        saveShot(window, QStringLiteral("heal-group-broken"));

        // Restart group from the Problems panel; the test answers the confirmation and keeps its text.
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [this] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            if (auto *text = dialog->findChild<QPlainTextEdit *>())
                m_plan = text->toPlainText();
            dialog->accept();
        });
        answer.start(50);
        bool shotDuringRestart = false;
        connect(parts.operations().runner(), &ScaleRunner::operationChanged, this, [&](ScaleOperation *op, int step) {
            // The Operations tab while the group waits for its add: the drain skipped (broken) and the way out.
            if (!shotDuringRestart && step == DpGroupOperation::AddToProxy
                && op->steps().at(step).status == StepStatus::Running) {
                shotDuringRestart = true;
                auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs"));
                QWidget *was = tabs ? tabs->currentWidget() : nullptr;
                if (tabs)
                    tabs->setCurrentWidget(parts.operations().page());
                saveShot(window, QStringLiteral("heal-group-restarting"));
                if (tabs)
                    tabs->setCurrentWidget(was);
            }
        });
        auto *problems = window.findChild<ProblemsPanel *>();
        QVERIFY(problems);
        Q_EMIT problems->restartGroupRequested(kGroup);
        QTRY_VERIFY_WITH_TIMEOUT(!m_plan.isEmpty(), 10000);
        QVERIFY2(m_plan.contains(QLatin1String("is BROKEN")) && m_plan.contains(QLatin1String("current lists")),
            qPrintable(m_plan));
        // How many requests the restart fails, from the ranks' last scrapes (the crashed rank has none).
        QVERIFY2(m_plan.contains(QLatin1String("request(s) now ("))
                && m_plan.contains(QLatin1String("ranks scraped): they fail")),
            qPrintable(m_plan));
        QTRY_VERIFY_WITH_TIMEOUT(
            !parts.operations().runner()->operations().isEmpty() && parts.operations().runner()->isIdle(), 120000);
        const ScaleOperation *op = parts.operations().runner()->operations().last();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(op->summary()));
        QVERIFY2(op->steps().at(DpGroupOperation::Drain).status == StepStatus::Skipped,
            qPrintable(op->steps().at(DpGroupOperation::Drain).detail));
        const long long failedAtHeal = failedRequests();

        // What the console shows follows the proxy's lists within a few polls: four decoders listed and
        // serving, none draining, and the headline says the decode pool is whole again.
        QCOMPARE(listedDecode(), 4);
        QTRY_VERIFY_WITH_TIMEOUT(count(tracker, store, Role::Decode, EngineState::Serving) == 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(parts.operations().membership()->activeCount(Role::Decode) == 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.proxyStatusText().contains(QLatin1String("decode 4/4")), 10000);
        QVERIFY(!window.proxyStatusText().contains(QLatin1String("▲")));
        QTRY_VERIFY_WITH_TIMEOUT(cluster()["load"].value("succeeded", 0) > 30, 30000);
        QCOMPARE(failedRequests(), failedAtHeal);
        QVERIFY(shotDuringRestart);

        // A scale-in under the same traffic: the drain lingers, and the pool control says so, with the ways out.
        ScaleContext &ctx = *parts.operations().runner()->context();
        const ScalePlan in = planPoolScale(Role::Decode, 2, ctx.engines, ctx.groups, *ctx.membership, {}, ctx.settings);
        QVERIFY2(in.canApply(false), qPrintable(in.describe()));
        parts.operations().runner()->apply(in, false);
        QTRY_VERIFY_WITH_TIMEOUT(parts.operations().runner()->isIdle(), 60000);
        auto *panel = window.findChild<ScalePanel *>();
        QVERIFY(panel);
        QTRY_VERIFY_WITH_TIMEOUT(panel->control(Role::Decode)->noteText().contains(QLatin1String("Ways out")), 15000);
        if (auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs")))
            tabs->setCurrentWidget(parts.operations().page());
        saveShot(window, QStringLiteral("heal-drain-lingers"));
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/load")), R"({"streams": 0})");
    }

    void aPdctlKilledBesideTheConsoleIsUndoneFromIt()
    {
        ConsoleSettings settings(m_home.filePath(QStringLiteral("console.ini")));
        ConsoleAssembly parts(&settings, std::nullopt);
        MainWindow &window = open(parts);
        const ClusterStore &store = parts.store();
        StateTracker &tracker = parts.tracker();
        // The idle proxy has finalised the scale-in above: it lists what it routes.
        QTRY_COMPARE_WITH_TIMEOUT(listedDecode(), 2, 30000);
        const QString dataHome = QStringLiteral("XDG_DATA_HOME=") + m_home.filePath(QStringLiteral("data"));
        const QStringList acting = { QStringLiteral("--yes"), QStringLiteral("--sim-control"), m_sim.control(),
            QStringLiteral("--audit"), m_home.filePath(QStringLiteral("pdctl-audit.jsonl")) };
        const test::PdctlRun up = test::runPdctl(
            QStringList { QStringLiteral("scale"), QStringLiteral("--profile"), kProfile, QStringLiteral("--pool"),
                QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("4") }
                + acting,
            { 120000, { dataHome } });
        QVERIFY2(up.exitCode == 0, qPrintable(up.both()));
        QTRY_VERIFY_WITH_TIMEOUT(count(tracker, store, Role::Decode, EngineState::Serving) == 4, 60000);
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/load")), R"({"streams": 6})");

        // pdctl takes a group out and is killed while it drains it.
        QProcess scale;
        scale.setProgram(test::pdctlPath());
        scale.setArguments(
            QStringList { QStringLiteral("scale"), QStringLiteral("--profile"), kProfile, QStringLiteral("--pool"),
                QStringLiteral("decode"), QStringLiteral("--to"), QStringLiteral("2") }
            + acting);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        scale.setProcessEnvironment(environment);
        scale.setProcessChannelMode(QProcess::MergedChannels);
        scale.start();
        QVERIFY(scale.waitForStarted(5000));
        QByteArray seen;
        QTRY_VERIFY2_WITH_TIMEOUT(
            (seen += scale.readAll()).contains("Drain: wait until no rank runs a request: running"), seen.constData(),
            60000);
        QVERIFY(::kill(pid_t(scale.processId()), SIGKILL) == 0);
        QVERIFY(scale.waitForFinished(10000));

        InterruptedOperationsBar *bar = parts.operations().page()->interruptedBar();
        QTRY_COMPARE_WITH_TIMEOUT(bar->records().size(), 1, 15000);
        const OperationRecord cut = bar->records().first();
        QCOMPARE(cut.kind, QStringLiteral("group-scale-in"));
        QTRY_VERIFY_WITH_TIMEOUT(bar->rowText(cut.id).contains(QLatin1String("in the proxy: 2 draining")), 15000);
        QVERIFY2(bar->isVisibleTo(&window) || !parts.operations().page()->isVisible(), "the bar is shown");
        bool said = false;
        for (const Problem &p : parts.triage().problems())
            said = said || p.what.startsWith(QLatin1String("Operation cut short: "));
        QVERIFY(said);
        if (auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs")))
            tabs->setCurrentWidget(parts.operations().page());
        saveShot(window, QStringLiteral("repair-cut-short"));

        QString asked;
        parts.operations().page()->setConfirm([&asked](const QString &, const QString &text) {
            asked = text;
            return true;
        });
        QVERIFY(bar->repair(cut.id, RepairAction::Undo));
        QVERIFY2(asked.contains(QLatin1String("Undo: bring the group back")), qPrintable(asked));
        // The way out it may take (the ranks still drain in the busy proxy) is part of what is confirmed.
        QVERIFY2(asked.contains(QLatin1String("it is restarted with its current lists")), qPrintable(asked));
        QTRY_VERIFY_WITH_TIMEOUT(parts.operations().runner()->isIdle(), 120000);
        const ScaleOperation *op = parts.operations().runner()->operations().last();
        QVERIFY2(op->outcome() == OperationOutcome::Succeeded, qPrintable(op->summary()));
        QCOMPARE(listedDecode(), 4);
        QTRY_VERIFY_WITH_TIMEOUT(count(tracker, store, Role::Decode, EngineState::Serving) == 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(parts.operations().membership()->activeCount(Role::Decode) == 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(bar->records().isEmpty() && !bar->isVisibleTo(&window), 10000);
        test::httpCall("POST", m_sim.controlUrl(QStringLiteral("/cluster/load")), R"({"streams": 0})");
    }

    void cleanupTestCase() { QVERIFY(m_sim.stop()); }
};

QTEST_MAIN(TestConsoleHeal)
#include "tst_consoleheal.moc"
