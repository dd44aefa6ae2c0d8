// SPDX-License-Identifier: MIT
// The Operations tab and the engine action menu on a simulated cluster (pdsim's SimCluster on
// 127.0.0.91-93): read-only refuses and disables, the menu's actions plan and (once confirmed) run, a
// rolling restart of the decode pool keeps its floor and ends with every engine back, the proxy's
// restart is noticed and the membership restored with one click, and every step lands in the audit
// table (AuditModel under QAbstractItemModelTester). A screenshot goes to the build folder.
#include "audit/auditlog.h"
#include "models/auditmodel.h"
#include "net/membershipreconciler.h"
#include "operations/engineactionmenu.h"
#include "operations/operationspage.h"
#include "ops/engineactions.h"
#include "ops/rollingrestart.h"
#include "ops/scalecontext.h"
#include "ops/scalerunner.h"
#include "simscalefixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QMenu>
#include <QPushButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace pd;

class TestOperationsPage : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_fixture;
    QList<EngineRef> m_refs;
    MembershipReconciler *m_table = nullptr;
    ScaleContext *m_ctx = nullptr;
    ScaleRunner *m_runner = nullptr;
    AuditLog *m_audit = nullptr;

    int post(const QString &path, const QByteArray &body) { return m_fixture.postControl(path, body); }
    bool reconcile() { return m_fixture.reconcile(); }
    int indexOf(const QString &id) const
    {
        for (int i = 0; i < m_refs.size(); ++i)
            if (m_refs.at(i).id == id)
                return i;
        return -1;
    }

private Q_SLOTS:
    void cleanup()
    {
        if (m_ctx)
            m_ctx->settings.readOnly = false; // a failed test must not leave the next one refused
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_fixture.dir().isValid());
        QVERIFY(m_fixture.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/actions-loopback.json")));
        m_refs = m_fixture.refs();
        sim::ClusterOptions options;
        options.timeScale = 20;
        options.startupSeconds = 10;
        options.waitingRetryInterval = 0.5;
        options.jitter = false;
        PD_START_SIM_CLUSTER(m_fixture, options);
        QCOMPARE(post(QStringLiteral("/cluster/engines/stop"),
                     R"({"engines":["127.0.0.93:9004","127.0.0.93:9005","127.0.0.93:9006","127.0.0.93:9007"]})"),
            200);

        m_fixture.setUpScaling(3000);
        m_table = m_fixture.table();
        m_runner = m_fixture.runner();
        m_audit = m_fixture.audit();
        m_ctx = &m_fixture.context();
        m_ctx->settings.pollMs = 200;
        m_ctx->settings.verifyTrafficTimeoutMs = 1500;
        m_ctx->settings.engineReadyTimeoutMs = 30000;
        m_ctx->settings.idleTimeoutMs = 30000;
        m_table->start(500);
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);
    }

    void readOnlyRefusesAndTheMenuFollows()
    {
        OperationsPage page(m_ctx, m_runner, m_refs, m_audit->path());
        EngineActions actions(m_ctx, m_runner);
        EngineActionMenu menu(&actions, m_refs, &page);
        page.readOnlyBox()->setChecked(true);
        QVERIFY(m_ctx->settings.readOnly);
        QVERIFY(!page.startRollingRestart(Role::Decode, 1));
        std::unique_ptr<QMenu> m(menu.buildMenu({indexOf(QStringLiteral("127.0.0.93:9004"))}, -1, nullptr));
        int disabled = 0, enabled = 0;
        for (QAction *a : m->actions())
            if (!a->isSeparator() && !a->text().isEmpty())
                (a->isEnabled() ? enabled : disabled) += 1;
        QCOMPARE(disabled, int(allEngineActions().size()));
        QCOMPARE(enabled, 1); // Show log: reading changes nothing
        QVERIFY(!menu.trigger(EngineAction::Start, {indexOf(QStringLiteral("127.0.0.93:9004"))}));
        page.readOnlyBox()->setChecked(false);
        QVERIFY(!m_ctx->settings.readOnly);
        page.reloadAudit();
        QAbstractItemModelTester tester(page.auditModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.auditModel()->rowCount() >= 1);
        const QModelIndex last = page.auditModel()->index(page.auditModel()->rowCount() - 1, AuditModel::ResultColumn);
        QCOMPARE(last.data().toString(), QStringLiteral("refused"));
    }

    void theMenuPlansConfirmsAndRuns()
    {
        EngineActions actions(m_ctx, m_runner);
        QWidget parent;
        EngineActionMenu menu(&actions, m_refs, &parent);
        const int e = indexOf(QStringLiteral("127.0.0.93:9004"));
        int asked = 0;
        menu.setConfirm([&asked](const EngineActionPlan &, bool *) {
            ++asked;
            return false;
        });
        // A start changes nothing serving: no question. Declining a stop runs nothing.
        QVERIFY(menu.trigger(EngineAction::Start, {e}));
        QCOMPARE(asked, 0);
        QTRY_VERIFY_WITH_TIMEOUT(m_runner->isIdle(), 30000);
        QCOMPARE(m_runner->operations().last()->outcome(), OperationOutcome::Succeeded);
        const qsizetype before = m_runner->operations().size();
        QVERIFY(!menu.trigger(EngineAction::Stop, {e}));
        QCOMPARE(asked, 1);
        QCOMPARE(m_runner->operations().size(), before);
        menu.setConfirm([&asked](const EngineActionPlan &plan, bool *) {
            ++asked;
            return plan.destructive;
        });
        QVERIFY(menu.trigger(EngineAction::Stop, {e}));
        QCOMPARE(asked, 2);
        QTRY_VERIFY_WITH_TIMEOUT(m_runner->isIdle(), 30000);
        QCOMPARE(m_runner->operations().last()->kind(), QStringLiteral("stop"));
        QCOMPARE(m_runner->operations().last()->outcome(), OperationOutcome::Succeeded);
    }

    void aRollingRestartKeepsItsFloor()
    {
        OperationsPage page(m_ctx, m_runner, m_refs, m_audit->path());
        page.resize(1400, 900);
        page.show();
        QString asked;
        page.setConfirm([&asked](const QString &title, const QString &) {
            asked = title;
            return true;
        });
        QVERIFY(reconcile());
        const int rowsBefore = page.auditModel()->rowCount();
        QVERIFY(page.startRollingRestart(Role::Decode, 3));
        QVERIFY(asked.contains(QLatin1String("decode")));
        QPointer<RollingRestart> rolling = page.rollingRestart();
        QVERIFY(rolling);
        QCOMPARE(rolling->total(), 4);
        int minimum = 4; // the fewest active decode members at any change of the table
        connect(m_table, &MembershipReconciler::factChanged, &page,
            [this, &minimum] { minimum = std::min(minimum, m_table->activeCount(Role::Decode)); });
        static_cast<void>(
            QTest::qWaitFor([&rolling] { return !rolling || rolling->state() != RollingRestart::State::Running; },
                150000)); // the check below says why it did not finish
        QVERIFY2(!rolling || rolling->state() == RollingRestart::State::Finished,
                 qPrintable(rolling ? rolling->reason() : QString()));
        QVERIFY2(minimum >= 3, qPrintable(QString::number(minimum)));
        QVERIFY(reconcile());
        QCOMPARE(m_table->activeCount(Role::Decode), 4);
        page.reloadAudit();
        QVERIFY(page.auditModel()->rowCount() > rowsBefore + 8);
        const QString shot = QStringLiteral(PD_BINARY_DIR "/screenshots/operations-page.png");
        QDir().mkpath(QFileInfo(shot).absolutePath());
        QVERIFY(page.grab().save(shot));
    }

    void aProxyRestartIsOfferedARestore()
    {
        OperationsPage page(m_ctx, m_runner, m_refs, m_audit->path());
        QString plan; // Restore is a plan, confirmed before anything runs
        page.setConfirm([&plan](const QString &, const QString &text) {
            plan = text;
            return true;
        });
        connect(m_table, &MembershipReconciler::restartDetected, &page, &OperationsPage::offerRestore);
        // A runtime change the restarted proxy forgets: one decode instance out.
        EngineActions actions(m_ctx, m_runner);
        actions.run(actions.plan(EngineAction::RemoveFromProxy, {m_refs.at(indexOf(QStringLiteral("127.0.0.93:9003")))}), false);
        QTRY_VERIFY_WITH_TIMEOUT(m_runner->isIdle(), 30000);
        QVERIFY(reconcile());
        QTRY_COMPARE_WITH_TIMEOUT(m_table->activeCount(Role::Decode), 3, 10000);

        QCOMPARE(post(QStringLiteral("/cluster/proxy/stop"), "{}"), 200);
        // The control API answers before the proxy's listener has closed: wait for the refusal itself
        // (under load a read right after the answer could still reach the old proxy).
        QTRY_VERIFY_WITH_TIMEOUT(!reconcile(), 10000);
        QCOMPARE(post(QStringLiteral("/cluster/proxy/start"), "{}"), 200);
        QTRY_VERIFY_WITH_TIMEOUT(page.isRestoreOffered(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(m_table->activeCount(Role::Decode), 4, 10000); // the proxy's own lists again
        page.restore();
        QVERIFY(!page.isRestoreOffered());
        QVERIFY2(plan.contains(QLatin1String("take decode 127.0.0.93:9003 out of the proxy")), qPrintable(plan));
        QTRY_VERIFY_WITH_TIMEOUT(m_runner->isIdle(), 30000);
        QVERIFY(reconcile());
        QTRY_COMPARE_WITH_TIMEOUT(m_table->activeCount(Role::Decode), 3, 15000);
    }

    // An audit line that cannot be written shows a bar that stays until acknowledged, and actions are
    // refused meanwhile. PD_SCREENSHOT_DIR set: the page is saved there at 1400x900 to be looked at.
    void anAuditFailureShowsUntilAcknowledged()
    {
        AuditLog broken(QStringLiteral("/proc/version/audit.jsonl"));
        AuditLog *saved = m_ctx->audit;
        m_ctx->audit = &broken;
        const auto restore = qScopeGuard([this, saved] { m_ctx->audit = saved; });
        OperationsPage page(m_ctx, m_runner, m_refs, m_audit->path());
        page.resize(1400, 900);
        page.show();
        QVERIFY(!broken.append(AuditEntry{}));
        auto *bar = page.findChild<QWidget *>(QStringLiteral("auditFailureBar"));
        QVERIFY(bar);
        QTRY_VERIFY(bar->isVisible());
        QVERIFY(!mutationRefusal(*m_ctx).isEmpty());
        if (const QString dir = qEnvironmentVariable("PD_SCREENSHOT_DIR"); !dir.isEmpty())
            page.grab().save(dir + QStringLiteral("/operations-audit-failure.png"));
        auto *acknowledge = page.findChild<QPushButton *>(QStringLiteral("acknowledgeAuditButton"));
        QVERIFY(acknowledge);
        acknowledge->click();
        QVERIFY(!bar->isVisible());
        QVERIFY(mutationRefusal(*m_ctx).isEmpty());
    }

    void cleanupTestCase()
    {
        if (m_runner)
            m_runner->cancelAll();
        if (m_table)
            m_table->stop();
        m_fixture.stopCluster();
    }
};

QTEST_MAIN(TestOperationsPage)
#include "tst_operationspage.moc"
