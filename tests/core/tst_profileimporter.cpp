// SPDX-License-Identifier: MIT
#include "cluster/profileformat.h"
#include "cluster/profileimporter.h"
#include "cluster/profilevalidator.h"

#include <QFile>
#include <QTest>

using namespace pd;

namespace {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(PD_SOURCE_DIR "/") + relative;
}

QByteArray readFixture(const QString &name)
{
    QFile file(sourcePath(QStringLiteral("tests/data/import/")) + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(file.fileName()));
    return file.readAll();
}

Profile loadBundled(const QString &name)
{
    const ProfileLoadResult loaded = loadProfileFile(sourcePath(QStringLiteral("resources/profiles/%1.json").arg(name)));
    if (!loaded.profile)
        qFatal("bundled profile %s does not load", qPrintable(name));
    return *loaded.profile;
}

// The real v0.9.1-dev proxy's order for the 8-node guide (spec proxy-api §4.1): host by host, port by port.
QStringList seedInstances(Role role)
{
    QStringList ids;
    const int first = role == Role::Prefill ? 1 : 5;
    const int perHost = role == Role::Prefill ? 2 : 16;
    for (int n = first; n < first + 4; ++n)
        for (int k = 0; k < perHost; ++k)
            ids.append(QStringLiteral("192.0.0.%1:%2").arg(n).arg(9000 + k));
    return ids;
}

QStringList seedLaunchers(bool fileForm)
{
    QStringList launchers;
    for (int n = 1; n <= 8; ++n) {
        const QString host = QStringLiteral("192.0.0.%1").arg(n);
        if (fileForm) {
            launchers.append(host + QStringLiteral(": ") +
                             QString::fromUtf8(readFixture(QStringLiteral("seed000-launcher-%1.py").arg(host))));
        } else if (n <= 4) {
            launchers.append(QStringLiteral("%1: dp_size=2 dp_size_local=2 dp_rank_start=0 dp_ip=%1 dp_port=13395 "
                                            "engine_port=9000").arg(host));
        } else {
            launchers.append(QStringLiteral("%1: dp_size=64 dp_size_local=16 dp_rank_start=%2 dp_ip=192.0.0.5 "
                                            "dp_port=13395 engine_port=9000").arg(host).arg((n - 5) * 16));
        }
    }
    return launchers;
}

struct EngineView {
    QString node;
    QString id;
    int dpRank;
    QStringList launcherArgs;
    bool operator==(const EngineView &) const = default;
};

QList<EngineView> engineViews(const Profile &p)
{
    QList<EngineView> views;
    const QList<Engine> engines = p.engines();
    for (const Engine &e : engines)
        views.append({p.nodes.at(e.nodeIndex).name, e.id(), e.dpRank, p.launcherArguments(e)});
    return views;
}

char *toString(const EngineView &v) // for QCOMPARE
{
    return qstrdup(qPrintable(QStringLiteral("%1 %2 rank %3 [%4]").arg(v.node, v.id).arg(v.dpRank).arg(v.launcherArgs.join(QLatin1Char(' ')))));
}

} // namespace

class TestProfileImporter final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void seedProxyCommandLine();
    void mainFormGivesTheSameInstances();
    void proxyCommandLines_data();
    void proxyCommandLines();
    void seedClusterFromProxyAndLaunchers_data();
    void seedClusterFromProxyAndLaunchers();
    void mainLauncherFlags();
    void launcherParameters_data();
    void launcherParameters();
    void ranktables_data();
    void ranktables();
    void seed001FromProxyAndRanktable();
    void brokenRanktables_data();
    void brokenRanktables();
};

void TestProfileImporter::seedProxyCommandLine()
{
    // The 8-node guide's command line exactly as the guide prints it: backslash-newline continuations,
    // and "2 2 2 2\" with no space before the backslash.
    const QString commandLine = QString::fromUtf8(readFixture(QStringLiteral("seed000-proxy.txt")));
    QVERIFY(commandLine.contains(QStringLiteral("2 2 2 2\\\n")));
    ProxyCommandLine proxy;
    QStringList errors;
    QStringList warnings;
    QVERIFY2(parseProxyCommandLine(commandLine, &proxy, &errors, &warnings), qPrintable(errors.join(QLatin1Char('\n'))));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
    QCOMPARE(proxy.generation, ProxyGeneration::V091Dev);
    QCOMPARE(proxy.port, 8000);
    QCOMPARE(proxy.host, QStringLiteral("0.0.0.0"));
    QCOMPARE(proxy.scriptPath, QStringLiteral("load_balance_proxy_server_example.py"));
    QCOMPARE(proxy.prefillInstances.size(), 8);
    QCOMPARE(proxy.decodeInstances.size(), 64);
    QCOMPARE(proxy.prefillInstances.mid(0, 3),
             (QStringList{QStringLiteral("192.0.0.1:9000"), QStringLiteral("192.0.0.1:9001"), QStringLiteral("192.0.0.2:9000")}));
    QCOMPARE(proxy.decodeInstances.at(15), QStringLiteral("192.0.0.5:9015"));
    QCOMPARE(proxy.decodeInstances.at(16), QStringLiteral("192.0.0.6:9000"));
    QCOMPARE(proxy.prefillInstances, seedInstances(Role::Prefill));
    QCOMPARE(proxy.decodeInstances, seedInstances(Role::Decode));

    // Imported alone it already gives the 72 engines in the proxy's order, with its order kept.
    ImportSources sources;
    sources.proxyCommandLine = commandLine;
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    QCOMPARE(result.profile.proxyInstances(Role::Prefill), seedInstances(Role::Prefill));
    QCOMPARE(result.profile.proxyInstances(Role::Decode), seedInstances(Role::Decode));
    QCOMPARE(result.profile.proxy.generation, ProxyGeneration::V091Dev);
    QCOMPARE(result.profile.launchFlavor, LaunchFlavor::V091);
    QCOMPARE(result.profile.nodes.size(), 8);
    // Without launchers the DP layout is a guess, and the importer says so.
    QVERIFY(result.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("no launcher parameters")));
    QVERIFY(!hasErrors(validateProfile(result.profile)));
}

void TestProfileImporter::mainFormGivesTheSameInstances()
{
    const QString commandLine = QString::fromUtf8(readFixture(QStringLiteral("seed000-proxy-main.txt")));
    ProxyCommandLine proxy;
    QStringList errors;
    QStringList warnings;
    QVERIFY2(parseProxyCommandLine(commandLine, &proxy, &errors, &warnings), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(proxy.generation, ProxyGeneration::Main);
    QCOMPARE(proxy.prefillInstances, seedInstances(Role::Prefill));
    QCOMPARE(proxy.decodeInstances, seedInstances(Role::Decode));
    QCOMPARE(proxy.scriptPath, QStringLiteral("load_balance_proxy_server_example.py"));
}

void TestProfileImporter::proxyCommandLines_data()
{
    QTest::addColumn<QString>("commandLine");
    QTest::addColumn<QStringList>("prefill");
    QTest::addColumn<QStringList>("decode");
    QTest::addColumn<QString>("error");     // phrase of the expected error; empty: none
    QTest::addColumn<QString>("warning");   // phrase of an expected warning; empty: none

    const QStringList d1{QStringLiteral("10.0.0.2:9000")};
    QTest::newRow("main, one instance each")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 9000 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << d1 << QString() << QString();
    QTest::newRow("--flag=value spelling")
        << QStringLiteral("python3 proxy.py --port=8100 --prefiller-hosts=10.0.0.1 --prefiller-ports=9000 "
                          "--decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << d1 << QString() << QString();
    QTest::newRow("quoted values")
        << QStringLiteral("--prefiller-hosts '10.0.0.1' --prefiller-ports \"9000\" --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << d1 << QString() << QString();
    QTest::newRow("v0.9.1-dev truncation: hosts-num 3, ports-inc 2")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-hosts-num 3 --prefiller-ports 9000 --prefiller-ports-inc 2 "
                          "--decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000"), QStringLiteral("10.0.0.1:9001")} << d1 << QString()
        << QStringLiteral("the expanded lists differ (3 hosts, 2 ports); the v0.9.1-dev proxy silently keeps only the first 2 pairs");
    QTest::newRow("v0.9.1-dev truncation: hosts-num without ports-inc")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-hosts-num 3 --prefiller-ports 9000 "
                          "--decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << d1 << QString() << QStringLiteral("silently keeps only the first 1 pairs");
    QTest::newRow("v0.9.1-dev, several hosts with different counts")
        << QStringLiteral("--prefiller-hosts a b --prefiller-hosts-num 1 2 --prefiller-ports 7100 8100 --prefiller-ports-inc 1 2 "
                          "--decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("a:7100"), QStringLiteral("b:8100"), QStringLiteral("b:8101")} << d1 << QString() << QString();
    QTest::newRow("host and port lists of different length")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 10.0.0.3 --prefiller-ports 9000 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("Number of prefiller hosts must match number of prefiller ports")
        << QString();
    QTest::newRow("hosts-num of the wrong length")
        << QStringLiteral("--decoder-hosts 10.0.0.2 10.0.0.3 --decoder-hosts-num 16 --decoder-ports 9000 9000 "
                          "--prefiller-hosts 10.0.0.1 --prefiller-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("--decoder-hosts-num needs one count per host") << QString();
    QTest::newRow("unknown flag")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 9000 --decoder-hosts 10.0.0.2 --decoder-ports 9000 "
                          "--prefill-hosts-num 2")
        << QStringList() << QStringList() << QStringLiteral("unrecognized argument: --prefill-hosts-num") << QString();
    QTest::newRow("port that is not a number")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 90o0 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("--prefiller-ports: \"90o0\" is not an integer") << QString();
    QTest::newRow("port 70000")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 70000 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("\"70000\" is not an integer in 1..65535") << QString();
    QTest::newRow("flag without values")
        << QStringLiteral("--prefiller-hosts --prefiller-ports 9000 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("--prefiller-hosts: expected at least one value") << QString();
    QTest::newRow("duplicate instance")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 9000 --decoder-hosts 10.0.0.2 10.0.0.2 --decoder-ports 9000 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << d1 << QString() << QStringLiteral("10.0.0.2:9000 is listed twice");
    QTest::newRow("localhost and 127.0.0.1 are one instance")
        << QStringLiteral("--prefiller-hosts localhost 127.0.0.1 --prefiller-ports 8100 8100 --decoder-hosts 10.0.0.2 --decoder-ports 9000")
        << QStringList{QStringLiteral("localhost:8100")} << d1 << QString() << QStringLiteral("127.0.0.1:8100 is listed twice");
    QTest::newRow("defaults when a role is not given")
        << QStringLiteral("--prefiller-hosts 10.0.0.1 --prefiller-ports 9000")
        << QStringList{QStringLiteral("10.0.0.1:9000")} << QStringList{QStringLiteral("localhost:8002")} << QString()
        << QStringLiteral("no --decoder-hosts: the proxy's default localhost is assumed");
    QTest::newRow("unterminated quote")
        << QStringLiteral("--prefiller-hosts '10.0.0.1 --prefiller-ports 9000")
        << QStringList() << QStringList() << QStringLiteral("unterminated single quote starting at character 19") << QString();
}

void TestProfileImporter::proxyCommandLines()
{
    QFETCH(QString, commandLine);
    QFETCH(QStringList, prefill);
    QFETCH(QStringList, decode);
    QFETCH(QString, error);
    QFETCH(QString, warning);

    ProxyCommandLine proxy;
    QStringList errors;
    QStringList warnings;
    const bool ok = parseProxyCommandLine(commandLine, &proxy, &errors, &warnings);
    const QString errorText = errors.join(QLatin1Char('\n'));
    const QString warningText = warnings.join(QLatin1Char('\n'));
    if (!error.isEmpty()) {
        QVERIFY(!ok);
        QVERIFY2(errorText.contains(error), qPrintable(errorText));
        // The import as a whole fails with the same message and no half-built profile is offered as good.
        ImportSources sources;
        sources.proxyCommandLine = commandLine;
        const ImportResult result = importProfile(sources);
        QVERIFY(!result.ok());
        QVERIFY2(result.errors.join(QLatin1Char('\n')).contains(error), qPrintable(result.errors.join(QLatin1Char('\n'))));
        return;
    }
    QVERIFY2(ok, qPrintable(errorText));
    QCOMPARE(proxy.prefillInstances, prefill);
    QCOMPARE(proxy.decodeInstances, decode);
    if (warning.isEmpty())
        QVERIFY2(warnings.isEmpty(), qPrintable(warningText));
    else
        QVERIFY2(warningText.contains(warning), qPrintable(warningText));
}

void TestProfileImporter::seedClusterFromProxyAndLaunchers_data()
{
    QTest::addColumn<QString>("proxyFixture");
    QTest::addColumn<bool>("launcherFileForm");
    QTest::newRow("v0.9.1-dev proxy, launcher variables as words") << QStringLiteral("seed000-proxy.txt") << false;
    QTest::newRow("v0.9.1-dev proxy, launcher files (name = value  # comment)") << QStringLiteral("seed000-proxy.txt") << true;
    QTest::newRow("main proxy form, launcher files") << QStringLiteral("seed000-proxy-main.txt") << true;
}

void TestProfileImporter::seedClusterFromProxyAndLaunchers()
{
    QFETCH(QString, proxyFixture);
    QFETCH(bool, launcherFileForm);

    ImportSources sources;
    sources.proxyCommandLine = QString::fromUtf8(readFixture(proxyFixture));
    sources.launchers = seedLaunchers(launcherFileForm);
    sources.clusterName = QStringLiteral("deepseek-r1-8node");
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    QVERIFY2(!result.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("no launcher parameters")),
             qPrintable(result.warnings.join(QLatin1Char('\n'))));

    const Profile bundled = loadBundled(QStringLiteral("deepseek-r1-8node"));
    const Profile &imported = result.profile;
    QCOMPARE(imported.launchFlavor, LaunchFlavor::V091);
    QCOMPARE(imported.nodes.size(), bundled.nodes.size());
    for (qsizetype n = 0; n < bundled.nodes.size(); ++n) {
        QCOMPARE(imported.nodes.at(n).name, bundled.nodes.at(n).name);
        QCOMPARE(imported.nodes.at(n).address, bundled.nodes.at(n).address);
        QCOMPARE(imported.nodes.at(n).role, bundled.nodes.at(n).role);
        // The whole launcher layout, TP included (the v0.9.1 template hard-codes TP 8 on P, 1 on D).
        QCOMPARE(imported.nodes.at(n).engineGroups, bundled.nodes.at(n).engineGroups);
    }
    // Engines, DP ranks and the seven launcher arguments of every engine are those of the bundled profile.
    QCOMPARE(engineViews(imported), engineViews(bundled));
    QCOMPARE(imported.proxyInstances(Role::Prefill), seedInstances(Role::Prefill));
    QCOMPARE(imported.proxyInstances(Role::Decode), seedInstances(Role::Decode));
    // v0.9.1 launcher arguments: dp_size, master ip, master port, local rank, global rank, port, local size.
    const QList<Engine> engines = imported.engines();
    QCOMPARE(imported.launcherArguments(engines.at(8 + 16 + 3)),
             (QStringList{QStringLiteral("64"), QStringLiteral("192.0.0.5"), QStringLiteral("13395"), QStringLiteral("3"),
                          QStringLiteral("19"), QStringLiteral("9003"), QStringLiteral("16")}));
    QVERIFY(!hasErrors(validateProfile(imported)));
}

void TestProfileImporter::mainLauncherFlags()
{
    // Spec proxy-api §9.1, observed: (0, 7100, 32, 16, 192.0.0.3, 12321, 1), (1, 7101, 32, 17, ...), ...
    const QString spec = QStringLiteral("192.0.0.3/decode: python launch_online_dp.py --dp-size 32 --tp-size 1 "
                                        "--dp-size-local 4 --dp-rank-start 16 --dp-address 192.0.0.3 --dp-rpc-port 12321 "
                                        "--vllm-start-port 7100");
    LauncherParameters launcher;
    QString error;
    QVERIFY2(parseLauncherParameters(spec, &launcher, &error), qPrintable(error));
    QCOMPARE(launcher.host, QStringLiteral("192.0.0.3"));
    QCOMPARE(launcher.role, std::optional<Role>(Role::Decode));
    QCOMPARE(launcher.flavor, LaunchFlavor::Main);
    QCOMPARE(launcher.group.dpSize, 32);
    QCOMPARE(launcher.group.dpSizeLocal, 4);
    QCOMPARE(launcher.group.dpRankStart, 16);
    QCOMPARE(launcher.group.dpAddress, QStringLiteral("192.0.0.3"));
    QCOMPARE(launcher.group.dpPort, 12321);
    QCOMPARE(launcher.group.engineStartPort, 7100);
    QCOMPARE(launcher.group.tpSize, 1);

    ImportSources sources;
    sources.launchers = {spec};
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    QCOMPARE(result.profile.launchFlavor, LaunchFlavor::Main);
    const QList<Engine> engines = result.profile.engines();
    QCOMPARE(engines.size(), 4);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(result.profile.launcherArguments(engines.at(i)),
                 (QStringList{QString::number(i), QString::number(7100 + i), QStringLiteral("32"), QString::number(16 + i),
                              QStringLiteral("192.0.0.3"), QStringLiteral("12321"), QStringLiteral("1")}));
    }

    // TP 8: the device list is counted from device 0 of the node, tp devices per engine.
    LauncherParameters tp8;
    QVERIFY2(parseLauncherParameters(QStringLiteral("10.0.0.1/prefill: --dp-size 2 --tp-size 8 --dp-size-local 2 "
                                                    "--dp-address 10.0.0.1 --dp-rpc-port 12321 --vllm-start-port 7100"),
                                     &tp8, &error),
             qPrintable(error));
    Profile p;
    p.launchFlavor = LaunchFlavor::Main;
    Node node;
    node.address = QStringLiteral("10.0.0.1");
    node.role = Role::Prefill;
    node.engineGroups = {tp8.group};
    p.nodes = {node};
    const QList<Engine> two = p.engines();
    QCOMPARE(two.size(), 2);
    QCOMPARE(p.launcherArguments(two.at(1)),
             (QStringList{QStringLiteral("8,9,10,11,12,13,14,15"), QStringLiteral("7101"), QStringLiteral("2"),
                          QStringLiteral("1"), QStringLiteral("10.0.0.1"), QStringLiteral("12321"), QStringLiteral("8")}));
}

void TestProfileImporter::launcherParameters_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("error");        // phrase; empty: parses
    QTest::addColumn<int>("dpSizeLocal");
    QTest::addColumn<int>("engineStartPort");

    QTest::newRow("main: --dp-size-local omitted means dp-size")
        << QStringLiteral("h/decode: --dp-size 4 --dp-address h --dp-rpc-port 1") << QString() << 4 << 9000;
    QTest::newRow("v0.9.1: words") << QStringLiteral("h/decode: dp_size=4 dp_ip=h engine_port=7000") << QString() << 4 << 7000;
    QTest::newRow("v0.9.1: file lines with comments")
        << QStringLiteral("h/decode:\ndp_size = 4  # total\ndp_size_local = 2  # here\ndp_ip = \"h\"\nengine_port = 7000\n")
        << QString() << 2 << 7000;
    QTest::newRow("no colon") << QStringLiteral("dp_size=4 dp_ip=h") << QStringLiteral("expected HOST[/ROLE]: PARAMETERS") << 0 << 0;
    QTest::newRow("role typo") << QStringLiteral("h/decoder: dp_size=4 dp_ip=h")
                               << QStringLiteral("role \"decoder\" is neither prefill nor decode") << 0 << 0;
    QTest::newRow("main: unknown flag") << QStringLiteral("h: --dp-size 4 --dp-address h --dp-sizelocal 2")
                                        << QStringLiteral("unrecognized argument: --dp-sizelocal") << 0 << 0;
    QTest::newRow("main: missing --dp-address") << QStringLiteral("h: --dp-size 4")
                                                << QStringLiteral("--dp-address is required") << 0 << 0;
    QTest::newRow("main: unterminated quote") << QStringLiteral("h: --dp-size 4 --dp-address \"h")
                                              << QStringLiteral("unterminated double quote") << 0 << 0;
    QTest::newRow("v0.9.1: variable typo") << QStringLiteral("h: dp_sise=4 dp_ip=h")
                                           << QStringLiteral("unknown launcher variable \"dp_sise\"") << 0 << 0;
    QTest::newRow("v0.9.1: missing dp_ip") << QStringLiteral("h: dp_size=4") << QStringLiteral("dp_ip is required") << 0 << 0;
    QTest::newRow("v0.9.1: port out of range") << QStringLiteral("h: dp_size=4 dp_ip=h engine_port=70000")
                                               << QStringLiteral("engine_port = \"70000\" is not an integer in 1..65535") << 0 << 0;
}

void TestProfileImporter::launcherParameters()
{
    QFETCH(QString, spec);
    QFETCH(QString, error);
    QFETCH(int, dpSizeLocal);
    QFETCH(int, engineStartPort);
    LauncherParameters launcher;
    QString message;
    const bool ok = parseLauncherParameters(spec, &launcher, &message);
    if (!error.isEmpty()) {
        QVERIFY(!ok);
        QVERIFY2(message.contains(error), qPrintable(message));
        return;
    }
    QVERIFY2(ok, qPrintable(message));
    QCOMPARE(launcher.group.dpSizeLocal, dpSizeLocal);
    QCOMPARE(launcher.group.engineStartPort, engineStartPort);
    QCOMPARE(launcher.group.dpAddress, QStringLiteral("h"));
}

void TestProfileImporter::ranktables_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QStringList>("servers");
    QTest::addColumn<QList<int>>("roles");       // int(Role)
    QTest::addColumn<QList<int>>("npuCounts");
    QTest::addColumn<bool>("isA3");
    QTest::addColumn<QStringList>("firstServerIps");

    QStringList a2Ips;
    for (int d = 1; d <= 16; ++d)
        a2Ips.append(QStringLiteral("29.0.0.%1").arg(d));
    QTest::newRow("the two-node A2 guide: two A2 servers x 16 devices")
        << QStringLiteral("ranktable-seed001-a2.json")
        << QStringList{QStringLiteral("141.61.41.163"), QStringLiteral("141.61.41.164")}
        << QList<int>{int(Role::Prefill), int(Role::Decode)} << QList<int>{16, 16} << false << a2Ips;
    // A3 (super_pod_id / super_device_id), devices listed out of order: IPs come back in device order.
    QTest::newRow("A3 with super pod ids, 2 P + 1 D servers")
        << QStringLiteral("ranktable-a3.json")
        << QStringList{QStringLiteral("10.2.0.1"), QStringLiteral("10.2.0.2"), QStringLiteral("10.2.0.3")}
        << QList<int>{int(Role::Prefill), int(Role::Prefill), int(Role::Decode)} << QList<int>{4, 4, 4} << true
        << QStringList{QStringLiteral("30.0.0.1"), QStringLiteral("30.0.0.2"), QStringLiteral("30.0.0.3"), QStringLiteral("30.0.0.4")};
}

void TestProfileImporter::ranktables()
{
    QFETCH(QString, fixture);
    QFETCH(QStringList, servers);
    QFETCH(QList<int>, roles);
    QFETCH(QList<int>, npuCounts);
    QFETCH(bool, isA3);
    QFETCH(QStringList, firstServerIps);

    const QByteArray json = readFixture(fixture);
    QList<RanktableServer> parsed;
    QStringList errors;
    QVERIFY2(parseRanktable(json, &parsed, &errors), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(parsed.size(), servers.size());
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        QCOMPARE(parsed.at(i).serverId, servers.at(i));
        QCOMPARE(int(parsed.at(i).role), roles.at(i));
        QCOMPARE(parsed.at(i).isA3, isA3);
        QCOMPARE(int(parsed.at(i).deviceIps.size()), npuCounts.at(i));
    }
    QCOMPARE(parsed.first().deviceIps, firstServerIps);

    // Imported alone: one node per server with its role, generation, NPU count and device IPs.
    ImportSources sources;
    sources.ranktable = json;
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    QCOMPARE(result.profile.nodes.size(), servers.size());
    for (qsizetype i = 0; i < servers.size(); ++i) {
        const Node &node = result.profile.nodes.at(i);
        QCOMPARE(node.address, servers.at(i));
        QCOMPARE(int(node.role), roles.at(i));
        QCOMPARE(node.npuCount, npuCounts.at(i));
        QCOMPARE(node.npuGeneration, isA3 ? NpuGeneration::A3 : NpuGeneration::A2);
        QCOMPARE(node.npuIps, parsed.at(i).deviceIps);
    }
    // Only the LLMDataDist connector reads a rank table.
    QCOMPARE(QString::fromStdString(result.profile.prefill.kvTransferConfig.value("kv_connector", std::string())),
             QStringLiteral("LLMDataDistCMgrConnector"));
}

void TestProfileImporter::seed001FromProxyAndRanktable()
{
    ImportSources sources;
    sources.proxyCommandLine = QString::fromUtf8(readFixture(QStringLiteral("seed001-proxy.txt")));
    sources.ranktable = readFixture(QStringLiteral("ranktable-seed001-a2.json"));
    // The two-node A2 guide runs vllm-ascend 0.9.1-dev's proxy; its command line alone cannot tell (no -num/-inc).
    QCOMPARE(importProfile(sources).profile.proxy.generation, ProxyGeneration::Main);
    sources.proxyGeneration = ProxyGeneration::V091Dev;
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    const Profile bundled = loadBundled(QStringLiteral("deepseek-v3-2node-a2"));
    const Profile &p = result.profile;
    QCOMPARE(p.proxy.generation, ProxyGeneration::V091Dev);
    QCOMPARE(p.proxy.generation, bundled.proxy.generation);
    QCOMPARE(p.launchFlavor, LaunchFlavor::Main); // its engines start the main way (start scripts)
    // Run from v0.9.1-dev's own examples folder, the script path says it.
    ImportSources fromFolder;
    fromFolder.proxyCommandLine = QStringLiteral("python examples/disaggregate_prefill_v1/load_balance_proxy_server_example.py "
                                                 "--port 1025 --prefiller-hosts 10.0.0.1 --prefiller-ports 20002 "
                                                 "--decoder-hosts 10.0.0.2 --decoder-ports 20002");
    QCOMPARE(importProfile(fromFolder).profile.proxy.generation, ProxyGeneration::V091Dev);
    fromFolder.proxyCommandLine.replace(QStringLiteral("disaggregate_prefill_v1"), QStringLiteral("disaggregated_prefill_v1"));
    QCOMPARE(importProfile(fromFolder).profile.proxy.generation, ProxyGeneration::Main);
    QCOMPARE(p.proxy.address, QStringLiteral("141.61.41.163"));
    QCOMPARE(p.proxy.port, 1025);
    QCOMPARE(p.nodes.size(), 2);
    for (qsizetype n = 0; n < 2; ++n) {
        QCOMPARE(p.nodes.at(n).address, bundled.nodes.at(n).address);
        QCOMPARE(p.nodes.at(n).role, bundled.nodes.at(n).role);
        QCOMPARE(p.nodes.at(n).npuGeneration, NpuGeneration::A2);
        QCOMPARE(p.nodes.at(n).npuCount, 16);
        QCOMPARE(p.nodes.at(n).npuIps, bundled.nodes.at(n).npuIps);
        // One engine per node; without launchers TP fills the node (the two-node A2 guide runs TP 16).
        QCOMPARE(p.nodes.at(n).engineGroups.size(), 1);
        QCOMPARE(p.nodes.at(n).engineGroups.first().tpSize, 16);
        QCOMPARE(p.nodes.at(n).engineGroups.first().engineStartPort, 20002);
    }
    QVERIFY(!hasErrors(validateProfile(p)));
}

void TestProfileImporter::brokenRanktables_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");

    auto device = [](const char *server, int id, int cluster) -> QByteArray {
        return QByteArray(R"({"server_id": ")") + server + R"(", "device_id": ")" + QByteArray::number(id) +
               R"(", "device_ip": "29.0.0.)" + QByteArray::number(id + 1) + R"(", "cluster_id": ")" +
               QByteArray::number(cluster) + R"("})";
    };
    auto table = [](const QByteArray &count, const QByteArray &prefill, const QByteArray &decode, const QByteArray &status) -> QByteArray {
        return QByteArray(R"({"version": "1.2", "server_count": ")") + count + R"(", "prefill_device_list": [)" + prefill +
               R"(], "decode_device_list": [)" + decode + R"(], "status": ")" + status + R"("})";
    };
    const QByteArray p0 = device("10.0.0.1", 0, 1);
    const QByteArray p1 = device("10.0.0.1", 1, 2);
    const QByteArray d0 = device("10.0.0.2", 0, 3);
    QVERIFY(!table("2", p0 + ',' + p1, d0, "completed").isEmpty());
    QTest::newRow("bad JSON") << QByteArray("{\"version\": \"1.2\",\n \"server_count\": 2,,}") << QStringLiteral("2:20: ");
    QTest::newRow("duplicate key") << QByteArray(R"({"status": "completed", "status": "completed"})")
                                   << QStringLiteral("/status: duplicate key");
    QTest::newRow("top-level array") << QByteArray("[]") << QStringLiteral("expected an object");
    QTest::newRow("duplicate device") << table("2", p0 + ',' + p1 + ',' + p1, d0, "completed")
                                      << QStringLiteral("/prefill_device_list/2/device_id: device 1 of 10.0.0.1 is listed twice");
    QTest::newRow("server in both lists") << table("2", p0, d0 + ',' + device("10.0.0.1", 1, 4), "completed")
                                          << QStringLiteral("/decode_device_list/1/server_id: 10.0.0.1 has devices in both the prefill and the decode list");
    QTest::newRow("server_count mismatch") << table("3", p0 + ',' + p1, d0, "completed")
                                           << QStringLiteral("/server_count: says 3 but the device lists name 2 servers");
    QTest::newRow("status not completed") << table("2", p0, d0, "initializing")
                                          << QStringLiteral("/status: expected \"completed\"");
    QTest::newRow("missing device list") << QByteArray(R"({"version": "1.2", "server_count": "0", "prefill_device_list": [], "status": "completed"})")
                                         << QStringLiteral("/decode_device_list: missing");
    QTest::newRow("device_ip missing") << table("2", p0, QByteArray(R"({"server_id": "10.0.0.2", "device_id": "0"})"), "completed")
                                       << QStringLiteral("/decode_device_list/0/device_ip: expected a string");
    QTest::newRow("device_id not a number") << table("2", p0, device("10.0.0.2", 0, 3).replace("\"device_id\": \"0\"", "\"device_id\": \"zero\""), "completed")
                                            << QStringLiteral("/decode_device_list/0/device_id: not a device number");
    QTest::newRow("unknown key") << table("2", p0, device("10.0.0.2", 0, 3).replace("\"cluster_id\"", "\"clusterid\""), "completed")
                                 << QStringLiteral("/decode_device_list/0/clusterid: unknown key");
}

void TestProfileImporter::brokenRanktables()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QList<RanktableServer> servers;
    QStringList errors;
    QVERIFY(!parseRanktable(json, &servers, &errors));
    QVERIFY2(errors.join(QLatin1Char('\n')).contains(error), qPrintable(errors.join(QLatin1Char('\n'))));

    // Through the importer the errors name the file.
    ImportSources sources;
    sources.ranktable = json;
    sources.ranktableName = QStringLiteral("/etc/ranktable.json");
    const ImportResult result = importProfile(sources);
    QVERIFY(!result.ok());
    QVERIFY2(result.errors.first().startsWith(QStringLiteral("/etc/ranktable.json:")), qPrintable(result.errors.first()));
}

QTEST_GUILESS_MAIN(TestProfileImporter)
#include "tst_profileimporter.moc"
