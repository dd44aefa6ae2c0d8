// SPDX-License-Identifier: MIT
// The node checks grid and the log view, offscreen: a run over the fake tools fills the grid, a click on
// a red cell shows the raw output behind it; the log view finds text and the first error and explains it.
// Both views are also rendered to PNG (build/dev/tests/nodecheck/*.png) to be looked at.
#include "logs/consolepolllines.h"
#include "logs/logtail.h"
#include "logview.h"
#include "models/nodecheckgridmodel.h"
#include "nodechecksgrid.h"
#include "shellrunner.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

// A log view on a tail of `path` on `node` (read through a local shell, polled every 50 ms), shown at
// 1400x420, the tail started.
struct TailOnView {
    ShellRunner runner;
    LogTail tail;
    LogView view;
    static LogTailOptions fast()
    {
        LogTailOptions o;
        o.pollInterval = std::chrono::milliseconds(50);
        return o;
    }
    TailOnView(const QString &node, const QString &path)
        : tail(&runner, CommandTarget { node, QStringLiteral("127.0.0.1"), 22, {} }, path, fast())
    {
        view.resize(1400, 420);
        view.setTail(&tail);
        view.show();
        tail.start();
    }
};

} // namespace

class TestNodeCheckWidgets final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void gridRunClickAndExport();
    void logViewSearchAndFirstError();
    void logViewHidesTheConsolesPolls();

private:
    QTemporaryDir m_dir;
};

void TestNodeCheckWidgets::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
}

namespace {
NodeCheckTarget target(const QString &node, const QString &host, NpuGeneration gen)
{
    NodeCheckTarget t;
    t.target = CommandTarget { node, host, 22, QString() };
    t.generation = gen;
    t.deviceCount = gen == NpuGeneration::A3 ? 16 : 8;
    return t;
}
} // namespace

void TestNodeCheckWidgets::gridRunClickAndExport()
{
    ShellRunner runner;
    auto conf = [&](const QString &node, const QByteArray &text) {
        const QString path = m_dir.filePath(node + QStringLiteral(".conf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        runner.env[node] = { { QStringLiteral("FAKE_ASCEND_CONF"), path } };
    };
    conf(QStringLiteral("p1"), "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=1\n");
    conf(QStringLiteral("p2"), "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=2\nFAKE_LINK_DOWN=3\nFAKE_TLS_ON=6\n");
    conf(QStringLiteral("d1"),
        "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=3\nFAKE_HEALTH=10=Warning\nFAKE_PING_LOSS=12=partial\n");
    conf(QStringLiteral("d2"),
        "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=4\nFAKE_NET_HEALTH=0=Init\nFAKE_PING_LOSS=5=total\n");
    runner.refused.insert(QStringLiteral("d3"));
    NodeCheckRunner checks(&runner);
    NodeCheckOptions o;
    o.suite.toolDir = QStringLiteral(PD_SOURCE_DIR "/sim/demo-tools");
    o.suite.hccnConfPath = QStringLiteral("/nonexistent/hccn.conf");
    checks.setOptions(o);

    NodeChecksGrid grid(&checks);
    QAbstractItemModelTester tester(grid.model());
    grid.resize(1500, 560);
    grid.setTargets({ target(QStringLiteral("p1"), QStringLiteral("192.0.0.1"), NpuGeneration::A3),
        target(QStringLiteral("p2"), QStringLiteral("192.0.0.2"), NpuGeneration::A3),
        target(QStringLiteral("d1"), QStringLiteral("192.0.0.5"), NpuGeneration::A3),
        target(QStringLiteral("d2"), QStringLiteral("192.0.0.6"), NpuGeneration::A3),
        target(QStringLiteral("d3"), QStringLiteral("192.0.0.7"), NpuGeneration::A3) });
    grid.show();
    QCOMPARE(grid.model()->rowCount(), 5);
    QCOMPARE(grid.model()->columnCount(), 17);
    QCOMPARE(grid.model()->index(1, 4).data(NodeCheckGridModel::PendingRole).toBool(), true);

    QSignalSpy finished(&grid, &NodeChecksGrid::runFinished);
    QTest::mouseClick(grid.findChild<QPushButton *>(QStringLiteral("runChecks")), Qt::LeftButton);
    QVERIFY(finished.wait(120000));

    // p2 device 3: link DOWN -> red cell, and the click shows the raw text behind it.
    const QModelIndex cell = grid.model()->index(1, 1 + 3);
    QCOMPARE(cell.data(NodeCheckGridModel::VerdictRole).toInt(), int(Verdict::Fail));
    QVERIFY(cell.data(NodeCheckGridModel::FailingChecksRole).toStringList().contains(QStringLiteral("link")));
    QTableView *table = grid.table();
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QVERIFY2(grid.detailsText().contains(QLatin1String("$ hccn_tool -i 3 -link -g")), qPrintable(grid.detailsText()));
    QVERIFY(grid.detailsText().contains(QLatin1String("link status: DOWN")));
    // A clean cell says every check passed.
    QCOMPARE(grid.model()->index(0, 1 + 2).data(NodeCheckGridModel::VerdictRole).toInt(), int(Verdict::Pass));
    // TLS differing on p2 device 6 is a failure; the unreachable node is red on its node column.
    QCOMPARE(grid.model()->index(1, 1 + 6).data(NodeCheckGridModel::VerdictRole).toInt(), int(Verdict::Fail));
    QCOMPARE(grid.model()->index(4, 0).data(NodeCheckGridModel::VerdictRole).toInt(), int(Verdict::Fail));
    QVERIFY(grid.model()->index(4, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("connection refused")));
    QCOMPARE(grid.model()->index(3, 1 + 0).data(NodeCheckGridModel::VerdictRole).toInt(), int(Verdict::Warning));
    QVERIFY(grid.statusText().contains(QLatin1String("fail")));

    const QString json = m_dir.filePath(QStringLiteral("report.json"));
    QVERIFY(grid.findChild<QPushButton *>(QStringLiteral("exportJson"))->isEnabled());
    QVERIFY(grid.exportReport(json, NodeChecksGrid::ExportFormat::Json));
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("nodes")).toArray().size(), 5);
    QString error;
    QVERIFY(!grid.exportReport(QStringLiteral("/nonexistent-dir/x.csv"), NodeChecksGrid::ExportFormat::Csv, &error));
    QVERIFY(error.contains(QLatin1String("/nonexistent-dir/x.csv")));

    const QString png = QStringLiteral(PD_BINARY_DIR "/tests/nodecheck/nodechecksgrid.png");
    QVERIFY(grid.grab().save(png));
}

void TestNodeCheckWidgets::logViewSearchAndFirstError()
{
    const QString path = m_dir.filePath(QStringLiteral("decode-9003.log"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "INFO 06-12 10:00:00 [api_server.py:1046] vLLM API server version 0.9.1\n"
            "INFO 06-12 10:00:01 [config.py:823] This model supports multiple tasks\n"
            "INFO 06-12 10:00:05 [parallel_state.py:1064] rank 3 in world size 64 is assigned as DP rank 3\n"
            "INFO 06-12 10:00:09 [model_runner.py:1203] Loading model weights took 38.1 GiB\n"
            "[ERROR] HCCL(3311,python):2025-06-12-10:02:10 [transport_manager.cc:412] wait socket establish timeout, "
            "role[0] rank[3] timeout[120]\n"
            "ERROR 06-12 10:02:10 [core.py:515] EngineCore failed to start.\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/local/lib/python3.11/site-packages/vllm/v1/engine/core.py\", line 506, in run_engine_core\n"
            "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
            "EI0006: Getting socket times out. Reason: The remote does not initiate a connect request.\n"
            "INFO 06-12 10:02:11 [launcher.py:29] shutting down\n");
    }
    TailOnView shown(QStringLiteral("d1"), path);
    LogTail &tail = shown.tail;
    LogView &view = shown.view;
    QTRY_COMPARE(tail.model()->rowCount(), 11);
    QVERIFY(view.isFollowing());
    // Before anything is selected the panel explains the first known signature.
    QTRY_VERIFY(view.diagnosisText().contains(QLatin1String("HCCL link setup timeout")));

    // Search from the box: Enter finds the next match.
    auto *box = view.findChild<QLineEdit *>(QStringLiteral("logSearch"));
    box->setText(QStringLiteral("dp rank"));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(view.currentRow(), 2);
    QVERIFY(!view.isFollowing()); // looking at a line stops following
    QVERIFY(!view.search(QStringLiteral("dp rank"))); // no further match below
    QVERIFY(view.statusText().contains(QLatin1String("not found")));
    QVERIFY(view.search(QStringLiteral("INFO"), true));
    QCOMPARE(view.currentRow(), 1);

    // First error: the HCCL line (the wrapper RuntimeError of row 19 never wins), with diagnosis and fix.
    QTest::mouseClick(view.findChild<QPushButton *>(QStringLiteral("logFirstError")), Qt::LeftButton);
    QCOMPARE(view.currentRow(), 4);
    QVERIFY(view.diagnosisText().contains(QLatin1String("#8 HCCL link setup timeout")));
    QVERIFY(view.diagnosisText().contains(QLatin1String("HCCL_CONNECT_TIMEOUT")));
    QVERIFY(view.diagnosisText().contains(QLatin1String("Run the node checks")));
    QVERIFY(view.jumpToNextError());
    QCOMPARE(view.currentRow(), 5);

    // Pause stops the tail; the button says so.
    auto *pause = view.findChild<QPushButton *>(QStringLiteral("logPause"));
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(tail.isPaused());
    QCOMPARE(pause->text(), QStringLiteral("Resume"));
    QVERIFY(view.statusText().contains(QLatin1String("paused")));
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(!tail.isPaused());

    view.jumpToFirstError();
    const QString png = QStringLiteral(PD_BINARY_DIR "/tests/nodecheck/logview.png");
    QVERIFY(view.grab().save(png));
}

void TestNodeCheckWidgets::logViewHidesTheConsolesPolls()
{
    // What counts as the console's own polling: GET/HEAD of the polled paths, nothing else.
    QVERIFY(isConsolePollLine(u"INFO:     127.0.0.1:51234 - \"GET /healthcheck HTTP/1.1\" 200 OK"));
    QVERIFY(isConsolePollLine(u"INFO:     127.0.0.1:51234 - \"GET /metrics HTTP/1.1\" 200 OK"));
    QVERIFY(isConsolePollLine(u"INFO:     10.0.0.9:4000 - \"GET /health HTTP/1.1\" 200 OK"));
    QVERIFY(isConsolePollLine(u"INFO:     10.0.0.9:4000 - \"GET /v1/models?x=1 HTTP/1.1\" 200 OK"));
    QVERIFY(!isConsolePollLine(u"INFO:     10.0.0.9:4000 - \"POST /v1/completions HTTP/1.1\" 200 OK"));
    QVERIFY(!isConsolePollLine(u"INFO:     10.0.0.9:4000 - \"POST /instances/add HTTP/1.1\" 200 OK"));
    QVERIFY(!isConsolePollLine(u"INFO:     10.0.0.9:4000 - \"GET /healthcheckz HTTP/1.1\" 404 Not Found"));
    QVERIFY(!isConsolePollLine(u"ERROR Error during streaming from decoder 10.0.0.7:9000: GET /metrics failed"));
    // Hostile lines: empty, truncated mid-request, bad UTF-8 (decoded to replacement characters), 10 MB.
    QVERIFY(!isConsolePollLine(u""));
    QVERIFY(!isConsolePollLine(u"\"GET "));
    QVERIFY(!isConsolePollLine(u"INFO:     127.0.0.1:1 - \"GET /metrics"));
    QVERIFY(!isConsolePollLine(u"INFO:     127.0.0.1:1 - \"GET /metric"));
    QVERIFY(!isConsolePollLine(QString::fromUtf8("\xff\xfe\"GET \xc3/metrics HTTP/1.1\" 200")));
    QVERIFY(isConsolePollLine(QString::fromUtf8("\xff\xfe INFO: \"GET /metrics HTTP/1.1\" 200")));
    const QString huge = QString(10 * 1024 * 1024, QLatin1Char('x'));
    QVERIFY(!isConsolePollLine(huge));
    QVERIFY(isConsolePollLine(QString(huge + QStringLiteral(" \"GET /health HTTP/1.1\" 200 OK"))));
    QVERIFY(!isConsolePollLine(QString(huge + QStringLiteral(" \"POST /v1/completions HTTP/1.1\" 200 OK"))));

    const QString path = m_dir.filePath(QStringLiteral("proxy.log"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("INFO:     Started server process [4242]\n"
                "INFO:     127.0.0.1:50000 - \"GET /healthcheck HTTP/1.1\" 200 OK\n"
                "INFO:     127.0.0.1:50001 - \"POST /v1/completions HTTP/1.1\" 200 OK\n"
                "INFO:     127.0.0.1:50000 - \"GET /healthcheck HTTP/1.1\" 200 OK\n"
                "ERROR:    Error during streaming from decoder 127.0.0.7:9000: All connection attempts failed\n"
                "INFO:     127.0.0.1:50000 - \"GET /healthcheck HTTP/1.1\" 200 OK\n");
    }
    TailOnView shown(QStringLiteral("proxy"), path);
    LogTail &tail = shown.tail;
    LogView &view = shown.view;
    QTRY_COMPARE(tail.model()->rowCount(), 6);
    QVERIFY(view.hidesPolls()); // on by default
    QCOMPARE(view.visibleRows(), 3);
    QVERIFY2(view.statusText().contains(QLatin1String("3 of the console's polls hidden")), qPrintable(view.statusText()));

    // Rows stay the model's: a search lands on the error line (row 4) and skips hidden matches.
    QVERIFY(view.search(QStringLiteral("127.0.0.1:50")));
    QCOMPARE(view.currentRow(), 2); // the completion, not the healthcheck of row 1
    QVERIFY(view.jumpToFirstError());
    QCOMPARE(view.currentRow(), 4);

    // Asked for a line only the polls hold, the view shows the polls rather than say "not found".
    QVERIFY(view.search(QStringLiteral("GET /healthcheck"), true));
    QCOMPARE(view.currentRow(), 3);
    QVERIFY(!view.hidesPolls());
    QCOMPARE(view.visibleRows(), 6);
    // The box turns it back on.
    view.findChild<QCheckBox *>(QStringLiteral("logHidePolls"))->setChecked(true);
    QCOMPARE(view.visibleRows(), 3);
}

QTEST_MAIN(TestNodeCheckWidgets)
#include "tst_nodecheckwidgets.moc"
