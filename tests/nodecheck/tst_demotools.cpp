// SPDX-License-Identifier: MIT
// The demo's node tools (sim/demo-tools, as copied next to pdsim in the build tree) answer the seeds'
// whole A3 check suite through the console's own runner for nodes of the demo profile, each node as its
// own machine (no duplicate vNIC IP or SDID between them), and the one fault demo.conf injects (die 3 of
// d3: link DOWN) is the only failure. Two nodes (a healthy one and d3) keep the ~300 tool calls short.
#include "cluster/profileformat.h"
#include "nodecheck/nodecheckrun.h"
#include "shellrunner.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

class TestDemoTools final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theDemoClusterShowsItsOneFault();
};

void TestDemoTools::theDemoClusterShowsItsOneFault()
{
    const QString tools = QStringLiteral(PD_BINARY_DIR "/sim/demo-tools");
    QVERIFY2(QFileInfo(tools + QStringLiteral("/hccn_tool")).isExecutable(), qPrintable(tools));
    QVERIFY(QFileInfo::exists(tools + QStringLiteral("/demo.conf")));
    const auto loaded = loadProfileFile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json"));
    QVERIFY(loaded.profile);
    const QList<NodeCheckTarget> targets
        = nodeCheckTargets(*loaded.profile, { QStringLiteral("p3"), QStringLiteral("d3") });
    QCOMPARE(targets.size(), 2);

    // What the demo's environment gives each node's shell: the tools on PATH, demo.conf, the node's name.
    ShellRunner runner;
    for (const NodeCheckTarget &t : targets) {
        runner.env[t.target.node] = { { QStringLiteral("PDCONSOLE_NODE"), t.target.node },
            { QStringLiteral("FAKE_ASCEND_CONF"), tools + QStringLiteral("/demo.conf") } };
    }
    QTemporaryDir dir;
    NodeCheckOptions o;
    o.suite.toolDir = tools;
    o.suite.hccnConfPath = dir.filePath(QStringLiteral("hccn.conf")); // absent, as on any non-Ascend machine
    o.maxParallel = 2;
    o.localTimeout = std::chrono::seconds(240);
    o.pingTimeout = std::chrono::seconds(120);
    const ClusterReport report = runNodeChecks(runner, targets, o);

    QCOMPARE(report.nodes.size(), 2);
    QStringList failures, others;
    int passes = 0;
    for (const NodeReport &n : report.nodes) {
        QVERIFY2(n.reachable, qPrintable(n.node));
        for (const CheckResult &c : n.checks) {
            const QString id = QStringLiteral("%1 %2.%3").arg(n.node, checkKindName(c.kind)).arg(c.device);
            if (c.verdict == Verdict::Pass)
                ++passes;
            else if (c.verdict == Verdict::Fail)
                failures << id + QStringLiteral(": ") + c.reason;
            else if (c.kind != CheckKind::HccnConf)
                others << id + QStringLiteral(": ") + c.reason;
        }
    }
    QCOMPARE(failures.size(), 1);
    QVERIFY2(failures.first().startsWith(QStringLiteral("d3 link.3: ")), qPrintable(failures.first()));
    QVERIFY2(others.isEmpty(), qPrintable(others.join(QLatin1Char('\n'))));
    // Every node ran the whole suite: 16 dies × (lldp link net_health netdetect gateway vnic tls health
    // spod-info hccs_ping) passed everywhere else.
    QVERIFY2(passes >= 2 * 16 * 10 - 1, qPrintable(QString::number(passes)));
    const CheckResult *link = nullptr;
    for (const NodeReport &n : report.nodes) {
        if (n.node == QLatin1String("d3"))
            link = n.find(CheckKind::Link, 3);
    }
    QVERIFY(link);
    QCOMPARE(link->out.trimmed(), QByteArray("link status: DOWN"));
}

QTEST_GUILESS_MAIN(TestDemoTools)
#include "tst_demotools.moc"
