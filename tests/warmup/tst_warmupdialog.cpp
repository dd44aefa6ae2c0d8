// SPDX-License-Identifier: MIT
// The warm-up dialog offscreen against pdsim's SimCluster in this process (127.0.0.130-132): Run
// fills the outcome and latency tables and the chart; with the first decoder answering 500 the table
// shows the empty 200s with an example and the status says how many failed; Cancel stops a run held
// by a stalled decoder; Export CSV writes one row per request; closing cancels. Saves a screenshot
// (build/dev/tests/warmup/warmupdialog.png) of the failed run.
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "net/profileproxyendpoint.h"
#include "warmup/warmupchart.h"
#include "warmup/warmupdialog.h"

#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QLabel>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace pd;

class TestWarmUpDialog : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    Profile m_profile;
    QTemporaryDir m_dir;
    QString m_control;
    QNetworkAccessManager m_network;
    std::unique_ptr<AuditLog> m_audit;
    const QString m_firstDecoder = QStringLiteral("127.0.0.132:9000");

    bool fault(const QString &kind)
    {
        // A kept-alive connection the control server has closed can fail once: try again.
        for (int attempt = 0; attempt < 3; ++attempt) {
            QNetworkRequest request { QUrl(m_control + QStringLiteral("/cluster/engines/fault")) };
            request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
            request.setTransferTimeout(5000);
            QNetworkReply *reply = m_network.post(
                request, QStringLiteral(R"({"engines":["%1"],"kind":"%2"})").arg(m_firstDecoder, kind).toUtf8());
            QEventLoop loop;
            connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            reply->deleteLater();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (status == 200) {
                QTest::qWait(50); // applied on the engine's thread
                return true;
            }
            qWarning("fault %s: HTTP %d %s", qPrintable(kind), status, qPrintable(reply->errorString()));
        }
        return false;
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
            profileProxyEndpoint(m_profile), m_profile.decode.servedModelName, m_audit.get());
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
        QVERIFY(m_dir.isValid());
        m_audit = std::make_unique<AuditLog>(m_dir.filePath(QStringLiteral("audit.jsonl")));
        const ProfileLoadResult loaded
            = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/data/warmup/warmup-gui.json"));
        QVERIFY(loaded.profile.has_value());
        m_profile = *loaded.profile;
        sim::ClusterOptions options;
        options.profile = m_profile;
        options.timeScale = 1;
        options.jitter = false;
        m_cluster = std::make_unique<sim::SimCluster>(options);
        QString error;
        if (!m_cluster->start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 30000);
        m_control = QStringLiteral("http://127.0.0.130:%1").arg(m_cluster->controlPort());
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

        const QString csv = m_dir.filePath(QStringLiteral("dialog.csv"));
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
        QTest::qWait(50);
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
        QTest::qWait(300);
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
        QTest::qWait(200);
        QVERIFY(d->isRunning());
        d->close();
        QTRY_VERIFY_WITH_TIMEOUT(!d->isRunning(), 5000);
        QVERIFY(fault(QStringLiteral("none")));
        QCOMPARE(readAuditLog(m_audit->path()).entries.last().result, QStringLiteral("cancelled"));
    }

    void cleanupTestCase()
    {
        if (m_cluster)
            m_cluster->shutdown();
    }
};

QTEST_MAIN(TestWarmUpDialog)
#include "tst_warmupdialog.moc"
