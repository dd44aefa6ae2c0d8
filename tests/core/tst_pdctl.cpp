// SPDX-License-Identifier: MIT
// Runs the built pdctl binary as an operator or a script would.
#include "cluster/profileformat.h"
#include "pdctlrun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

namespace {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(PD_SOURCE_DIR "/") + relative;
}

using Run = pd::test::PdctlRun;

Run pdctl(const QStringList &args)
{
    return pd::test::runPdctl(args, { 30000, {} });
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString bundled(const char *name)
{
    return sourcePath(QStringLiteral("resources/profiles/%1.json").arg(QLatin1String(name)));
}

} // namespace

class TestPdctl final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void validateBundledProfiles_data();
    void validateBundledProfiles();
    void validateReportsLoadErrors();
    void validateReportsEveryProblem();
    void importSeedProxyCommandLine();
    void importSeed001StartScripts();
    void showJsonShape();
    void showTable();
    void formatRewritesCanonically();
    void usageErrors_data();
    void usageErrors();
    void everyVerbAnswersHelp_data();
    void everyVerbAnswersHelp();

private:
    QTemporaryDir m_dir;
};

void TestPdctl::initTestCase()
{
    QVERIFY2(QFile::exists(pd::test::pdctlPath()), qPrintable(pd::test::pdctlPath() + QStringLiteral(" is not built")));
    QVERIFY(m_dir.isValid());
}

void TestPdctl::validateBundledProfiles_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("deepseek-r1-8node") << bundled("deepseek-r1-8node");
    QTest::newRow("deepseek-v3-2node-a2") << bundled("deepseek-v3-2node-a2");
    QTest::newRow("demo-loopback") << bundled("demo-loopback");
}

void TestPdctl::validateBundledProfiles()
{
    QFETCH(QString, path);
    const Run run = pdctl({QStringLiteral("profile"), QStringLiteral("validate"), path});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QString());
}

void TestPdctl::validateReportsLoadErrors()
{
    const QString role = sourcePath(QStringLiteral("tests/data/profiles/bad/enum-role.json"));
    Run run = pdctl({QStringLiteral("profile"), QStringLiteral("validate"), role});
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(run.out, role + QStringLiteral(": /nodes/3/role: expected \"prefill\" or \"decode\", got \"decoder\"\n"));

    const QString comma = sourcePath(QStringLiteral("tests/data/profiles/bad/syntax-trailing-comma.json"));
    run = pdctl({QStringLiteral("profile"), QStringLiteral("validate"), comma});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.startsWith(comma + QStringLiteral(":11:49: ")), qPrintable(run.out));

    run = pdctl({QStringLiteral("profile"), QStringLiteral("validate"), m_dir.filePath(QStringLiteral("missing.json"))});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QStringLiteral("cannot open")), qPrintable(run.out));
}

void TestPdctl::validateReportsEveryProblem()
{
    // A profile that loads but would break the cluster: one line per problem, FILE: /pointer: message.
    QByteArray bytes = readAll(bundled("deepseek-r1-8node"));
    bytes.replace("\"kv_role\": \"kv_consumer\"", "\"kv_role\": \"kv_producer\"");
    bytes.replace("\"dp_rank_start\": 48", "\"dp_rank_start\": 32");
    bytes.replace("\"nic_name\": \"eth0\"", "\"nic_name\": \"eth0;reboot\"");
    const QString path = m_dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();

    const Run run = pdctl({QStringLiteral("profile"), QStringLiteral("validate"), path});
    QCOMPARE(run.exitCode, 1);
    const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines)
        QVERIFY2(line.startsWith(path + QStringLiteral(": /")), qPrintable(line));
    QVERIFY2(lines.contains(path + QStringLiteral(": /roles/decode/kv_transfer_config/kv_role: kv_role \"kv_producer\" does not "
                                                  "match the decode pool, which needs \"kv_consumer\"")),
             qPrintable(run.out));
    QVERIFY2(lines.contains(path + QStringLiteral(": /nodes/7/engine_groups/0/dp_rank_start: DP group with master "
                                                  "192.0.0.5:13395: DP rank 32-47 is claimed by d2 and d3")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(path + QStringLiteral(": /nodes/7/nic_name: NIC name \"eth0;reboot\" contains ';'")),
             qPrintable(run.out));
    // Eight nodes, each with the bad NIC name.
    QCOMPARE(run.out.count(QStringLiteral("/nic_name: ")), 8);
}

// The two-node A2 guide's proxy line, rank table and two start scripts, plus the container and the
// set_env.sh scripts the guide uses, give the bundled 2-node profile's roles and nodes.
void TestPdctl::importSeed001StartScripts()
{
    const QString data = sourcePath(QStringLiteral("tests/data/import/"));
    const QString path = m_dir.filePath(QStringLiteral("seed001.json"));
    const QStringList common{QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--proxy-args"),
                             QString::fromUtf8(readAll(data + QStringLiteral("seed001-proxy.txt"))), QStringLiteral("--ranktable"),
                             data + QStringLiteral("ranktable-seed001-a2.json"), QStringLiteral("--container"),
                             QStringLiteral("docker:vllm_deepseek_pd"), QStringLiteral("--env-script"),
                             QStringLiteral("/home/your_name/cann_8.2.rc1/ascend-toolkit/set_env.sh"), QStringLiteral("--env-script"),
                             QStringLiteral("/home/your_name/cann_8.2.rc1/nnal/atb/set_env.sh"), QStringLiteral("-o"), path};
    const Run run = pdctl(common + QStringList{QStringLiteral("--start-script"), data + QStringLiteral("seed001-start_prefill.sh"),
                                               QStringLiteral("--start-script"), data + QStringLiteral("seed001-start_decode.sh")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const pd::ProfileLoadResult imported = pd::loadProfileFile(path);
    const pd::ProfileLoadResult bundledLoad = pd::loadProfileFile(bundled("deepseek-v3-2node-a2"));
    QVERIFY(imported.profile && bundledLoad.profile);
    const pd::Profile &p = *imported.profile;
    const pd::Profile &b = *bundledLoad.profile;
    QVERIFY(p.prefill == b.prefill);
    QVERIFY(p.decode == b.decode);
    QCOMPARE(p.proxy.generation, pd::ProxyGeneration::V091Dev);
    QCOMPARE(p.nodes.size(), b.nodes.size());
    for (qsizetype n = 0; n < p.nodes.size(); ++n) {
        QCOMPARE(p.nodes.at(n).address, b.nodes.at(n).address);
        QCOMPARE(p.nodes.at(n).nicName, b.nodes.at(n).nicName);
        QCOMPARE(p.nodes.at(n).npuIps, b.nodes.at(n).npuIps);
        QVERIFY(p.nodes.at(n).engineGroups == b.nodes.at(n).engineGroups);
    }

    // HOST:FILE is read on HOST through its runner (127.0.0.1: the local one; SSH hosts the same way), and
    // HOST names the node.
    const QString remote = m_dir.filePath(QStringLiteral("remote.json"));
    QStringList viaHost = common;
    viaHost.last() = remote;
    const Run host = pdctl(viaHost + QStringList{QStringLiteral("--start-script"), QStringLiteral("127.0.0.1:") + data + QStringLiteral("seed001-start_decode.sh")});
    QVERIFY2(host.exitCode == 0, qPrintable(host.err));
    const pd::ProfileLoadResult viaHostLoad = pd::loadProfileFile(remote);
    QVERIFY(viaHostLoad.profile);
    QStringList decodeNodes;
    for (const pd::Node &node : viaHostLoad.profile->nodes)
        if (node.role == pd::Role::Decode && !node.engineGroups.isEmpty())
            decodeNodes << node.address;
    QVERIFY2(decodeNodes.contains(QStringLiteral("127.0.0.1")), qPrintable(decodeNodes.join(QLatin1Char(' '))));

    // A file that is not there, here or on the host: named, nothing written.
    const QString none = m_dir.filePath(QStringLiteral("none.json"));
    QStringList missing = common;
    missing.last() = none;
    for (const QString &spec : {m_dir.filePath(QStringLiteral("nope.sh")), QStringLiteral("127.0.0.1:/nonexistent/start.sh")}) {
        const Run failed = pdctl(missing + QStringList{QStringLiteral("--start-script"), spec});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY2(failed.err.startsWith(spec + QStringLiteral(": ")), qPrintable(failed.err));
        QVERIFY(!QFile::exists(none));
    }
    const Run badContainer = pdctl({QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--container"), QStringLiteral("lxc:x")});
    QCOMPARE(badContainer.exitCode, 2);
    QVERIFY2(badContainer.err.contains(QStringLiteral("docker:NAME or podman:NAME")), qPrintable(badContainer.err));
}

void TestPdctl::importSeedProxyCommandLine()
{
    const QString commandLine = QString::fromUtf8(readAll(sourcePath(QStringLiteral("tests/data/import/seed000-proxy.txt"))));
    QVERIFY(!commandLine.isEmpty());
    // Printed to stdout: a complete profile (warnings on stderr only).
    const Run printed = pdctl({QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--proxy-args"), commandLine});
    QCOMPARE(printed.exitCode, 0);
    QVERIFY2(printed.out.startsWith(QStringLiteral("{\n  \"format\": \"pdconsole-profile\"")), qPrintable(printed.out.left(200)));
    QVERIFY2(printed.err.contains(QStringLiteral("warning: ")), qPrintable(printed.err));

    const QString path = m_dir.filePath(QStringLiteral("imported.json"));
    const Run written = pdctl({QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--proxy-args"), commandLine,
                               QStringLiteral("--name"), QStringLiteral("seed000"), QStringLiteral("-o"), path});
    QCOMPARE(written.exitCode, 0);
    QCOMPARE(written.out, QString());
    QString expected = printed.out;
    expected.replace(QStringLiteral("\"imported\""), QStringLiteral("\"seed000\""));
    QCOMPARE(QString::fromUtf8(readAll(path)), expected);
    QCOMPARE(pdctl({QStringLiteral("profile"), QStringLiteral("validate"), path}).exitCode, 0);

    const Run shown = pdctl({QStringLiteral("profile"), QStringLiteral("show"), path, QStringLiteral("--json")});
    QCOMPARE(shown.exitCode, 0);
    const auto json = nlohmann::json::parse(shown.out.toStdString(), nullptr, false);
    QVERIFY2(!json.is_discarded(), qPrintable(shown.out.left(200)));
    int prefill = 0;
    int decode = 0;
    QStringList order;
    for (const auto &engine : json.at("engines")) {
        const std::string role = engine.at("role").get<std::string>();
        prefill += role == "prefill";
        decode += role == "decode";
        order.append(QStringLiteral("%1:%2").arg(QString::fromStdString(engine.at("host").get<std::string>()))
                         .arg(engine.at("port").get<int>()));
    }
    QCOMPARE(prefill, 8);
    QCOMPARE(decode, 64);
    QCOMPARE(order.first(), QStringLiteral("192.0.0.1:9000"));
    QCOMPARE(order.at(1), QStringLiteral("192.0.0.1:9001"));
    QCOMPARE(order.at(2), QStringLiteral("192.0.0.2:9000"));
    QCOMPARE(order.at(8), QStringLiteral("192.0.0.5:9000"));
    QCOMPARE(order.at(24), QStringLiteral("192.0.0.6:9000"));
    QCOMPARE(order.last(), QStringLiteral("192.0.0.8:9015"));
    QCOMPARE(json.at("proxy").at("generation").get<std::string>(), std::string("v0.9.1-dev"));
    QCOMPARE(json.at("proxy").at("decode_instances").size(), std::size_t(64));
}

void TestPdctl::showJsonShape()
{
    const Run run = pdctl({QStringLiteral("profile"), QStringLiteral("show"), QStringLiteral("--json"), bundled("deepseek-r1-8node")});
    QCOMPARE(run.exitCode, 0);
    const auto json = nlohmann::json::parse(run.out.toStdString(), nullptr, false);
    QVERIFY(json.is_object());
    QVERIFY(json.at("engines").is_array());
    QCOMPARE(json.at("engines").size(), std::size_t(72));
    const auto &engine = json.at("engines").at(8 + 16 + 3); // d1, fourth engine
    QCOMPARE(engine.at("node").get<std::string>(), std::string("d1"));
    QCOMPARE(engine.at("role").get<std::string>(), std::string("decode"));
    QCOMPARE(engine.at("host").get<std::string>(), std::string("192.0.0.6"));
    QCOMPARE(engine.at("port").get<int>(), 9003);
    QCOMPARE(engine.at("dp_rank").get<int>(), 19);
    QVERIFY(engine.at("port").is_number_integer());
    QVERIFY(engine.at("launcher_args") == nlohmann::json::parse(R"(["64", "192.0.0.5", "13395", "3", "19", "9003", "16"])"));
    const auto &proxy = json.at("proxy");
    QVERIFY(proxy.is_object());
    QCOMPARE(proxy.at("address").get<std::string>(), std::string("192.0.0.1"));
    QCOMPARE(proxy.at("port").get<int>(), 8000);
    QCOMPARE(proxy.at("prefill_instances").size(), std::size_t(8));
    QCOMPARE(proxy.at("prefill_instances").at(1).get<std::string>(), std::string("192.0.0.1:9001"));
}

void TestPdctl::showTable()
{
    const Run run = pdctl({QStringLiteral("profile"), QStringLiteral("show"), bundled("deepseek-v3-2node-a2")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("NODE ")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("2 engines (1 prefill, 1 decode) on 2 nodes; proxy 141.61.41.163:1025 (v0.9.1-dev)")),
             qPrintable(run.out));
}

void TestPdctl::formatRewritesCanonically()
{
    // A minified copy of a bundled profile comes back byte for byte canonical.
    const QByteArray canonical = readAll(bundled("demo-loopback"));
    const QString minified = m_dir.filePath(QStringLiteral("minified.json"));
    QFile file(minified);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(nlohmann::ordered_json::parse(canonical.toStdString()).dump()));
    file.close();
    const Run run = pdctl({QStringLiteral("profile"), QStringLiteral("format"), minified});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out.toUtf8(), canonical);
    const QString out = m_dir.filePath(QStringLiteral("formatted.json"));
    QCOMPARE(pdctl({QStringLiteral("profile"), QStringLiteral("format"), minified, QStringLiteral("-o"), out}).exitCode, 0);
    QCOMPARE(readAll(out), canonical);
    // A file that does not load is not rewritten.
    const Run bad = pdctl({QStringLiteral("profile"), QStringLiteral("format"),
                           sourcePath(QStringLiteral("tests/data/profiles/bad/enum-role.json")), QStringLiteral("-o"), out});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains(QStringLiteral("/nodes/3/role")), qPrintable(bad.err));
    QCOMPARE(readAll(out), canonical);
}

void TestPdctl::everyVerbAnswersHelp_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    const auto row = [](const char *name, std::initializer_list<const char *> words, const char *expected) {
        QStringList args;
        for (const char *w : words)
            args << QString::fromLatin1(w);
        QTest::newRow(name) << args << QString::fromLatin1(expected);
    };
    row("profile validate", {"profile", "validate", "--help"}, "profile validate FILE");
    row("profile show", {"profile", "show", "-h"}, "profile show FILE");
    row("profile import", {"profile", "import", "--help"}, "--proxy-generation");
    row("profile format", {"profile", "format", "--help"}, "profile format FILE");
    row("profile", {"profile", "--help"}, "profile import");
    row("engine stop", {"engine", "stop", "--help"}, "engine start|stop|restart|status");
    row("proxy status", {"proxy", "status", "--help"}, "proxy start|stop|status");
    row("script diff", {"script", "diff", "--help"}, "script show|diff|upload");
    row("node check", {"node", "check", "--help"}, "node check --profile FILE");
    row("status", {"status", "--help"}, "status --profile FILE");
    row("scale", {"scale", "--help"}, "scale --profile FILE --pool");
    row("audit", {"audit", "--help"}, "audit [--file FILE]");
    row("warmup", {"warmup", "--help"}, "warmup --profile FILE");
    row("help after other options", {"scale", "--profile", "x.json", "--help"}, "scale --profile FILE --pool");
}

// Every verb answers --help (or -h): exit 0, its usage on stdout, nothing run.
void TestPdctl::everyVerbAnswersHelp()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const Run run = pdctl(args);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("usage:")), qPrintable(run.out));
    QVERIFY2(run.out.contains(expected), qPrintable(run.out));
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
}

void TestPdctl::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no command") << QStringList() << QStringLiteral("usage: pdctl");
    QTest::newRow("unknown command") << QStringList{QStringLiteral("profiles")} << QStringLiteral("usage: pdctl");
    QTest::newRow("profile without subcommand") << QStringList{QStringLiteral("profile")} << QStringLiteral("usage: pdctl profile");
    QTest::newRow("unknown subcommand") << QStringList{QStringLiteral("profile"), QStringLiteral("check"), bundled("demo-loopback")}
                                        << QStringLiteral("usage: pdctl profile");
    QTest::newRow("validate without a file") << QStringList{QStringLiteral("profile"), QStringLiteral("validate")}
                                             << QStringLiteral("usage: pdctl profile validate FILE");
    QTest::newRow("validate with two files")
        << QStringList{QStringLiteral("profile"), QStringLiteral("validate"), bundled("demo-loopback"), bundled("demo-loopback")}
        << QStringLiteral("usage: pdctl profile validate FILE");
    QTest::newRow("show without a file") << QStringList{QStringLiteral("profile"), QStringLiteral("show"), QStringLiteral("--json")}
                                         << QStringLiteral("usage: pdctl profile show FILE [--json]");
    QTest::newRow("import without sources") << QStringList{QStringLiteral("profile"), QStringLiteral("import")}
                                            << QStringLiteral("give at least one of --proxy-args, --launcher, --ranktable");
    QTest::newRow("import with an unknown option")
        << QStringList{QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--proxy"), QStringLiteral("--port 8000")}
        << QStringLiteral("pdctl profile import: Unknown options: proxy");
    QTest::newRow("import option without its value")
        << QStringList{QStringLiteral("profile"), QStringLiteral("import"), QStringLiteral("--proxy-args")}
        << QStringLiteral("Missing value after '--proxy-args'.");
    QTest::newRow("format without a file") << QStringList{QStringLiteral("profile"), QStringLiteral("format")}
                                           << QStringLiteral("usage: pdctl profile format FILE [-o FILE]");
    // Every other verb: a missing --profile, a typo'd option and a missing value exit 2 with the problem
    // and the verb's usage line, before anything is read or contacted.
    const QString profile = bundled("demo-loopback");
    const auto row = [](const char *name, QStringList args, const char *message) {
        QTest::newRow(name) << args << QString::fromLatin1(message);
    };
    const QString p = QStringLiteral("--profile");
    row("engine without --profile", {QStringLiteral("engine"), QStringLiteral("stop")}, "--profile FILE is required\nusage: pdctl engine");
    row("engine typo", {QStringLiteral("engine"), QStringLiteral("stop"), p, profile, QStringLiteral("--nodes"), QStringLiteral("p1")},
        "Unknown option 'nodes'.\nusage: pdctl engine");
    row("engine unknown action", {QStringLiteral("engine"), QStringLiteral("kill"), p, profile}, "unknown action 'kill'");
    row("proxy without --profile", {QStringLiteral("proxy"), QStringLiteral("status")}, "--profile FILE is required\nusage: pdctl proxy");
    row("proxy typo", {QStringLiteral("proxy"), QStringLiteral("start"), p, profile, QStringLiteral("--prnt")}, "usage: pdctl proxy");
    row("script without --profile", {QStringLiteral("script"), QStringLiteral("show")}, "--profile FILE is required\nusage: pdctl script");
    row("node without --profile", {QStringLiteral("node"), QStringLiteral("check")}, "--profile FILE is required\nusage: pdctl node check");
    row("node bad timeout", {QStringLiteral("node"), QStringLiteral("check"), p, profile, QStringLiteral("--timeout"), QStringLiteral("0")},
        "--timeout must be 1-3600 seconds\nusage: pdctl node check");
    row("status without --profile", {QStringLiteral("status"), QStringLiteral("--json")}, "--profile FILE is required\nusage: pdctl status");
    row("status typo", {QStringLiteral("status"), p, profile, QStringLiteral("--jsn")}, "pdctl status: Unknown option 'jsn'.\nusage: pdctl status");
    row("status profile without value", {QStringLiteral("status"), p}, "Missing value after '--profile'.");
    row("scale without --to", {QStringLiteral("scale"), p, profile, QStringLiteral("--pool"), QStringLiteral("decode")},
        "--to N is required");
    row("scale bad pool", {QStringLiteral("scale"), p, profile, QStringLiteral("--pool"), QStringLiteral("decoder"), QStringLiteral("--to"),
                           QStringLiteral("2")},
        "--pool must be decode or prefill\nusage: pdctl scale");
    row("scale typo", {QStringLiteral("scale"), p, profile, QStringLiteral("--pool"), QStringLiteral("decode"), QStringLiteral("--to"),
                       QStringLiteral("2"), QStringLiteral("--override")},
        "Unknown option 'override'.\nusage: pdctl scale");
    row("audit typo", {QStringLiteral("audit"), QStringLiteral("--fil"), QStringLiteral("x")}, "Unknown option 'fil'.\nusage: pdctl audit");
    row("audit stray argument", {QStringLiteral("audit"), QStringLiteral("log.jsonl")}, "unexpected argument \"log.jsonl\"\nusage: pdctl audit");
    row("warmup typo", {QStringLiteral("warmup"), p, profile, QStringLiteral("--concurency"), QStringLiteral("4")},
        "Unknown option 'concurency'.\nusage: pdctl warmup");
    row("profile format with two files", {QStringLiteral("profile"), QStringLiteral("format"), profile, profile},
        "unexpected argument");
}

void TestPdctl::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run run = pdctl(args);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QString());
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

QTEST_GUILESS_MAIN(TestPdctl)
#include "tst_pdctl.moc"
