// SPDX-License-Identifier: MIT
// The warm-up dialog offscreen against pdsim's SimCluster in this process (127.0.0.130-132): Run
// fills the outcome and latency tables and the chart; with the first decoder answering 500 the table
// shows the empty 200s with an example and the status says how many failed; Cancel stops a run held
// by a stalled decoder; Export CSV writes one row per request; closing cancels. Saves a screenshot
// (build/dev/tests/warmup/warmupdialog.png) of the failed run.
#include "simscalefixture.h"

#include "audit/auditlog.h"
#include "net/profileproxyendpoint.h"
#include "warmup/warmupchart.h"
#include "warmup/warmupdialog.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace pd;

class TestWarmUpDialog : public QObject {
    Q_OBJECT

    test::SimScaleFixture m_sim;
    std::unique_ptr<AuditLog> m_audit;
    const QString m_firstDecoder = QStringLiteral("127.0.0.132:9000");

    bool fault(const QString &kind) { return m_sim.setFault(m_firstDecoder, kind); }
    // Requests the first decoder holds (running or queued): what a stalled decoder has received.
    int heldByFirstDecoder()
    {
        const nlohmann::json e = m_sim.engineState(m_firstDecoder);
        return e.is_object() ? e.value("running", 0) + e.value("waiting", 0) : 0;
    }
    static int rowOf(QTableWidget *t, const QString &outcome)
    {
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, 0) && t->item(r, 0)->data(Qt::UserRole).toString() == outcome)
                return r;
        return -1;
    }
    std::unique_ptr<WarmUpDialog> dialog()
    {
        auto d = std::make_unique<WarmUpDialog>(
            profileProxyEndpoint(m_sim.profile()), m_sim.profile().decode.servedModelName, m_audit.get());
        WarmUpOptions o;
        o.count = 16;
        o.concurrency = 2;
        o.promptTokens = 32;
        o.maxTokens = 6;
        d->setOptions(o);
        d->show();
        return d;
    }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<WarmUpResult>();
        QVERIFY(m_sim.dir().isValid());
        m_audit = std::make_unique<AuditLog>(m_sim.dir().filePath(QStringLiteral("audit.jsonl")));
        QVERIFY(m_sim.loadProfile(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/warmup-gui.json")));
        sim::ClusterOptions options;
        options.timeScale = 1;
        options.jitter = false;
        PD_START_SIM_CLUSTER(m_sim, options);
    }

    void cleanRun()
    {
        auto d = dialog();
        QSignalSpy finished(d.get(), &WarmUpDialog::finished);
        QVERIFY(!d->exportButton()->isEnabled());
        QTest::mouseClick(d->runButton(), Qt::LeftButton);
        QVERIFY(d->isRunning());
        QVERIFY(!d->runButton()->isEnabled());
        QVERIFY(d->cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QVERIFY(!d->isRunning());
        QVERIFY(d->runButton()->isEnabled());
        QVERIFY(d->exportButton()->isEnabled());
        QTableWidget *t = d->outcomeTable();
        QCOMPARE(t->rowCount(), 1); // only OK: nothing else happened
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("16"));
        QVERIFY2(d->statusLabel()->text().startsWith(QLatin1String("16 of 16 requests succeeded (100.0 %)")),
            qPrintable(d->statusLabel()->text()));
        QCOMPARE(d->latencyTable()->item(0, 1)->text(), QStringLiteral("16")); // TTFT over 16 requests
        QVERIFY(d->latencyTable()->item(0, 2)->text() != QLatin1String("-"));
        QCOMPARE(d->chart()->samples().size(), 16);

        const QString csv = m_sim.dir().filePath(QStringLiteral("dialog.csv"));
        QVERIFY(d->exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().trimmed().split('\n').size(), 17);
    }

    void decoderFailureShows()
    {
        QVERIFY(fault(QStringLiteral("http500")));
        auto d = dialog();
        QSignalSpy finished(d.get(), &WarmUpDialog::finished);
        QTest::mouseClick(d->runButton(), Qt::LeftButton);
        const bool done = finished.wait(60000);
        QVERIFY(fault(QStringLiteral("none")));
        QVERIFY(done);
        const WarmUpResult r = *d->lastResult();
        const int empty = r.counts[int(WarmUpOutcome::EmptyOk)];
        QVERIFY(empty > 0);
        QTableWidget *t = d->outcomeTable();
        const int row = rowOf(t, QStringLiteral("empty-200"));
        QVERIFY(row > 0);
        QCOMPARE(t->item(row, 0)->text(), QStringLiteral("\u2716 Empty 200 (decoder failed)"));
        QCOMPARE(t->item(row, 1)->text(), QString::number(empty));
        QVERIFY(t->item(row, 2)->text().contains(QLatin1String("empty body")));
        QVERIFY2(d->statusLabel()->text().contains(QStringLiteral("%1 request(s) failed").arg(empty)),
            qPrintable(d->statusLabel()->text()));
        d->resize(900, 640);
        QTRY_COMPARE(d->size(), QSize(900, 640));
        const QString shot = QStringLiteral(PD_BINARY_DIR "/tests/warmup/warmupdialog.png");
        QVERIFY(d->grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void cancelAStalledRun()
    {
        QVERIFY(fault(QStringLiteral("stall")));
        auto d = dialog();
        WarmUpOptions o = d->options();
        o.concurrency = 1; // sequential: every request goes to the stalled first decoder (§8.9)
        d->setOptions(o);
        QSignalSpy finished(d.get(), &WarmUpDialog::finished);
        QTest::mouseClick(d->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(heldByFirstDecoder() >= 1, 10000); // the first request reached the stalled decoder
        QVERIFY(d->isRunning());
        QTest::mouseClick(d->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QVERIFY(fault(QStringLiteral("none")));
        const WarmUpResult r = *d->lastResult();
        QVERIFY(r.cancelled);
        QCOMPARE(r.cancelledCount(), 1);
        QVERIFY(rowOf(d->outcomeTable(), QStringLiteral("cancelled")) > 0);
        QVERIFY2(d->statusLabel()->text().contains(QLatin1String("Cancelled after 1 request(s).")),
            qPrintable(d->statusLabel()->text()));
        const AuditReadResult audit = readAuditLog(m_audit->path());
        QCOMPARE(audit.entries.last().result, QStringLiteral("cancelled"));
    }

    void closingCancels()
    {
        QVERIFY(fault(QStringLiteral("stall")));
        auto d = dialog();
        QTest::mouseClick(d->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(heldByFirstDecoder() >= 1, 10000); // held by the stalled decoder
        QVERIFY(d->isRunning());
        d->close();
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), 5000);
        QVERIFY(fault(QStringLiteral("none")));
        QCOMPARE(readAuditLog(m_audit->path()).entries.last().result, QStringLiteral("cancelled"));
    }

    void cleanupTestCase() { m_sim.stopCluster(); }
};

QTEST_MAIN(TestWarmUpDialog)
#include "tst_warmupdialog.moc"
