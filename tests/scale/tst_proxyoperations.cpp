// SPDX-License-Identifier: MIT
// The Operations tab's Proxy group over a recording EngineControl: read-only disables the buttons and
// refuses (the refusal audited), a declined confirmation does nothing, a confirmed stop calls the
// control once and shows and audits its outcome, a start is not asked, a restart is a stop then a
// start, and a start whose proxy never answers /healthcheck is shown and audited as failed. Nothing
// listens at the proxy's address (127.0.140.99:1): no process is started.
#include "audit/auditlog.h"
#include "models/auditmodel.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "operations/operationspage.h"
#include "ops/proxyactions.h"
#include "ops/scalecontext.h"
#include "ops/scaleenginecontrol.h"
#include "ops/scalerunner.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace pd;

namespace {

// Records every call and answers each one later, through the event loop, as a real control does.
class RecordingControl final : public EngineControl {
    Q_OBJECT
public:
    QStringList calls;
    ControlResult answer{true, {}, QStringLiteral("recorded")};

    void preflight(const EngineRef &engine, PreflightDone done) override
    {
        calls << QStringLiteral("preflight ") + engine.id;
        later([done] { done(PreflightReport{true, {}, {}}); });
    }
    void start(const EngineRef &engine, Done done) override { record(QStringLiteral("start ") + engine.id, std::move(done)); }
    void stop(const EngineRef &engine, Done done) override { record(QStringLiteral("stop ") + engine.id, std::move(done)); }
    void isRunning(const EngineRef &engine, RunningDone done) override
    {
        calls << QStringLiteral("isRunning ") + engine.id;
        later([done] { done(false, QString()); });
    }
    void startProxy(Done done) override { record(QStringLiteral("startProxy"), std::move(done)); }
    void startProxyWith(const pd::ProxyLists &, Done done) override { record(QStringLiteral("startProxyWith"), std::move(done)); }
    void stopProxy(Done done) override { record(QStringLiteral("stopProxy"), std::move(done)); }
    void isProxyRunning(RunningDone done) override
    {
        calls << QStringLiteral("isProxyRunning");
        later([done] { done(true, QString()); });
    }
    void proxyCommandLine(CommandLineDone done) override
    {
        later([done] { done(std::nullopt, QStringLiteral("not recorded")); });
    }
    QString describe() const override { return QStringLiteral("recording control"); }

private:
    void later(std::function<void()> f) { QTimer::singleShot(10, this, std::move(f)); }
    void record(const QString &call, Done done)
    {
        calls << call;
        later([this, done] { done(answer); });
    }
};

} // namespace

class TestProxyOperations : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<ProxyClient> m_proxy;
    std::unique_ptr<MembershipReconciler> m_table;
    std::unique_ptr<RecordingControl> m_control;
    std::unique_ptr<AuditLog> m_audit;
    std::unique_ptr<ScaleContext> m_ctx;
    std::unique_ptr<ScaleRunner> m_runner;
    std::unique_ptr<OperationsPage> m_page;
    QStringList m_asked; // titles the confirm seam was asked about
    QString m_lastText;  // its text
    bool m_answer = false;

    QPushButton *button(const char *name) const { return m_page->findChild<QPushButton *>(QLatin1String(name)); }
    QStringList proxyAudit() const
    {
        QStringList lines;
        for (const AuditEntry &e : readAuditLog(m_audit->path()).entries)
            if (e.action.startsWith(QLatin1String("proxy.")))
                lines << QStringLiteral("%1 %2").arg(e.action, e.result);
        return lines;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        m_proxy = std::make_unique<ProxyClient>();
        m_proxy->setEndpoint({QUrl(QStringLiteral("http://127.0.140.99:1")), {}, {}, 1000});
        m_table = std::make_unique<MembershipReconciler>(m_proxy.get());
        m_control = std::make_unique<RecordingControl>();
        m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit-%1.jsonl").arg(QLatin1String(QTest::currentTestFunction()))));
        m_ctx = std::make_unique<ScaleContext>();
        m_ctx->proxy = m_proxy.get();
        m_ctx->membership = m_table.get();
        m_ctx->control = m_control.get();
        m_ctx->audit = m_audit.get();
        m_ctx->settings.pollMs = 50;
        m_runner = std::make_unique<ScaleRunner>(m_ctx.get());
        m_page = std::make_unique<OperationsPage>(m_ctx.get(), m_runner.get(), QList<EngineRef>{}, m_audit->path());
        m_page->proxyActions()->setHealthTimeout(300);
        m_asked.clear();
        m_page->setConfirm([this](const QString &title, const QString &text) {
            m_asked << title;
            m_lastText = text;
            return m_answer;
        });
        m_page->resize(1200, 800);
        m_page->show();
    }

    void cleanup()
    {
        m_page.reset();
        m_runner.reset();
        m_ctx.reset();
        m_table.reset();
        m_control.reset();
        m_proxy.reset();
    }

    void readOnlyRefusesAndAuditsTheRefusal()
    {
        QSignalSpy notes(m_page.get(), &OperationsPage::note);
        m_page->readOnlyBox()->setChecked(true);
        for (const char *name : {"startProxyButton", "stopProxyButton", "restartProxyButton"}) {
            QVERIFY(button(name));
            QVERIFY2(!button(name)->isEnabled(), name);
        }
        m_answer = true;
        QVERIFY(!m_page->requestProxyAction(ProxyAction::Stop));
        QVERIFY(!m_page->requestProxyAction(ProxyAction::Start));
        QVERIFY(m_asked.isEmpty()); // refused before anything is asked
        QTest::qWait(100);
        QVERIFY(m_control->calls.isEmpty());
        QCOMPARE(proxyAudit(), (QStringList{QStringLiteral("proxy.stop refused"), QStringLiteral("proxy.start refused")}));
        QVERIFY(m_page->proxyStateText().contains(QLatin1String("read-only")));
        QVERIFY(!notes.isEmpty());
        QVERIFY(notes.last().at(0).toString().contains(QLatin1String("refused")));

        m_page->readOnlyBox()->setChecked(false);
        QVERIFY(button("stopProxyButton")->isEnabled());
    }

    void aDeclinedConfirmationDoesNothing()
    {
        m_answer = false;
        QTest::mouseClick(button("stopProxyButton"), Qt::LeftButton);
        QCOMPARE(m_asked, QStringList{QStringLiteral("Stop the proxy")});
        // What the operator is told before the proxy goes down.
        QVERIFY2(m_lastText.contains(QLatin1String("127.0.140.99:1")), qPrintable(m_lastText));
        QVERIFY2(m_lastText.contains(QLatin1String("every request")), qPrintable(m_lastText));
        QVERIFY2(m_lastText.contains(QLatin1String("/instances/add")), qPrintable(m_lastText));
        QVERIFY2(m_lastText.contains(QLatin1String("restore")), qPrintable(m_lastText));
        QTest::mouseClick(button("restartProxyButton"), Qt::LeftButton);
        QCOMPARE(m_asked.size(), 2);
        QTest::qWait(100);
        QVERIFY(m_control->calls.isEmpty());
        QVERIFY(!m_page->proxyActions()->isBusy());
        QVERIFY(proxyAudit().isEmpty());
        QVERIFY(button("stopProxyButton")->isEnabled());
    }

    void aConfirmedStopCallsTheControlOnce()
    {
        m_answer = true;
        QSignalSpy notes(m_page.get(), &OperationsPage::note);
        QSignalSpy finished(m_page->proxyActions(), &ProxyActions::finished);
        QTest::mouseClick(button("stopProxyButton"), Qt::LeftButton);
        QCOMPARE(m_asked, QStringList{QStringLiteral("Stop the proxy")});
        QCOMPARE(m_control->calls, QStringList{QStringLiteral("stopProxy")});
        // The answer comes later: meanwhile the page says what runs and takes no second action.
        QVERIFY(m_page->proxyActions()->isBusy());
        QVERIFY(!button("startProxyButton")->isEnabled());
        QVERIFY(m_page->proxyStateText().contains(QLatin1String("Stopping")));
        QVERIFY(!m_page->requestProxyAction(ProxyAction::Start));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QVERIFY(finished.first().at(1).toBool());
        QCOMPARE(m_control->calls, QStringList{QStringLiteral("stopProxy")});
        QVERIFY2(m_page->proxyStateText().contains(QLatin1String("proxy stopped (recorded)")), qPrintable(m_page->proxyStateText()));
        QVERIFY(button("startProxyButton")->isEnabled());
        QCOMPARE(proxyAudit(), QStringList{QStringLiteral("proxy.stop ok")});
        QVERIFY(notes.last().at(0).toString().contains(QLatin1String("proxy stopped")));
        // The audit table follows.
        QVERIFY(m_page->auditModel()->rowCount() >= 1);
        const QString shot = QStringLiteral(PD_BINARY_DIR "/screenshots/operations-proxy.png");
        QDir().mkpath(QFileInfo(shot).absolutePath());
        QVERIFY(m_page->grab().save(shot));
    }

    void aStartIsNotAskedAndAProxyThatNeverAnswersFailsIt()
    {
        m_answer = false;
        QSignalSpy finished(m_page->proxyActions(), &ProxyActions::finished);
        QVERIFY(m_page->requestProxyAction(ProxyAction::Start));
        QVERIFY(m_asked.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QCOMPARE(m_control->calls, QStringList{QStringLiteral("startProxy")});
        QVERIFY(!finished.first().at(1).toBool());
        QVERIFY2(m_page->proxyStateText().contains(QLatin1String("proxy start failed")), qPrintable(m_page->proxyStateText()));
        QVERIFY2(m_page->proxyStateText().contains(QLatin1String("/healthcheck did not answer")), qPrintable(m_page->proxyStateText()));
        QCOMPARE(proxyAudit(), QStringList{QStringLiteral("proxy.start failed")});
    }

    void aRestartIsAStopThenAStart()
    {
        m_answer = true;
        m_ctx->proxy = nullptr; // no /healthcheck to wait for
        QSignalSpy finished(m_page->proxyActions(), &ProxyActions::finished);
        QVERIFY(m_page->requestProxyAction(ProxyAction::Restart));
        QCOMPARE(m_asked, QStringList{QStringLiteral("Restart the proxy")});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QVERIFY(finished.first().at(1).toBool());
        QCOMPARE(m_control->calls, (QStringList{QStringLiteral("stopProxy"), QStringLiteral("startProxy")}));
        QCOMPARE(proxyAudit(), (QStringList{QStringLiteral("proxy.stop ok"), QStringLiteral("proxy.start ok")}));
        QVERIFY(m_page->proxyStateText().contains(QLatin1String("proxy restarted")));
    }

    void aFailedStopDoesNotStart()
    {
        m_answer = true;
        m_control->answer = ControlResult{false, QStringLiteral("node p0: ssh: connection refused"), {}};
        QSignalSpy finished(m_page->proxyActions(), &ProxyActions::finished);
        QVERIFY(m_page->requestProxyAction(ProxyAction::Restart));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        QVERIFY(!finished.first().at(1).toBool());
        QCOMPARE(m_control->calls, QStringList{QStringLiteral("stopProxy")});
        QVERIFY(m_page->proxyStateText().contains(QLatin1String("connection refused")));
        QCOMPARE(proxyAudit(), QStringList{QStringLiteral("proxy.stop failed")});
    }
};

QTEST_MAIN(TestProxyOperations)
#include "tst_proxyoperations.moc"
