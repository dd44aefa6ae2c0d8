// SPDX-License-Identifier: MIT
// The scale panel on a simulated cluster: the decode control shows the pool, typing 6 and Apply shows
// the plan (rank order), confirming runs the operations with their steps in the progress tree, and
// the pool ends at 6. The operation model passes QAbstractItemModelTester; read-only disables Apply.
// A screenshot goes to the build folder (scalepanel.png).
#include "audit/auditlog.h"
#include "cluster/profileformat.h"
#include "clustersim/simcluster.h"
#include "models/operationmodel.h"
#include "net/membershipreconciler.h"
#include "net/proxyclient.h"
#include "ops/scaleprobe.h"
#include "ops/scalerunner.h"
#include "ops/simclusterenginecontrol.h"
#include "scale/poolscalecontrol.h"
#include "scale/scalepanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace pd;

class TestScalePanel : public QObject {
    Q_OBJECT

    std::unique_ptr<sim::SimCluster> m_cluster;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void scaleDecodeFromThePanel()
    {
        const ProfileLoadResult loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/tests/scale/data/scale-loopback.json"));
        QVERIFY(loaded.profile.has_value());
        sim::ClusterOptions options;
        options.profile = *loaded.profile;
        options.timeScale = 20;
        options.waitingRetryInterval = 0.5;
        options.jitter = false;
        m_cluster = std::make_unique<sim::SimCluster>(options);
        QString error;
        if (!m_cluster->start(&error)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(error));
            QSKIP(qPrintable(error));
        }
        QTRY_VERIFY_WITH_TIMEOUT(m_cluster->isReady(), 30000);
        const QString control = QStringLiteral("http://127.0.0.61:%1").arg(m_cluster->controlPort());
        QNetworkAccessManager network;
        QNetworkRequest stop{QUrl(control + QStringLiteral("/cluster/engines/stop"))};
        stop.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        QNetworkReply *reply = network.post(stop, R"({"engines":["127.0.0.63:9004","127.0.0.63:9005","127.0.0.63:9006","127.0.0.63:9007"]})");
        QTRY_VERIFY(reply->isFinished());
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        delete reply;

        ProxyClient proxy;
        proxy.setEndpoint({QUrl(QStringLiteral("http://127.0.0.61:8400")), {}, {}, 5000});
        MembershipReconciler table(&proxy);
        table.setListenerTiming(500, 3, 2000);
        const QList<EngineRef> refs = engineRefs(*loaded.profile);
        QList<QPair<QString, Role>> configured;
        for (const EngineRef &e : refs)
            configured.append({e.id, e.role});
        table.setConfigured(configured);
        SimClusterEngineControl engines{QUrl(control)};
        EngineProbe probe;
        AuditLog audit(m_dir.filePath(QStringLiteral("audit.jsonl")));
        ScaleContext ctx{&proxy, &table, &engines, &probe, &audit, {}, {}, {}, {}, {}, {}};
        ctx.settings.pollMs = 200;
        ctx.settings.verifyTrafficTimeoutMs = 2000;
        ScaleRunner runner(&ctx);

        ScalePanel panel(&ctx, &runner, refs);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::optional<ScalePlan> shown;
        panel.setConfirm([&shown](const ScalePlan &plan, bool *override) {
            shown = plan;
            *override = false;
            return true;
        });
        panel.resize(1100, 520);
        panel.show();
        table.start(500);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 4, 10000);
        PoolScaleControl *decode = panel.control(Role::Decode);
        QTRY_COMPARE(decode->target(), 4);
        QVERIFY(!decode->applyButton()->isEnabled()); // nothing to apply yet

        decode->setTarget(6);
        QVERIFY(decode->applyButton()->isEnabled());
        QTest::mouseClick(decode->applyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown.has_value(), 10000);
        QCOMPARE(shown->toStart.size(), 2);
        QCOMPARE(shown->toStart.at(0).id, QStringLiteral("127.0.0.63:9004"));
        QVERIFY(shown->describe().contains(QStringLiteral("start and add  127.0.0.63:9005")));
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->rowCount(), 2, 5000);
        QCOMPARE(panel.model()->rowCount(panel.model()->index(0, 0)), 6); // the six visible steps
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isIdle() && panel.model()->index(0, OperationModel::StatusColumn).data().toString().startsWith(QStringLiteral("running")), 10000);
        QTest::qWait(600);
        panel.grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel-running.png"));
        QTRY_VERIFY_WITH_TIMEOUT(runner.isIdle(), 60000);
        for (const ScaleOperation *op : runner.operations())
            QCOMPARE(op->outcome(), OperationOutcome::Succeeded);
        QTRY_VERIFY_WITH_TIMEOUT(table.activeCount(Role::Decode) == 6, 10000);
        QCOMPARE(panel.model()->index(1, OperationModel::StatusColumn).data().toString(), QStringLiteral("succeeded"));
        panel.grab().save(QStringLiteral(PD_BINARY_DIR "/tests/scale/scalepanel.png"));

        panel.setReadOnly(true);
        decode->setTarget(3);
        QVERIFY(!decode->applyButton()->isEnabled());
        table.stop();
        m_cluster->shutdown();
    }
};

QTEST_MAIN(TestScalePanel)
#include "tst_scalepanel.moc"
