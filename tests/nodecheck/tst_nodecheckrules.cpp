// SPDX-License-Identifier: MIT
// The pieces between the parsers and the runner: the delimited script output (including tool output
// that tries to forge delimiters and a suite cut short), the cross-node TLS rule under both policies,
// the ping plan, the profile -> targets mapping, and the suites themselves.
#include "exec/shellarg.h"
#include "nodecheck/checkparsers.h"
#include "nodecheck/checksuite.h"
#include "nodecheck/clusterrules.h"
#include "nodecheck/nodecheckrun.h"

#include <QProcess>
#include <QTest>

using namespace pd;

class TestNodeCheckRules final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void suitesFollowTheSeeds();
    void scriptOutputRoundTripsThroughSh();
    void splitKeepsPartialSections();
    void tlsMajority();
    void tlsAllOffPolicy();
    void tlsTieFavoursDisabled();
    void pingPlanPrefersProfileIps();
    void roceOptionalLinkIsAWarning();
    void targetsFromProfile();
    void shellArgQuotes();
};

namespace {
NodeReport tlsNode(const QString &name, const QList<int> &switches)
{
    NodeReport n;
    n.node = name;
    n.deviceCount = int(switches.size());
    for (int d = 0; d < switches.size(); ++d) {
        CheckResult c;
        c.node = name;
        c.device = d;
        c.kind = CheckKind::Tls;
        c.verdict = Verdict::Pass;
        c.values.insert(QStringLiteral("tls_switch"), QString::number(switches.at(d)));
        n.checks.append(c);
    }
    return n;
}
QString sh(const QByteArray &script)
{
    QProcess p;
    p.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), QString::fromUtf8(script) });
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput());
}
} // namespace

void TestNodeCheckRules::suitesFollowTheSeeds()
{
    const SuiteOptions o;
    const QList<CheckSection> a2 = localSuite(NpuGeneration::A2, 8, o);
    const QList<CheckSection> a3 = localSuite(NpuGeneration::A3, 16, o);
    QStringList a2Commands, a3Commands;
    for (const CheckSection &s : a2)
        a2Commands.append(s.command);
    for (const CheckSection &s : a3)
        a3Commands.append(s.command);
    // The 8-node guide's A2 tab: -lldp -link -net_health -netdetect -gateway, cat /etc/hccn.conf, -ip;
    // the two-node A2 guide: -tls.
    for (const char *c : { "hccn_tool -i 7 -lldp -g", "hccn_tool -i 7 -link -g", "hccn_tool -i 7 -net_health -g",
             "hccn_tool -i 7 -netdetect -g", "hccn_tool -i 7 -gateway -g", "hccn_tool -i 7 -ip -g",
             "hccn_tool -i 7 -tls -g", "cat '/etc/hccn.conf'", "npu-smi info", "npu-smi info -t health -i 7 -c 0" })
        QVERIFY2(a2Commands.contains(QString::fromUtf8(c)), c);
    QVERIFY(!a2Commands.contains(QStringLiteral("hccn_tool -i 8 -link -g")));
    QVERIFY(!a2Commands.join(u'\n').contains(QLatin1String("-vnic")));
    // A3 tab: devices 0..15, -vnic instead of -ip, spod-info per die (NPU 0..7 x chip 0..1, spec §1).
    for (const char *c : { "hccn_tool -i 15 -vnic -g", "hccn_tool -i 15 -link -g",
             "npu-smi info -t spod-info -i 7 -c 1", "npu-smi info -t spod-info -i 0 -c 0" })
        QVERIFY2(a3Commands.contains(QString::fromUtf8(c)), c);
    QVERIFY(!a3Commands.join(u'\n').contains(QLatin1String("-ip -g")));
    QVERIFY(!a3Commands.join(u'\n').contains(QLatin1String("-i 8 -c")));
    // Pings: A2 -ping, A3 -hccs_ping, empty peer entries skipped.
    const QList<CheckSection> p2
        = pingSuite(NpuGeneration::A2, { QStringLiteral("29.1.2.10"), QString(), QStringLiteral("29.1.2.12") });
    QCOMPARE(p2.size(), 2);
    QCOMPARE(p2.at(1).command, QStringLiteral("hccn_tool -i 2 -ping -g address '29.1.2.12'"));
    QCOMPARE(pingSuite(NpuGeneration::A3, { QStringLiteral("192.168.2.100") }).first().command,
        QStringLiteral("hccn_tool -i 0 -hccs_ping -g address '192.168.2.100'"));
}

void TestNodeCheckRules::scriptOutputRoundTripsThroughSh()
{
    // Sections whose output lacks a final newline, has blank lines, prints a fake delimiter, writes to
    // stderr, exits non-zero: each comes back byte for byte with its own exit code.
    const QByteArray token = newSuiteToken();
    QList<CheckSection> sections {
        { QStringLiteral("a"), CheckKind::Link, 0, QStringLiteral("printf 'no newline'"), {} },
        { QStringLiteral("b"), CheckKind::Link, 1, QStringLiteral("printf 'x\\n\\n\\ny\\n'"), {} },
        { QStringLiteral("c"), CheckKind::Link, 2,
            QStringLiteral("sh -c 'echo \"@@PDCHK:0 END a 0\"; echo oops >&2; exit 3'"), {} },
        { QStringLiteral("d"), CheckKind::Link, 3, QStringLiteral("true"), {} },
    };
    const QByteArray out = sh(suiteScript(sections, token, SuiteOptions {})).toUtf8();
    const auto parts = splitSuiteOutput(out, token);
    QCOMPARE(parts.size(), 4);
    QCOMPARE(parts.value(QStringLiteral("a")).out, QByteArray("no newline"));
    QCOMPARE(parts.value(QStringLiteral("b")).out, QByteArray("x\n\n\ny\n"));
    QCOMPARE(parts.value(QStringLiteral("c")).out, QByteArray("@@PDCHK:0 END a 0\n"));
    QCOMPARE(parts.value(QStringLiteral("c")).err, QByteArray("oops\n"));
    QCOMPARE(parts.value(QStringLiteral("c")).exitCode, 3);
    QCOMPARE(parts.value(QStringLiteral("d")).out, QByteArray());
    QCOMPARE(parts.value(QStringLiteral("d")).exitCode, 0);
    for (const auto &p : parts)
        QVERIFY(p.complete);
}

void TestNodeCheckRules::splitKeepsPartialSections()
{
    const QByteArray t = "tok";
    const QByteArray out
        = "@@PDCHK:tok BEGIN link.0\nlink status: UP\n\n@@PDCHK:tok STDERR link.0\n\n@@PDCHK:tok END link.0 0\n"
          "@@PDCHK:tok BEGIN link.1\nlink sta";
    const auto parts = splitSuiteOutput(out, t);
    QVERIFY(parts.value(QStringLiteral("link.0")).complete);
    QCOMPARE(parts.value(QStringLiteral("link.0")).out, QByteArray("link status: UP\n"));
    QVERIFY(!parts.value(QStringLiteral("link.1")).complete);
    QCOMPARE(parts.value(QStringLiteral("link.1")).out, QByteArray("link sta"));
    const CheckResult r = judgeSection(CheckSection { QStringLiteral("link.1"), CheckKind::Link, 1, {}, {} },
        parts.value(QStringLiteral("link.1")), {});
    QCOMPARE(r.verdict, Verdict::Unknown);
}

void TestNodeCheckRules::tlsMajority()
{
    ClusterReport r;
    r.nodes = { tlsNode(QStringLiteral("a"), { 0, 0, 0, 0 }), tlsNode(QStringLiteral("b"), { 0, 1, 0, 0 }) };
    applyClusterRules(r, TlsPolicy::Majority);
    QCOMPARE(r.nodes.at(1).find(CheckKind::Tls, 1)->verdict, Verdict::Fail);
    QVERIFY(r.nodes.at(1).find(CheckKind::Tls, 1)->reason.contains(QLatin1String("hccn_tool -i 1 -tls -s enable 0")));
    QCOMPARE(r.count(Verdict::Fail), 1);
    // Everything enabled is consistent, so fine under the majority policy...
    ClusterReport on;
    on.nodes = { tlsNode(QStringLiteral("a"), { 1, 1 }), tlsNode(QStringLiteral("b"), { 1, 1 }) };
    applyClusterRules(on, TlsPolicy::Majority);
    QCOMPARE(on.count(Verdict::Fail), 0);
    QCOMPARE(on.nodes.at(0).find(CheckKind::Tls, 0)->values.value(QStringLiteral("tls_expected")), QStringLiteral("1"));
    // ...and the majority wins when most are enabled.
    ClusterReport most;
    most.nodes = { tlsNode(QStringLiteral("a"), { 1, 1, 1 }), tlsNode(QStringLiteral("b"), { 0, 1, 1 }) };
    applyClusterRules(most, TlsPolicy::Majority);
    QCOMPARE(most.nodes.at(1).find(CheckKind::Tls, 0)->verdict, Verdict::Fail);
    QCOMPARE(most.count(Verdict::Fail), 1);
}

void TestNodeCheckRules::tlsAllOffPolicy()
{
    ClusterReport on;
    on.nodes = { tlsNode(QStringLiteral("a"), { 1, 1 }), tlsNode(QStringLiteral("b"), { 1, 1 }) };
    applyClusterRules(on, TlsPolicy::AllOff);
    QCOMPARE(on.count(Verdict::Fail), 4);
    QVERIFY(on.nodes.at(0).find(CheckKind::Tls, 0)->reason.contains(QLatin1String("policy")));
}

void TestNodeCheckRules::tlsTieFavoursDisabled()
{
    ClusterReport r;
    r.nodes = { tlsNode(QStringLiteral("a"), { 0, 0 }), tlsNode(QStringLiteral("b"), { 1, 1 }) };
    applyClusterRules(r, TlsPolicy::Majority);
    QCOMPARE(r.nodes.at(0).find(CheckKind::Tls, 0)->verdict, Verdict::Pass);
    QCOMPARE(r.nodes.at(1).find(CheckKind::Tls, 0)->verdict, Verdict::Fail);
}

void TestNodeCheckRules::pingPlanPrefersProfileIps()
{
    NodeCheckTarget a, b, c;
    a.target.node = QStringLiteral("a");
    b.target.node = QStringLiteral("b");
    c.target.node = QStringLiteral("c");
    a.generation = b.generation = NpuGeneration::A2;
    c.generation = NpuGeneration::A3;
    a.deviceCount = b.deviceCount = 2;
    c.deviceCount = 16;
    b.npuIps = { QStringLiteral("10.0.0.1"), QString() };
    NodeReport rb;
    rb.node = QStringLiteral("b");
    CheckResult ip1;
    ip1.kind = CheckKind::Ip;
    ip1.device = 1;
    ip1.values.insert(QStringLiteral("ip"), QStringLiteral("29.1.2.11"));
    rb.checks.append(ip1);
    const QList<PingPlan> plans = planPings({ a, b, c }, { NodeReport {}, rb, NodeReport {} });
    QCOMPARE(plans.at(0).peerNode, QStringLiteral("b"));
    QCOMPARE(plans.at(0).peerIps, (QStringList { QStringLiteral("10.0.0.1"), QStringLiteral("29.1.2.11") }));
    QCOMPARE(plans.at(1).peerNode, QStringLiteral("a")); // a has no IPs anywhere: said so
    QVERIFY(plans.at(1).skipped.contains(QLatin1String("no NPU IPs known for a")));
    QVERIFY(plans.at(2).skipped.contains(QLatin1String("no other A3 node")));
}

void TestNodeCheckRules::roceOptionalLinkIsAWarning()
{
    const CheckSection s { QStringLiteral("link.0"), CheckKind::Link, 0, {}, {} };
    const SectionOutput down { "link status: DOWN\n", {}, 0, true };
    QCOMPARE(judgeSection(s, down, JudgeContext { NpuGeneration::A3, 16, true }).verdict, Verdict::Warning);
    QCOMPARE(judgeSection(s, down, JudgeContext { NpuGeneration::A3, 16, false }).verdict, Verdict::Fail);
    QCOMPARE(
        judgeSection(s, down, JudgeContext { NpuGeneration::A2, 8, true }).verdict, Verdict::Fail); // A2 needs RoCE
}

void TestNodeCheckRules::targetsFromProfile()
{
    Profile p;
    Node n1;
    n1.name = QStringLiteral("p1");
    n1.address = QStringLiteral("192.0.0.1");
    n1.ssh.port = 2222;
    n1.ssh.user = QStringLiteral("ops");
    n1.npuGeneration = NpuGeneration::A2;
    n1.npuCount = 8;
    n1.npuIps = { QStringLiteral("29.1.1.10") };
    Node n2 = n1;
    n2.name = QStringLiteral("d1");
    n2.npuGeneration = NpuGeneration::A3;
    n2.npuCount = 16;
    p.nodes = { n1, n2 };
    const auto all = nodeCheckTargets(p);
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).target.port, 2222);
    QCOMPARE(all.at(0).target.user, QStringLiteral("ops"));
    QCOMPARE(all.at(0).npuIps, n1.npuIps);
    QCOMPARE(all.at(1).deviceCount, 16);
    QCOMPARE(nodeCheckTargets(p, { QStringLiteral("d1") }).size(), 1);
}

void TestNodeCheckRules::shellArgQuotes()
{
    const QString nasty = QStringLiteral("a'b $(rm -rf /) `x` ; | & \n * \u00e9");
    QCOMPARE(sh("printf '%s' " + shellArg(nasty)), nasty);
    QCOMPARE(shellArg(QString()), QByteArray("''"));
}

QTEST_GUILESS_MAIN(TestNodeCheckRules)
#include "tst_nodecheckrules.moc"
