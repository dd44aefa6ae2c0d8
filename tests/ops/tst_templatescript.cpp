// SPDX-License-Identifier: MIT
// run_dp_template.sh generated from the seed profile for both roles and both launch flavors: golden
// files (PD_UPDATE_GOLDEN=1 rewrites them), and each script actually run with a fake `vllm` on PATH
// to see the arguments and environment vllm would get from the launcher's seven arguments. Then the
// diff against a node's copy and the upload through LocalRunner.
#include "cluster/profileformat.h"
#include "exec/localrunner.h"
#include "ops/linediff.h"
#include "ops/scriptdeploy.h"
#include "ops/templatescript.h"

#include "opsfixture.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace std::chrono_literals;

namespace {

const pd::Node &nodeNamed(const pd::Profile &profile, const QString &name)
{
    for (const pd::Node &node : profile.nodes) {
        if (node.name == name)
            return node;
    }
    qFatal("no such node");
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Runs the script with a fake vllm that writes its argv (NUL-separated) and environment.
struct VllmCall {
    QList<QByteArray> argv;
    QHash<QByteArray, QByteArray> env;
};

VllmCall runWithFakeVllm(const QByteArray &script, const QStringList &args)
{
    QTemporaryDir dir;
    QFile fake(dir.filePath(QStringLiteral("vllm")));
    fake.open(QIODevice::WriteOnly);
    fake.write("#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$FAKE_OUT/argv\"\nenv -0 > \"$FAKE_OUT/env\"\n");
    fake.close();
    fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile s(dir.filePath(QStringLiteral("run_dp_template.sh")));
    s.open(QIODevice::WriteOnly);
    s.write(script);
    s.close();
    QProcess bash;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), dir.path() + QStringLiteral(":/usr/bin:/bin"));
    env.insert(QStringLiteral("FAKE_OUT"), dir.path());
    bash.setProcessEnvironment(env);
    bash.start(QStringLiteral("/bin/bash"), QStringList { s.fileName() } + args);
    bash.waitForFinished(10000);
    VllmCall call;
    call.argv = readFile(dir.filePath(QStringLiteral("argv"))).split('\0');
    if (!call.argv.isEmpty())
        call.argv.removeLast();
    const QList<QByteArray> vars = readFile(dir.filePath(QStringLiteral("env"))).split('\0');
    for (const QByteArray &v : vars) {
        const qsizetype eq = v.indexOf('=');
        if (eq > 0)
            call.env.insert(v.left(eq), v.mid(eq + 1));
    }
    return call;
}

QByteArray optionValue(const QList<QByteArray> &argv, const QByteArray &option)
{
    const qsizetype at = argv.indexOf(option);
    return at >= 0 && at + 1 < argv.size() ? argv.at(at + 1) : QByteArray();
}

} // namespace

class TestTemplateScript : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void golden_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<pd::LaunchFlavor>("flavor");
        QTest::newRow("prefill-v0.9.1") << QStringLiteral("p0") << pd::LaunchFlavor::V091;
        QTest::newRow("decode-v0.9.1") << QStringLiteral("d1") << pd::LaunchFlavor::V091;
        QTest::newRow("prefill-main") << QStringLiteral("p0") << pd::LaunchFlavor::Main;
        QTest::newRow("decode-main") << QStringLiteral("d1") << pd::LaunchFlavor::Main;
    }

    void golden()
    {
        QFETCH(QString, node);
        QFETCH(pd::LaunchFlavor, flavor);
        pd::Profile profile = pdtest::seedProfile();
        profile.launchFlavor = flavor;
        const pd::GeneratedScript script = pd::generateTemplateScript(profile, nodeNamed(profile, node));
        QVERIFY2(script.error.isEmpty(), qPrintable(script.error));
        const QString path = QStringLiteral(PD_SOURCE_DIR "/tests/data/ops/run_dp_template-%1.sh")
                                 .arg(QString::fromLatin1(QTest::currentDataTag()));
        if (qEnvironmentVariableIsSet("PD_UPDATE_GOLDEN")) {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(script.text);
        }
        const QByteArray golden = readFile(path);
        QVERIFY2(
            golden == script.text, qPrintable(pd::unifiedDiff(golden, script.text, path, QStringLiteral("generated"))));
    }

    void v091ScriptGivesVllmWhatTheSeedTemplateGives()
    {
        const pd::Profile profile = pdtest::seedProfile();
        const pd::Node &d1 = nodeNamed(profile, QStringLiteral("d1"));
        const pd::GeneratedScript script = pd::generateTemplateScript(profile, d1);
        // launch_dp_program.py on d1: dp_size 64, master 192.0.0.5:13395, local rank 3, rank 19, port 9003, local size
        // 16
        const VllmCall call = runWithFakeVllm(
            script.text, QString::fromLatin1("64 192.0.0.5 13395 3 19 9003 16").split(QLatin1Char(' ')));
        QVERIFY2(!call.argv.isEmpty(), "vllm was not called");
        QCOMPARE(call.argv.mid(0, 2), (QList<QByteArray> { "serve", "vllm-ascend/DeepSeek-R1-W8A8" }));
        QCOMPARE(optionValue(call.argv, "--port"), QByteArray("9003"));
        QCOMPARE(optionValue(call.argv, "--tensor-parallel-size"), QByteArray("1"));
        QCOMPARE(optionValue(call.argv, "--max-num-seqs"), QByteArray("28"));
        QCOMPARE(optionValue(call.argv, "--seed"), QByteArray("1024"));
        QVERIFY(call.argv.contains("--enable-expert-parallel"));
        const auto kv = nlohmann::json::parse(optionValue(call.argv, "--kv-transfer-config").toStdString());
        QCOMPARE(QString::fromStdString(kv["kv_role"].get<std::string>()), QStringLiteral("kv_consumer"));
        const auto spec = nlohmann::json::parse(optionValue(call.argv, "--speculative-config").toStdString());
        QCOMPARE(QString::fromStdString(spec["method"].get<std::string>()), QStringLiteral("deepseek_mtp"));
        QCOMPARE(call.env.value("VLLM_DP_SIZE"), QByteArray("64"));
        QCOMPARE(call.env.value("VLLM_DP_MASTER_IP"), QByteArray("192.0.0.5"));
        QCOMPARE(call.env.value("VLLM_DP_MASTER_PORT"), QByteArray("13395"));
        QCOMPARE(call.env.value("VLLM_DP_RANK_LOCAL"), QByteArray("3"));
        QCOMPARE(call.env.value("VLLM_DP_RANK"), QByteArray("19"));
        QCOMPARE(call.env.value("VLLM_DP_SIZE_LOCAL"), QByteArray("16"));
        QCOMPARE(call.env.value("HCCL_IF_IP"), QByteArray("192.0.0.6"));
        QCOMPARE(call.env.value("HCCL_SOCKET_IFNAME"), QByteArray("eth0"));
        QCOMPARE(call.env.value("HCCL_BUFFSIZE"), QByteArray("1024"));
        QCOMPARE(call.env.value("PYTORCH_NPU_ALLOC_CONF"), QByteArray("expandable_segments:True"));
        QCOMPARE(call.env.value("VLLM_ASCEND_EXTERNAL_DP_LB_ENABLED"), QByteArray("1"));
    }

    void mainScriptPassesDataParallelFlags()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.launchFlavor = pd::LaunchFlavor::Main;
        const pd::Node &p0 = nodeNamed(profile, QStringLiteral("p0"));
        const pd::GeneratedScript script = pd::generateTemplateScript(profile, p0);
        // launch_online_dp.py on p0, engine 1 with tp 8: devices 8..15, port 9001, dp 2, rank 1, address, rpc port, tp
        const VllmCall call = runWithFakeVllm(script.text,
            QString::fromLatin1("8,9,10,11,12,13,14,15 9001 2 1 192.0.0.1 13395 8").split(QLatin1Char(' ')));
        QVERIFY2(!call.argv.isEmpty(), "vllm was not called");
        QCOMPARE(call.env.value("ASCEND_RT_VISIBLE_DEVICES"), QByteArray("8,9,10,11,12,13,14,15"));
        QCOMPARE(optionValue(call.argv, "--port"), QByteArray("9001"));
        QCOMPARE(optionValue(call.argv, "--data-parallel-size"), QByteArray("2"));
        QCOMPARE(optionValue(call.argv, "--data-parallel-rank"), QByteArray("1"));
        QCOMPARE(optionValue(call.argv, "--data-parallel-address"), QByteArray("192.0.0.1"));
        QCOMPARE(optionValue(call.argv, "--data-parallel-rpc-port"), QByteArray("13395"));
        QCOMPARE(optionValue(call.argv, "--tensor-parallel-size"), QByteArray("8"));
        QVERIFY(call.argv.contains("--enforce-eager"));
        const auto kv = nlohmann::json::parse(optionValue(call.argv, "--kv-transfer-config").toStdString());
        QCOMPARE(QString::fromStdString(kv["kv_role"].get<std::string>()), QStringLiteral("kv_producer"));
        QVERIFY(!call.env.contains("VLLM_DP_SIZE"));
    }

    void aWrongKvRoleIsCorrectedAndNoted()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.decode.kvTransferConfig["kv_role"] = "kv_producer";
        const pd::GeneratedScript script
            = pd::generateTemplateScript(profile, nodeNamed(profile, QStringLiteral("d0")));
        QVERIFY(script.text.contains("\"kv_role\":\"kv_consumer\""));
        QCOMPARE(script.notes.size(), 1);
        QVERIFY2(script.notes.first().contains(QLatin1String("kv_producer")), qPrintable(script.notes.first()));
    }

    void hostileValuesStayInsideTheirWords()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.decode.env.append(
            { QStringLiteral("PD_TRAP"), QStringLiteral("$(touch /tmp/pdconsole-canary) `id` ' \" ; | &") });
        profile.decode.extraArgs << QStringLiteral("--note") << QStringLiteral("a b; $(touch /tmp/pdconsole-canary)");
        const pd::GeneratedScript script
            = pd::generateTemplateScript(profile, nodeNamed(profile, QStringLiteral("d0")));
        const VllmCall call = runWithFakeVllm(
            script.text, QString::fromLatin1("64 192.0.0.5 13395 0 0 9000 16").split(QLatin1Char(' ')));
        QCOMPARE(call.env.value("PD_TRAP"), QByteArray("$(touch /tmp/pdconsole-canary) `id` ' \" ; | &"));
        QCOMPARE(optionValue(call.argv, "--note"), QByteArray("a b; $(touch /tmp/pdconsole-canary)"));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/pdconsole-canary")));
    }

    void errorsNameTheNode()
    {
        pd::Profile profile = pdtest::seedProfile();
        profile.prefill.modelPath.clear();
        const pd::GeneratedScript script
            = pd::generateTemplateScript(profile, nodeNamed(profile, QStringLiteral("p2")));
        QVERIFY(script.text.isEmpty());
        QVERIFY2(script.error.contains(QLatin1String("node p2")) && script.error.contains(QLatin1String("model_path")),
            qPrintable(script.error));
    }

    void unifiedDiffShowsTheChange()
    {
        const QByteArray before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        const QByteArray after = "a\nb\nc\nD\ne\nf\ng\nh\ni\n";
        QCOMPARE(pd::unifiedDiff(before, before, QStringLiteral("x"), QStringLiteral("y")), QString());
        QCOMPARE(pd::unifiedDiff(before, after, QStringLiteral("node"), QStringLiteral("generated")),
            QStringLiteral("--- node\n+++ generated\n@@ -1,8 +1,9 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n h\n+i\n"));
        QCOMPARE(pd::unifiedDiff(QByteArray(), "x\n", QStringLiteral("/dev/null"), QStringLiteral("new")),
            QStringLiteral("--- /dev/null\n+++ new\n@@ -0,0 +1 @@\n+x\n"));
    }

    void planDiffAndUploadThroughTheRunner()
    {
        QTemporaryDir dir;
        pd::Profile profile = pdtest::seedProfile();
        profile.runDir = dir.filePath(QStringLiteral("it's a \"run\" dir; $(x)"));
        pd::Node node = nodeNamed(profile, QStringLiteral("d1"));
        node.address = QStringLiteral("127.0.0.1");
        pd::LocalRunner runner;

        pd::ScriptPlan plan = pd::planTemplateScript(runner, profile, node, 10s);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QVERIFY(!plan.current.exists);
        QVERIFY(plan.needsUpload());
        QVERIFY(plan.diff.startsWith(QLatin1String("--- /dev/null\n")));

        QCOMPARE(pd::applyTemplateScript(runner, profile, node, plan, 10s), QString());
        const QString onNode = profile.runDir + QStringLiteral("/run_dp_template.sh");
        QCOMPARE(readFile(onNode), plan.generated);
        QVERIFY(QFileInfo(onNode).isExecutable());

        plan = pd::planTemplateScript(runner, profile, node, 10s);
        QVERIFY(plan.current.exists);
        QVERIFY(!plan.needsUpload());
        QVERIFY(plan.diff.isEmpty());

        // Someone edited the node's copy by hand: the diff shows exactly that line.
        QByteArray edited = plan.generated;
        edited.replace("export HCCL_BUFFSIZE=1024\n", "export HCCL_BUFFSIZE=2048\n");
        QFile f(onNode);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(edited);
        f.close();
        plan = pd::planTemplateScript(runner, profile, node, 10s);
        QVERIFY(plan.needsUpload());
        QVERIFY2(plan.diff.contains(QLatin1String("\n-export HCCL_BUFFSIZE=2048\n+export HCCL_BUFFSIZE=1024\n")),
            qPrintable(plan.diff));
        QCOMPARE(pd::applyTemplateScript(runner, profile, node, plan, 10s), QString());
        QCOMPARE(readFile(onNode), plan.generated);
    }
};

QTEST_GUILESS_MAIN(TestTemplateScript)
#include "tst_templatescript.moc"
