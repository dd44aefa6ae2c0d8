// SPDX-License-Identifier: MIT
// Start-script import: the two-node A2 guide's two start scripts plus its proxy line give the bundled
// 2-node profile's engine values; odd scripts either read right or are refused naming file:line.
#include "cluster/profileformat.h"
#include "cluster/profileimporter.h"
#include "cluster/profilevalidator.h"
#include "cluster/startscript.h"

#include <QFile>
#include <QTest>

using namespace pd;

namespace {

QString sourcePath(const QString &relative) { return QStringLiteral(PD_SOURCE_DIR "/") + relative; }

QString readFixture(const QString &name)
{
    QFile file(sourcePath(QStringLiteral("tests/data/import/")) + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(file.fileName()));
    return QString::fromUtf8(file.readAll());
}

Profile loadBundled(const QString &name)
{
    const ProfileLoadResult loaded = loadProfileFile(sourcePath(QStringLiteral("resources/profiles/%1.json").arg(name)));
    if (!loaded.profile)
        qFatal("bundled profile %s does not load", qPrintable(name));
    return *loaded.profile;
}

// Parses and reads one script; QVERIFY-friendly: the messages come back joined.
struct Read {
    bool ok = false;
    StartScriptNode node;
    QStringList errors;
    QStringList warnings;
};

Read readScript(const QString &text, const QString &host = {})
{
    Read r;
    StartScript script;
    r.ok = parseStartScript({text, QStringLiteral("start.sh"), host}, &script, &r.errors, &r.warnings)
           && readStartScript(script, &r.node, &r.errors, &r.warnings);
    return r;
}

const char kKv[] = R"('{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_consumer","kv_port":"20001"}')";

} // namespace

class TestStartScriptImport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seed001ScriptsGiveTheBundledProfile();
    void unknownFlagsLandInExtraArgs();
    void variablesPrefixesRedirectionsAndSource();
    void apiServerForm();
    void refusalsNameFileAndLine_data();
    void refusalsNameFileAndLine();
    void hostGivenByTheOperatorWins();
    void quotesCommentsAndHostileInput();
};

void TestStartScriptImport::seed001ScriptsGiveTheBundledProfile()
{
    ImportSources sources;
    sources.proxyCommandLine = readFixture(QStringLiteral("seed001-proxy.txt"));
    QFile ranktable(sourcePath(QStringLiteral("tests/data/import/ranktable-seed001-a2.json")));
    QVERIFY(ranktable.open(QIODevice::ReadOnly));
    sources.ranktable = ranktable.readAll();
    sources.startScripts = {{readFixture(QStringLiteral("seed001-start_prefill.sh")), QStringLiteral("start_prefill.sh"), {}},
                            {readFixture(QStringLiteral("seed001-start_decode.sh")), QStringLiteral("start_decode.sh"), {}}};
    const ImportResult result = importProfile(sources);
    QVERIFY2(result.ok(), qPrintable(result.errors.join(QLatin1Char('\n'))));
    const Profile bundled = loadBundled(QStringLiteral("deepseek-v3-2node-a2"));
    const Profile &p = result.profile;

    // The rank-table path in the scripts' environment names v0.9.1-dev's examples folder.
    QCOMPARE(p.proxy.generation, ProxyGeneration::V091Dev);
    QVERIFY(result.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("disaggregate_prefill_v1")));

    // Every engine value of both roles, as the bundled profile has them (it carries the seed's
    // container and set_env.sh scripts on top, which the start scripts do not say).
    for (const Role role : {Role::Prefill, Role::Decode}) {
        RoleConfig expected = bundled.roleConfig(role);
        expected.container = {};
        expected.envScripts = {};
        const RoleConfig &got = p.roleConfig(role);
        QCOMPARE(got.modelPath, expected.modelPath);
        QCOMPARE(got.servedModelName, expected.servedModelName);
        QCOMPARE(got.maxModelLen, expected.maxModelLen);
        QCOMPARE(got.maxNumBatchedTokens, expected.maxNumBatchedTokens);
        QCOMPARE(got.maxNumSeqs, expected.maxNumSeqs);
        QCOMPARE(got.gpuMemoryUtilization, expected.gpuMemoryUtilization);
        QCOMPARE(QString::fromStdString(got.kvTransferConfig.dump()), QString::fromStdString(expected.kvTransferConfig.dump()));
        QCOMPARE(QString::fromStdString(got.additionalConfig.dump()), QString::fromStdString(expected.additionalConfig.dump()));
        QCOMPARE(got.extraArgs, expected.extraArgs);
        QCOMPARE(got.env, expected.env);
        QCOMPARE(got.dpCoupling, DpCoupling::Coupled);
        QVERIFY(got == expected);
    }
    QCOMPARE(p.nodes.size(), bundled.nodes.size());
    for (qsizetype n = 0; n < p.nodes.size(); ++n) {
        const Node &got = p.nodes.at(n);
        const Node &want = bundled.nodes.at(n);
        QCOMPARE(got.address, want.address);
        QCOMPARE(got.role, want.role);
        QCOMPARE(got.localIp, want.localIp);
        QCOMPARE(got.nicName, want.nicName);
        QCOMPARE(got.npuIps, want.npuIps);
        QCOMPARE(got.engineGroups, want.engineGroups);
    }
    QCOMPARE(p.proxy.address, bundled.proxy.address);
    QCOMPARE(p.proxy.port, bundled.proxy.port);
    QCOMPARE(p.engines(Role::Prefill).size(), 1);
    QCOMPARE(p.engines(Role::Decode).size(), 1);
    QVERIFY(!hasErrors(validateProfile(p)));
}

void TestStartScriptImport::unknownFlagsLandInExtraArgs()
{
    const Read r = readScript(QStringLiteral("export HCCL_IF_IP=10.1.0.2\n"
                                             "vllm serve /models/m --port 9000 --foo-bar 3 --baz=x --flag-only \\\n"
                                             "  --max-num-seqs=16 -O3 --kv-transfer-config %1 --trailing\n")
                                  .arg(QLatin1String(kKv)));
    QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
    QCOMPARE(r.node.config.extraArgs, (QStringList{QStringLiteral("--foo-bar"), QStringLiteral("3"), QStringLiteral("--baz=x"),
                                                   QStringLiteral("--flag-only"), QStringLiteral("-O3"), QStringLiteral("--trailing")}));
    QCOMPARE(r.node.config.maxNumSeqs, 16);
    QCOMPARE(r.node.group.engineStartPort, 9000);
    QCOMPARE(r.node.role, Role::Decode);
    QCOMPARE(r.node.address, QStringLiteral("10.1.0.2"));
}

void TestStartScriptImport::variablesPrefixesRedirectionsAndSource()
{
    const Read r = readScript(QStringLiteral(
        "#!/usr/bin/env bash\n"
        "set -euo pipefail\n"
        "source /usr/local/Ascend/ascend-toolkit/set_env.sh\n"
        ". /usr/local/Ascend/nnal/atb/set_env.sh   # ATB\n"
        "MODEL=/data/DeepSeek-R1-w8a8\n"
        "NIC=enp189s0f0\n"
        "export GLOO_SOCKET_IFNAME=$NIC TP_SOCKET_IFNAME=${NIC}\n"
        "export HCCL_SOCKET_IFNAME=\"$NIC\"\n"
        "export LOG_DIR='$NOT_EXPANDED'\n"
        "cd /work\n"
        "nohup env ASCEND_RT_VISIBLE_DEVICES=0,1 vllm serve \"$MODEL\" \\\n"
        "    --data-parallel-address 10.2.0.7 --data-parallel-size 4 --data-parallel-size-local 2 \\\n"
        "    --data-parallel-start-rank 2 --data-parallel-rpc-port 13399 -tp 8 \\\n"
        "    --served-model-name dsr1 --kv-transfer-config %1 \\\n"
        "    > /var/log/vllm-$HOSTNAME.log 2>&1 &\n"
        "echo started\n")
                                  .arg(QLatin1String(kKv)));
    QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
    QCOMPARE(r.node.config.modelPath, QStringLiteral("/data/DeepSeek-R1-w8a8"));
    QCOMPARE(r.node.config.envScripts, (QStringList{QStringLiteral("/usr/local/Ascend/ascend-toolkit/set_env.sh"),
                                                    QStringLiteral("/usr/local/Ascend/nnal/atb/set_env.sh")}));
    QCOMPARE(r.node.nicName, QStringLiteral("enp189s0f0"));
    QCOMPARE(r.node.address, QStringLiteral("10.2.0.7")); // no HCCL_IF_IP: the DP address
    const QList<QPair<QString, QString>> env{{QStringLiteral("LOG_DIR"), QStringLiteral("$NOT_EXPANDED")},
                                             {QStringLiteral("ASCEND_RT_VISIBLE_DEVICES"), QStringLiteral("0,1")}};
    QCOMPARE(r.node.config.env, env);
    const EngineGroup &g = r.node.group;
    QCOMPARE(g.dpSize, 4);
    QCOMPARE(g.dpSizeLocal, 2);
    QCOMPARE(g.dpRankStart, 2);
    QCOMPARE(g.dpPort, 13399);
    QCOMPARE(g.tpSize, 8);
    QCOMPARE(r.node.config.servedModelName, QStringLiteral("dsr1"));
    QVERIFY(r.node.config.extraArgs.isEmpty()); // the redirection and & are the shell's, not vllm's
    // $HOSTNAME is not set by the script: said, not guessed.
    QVERIFY2(r.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("start.sh:11: $HOSTNAME is not set")),
             qPrintable(r.warnings.join(QLatin1Char('\n'))));
}

void TestStartScriptImport::apiServerForm()
{
    const Read r = readScript(QStringLiteral("python3 -m vllm.entrypoints.openai.api_server --model /m/x --port 8100 "
                                             "--kv-transfer-config '{\"kv_role\": \"kv_producer\"}'\n"),
                              QStringLiteral("10.0.0.9"));
    QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
    QCOMPARE(r.node.config.modelPath, QStringLiteral("/m/x"));
    QCOMPARE(r.node.role, Role::Prefill);
    QCOMPARE(r.node.group.engineStartPort, 8100);
}

void TestStartScriptImport::refusalsNameFileAndLine_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("error");
    QTest::newRow("no vllm command") << QStringLiteral("export A=1\necho hi\n") << QStringLiteral("start.sh: no `vllm serve`");
    QTest::newRow("unterminated quote") << QStringLiteral("export A=1\nvllm serve /m --kv-transfer-config '{\"kv_role\":\n")
                                        << QStringLiteral("start.sh:2: unterminated single quote");
    QTest::newRow("broken JSON") << QStringLiteral("\n\nvllm serve /m \\\n --kv-transfer-config '{\"kv_role\": kv_producer}'\n")
                                 << QStringLiteral("start.sh:3: --kv-transfer-config is not JSON");
    QTest::newRow("no kv_role") << QStringLiteral("vllm serve /m --data-parallel-address 10.0.0.1\n")
                                << QStringLiteral("start.sh:1: the role comes from --kv-transfer-config's kv_role");
    QTest::newRow("kv_both") << QStringLiteral("vllm serve /m --data-parallel-address 10.0.0.1 --kv-transfer-config '{\"kv_role\":\"kv_both\"}'\n")
                             << QStringLiteral("which is \"kv_both\"");
    QTest::newRow("length not a number") << QStringLiteral("vllm serve /m --max-model-len 32k --kv-transfer-config %1\n").arg(QLatin1String(kKv))
                                         << QStringLiteral("start.sh:1: --max-model-len \"32k\" is not a whole number");
    QTest::newRow("no model") << QStringLiteral("vllm serve --port 1 --kv-transfer-config %1\n").arg(QLatin1String(kKv))
                              << QStringLiteral("start.sh:1: the vllm command names no model");
    QTest::newRow("no node address") << QStringLiteral("vllm serve /m --kv-transfer-config %1\n").arg(QLatin1String(kKv))
                                     << QStringLiteral("start.sh: cannot tell which node this script runs on");
    QTest::newRow("local larger than size") << QStringLiteral("vllm serve /m -dp 2 -dpl 4 -dpa 10.0.0.1 --kv-transfer-config %1\n").arg(QLatin1String(kKv))
                                            << QStringLiteral("--data-parallel-size-local 4 is larger than --data-parallel-size 2");
}

void TestStartScriptImport::refusalsNameFileAndLine()
{
    QFETCH(QString, script);
    QFETCH(QString, error);
    const Read r = readScript(script);
    QVERIFY(!r.ok);
    QVERIFY2(r.errors.join(QLatin1Char('\n')).contains(error), qPrintable(r.errors.join(QLatin1Char('\n'))));
    // The importer says the same and builds nothing from a refused script.
    ImportSources sources;
    sources.startScripts = {{script, QStringLiteral("start.sh"), {}}};
    const ImportResult imported = importProfile(sources);
    QVERIFY(!imported.ok());
    QVERIFY(imported.profile.nodes.isEmpty());
}

void TestStartScriptImport::hostGivenByTheOperatorWins()
{
    // HOST:FILE names the node even when the script exports another HCCL_IF_IP (a copy edited elsewhere).
    const Read r = readScript(QStringLiteral("export HCCL_IF_IP=10.0.0.5\nvllm serve /m --kv-transfer-config %1\n").arg(QLatin1String(kKv)),
                              QStringLiteral("node-d1"));
    QVERIFY(r.ok);
    QCOMPARE(r.node.address, QStringLiteral("node-d1"));
    QCOMPARE(r.node.localIp, QStringLiteral("10.0.0.5"));
}

// The quote scanner against what hand-written scripts and hostile files hold: an escaped quote with a
// `#` after it inside double quotes (a value, not a comment), an apostrophe in a comment, quotes left
// open, a 10 MB line, numbers past any int, NaN, and text decoded from bytes that are not UTF-8.
void TestStartScriptImport::quotesCommentsAndHostileInput()
{
    const QString serve = QStringLiteral("vllm serve /m -dpa 10.0.0.1 --kv-transfer-config %1").arg(QLatin1String(kKv));
    const Read escaped = readScript(QStringLiteral("export LOG_TAG=\"a\\\" # b\"\nNIC=eth0 # don't \"split\"\n") + serve
        + QStringLiteral(" # the 'decode' node\n"));
    QVERIFY2(escaped.ok, qPrintable(escaped.errors.join(QLatin1Char('\n'))));
    const QList<QPair<QString, QString>> env { { QStringLiteral("LOG_TAG"), QStringLiteral("a\" # b") } };
    QCOMPARE(escaped.node.config.env, env);

    const Read openDouble = readScript(QStringLiteral("export A=\"x\n") + serve + QLatin1Char('\n'));
    QVERIFY(!openDouble.ok);
    QVERIFY2(
        openDouble.errors.join(QLatin1Char('\n')).contains(QStringLiteral("start.sh:1: unterminated double quote")),
        qPrintable(openDouble.errors.join(QLatin1Char('\n'))));

    const Read huge = readScript(QStringLiteral("export BIG=") + QString(10'000'000, QLatin1Char('x'))
        + QLatin1Char('\n') + serve + QLatin1Char('\n'));
    QVERIFY2(huge.ok, qPrintable(huge.errors.join(QLatin1Char('\n'))));
    QCOMPARE(huge.node.config.env.value(0).second.size(), 10'000'000);

    for (const char *length : { "99999999999999999999", "nan", "inf", "-1e400" }) {
        const Read bad
            = readScript(serve + QStringLiteral(" --max-model-len ") + QLatin1String(length) + QLatin1Char('\n'));
        QVERIFY2(!bad.ok, length);
        QVERIFY2(bad.errors.join(QLatin1Char('\n')).contains(QStringLiteral("is not a whole number")),
            qPrintable(bad.errors.join(QLatin1Char('\n'))));
    }

    const QString notUtf8 = QString::fromUtf8("export A='\xff\xfe'\n") + serve + QLatin1Char('\n');
    const Read decoded = readScript(notUtf8);
    QVERIFY2(decoded.ok, qPrintable(decoded.errors.join(QLatin1Char('\n'))));
    QCOMPARE(decoded.node.config.env.value(0).second, QString(2, QChar::ReplacementCharacter));
}

QTEST_GUILESS_MAIN(TestStartScriptImport)
#include "tst_startscriptimport.moc"
