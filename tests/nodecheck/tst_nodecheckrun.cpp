// SPDX-License-Identifier: MIT
// The suites run for real: /bin/sh with the fake hccn_tool / npu-smi of sim/demo-tools on PATH,
// each "node" with its own fault selection, through the same runNodeChecks() the console uses.
#include "fakedocker.h"
#include "nodecheck/nodecheckrunner.h"
#include "nodecheck/reportexport.h"
#include "shellrunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QDir>
#include <QScopeGuard>
#include <QTest>

using namespace pd;

class TestNodeCheckRun final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void a2ClusterWithFaults();
    void a3ClusterWithDriftAndProfileIps();
    void unreachableAndSlowNodesDoNotBlockOthers();
    void duplicateIpAndConfMismatch();
    void exportCsvAndJson();
    void asyncRunner();
    void checksRunInsideTheNodesContainer();

private:
    NodeCheckTarget target(const QString &node, NpuGeneration gen, const QStringList &ips = {}) const;
    QString writeConf(const QString &node, const QByteArray &conf);
    QString hccnConf(int node, int devices, const QHash<int, QString> &addressOverride = {});
    NodeCheckOptions options() const;
    ClusterReport runA2Faults(ShellRunner &runner);

    QTemporaryDir m_dir;
    QString m_tools;
};

void TestNodeCheckRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_tools = QStringLiteral(PD_SOURCE_DIR "/sim/demo-tools");
    QVERIFY(QFileInfo(m_tools + QStringLiteral("/hccn_tool")).isExecutable());
}

NodeCheckTarget TestNodeCheckRun::target(const QString &node, NpuGeneration gen, const QStringList &ips) const
{
    NodeCheckTarget t;
    t.target = CommandTarget { node, QStringLiteral("127.0.0.1"), 22, QString() };
    t.generation = gen;
    t.deviceCount = gen == NpuGeneration::A3 ? 16 : 8;
    t.npuIps = ips;
    return t;
}

QString TestNodeCheckRun::writeConf(const QString &node, const QByteArray &conf)
{
    const QString path = m_dir.filePath(node + QStringLiteral(".conf"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(conf);
    return path;
}

// /etc/hccn.conf as the fake node's devices report themselves.
QString TestNodeCheckRun::hccnConf(int node, int devices, const QHash<int, QString> &addressOverride)
{
    QByteArray c;
    for (int d = 0; d < devices; ++d) {
        const QString addr = addressOverride.value(d, QStringLiteral("29.1.%1.%2").arg(node).arg(d + 10));
        c += QStringLiteral(
            "address_%1=%2\nnetmask_%1=255.255.0.0\nnetdetect_%1=29.1.0.1\ngateway_%1=29.1.0.1\nsend_arp_status_%1=1\n")
                 .arg(d)
                 .arg(addr)
                 .toUtf8();
    }
    const QString path = m_dir.filePath(QStringLiteral("hccn-%1.conf").arg(node));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(c);
    return path;
}

NodeCheckOptions TestNodeCheckRun::options() const
{
    NodeCheckOptions o;
    o.suite.toolDir = m_tools;
    o.maxParallel = 4;
    o.localTimeout = std::chrono::seconds(60);
    o.pingTimeout = std::chrono::seconds(60);
    return o;
}

namespace {
const CheckResult &check(const ClusterReport &r, const QString &node, CheckKind kind, int device)
{
    for (const NodeReport &n : r.nodes) {
        if (n.node == node) {
            if (const CheckResult *c = n.find(kind, device))
                return *c;
        }
    }
    qFatal("no %s check for %s device %d", qPrintable(checkKindName(kind)), qPrintable(node), device);
}
const NodeReport &nodeOf(const ClusterReport &r, const QString &node)
{
    for (const NodeReport &n : r.nodes) {
        if (n.node == node)
            return n;
    }
    qFatal("no node %s", qPrintable(node));
}
#define VERDICT(c, v) QCOMPARE(verdictName((c).verdict), verdictName(v))
} // namespace

ClusterReport TestNodeCheckRun::runA2Faults(ShellRunner &runner)
{
    // n1 clean; n2: link DOWN on 3, TLS on for 5, health Warning on 2; n3: total ping loss on 4, no IP on 6.
    const QString c1 = writeConf(QStringLiteral("n1"), "FAKE_ASCEND_GEN=A2\nFAKE_ASCEND_NODE=1\n");
    const QString c2 = writeConf(QStringLiteral("n2"),
        "FAKE_ASCEND_GEN=A2\nFAKE_ASCEND_NODE=2\nFAKE_LINK_DOWN=3\nFAKE_TLS_ON=5\nFAKE_HEALTH=2=Warning\n");
    const QString c3 = writeConf(
        QStringLiteral("n3"), "FAKE_ASCEND_GEN=A2\nFAKE_ASCEND_NODE=3\nFAKE_PING_LOSS=4=total\nFAKE_NO_IP=6\n");
    runner.env[QStringLiteral("n1")] = { { QStringLiteral("FAKE_ASCEND_CONF"), c1 } };
    runner.env[QStringLiteral("n2")] = { { QStringLiteral("FAKE_ASCEND_CONF"), c2 } };
    runner.env[QStringLiteral("n3")] = { { QStringLiteral("FAKE_ASCEND_CONF"), c3 } };
    NodeCheckOptions o = options();
    o.suite.hccnConfPath = QStringLiteral("/nonexistent/hccn.conf"); // like a container without the mount
    return runNodeChecks(runner,
        { target(QStringLiteral("n1"), NpuGeneration::A2), target(QStringLiteral("n2"), NpuGeneration::A2),
            target(QStringLiteral("n3"), NpuGeneration::A2) },
        o);
}

void TestNodeCheckRun::a2ClusterWithFaults()
{
    ShellRunner runner;
    const ClusterReport r = runA2Faults(runner);
    // One round trip per node for the local suite and one for the pings.
    QCOMPARE(runner.calls.load(), 6);
    QCOMPARE(runner.callsPerNode().value(QStringLiteral("n2")), 2);

    // n1: every device passes every check; the node-level hccn.conf is a note (file missing: unknown).
    const NodeReport &n1 = nodeOf(r, QStringLiteral("n1"));
    QVERIFY(n1.reachable);
    for (int d = 0; d < 8; ++d)
        QVERIFY2(n1.cellVerdict(d) == Verdict::Pass, qPrintable(QStringLiteral("n1 device %1").arg(d)));
    VERDICT(check(r, QStringLiteral("n1"), CheckKind::HccnConf, -1), Verdict::Unknown);
    VERDICT(check(r, QStringLiteral("n1"), CheckKind::NpuTable, -1), Verdict::Pass);
    QCOMPARE(check(r, QStringLiteral("n1"), CheckKind::Lldp, 3).values.value(QStringLiteral("ifname")),
        QStringLiteral("400GE1/1/2:2"));
    // n1 pings n2 (ring) at the address n2's -ip -g reported.
    const CheckResult &p = check(r, QStringLiteral("n1"), CheckKind::Ping, 0);
    VERDICT(p, Verdict::Pass);
    QCOMPARE(p.values.value(QStringLiteral("peer")), QStringLiteral("29.1.2.10"));
    QCOMPARE(p.values.value(QStringLiteral("peer_node")), QStringLiteral("n2"));
    QVERIFY(p.out.contains("3 packets transmitted, 3 received"));

    // n2's faults, each on its own cell, with the raw output kept.
    const CheckResult &link = check(r, QStringLiteral("n2"), CheckKind::Link, 3);
    VERDICT(link, Verdict::Fail);
    QCOMPARE(link.out, QByteArray("link status: DOWN\n"));
    QCOMPARE(link.command, QStringLiteral("hccn_tool -i 3 -link -g"));
    const CheckResult &tls = check(r, QStringLiteral("n2"), CheckKind::Tls, 5);
    VERDICT(tls, Verdict::Fail); // the cross-node rule: 23 devices off, this one on
    QVERIFY2(tls.reason.contains(QLatin1String("differs from the cluster")), qPrintable(tls.reason));
    VERDICT(check(r, QStringLiteral("n2"), CheckKind::Tls, 4), Verdict::Pass);
    VERDICT(check(r, QStringLiteral("n2"), CheckKind::NpuHealth, 2), Verdict::Warning);
    QCOMPARE(nodeOf(r, QStringLiteral("n2")).cellVerdict(2), Verdict::Warning);
    VERDICT(check(r, QStringLiteral("n2"), CheckKind::NpuTable, -1), Verdict::Warning); // npu-smi table shows it too
    // n2 pings n3, whose device 6 has no IP: that ping cannot run and says why.
    const CheckResult &noPeer = check(r, QStringLiteral("n2"), CheckKind::Ping, 6);
    VERDICT(noPeer, Verdict::Unknown);
    QVERIFY(noPeer.reason.contains(QLatin1String("no NPU IP for n3 device 6")));

    // n3: the device without an IP and the device that loses every packet.
    const CheckResult &ip = check(r, QStringLiteral("n3"), CheckKind::Ip, 6);
    VERDICT(ip, Verdict::Fail);
    QVERIFY(ip.err.contains("no ip was preset"));
    const CheckResult &loss = check(r, QStringLiteral("n3"), CheckKind::Ping, 4);
    VERDICT(loss, Verdict::Fail);
    QCOMPARE(loss.values.value(QStringLiteral("loss_pct")), QStringLiteral("100.00"));
}

void TestNodeCheckRun::a3ClusterWithDriftAndProfileIps()
{
    ShellRunner runner;
    const QString c1 = writeConf(QStringLiteral("a"),
        "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=1\nFAKE_ASCEND_DRIFT=old\nFAKE_HCCS_L1=7\nFAKE_VNIC_DOWN=9\n");
    const QString c2
        = writeConf(QStringLiteral("b"), "FAKE_ASCEND_GEN=A3\nFAKE_ASCEND_NODE=2\nFAKE_PING_LOSS=1=partial\n");
    runner.env[QStringLiteral("a")] = { { QStringLiteral("FAKE_ASCEND_CONF"), c1 } };
    runner.env[QStringLiteral("b")] = { { QStringLiteral("FAKE_ASCEND_CONF"), c2 } };
    QStringList bIps;
    for (int d = 0; d < 16; ++d)
        bIps.append(QStringLiteral("192.168.2.%1").arg(d + 100));
    const ClusterReport r = runNodeChecks(runner,
        { target(QStringLiteral("a"), NpuGeneration::A3), target(QStringLiteral("b"), NpuGeneration::A3, bIps) },
        options());
    const NodeReport &a = nodeOf(r, QStringLiteral("a"));
    QCOMPARE(a.checks.size() > 16 * 9, true);
    // Old driver texts parse the same way.
    const CheckResult &nd = check(r, QStringLiteral("a"), CheckKind::NetDetect, 0);
    VERDICT(nd, Verdict::Pass);
    QVERIFY(nd.out.startsWith("netdetect address:"));
    VERDICT(check(r, QStringLiteral("a"), CheckKind::Tls, 0), Verdict::Pass);
    QVERIFY(!check(r, QStringLiteral("a"), CheckKind::Tls, 0).values.contains(QStringLiteral("tls_preconfigured")));
    VERDICT(check(r, QStringLiteral("a"), CheckKind::NpuTable, -1), Verdict::Pass);
    QCOMPARE(check(r, QStringLiteral("a"), CheckKind::NpuTable, -1).values.value(QStringLiteral("platform")),
        QStringLiteral("A3"));
    // A3 specifics: vNIC, hccs_ping to the profile's IP of b, spod-info with unique SDIDs.
    VERDICT(check(r, QStringLiteral("a"), CheckKind::Vnic, 9), Verdict::Fail);
    const CheckResult &hp = check(r, QStringLiteral("a"), CheckKind::HccsPing, 3);
    VERDICT(hp, Verdict::Pass);
    QCOMPARE(hp.values.value(QStringLiteral("peer")), QStringLiteral("192.168.2.103"));
    QVERIFY(hp.command.contains(QLatin1String("-hccs_ping -g address '192.168.2.103'")));
    VERDICT(check(r, QStringLiteral("a"), CheckKind::HccsPing, 7), Verdict::Warning); // L1 plane fault
    VERDICT(check(r, QStringLiteral("b"), CheckKind::HccsPing, 1), Verdict::Warning); // partial loss
    // b pings a at the vNIC address a reported (no profile IPs for a).
    QCOMPARE(check(r, QStringLiteral("b"), CheckKind::HccsPing, 5).values.value(QStringLiteral("peer")),
        QStringLiteral("192.168.1.105"));
    const CheckResult &sp = check(r, QStringLiteral("b"), CheckKind::SpodInfo, 15);
    VERDICT(sp, Verdict::Pass);
    QCOMPARE(sp.values.value(QStringLiteral("serverindex")), QStringLiteral("2"));
    // A3 health is asked per die: device 15 is NPU 7 chip 1.
    QCOMPARE(check(r, QStringLiteral("b"), CheckKind::NpuHealth, 15).command,
        QStringLiteral("npu-smi info -t health -i 7 -c 1"));
}

void TestNodeCheckRun::unreachableAndSlowNodesDoNotBlockOthers()
{
    ShellRunner runner;
    runner.refused.insert(QStringLiteral("down"));
    runner.env[QStringLiteral("ok")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("1") } };
    // The slow node's first hccn_tool call hangs far past the timeout; the timeout is long enough for the
    // healthy node's whole suite even on a loaded machine (its 60 commands took > 1.5 s at load 15).
    runner.env[QStringLiteral("slow")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("2") },
        { QStringLiteral("FAKE_SLEEP"), QStringLiteral("120") } };
    NodeCheckOptions o = options();
    o.localTimeout = std::chrono::milliseconds(12000);
    o.pingTimeout = std::chrono::milliseconds(12000);
    QStringList slowIps; // from the profile: the slow node's own -ip -g never gets its turn
    for (int d = 0; d < 8; ++d)
        slowIps.append(QStringLiteral("29.1.2.%1").arg(d + 10));
    const ClusterReport r = runNodeChecks(runner,
        { target(QStringLiteral("ok"), NpuGeneration::A2), target(QStringLiteral("down"), NpuGeneration::A2),
            target(QStringLiteral("slow"), NpuGeneration::A2, slowIps) },
        o);
    const NodeReport &down = nodeOf(r, QStringLiteral("down"));
    QVERIFY(!down.reachable);
    QCOMPARE(down.checks.size(), 1);
    VERDICT(down.checks.first(), Verdict::Fail);
    QVERIFY(down.checks.first().reason.contains(QLatin1String("connection refused")));
    QCOMPARE(down.cellVerdict(0), Verdict::Unknown);

    const NodeReport &slow = nodeOf(r, QStringLiteral("slow"));
    QVERIFY(slow.reachable);
    QVERIFY(slow.timedOut);
    const CheckResult &reach = check(r, QStringLiteral("slow"), CheckKind::Reach, -1);
    VERDICT(reach, Verdict::Warning);
    QVERIFY2(reach.reason.contains(QLatin1String("timed out after 12s")), qPrintable(reach.reason));
    // The checks that never ran say so instead of pretending.
    const CheckResult &last = check(r, QStringLiteral("slow"), CheckKind::NpuHealth, 7);
    VERDICT(last, Verdict::Unknown);
    QVERIFY(last.reason.contains(QLatin1String("timed out")));

    const NodeReport &ok = nodeOf(r, QStringLiteral("ok"));
    for (int d = 0; d < 8; ++d) {
        for (CheckKind k :
            { CheckKind::Link, CheckKind::NetHealth, CheckKind::Ip, CheckKind::Tls, CheckKind::NpuHealth })
            VERDICT(check(r, QStringLiteral("ok"), k, d), Verdict::Pass);
    }
    // ok skips "down" (no IPs known for it) and pings the next node whose addresses are known.
    QCOMPARE(check(r, QStringLiteral("ok"), CheckKind::Ping, 0).values.value(QStringLiteral("peer_node")),
        QStringLiteral("slow"));
    VERDICT(check(r, QStringLiteral("ok"), CheckKind::Ping, 0), Verdict::Pass);
    QVERIFY(ok.reachable);
}

void TestNodeCheckRun::duplicateIpAndConfMismatch()
{
    ShellRunner runner;
    const QString conf1 = hccnConf(1, 8, { { 2, QStringLiteral("29.1.1.99") } }); // device 2 configured differently
    runner.env[QStringLiteral("x")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("1") } };
    runner.env[QStringLiteral("y")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("2") },
        { QStringLiteral("FAKE_IP_OVERRIDE"), QStringLiteral("0=29.1.1.10") } };
    NodeCheckOptions o = options();
    o.suite.hccnConfPath = conf1; // both nodes read the same file (only x's agrees with it)
    o.pingPeers = false;
    const ClusterReport r = runNodeChecks(
        runner, { target(QStringLiteral("x"), NpuGeneration::A2), target(QStringLiteral("y"), NpuGeneration::A2) }, o);
    const CheckResult &dupX = check(r, QStringLiteral("x"), CheckKind::Ip, 0);
    const CheckResult &dupY = check(r, QStringLiteral("y"), CheckKind::Ip, 0);
    VERDICT(dupX, Verdict::Fail);
    VERDICT(dupY, Verdict::Fail);
    QVERIFY(dupX.reason.contains(QLatin1String("y/0")));
    VERDICT(check(r, QStringLiteral("x"), CheckKind::Ip, 1), Verdict::Pass);
    VERDICT(check(r, QStringLiteral("x"), CheckKind::HccnConf, -1), Verdict::Pass);
    VERDICT(check(r, QStringLiteral("x"), CheckKind::HccnConf, 1), Verdict::Pass);
    const CheckResult &mismatch = check(r, QStringLiteral("x"), CheckKind::HccnConf, 2);
    VERDICT(mismatch, Verdict::Fail);
    QVERIFY2(mismatch.reason.contains(QLatin1String("address_2=29.1.1.99 but the device reports 29.1.1.12")),
        qPrintable(mismatch.reason));
    QVERIFY(!nodeOf(r, QStringLiteral("x")).find(CheckKind::Ping, 0)); // pings off
}

void TestNodeCheckRun::exportCsvAndJson()
{
    ShellRunner runner;
    const ClusterReport r = runA2Faults(runner);
    int checks = 0;
    for (const NodeReport &n : r.nodes)
        checks += int(n.checks.size());
    const QByteArray csv = reportToCsv(r);
    QVERIFY(csv.startsWith("node,host,device,check,verdict,reason,command,exit_code,stdout,stderr\r\n"));
    QVERIFY(csv.contains(
        "n2,127.0.0.1,3,link,fail,link status: DOWN,hccn_tool -i 3 -link -g,0,\"link status: DOWN\n\",\r\n"));
    QCOMPARE(csv.count("\r\n"), checks + 1); // raw outputs carry \n only, rows end in \r\n

    const QJsonDocument doc = QJsonDocument::fromJson(reportToJson(r));
    QVERIFY(doc.isObject());
    const QJsonObject root = doc.object();
    QCOMPARE(
        root.value(QStringLiteral("summary")).toObject().value(QStringLiteral("fail")).toInt(), r.count(Verdict::Fail));
    QVERIFY(r.count(Verdict::Fail) >= 4);
    const QJsonArray nodes = root.value(QStringLiteral("nodes")).toArray();
    QCOMPARE(nodes.size(), 3);
    const QJsonArray n2 = nodes.at(1).toObject().value(QStringLiteral("checks")).toArray();
    bool found = false;
    for (const QJsonValue &v : n2) {
        const QJsonObject c = v.toObject();
        if (c.value(QStringLiteral("check")).toString() == QLatin1String("tls")
            && c.value(QStringLiteral("device")).toInt() == 5) {
            QCOMPARE(c.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
            QCOMPARE(c.value(QStringLiteral("values")).toObject().value(QStringLiteral("tls_switch")).toString(),
                QStringLiteral("1"));
            QVERIFY(c.value(QStringLiteral("stdout")).toString().contains(QLatin1String("tls switch[1]")));
            found = true;
        }
    }
    QVERIFY(found);
}

void TestNodeCheckRun::asyncRunner()
{
    ShellRunner runner;
    runner.env[QStringLiteral("p")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("1") } };
    runner.env[QStringLiteral("q")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("2") } };
    NodeCheckRunner checks(&runner);
    checks.setOptions(options());
    QSignalSpy updated(&checks, &NodeCheckRunner::nodeUpdated);
    QSignalSpy finished(&checks, &NodeCheckRunner::finished);
    const int job = checks.start(
        { target(QStringLiteral("p"), NpuGeneration::A2), target(QStringLiteral("q"), NpuGeneration::A2) });
    QVERIFY(checks.isRunning());
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toInt(), job);
    const ClusterReport r = finished.first().at(1).value<ClusterReport>();
    QCOMPARE(r.nodes.size(), 2);
    QCOMPARE(updated.size(), 4); // each node after its local suite and after its pings
    QVERIFY(!checks.isRunning());
    VERDICT(check(r, QStringLiteral("q"), CheckKind::Ping, 7), Verdict::Pass);
}

// A node whose engines live in a container gets its checks there too. A fake `docker`
// on PATH records the call and runs the command here; the report is the one the host would give.
void TestNodeCheckRun::checksRunInsideTheNodesContainer()
{
    const pd::test::FakeDocker docker(
        m_dir.path(), R"(printf '%s %s %s %s %s\n' "$1" "$2" "$3" "$4" "$5" >>"$FAKE_DOCKER_LOG")");
    QVERIFY(docker.isReady());

    ShellRunner runner;
    runner.env[QStringLiteral("c")] = { { QStringLiteral("FAKE_ASCEND_NODE"), QStringLiteral("3") } };
    NodeCheckTarget inContainer = target(QStringLiteral("c"), NpuGeneration::A2);
    inContainer.containerName = QStringLiteral("vllm-ascend-p");
    const NodeReport report = runLocalChecks(runner, inContainer, options());
    QVERIFY2(report.reachable, qPrintable(report.transportError));
    QCOMPARE(docker.calls(), QByteArray("exec -i vllm-ascend-p bash -c\n"));
    QVERIFY(report.checks.size() > 3); // the suite ran there: tools, npu-smi, hccn.conf, links
}

QTEST_GUILESS_MAIN(TestNodeCheckRun)
#include "tst_nodecheckrun.moc"
