// SPDX-License-Identifier: MIT
// Every output of spec ascend-node-tools.md §2 (verbatim, source-exact and composed, A2 and A3, the
// documented drift) through judgeSection(): the verdict and the fact an operator would read.
#include "nodecheck/checkparsers.h"

#include <QTest>

using namespace pd;

Q_DECLARE_METATYPE(pd::CheckKind)
Q_DECLARE_METATYPE(pd::Verdict)
Q_DECLARE_METATYPE(pd::NpuGeneration)

class TestNodeCheckParsers final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void judge_data();
    void judge();
    void npuSmiTable_data();
    void npuSmiTable();
    void hccnConf();
};

namespace {

QByteArray b(const char *s)
{
    return QByteArray(s);
}

const char *kLldp
    = "Chassis ID TLV\n\tMAC: 3c:9d:56:12:34:01\nPort ID TLV\n\tIfname: 400GE1/1/5:1\nTime to Live TLV\n\t121\n"
      "System Name TLV\n\tLEAF-01\nSystem Description TLV\n\tHuawei YunShan OS\nManagement Address TLV\n"
      "\tIPv4: 10.0.0.11\n\tIfindex: 15\nMaximum Frame Size TLV\n\t9216\nEnd of LLDPDU TLV\n";
const char *kLldpBlog
    = "Chassis ID TLV\n        MAC: ...\nPort ID TLV\n        Ifname: 400GE1/1/20:2\nSystem Description TLV\n"
      "        Versatile Routing Platform Software\nVRP (R) software, Version 8.211 (DX511 V200R021C10SPC600)\n\n"
      "Huarong DX511\n\nSystem Capabilities TLV\n        Enabled capabilities: Bridge, Router\n"
      "Management Address TLV\n        IPv4: 26.xx.xx.xx\nMaximum Frame Size TLV\n        9216\nEnd of LLDPDU TLV\n";
const char *kTlsNew = "dev_id:0, tls switch[0](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls "
                      "alarm time threshold[60]days\n";
const char *kTlsOld
    = "dev_id:0, tls switch[1](0:disable, 1:enable), tls alarm time threshold[60]days\n"
      "dev_id:0, [pub cert] info:\n         issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n"
      "         start_time[Wed Feb 19 03:19:21 2020 GMT]\n         end_time[Sat Feb 16 03:19:21 2030 GMT]\n";
const char *kPingOk
    = "device 0 PING 11.12.165.80\nrecv seq=0,time=0.114000ms\nrecv seq=1,time=0.067000ms\nrecv seq=2,time=0.063000ms\n"
      "3 packets transmitted, 3 received, 0.00% packet loss\n";
const char *kPingPartialOcr = "recv time out seq=O\nrecv seq=1,time=0.097000ms\nrecv seq=2,time=0.066000ms\n"
                              "3 packets transmitted, 2 received, 33.33% packet loss\n";
const char *kPingTotal = "device 4 PING 172.16.37.102\nrecv time out seq=0\nrecv time out seq=1\nrecv time out seq=2\n"
                         "3 packets transmitted, 0 received, 100.00% packet loss\n";
const char *kHccsOk = "device 0 PING 192.168.3.17\n\nThis pkt ping success!\nrecv seq 0, time = 6.120us, L1 plane "
                      "check result = 0x0\n\n"
                      "This pkt ping success!\nrecv seq 1, time = 5.480us, L1 plane check result = 0x0\n\n"
                      "This pkt ping success!\nrecv seq 2, time = 5.510us, L1 plane check result = 0x0\n\n"
                      "3 packets transmitted, 3 received, 0.00% packets loss\nmax time 6.120us\nmin time 5.480us\n"
                      "average time 5.703us\nTP95 time 6.120us\n";
const char *kHccsL1 = "device 0 PING 192.168.3.17\n\nThis pkt ping success!\nrecv seq 0, time = 6.120us, L1 plane "
                      "check result = 0x4\n\n"
                      "3 packets transmitted, 3 received, 0.00% packets loss\n";
const char *kHccsFail = "device 0 PING 192.168.3.17\n\nThis pkt check recv msg fail!\n\nThis pkt send fail!\n\nThis "
                        "pkt ping not start to send!\n\n"
                        "3 packets transmitted, 0 received, 100.00% packets loss\nmax time 0.000us\nmin time 0.000us\n";

using K = CheckKind;
using V = Verdict;
QTestData &row(const char *name) { return QTest::newRow(name); }

// judge's rows. The NIC and its link: lldp, link.
void lldpAndLinkRows()
{
    const auto A2 = NpuGeneration::A2;
    const auto A3 = NpuGeneration::A3;
    // §2.1 lldp
    row("lldp full [C]") << K::Lldp << A2 << b(kLldp) << b("") << 0 << V::Pass << "ifname"
                         << "400GE1/1/5:1"
                         << "400GE1/1/5:1";
    row("lldp blog spaces [V]") << K::Lldp << A2 << b(kLldpBlog) << b("") << 0 << V::Pass << "switch_ip"
                                << "26.xx.xx.xx"
                                << "";
    row("lldp grep Ifname [V]") << K::Lldp << A2 << b("\tIfname: 400GE1/1/5:1\n") << b("") << 0 << V::Pass << "ifname"
                                << "400GE1/1/5:1"
                                << "";
    row("lldp system name") << K::Lldp << A3 << b(kLldp) << b("") << 0 << V::Pass << "switch"
                            << "LEAF-01"
                            << "";
    row("lldp empty") << K::Lldp << A2 << b("") << b("") << 0 << V::Fail << ""
                      << ""
                      << "no LLDP neighbour";
    row("lldp no Ifname") << K::Lldp << A2 << b("Chassis ID TLV\n\tMAC: 3c:9d\nEnd of LLDPDU TLV\n") << b("") << 0
                          << V::Fail << ""
                          << ""
                          << "no LLDP";
    row("lldp error rc") << K::Lldp << A2 << b("") << b("Command execute failed!\n") << 1 << V::Fail << ""
                         << ""
                         << "Command execute failed!";
    // §2.2 link
    row("link UP") << K::Link << A2 << b("link status: UP\n") << b("") << 0 << V::Pass << "link"
                   << "UP"
                   << "";
    row("link DOWN") << K::Link << A2 << b("link status: DOWN\n") << b("") << 0 << V::Fail << "link"
                     << "DOWN"
                     << "DOWN";
    row("link DOWN A3") << K::Link << A3 << b("link status: DOWN\n") << b("") << 0 << V::Fail << "link"
                        << "DOWN"
                        << "";
    row("link garbage") << K::Link << A2 << b("linkstatus UP\n") << b("") << 0 << V::Fail << ""
                        << ""
                        << "no 'link status:'";
    row("link CRLF") << K::Link << A2 << b("link status: UP\r\n") << b("") << 0 << V::Pass << "link"
                     << "UP"
                     << "";
    row("link invalid device") << K::Link << A2 << b("") << b("Get invalid device id.\n") << 1 << V::Fail << ""
                               << ""
                               << "Get invalid device id.";
    row("link link down exec") << K::Link << A2 << b("") << b("Execute failed: Link status is down.\n") << 1 << V::Fail
                               << ""
                               << ""
                               << "Link status is down";
    row("link busy") << K::Link << A2 << b("") << b("hccn_tool is busy, please try again.\n") << 1 << V::Warning << ""
                     << ""
                     << "busy";
    row("link timed out") << K::Link << A2 << b("") << b("") << 124 << V::Fail << ""
                          << ""
                          << "timed out";
    row("link not found") << K::Link << A2 << b("") << b("sh: 1: hccn_tool: not found\n") << 127 << V::Fail << ""
                          << ""
                          << "not found";
}

// judge's rows. The network: net_health, netdetect, gateway, ip, vnic.
void networkRows()
{
    const auto A2 = NpuGeneration::A2;
    const auto A3 = NpuGeneration::A3;
    // §2.3 net_health (the whole table)
    row("health Success") << K::NetHealth << A2 << b("net health status: Success\n") << b("") << 0 << V::Pass
                          << "net_health"
                          << "Success"
                          << "";
    for (const char *s :
        { "Socket fail", "Receive timeout", "Unreachable", "Time exceeded", "Fault", "Thread error", "Unknown" })
        QTest::addRow("net_health %s", s) << K::NetHealth << A2 << (b("net health status: ") + s + '\n') << b("") << 0
                                          << V::Fail << "net_health" << QString::fromUtf8(s) << "";
    row("net_health Init") << K::NetHealth << A2 << b("net health status: Init\n") << b("") << 0 << V::Warning
                           << "net_health"
                           << "Init"
                           << "netdetect";
    row("net_health Detect ip set") << K::NetHealth << A2 << b("net health status: Detect ip set\n") << b("") << 0
                                    << V::Warning << "net_health"
                                    << "Detect ip set"
                                    << "";
    row("net_health unexpected") << K::NetHealth << A2 << b("net health status: Flapping\n") << b("") << 0 << V::Fail
                                 << "net_health"
                                 << "Flapping"
                                 << "";
    // §2.4 netdetect: both spellings
    row("netdetect addr [S]") << K::NetDetect << A2 << b("netdetect addr: 29.1.0.1\n") << b("") << 0 << V::Pass
                              << "netdetect"
                              << "29.1.0.1"
                              << "";
    row("netdetect address [V old]") << K::NetDetect << A2 << b("netdetect address: 11.12.165.1\n") << b("") << 0
                                     << V::Pass << "netdetect"
                                     << "11.12.165.1"
                                     << "";
    row("netdetect 0.0.0.0") << K::NetDetect << A2 << b("netdetect addr: 0.0.0.0\n") << b("") << 0 << V::Fail
                             << "netdetect"
                             << "0.0.0.0"
                             << "not configured";
    row("netdetect bogus") << K::NetDetect << A2 << b("netdetect addr: 300.1.1.1\n") << b("") << 0 << V::Fail << ""
                           << ""
                           << "";
    // §2.5 gateway
    row("gateway [V]") << K::Gateway << A2 << b("default gateway:11.12.165.1, Iface:eth0\n") << b("") << 0 << V::Pass
                       << "gateway"
                       << "11.12.165.1"
                       << "";
    row("gateway iface") << K::Gateway << A2 << b("default gateway:11.12.165.1, Iface:eth7\n") << b("") << 0 << V::Pass
                         << "iface"
                         << "eth7"
                         << "";
    row("gateway ipv6") << K::Gateway << A2 << b("gateway:fe80::1\n") << b("") << 0 << V::Pass << "gateway"
                        << "fe80::1"
                        << "";
    row("gateway not preset") << K::Gateway << A2 << b("")
                              << b("Get gateway failed, because no gateway was preset there!\n") << 1 << V::Fail << ""
                              << ""
                              << "no gateway was preset";
    // §2.6 ip
    row("ip [S]") << K::Ip << A2 << b("ipaddr:29.1.112.213\nnetmask:255.255.0.0\n") << b("") << 0 << V::Pass << "ip"
                  << "29.1.112.213"
                  << "";
    row("ip netmask") << K::Ip << A2 << b("ipaddr:11.12.165.80\nnetmask:255.255.255.0\n") << b("") << 0 << V::Pass
                      << "netmask"
                      << "255.255.255.0"
                      << "";
    row("ip not preset") << K::Ip << A2 << b("") << b("Get ipconf failed, because no ip was preset there!\n") << 1
                         << V::Fail << ""
                         << ""
                         << "no ip was preset";
    row("ip only address") << K::Ip << A2 << b("ipaddr:29.1.112.213\n") << b("") << 0 << V::Fail << ""
                           << ""
                           << "";
    // §2.7 vnic
    row("vnic UP [S]") << K::Vnic << A3
                       << b("vnic link status: UP\nvnic ipaddr: 192.168.2.199\nvnic netmask: 255.255.255.0\n") << b("")
                       << 0 << V::Pass << "ip"
                       << "192.168.2.199"
                       << "";
    row("vnic DOWN") << K::Vnic << A3
                     << b("vnic link status: DOWN\nvnic ipaddr: 192.168.2.199\nvnic netmask: 255.255.255.0\n") << b("")
                     << 0 << V::Fail << "ip"
                     << "192.168.2.199"
                     << "DOWN";
    row("vnic no ip") << K::Vnic << A3 << b("vnic link status: UP\n") << b("") << 0 << V::Fail << ""
                      << ""
                      << "no 'vnic ipaddr:'";
}

// judge's rows. Reachability and TLS: ping, hccs_ping, tls.
void pingRows()
{
    const auto A2 = NpuGeneration::A2;
    const auto A3 = NpuGeneration::A3;
    // §2.8 ping
    row("ping ok [V]") << K::Ping << A2 << b(kPingOk) << b("") << 0 << V::Pass << "received"
                       << "3"
                       << "0.00% loss";
    row("ping partial [V ocr]") << K::Ping << A2 << b(kPingPartialOcr) << b("") << 0 << V::Warning << "loss_pct"
                                << "33.33"
                                << "2/3";
    row("ping total") << K::Ping << A2 << b(kPingTotal) << b("Command execute failed!\n") << 1 << V::Fail << "received"
                      << "0"
                      << "100.00% loss";
    row("ping unreachable") << K::Ping << A2 << b("device 0 PING 1.2.3.4\nDestination Host Unreachable\n") << b("") << 1
                            << V::Fail << ""
                            << ""
                            << "Unreachable";
    row("ping no summary rc") << K::Ping << A2 << b("device 0 PING 1.2.3.4\n") << b("Command execute failed!\n") << 1
                              << V::Fail << ""
                              << ""
                              << "";
    row("ping time- drift") << K::Ping << A2
                            << b("recv seq=0,time-0.1ms\n1 packets transmitted, 1 received, 0.00% packet loss\n")
                            << b("") << 0 << V::Pass << "sent"
                            << "1"
                            << "";
    row("ping busy") << K::Ping << A2 << b("") << b("hccn_tool is busy, please try again.\n") << 1 << V::Warning << ""
                     << ""
                     << "busy";
    // §2.9 hccs_ping
    row("hccs ok [S]") << K::HccsPing << A3 << b(kHccsOk) << b("") << 0 << V::Pass << "received"
                       << "3"
                       << "";
    row("hccs L1 fault") << K::HccsPing << A3 << b(kHccsL1) << b("") << 0 << V::Warning << "l1_fault_mask"
                         << "0x4"
                         << "L1";
    row("hccs all fail") << K::HccsPing << A3 << b(kHccsFail) << b("") << 0 << V::Fail << "loss_pct"
                         << "100.00"
                         << "";
    row("hccs occupied") << K::HccsPing << A3 << b("") << b("The device is occupied. Please try again later.\n") << 1
                         << V::Warning << ""
                         << ""
                         << "occupied";
    // §2.10 tls (values; consistency is the cluster rule)
    row("tls new [V]") << K::Tls << A2 << b(kTlsNew) << b("") << 0 << V::Pass << "tls_switch"
                       << "0"
                       << "";
    row("tls preconfigured") << K::Tls << A2 << b(kTlsNew) << b("") << 0 << V::Pass << "tls_preconfigured"
                             << "1"
                             << "";
    row("tls old driver [V]") << K::Tls << A2 << b(kTlsOld) << b("") << 0 << V::Pass << "tls_switch"
                              << "1"
                              << "enabled";
    row("tls permission denied") << K::Tls << A2 << b("")
                                 << b("permission denied: pls check this cmd run permission.\n") << 1 << V::Warning
                                 << ""
                                 << ""
                                 << "root";
    row("tls no field") << K::Tls << A2 << b("dev_id:0\n") << b("") << 0 << V::Fail << ""
                        << ""
                        << "";
}

// judge's rows. The device and the node: health, spod-info, hccn.conf, the tools.
void deviceRows()
{
    const auto A2 = NpuGeneration::A2;
    const auto A3 = NpuGeneration::A3;
    // §2.14 health
    row("health OK [V]") << K::NpuHealth << A2
                         << b("\tHealth Status                  : OK\n\tError Code                     : NA\n\tError "
                              "Information              : NA\n")
                         << b("") << 0 << V::Pass << "health"
                         << "OK"
                         << "";
    row("health Warning [C]")
        << K::NpuHealth << A2
        << b("\tHealth Status                  : Warning\n\tError Code                     : 80E01801\n\tError "
             "Information              : node type=SOC, sensor type=Temperature\n")
        << b("") << 0 << V::Warning << "error_code"
        << "80E01801"
        << "80E01801";
    for (const char *s : { "Alarm", "Critical", "UNKNOWN" })
        QTest::addRow("health %s", s) << K::NpuHealth << A3
                                      << (b("\tHealth Status                  : ") + s
                                             + "\n\tError Code                     : NA\n")
                                      << b("") << 0 << V::Fail << "health" << QString::fromUtf8(s) << "";
    row("health 950 variant") << K::NpuHealth << A3 << b("\tNPU ID : 0\n\tHealth : OK\n") << b("") << 0 << V::Pass
                              << "health"
                              << "OK"
                              << "";
    // §2.13 spod-info
    row("spod [S]") << K::SpodInfo << A3
                    << b("\tSDID                           : 16777216\n\tSuper Pod Size                 : 384\n\tSuper "
                         "Pod ID                   : 0\n\tServer Index                   : 4\n")
                    << b("") << 0 << V::Pass << "sdid"
                    << "16777216"
                    << "";
    row("spod stripped spaces") << K::SpodInfo << A3 << b("\tSDID:16777216\n\tSuperPodID:0\n\tServerIndex:4\n") << b("")
                                << 0 << V::Pass << "superpodid"
                                << "0"
                                << "";
    row("spod zero values valid") << K::SpodInfo << A3 << b("\tSDID : 0\n\tSuper Pod ID : 0\n\tServer Index : 0\n")
                                  << b("") << 0 << V::Pass << "serverindex"
                                  << "0"
                                  << "";
    row("spod A2 unsupported") << K::SpodInfo << A2 << b("This device does not support querying spod-info.\n") << b("")
                               << 1 << V::Fail << ""
                               << ""
                               << "";
    // hccn.conf and tools
    row("conf missing") << K::HccnConf << A2 << b("") << b("cat: /etc/hccn.conf: No such file or directory\n") << 1
                        << V::Unknown << ""
                        << ""
                        << "not readable";
    row("conf ok") << K::HccnConf << A2 << b("address_0=29.1.137.205\nnetmask_0=255.255.0.0\n") << b("") << 0 << V::Pass
                   << "devices"
                   << "1"
                   << "";
    row("tools ok") << K::Tools << A2 << b("/usr/local/bin/hccn_tool\n/usr/local/sbin/npu-smi\n") << b("") << 0
                    << V::Pass << ""
                    << ""
                    << "";
    row("tools missing") << K::Tools << A2 << b("/usr/local/sbin/npu-smi\n")
                         << b("hccn_tool: not found on PATH (/usr/bin)\n") << 0 << V::Fail << ""
                         << ""
                         << "hccn_tool: not found";
}

} // namespace

void TestNodeCheckParsers::judge_data()
{
    QTest::addColumn<CheckKind>("kind");
    QTest::addColumn<NpuGeneration>("generation");
    QTest::addColumn<QByteArray>("out");
    QTest::addColumn<QByteArray>("err");
    QTest::addColumn<int>("rc");
    QTest::addColumn<Verdict>("verdict");
    QTest::addColumn<QString>("key"); // a parsed value to check ("" none)
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("reasonHas");

    lldpAndLinkRows();
    networkRows();
    pingRows();
    deviceRows();
}

void TestNodeCheckParsers::judge()
{
    QFETCH(CheckKind, kind);
    QFETCH(NpuGeneration, generation);
    QFETCH(QByteArray, out);
    QFETCH(QByteArray, err);
    QFETCH(int, rc);
    QFETCH(Verdict, verdict);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, reasonHas);

    CheckSection s { QStringLiteral("x.0"), kind, 0, QStringLiteral("hccn_tool -i 0 ..."), QString() };
    if (kind == CheckKind::Ping || kind == CheckKind::HccsPing)
        s.peer = QStringLiteral("29.1.2.10");
    const SectionOutput o { out, err, rc, true };
    const CheckResult r
        = judgeSection(s, o, JudgeContext { generation, generation == NpuGeneration::A3 ? 16 : 8, false });
    QCOMPARE(verdictName(r.verdict), verdictName(verdict));
    if (!key.isEmpty())
        QCOMPARE(r.values.value(key), value);
    if (!reasonHas.isEmpty())
        QVERIFY2(r.reason.contains(reasonHas), qPrintable(r.reason));
    QCOMPARE(r.out, out); // raw output kept as it came
    QCOMPARE(r.err, err);
}

void TestNodeCheckParsers::npuSmiTable_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<NpuGeneration>("generation");
    QTest::addColumn<int>("devices");
    QTest::addColumn<Verdict>("verdict");
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("reasonHas");
    QTest::newRow("A2 #3024 [V]") << "npusmi-a2-3024.txt" << NpuGeneration::A2 << 8 << Verdict::Pass << "A2"
                                  << "24.1.0.3";
    QTest::newRow("A3 #3002 [V], engine running")
        << "npusmi-a3-3002.txt" << NpuGeneration::A3 << 16 << Verdict::Pass << "A3"
        << "4 processes";
    QTest::newRow("A2 Alarm on NPU 3") << "npusmi-a2-alarm.txt" << NpuGeneration::A2 << 8 << Verdict::Fail << "A2"
                                       << "NPU 3 chip 0 Alarm";
    QTest::newRow("A2 table, profile says A3")
        << "npusmi-a2-3024.txt" << NpuGeneration::A3 << 16 << Verdict::Fail << "A2"
        << "profile says A3";
    QTest::newRow("dcmi -8005 [V]") << "npusmi-dcmi.txt" << NpuGeneration::A2 << 8 << Verdict::Fail << ""
                                    << "dcmi module initialize failed";
    QTest::newRow("driver warning") << "npusmi-a2-driverwarn.txt" << NpuGeneration::A2 << 8 << Verdict::Warning << "A2"
                                    << "incompletely installed";
}

void TestNodeCheckParsers::npuSmiTable()
{
    QFETCH(QString, fixture);
    QFETCH(NpuGeneration, generation);
    QFETCH(int, devices);
    QFETCH(Verdict, verdict);
    QFETCH(QString, platform);
    QFETCH(QString, reasonHas);
    QFile f(QStringLiteral(PD_SOURCE_DIR "/tests/data/nodecheck/") + fixture);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    const QByteArray text = f.readAll();
    CheckSection s { QStringLiteral("npu_smi"), CheckKind::NpuTable, -1, QStringLiteral("npu-smi info"), QString() };
    const CheckResult r
        = judgeSection(s, SectionOutput { text, {}, 0, true }, JudgeContext { generation, devices, false });
    QCOMPARE(verdictName(r.verdict), verdictName(verdict));
    QCOMPARE(r.values.value(QStringLiteral("platform")), platform);
    QVERIFY2(r.reason.contains(reasonHas), qPrintable(r.reason));
}

void TestNodeCheckParsers::hccnConf()
{
    const auto conf
        = parseHccnConf("address_0=29.1.137.205\nnetmask_0=255.255.0.0\nnetdetect_0=29.1.0.1\ngateway_0=29.1.0.1\n"
                        "send_arp_status_0=1\ntls_enable_0=0\n# comment\nroute_address_10.0.0.0_netmask_255.0.0.0=x\n"
                        "address_15=29.1.170.143\n");
    QCOMPARE(conf.size(), 2);
    QCOMPARE(conf.value(0).value(QStringLiteral("address")), QStringLiteral("29.1.137.205"));
    QCOMPARE(conf.value(0).value(QStringLiteral("send_arp_status")), QStringLiteral("1"));
    QCOMPARE(conf.value(0).value(QStringLiteral("tls_enable")), QStringLiteral("0"));
    QCOMPARE(conf.value(15).value(QStringLiteral("address")), QStringLiteral("29.1.170.143"));
}

QTEST_GUILESS_MAIN(TestNodeCheckParsers)
#include "tst_nodecheckparsers.moc"
