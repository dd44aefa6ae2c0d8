// SPDX-License-Identifier: MIT
#include "cluster/profileformat.h"
#include "cluster/profilevalidator.h"
#include "cluster/strictjson.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace pd;
using ojson = nlohmann::ordered_json;

namespace {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(PD_SOURCE_DIR "/") + relative;
}

QString profilePath(const QString &name)
{
    if (name == QLatin1String("tutorial-main-2p2d"))
        return sourcePath(QStringLiteral("tests/data/profiles/tutorial-main-2p2d.json"));
    return sourcePath(QStringLiteral("resources/profiles/%1.json").arg(name));
}

QString describe(const QList<ValidationIssue> &issues)
{
    QStringList lines;
    for (const ValidationIssue &i : issues)
        lines.append(QStringLiteral("%1: %2%3").arg(i.pointer, i.severity == Severity::Warning ? QStringLiteral("warning: ") : QString(), i.message));
    return lines.join(QLatin1Char('\n'));
}

// Applies an RFC 6902 patch to a bundled profile's file form, loads the result, validates it.
QList<ValidationIssue> validatePatched(const QString &profile, const QByteArray &patch, QString *loadError)
{
    QFile file(profilePath(profile));
    if (!file.open(QIODevice::ReadOnly)) {
        *loadError = QStringLiteral("cannot open ") + file.fileName();
        return {};
    }
    const StrictJsonResult parsed = parseStrictJson(file.readAll());
    if (!parsed.ok) {
        *loadError = parsed.message;
        return {};
    }
    ojson document = parsed.value;
    try {
        if (!patch.isEmpty())
            document = document.patch(ojson::parse(patch.constData()));
    } catch (const std::exception &e) {
        *loadError = QStringLiteral("bad test patch: ") + QString::fromUtf8(e.what());
        return {};
    }
    const ProfileLoadResult loaded = parseProfile(QByteArray::fromStdString(document.dump(2)));
    if (!loaded.profile) {
        QStringList errors;
        for (const ProfileError &e : loaded.errors)
            errors.append(e.format(QStringLiteral("patched")));
        *loadError = errors.join(QLatin1Char('\n'));
        return {};
    }
    return validateProfile(*loaded.profile);
}

QByteArray replaceOp(const char *path, const ojson &value)
{
    return QByteArray::fromStdString(ojson::array({ojson{{"op", "replace"}, {"path", path}, {"value", value}}}).dump());
}

// The 8 prefill instances of the seed cluster, as the proxy lists them.
ojson seedPrefillInstances(int count)
{
    ojson list = ojson::array();
    for (int n = 1; n <= 4; ++n)
        for (int port = 9000; port <= 9001; ++port)
            if (int(list.size()) < count)
                list.push_back(QStringLiteral("192.0.0.%1:%2").arg(n).arg(port).toStdString());
    return list;
}

enum class Expect { Error, WarningOnly, Warning /* among errors */ };

} // namespace

class TestProfileValidator final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanTopologies_data();
    void cleanTopologies();
    void brokenVariants_data();
    void brokenVariants();
    void unsafeFieldValues_data();
    void unsafeFieldValues();
    void warningsAloneDoNotFail();
};

void TestProfileValidator::cleanTopologies_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("engines");
    QTest::newRow("the 8-node guide: DeepSeek-R1, 4 P x 2 + 4 D x 16") << QStringLiteral("deepseek-r1-8node") << 72;
    QTest::newRow("two-node A2 guide: DeepSeek-V3, LLMDataDist") << QStringLiteral("deepseek-v3-2node-a2") << 2;
    QTest::newRow("demo on loopback") << QStringLiteral("demo-loopback") << 72;
    QTest::newRow("main tutorial: 2 P (DP2 TP8 own master) + 2 D (DP32 TP1), ports 7100")
        << QStringLiteral("tutorial-main-2p2d") << 36;
}

void TestProfileValidator::cleanTopologies()
{
    QFETCH(QString, profile);
    QFETCH(int, engines);
    const ProfileLoadResult loaded = loadProfileFile(profilePath(profile));
    QVERIFY(loaded.profile.has_value());
    QCOMPARE(loaded.profile->engines().size(), engines);
    const QList<ValidationIssue> issues = validateProfile(*loaded.profile);
    // Not even a warning: a shipped or tutorial topology must look spotless to an operator.
    QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
}

void TestProfileValidator::brokenVariants_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QByteArray>("patch");   // RFC 6902, applied to the profile's file form
    QTest::addColumn<int>("expect");         // Expect
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("phrase");

    const QString r1 = QStringLiteral("deepseek-r1-8node");
    auto row = [&](const char *name, const QByteArray &patch, Expect expect, const char *pointer, const char *phrase) {
        QTest::newRow(name) << r1 << patch << int(expect) << QString::fromLatin1(pointer) << QString::fromUtf8(phrase);
    };

    // DP groups.
    row("DP rank gap (d1 starts at 20)", replaceOp("/nodes/5/engine_groups/0/dp_rank_start", 20), Expect::Error,
        "/nodes/4/engine_groups/0/dp_rank_start", "DP group with master 192.0.0.5:13395: no engine has DP rank 16-19");
    row("DP rank overlap (d1 starts at 0)", replaceOp("/nodes/5/engine_groups/0/dp_rank_start", 0), Expect::Error,
        "/nodes/5/engine_groups/0/dp_rank_start", "DP rank 0-15 is claimed by d0 and d1");
    row("DP rank overlap reported at the later claimant (d3 starts at 40)",
        replaceOp("/nodes/7/engine_groups/0/dp_rank_start", 40), Expect::Error,
        "/nodes/7/engine_groups/0/dp_rank_start", "DP rank 40-47 is claimed by d2 and d3");
    row("dp_size != sum of dp_size_local (d3 runs 8)", replaceOp("/nodes/7/engine_groups/0/dp_size_local", 8), Expect::Error,
        "/nodes/4/engine_groups/0/dp_size", "dp_size is 64 but the dp_size_local of its nodes (d0, d1, d2, d3) add up to 56");
    row("dp_size disagrees inside a group", replaceOp("/nodes/6/engine_groups/0/dp_size", 48), Expect::Error,
        "/nodes/6/engine_groups/0/dp_size", "dp_size 48 here but 64 at /nodes/4/engine_groups/0");
    row("ranks run past dp_size (d3 starts at 56)", replaceOp("/nodes/7/engine_groups/0/dp_rank_start", 56), Expect::Error,
        "/nodes/7/engine_groups/0/dp_rank_start", "ranks 56-71 run past dp_size 64");
    row("dp_size_local above dp_size (p0 runs 3 of 2)", replaceOp("/nodes/0/engine_groups/0/dp_size_local", 3), Expect::Error,
        "/nodes/0/engine_groups/0/dp_size_local", "dp_size_local 3 exceeds dp_size 2");
    {
        ojson patch = ojson::array();
        for (int n = 4; n < 8; ++n)
            patch.push_back({{"op", "replace"}, {"path", QStringLiteral("/nodes/%1/engine_groups/0/dp_address").arg(n).toStdString()},
                             {"value", "192.0.0.9"}});
        row("master address is none of the group's nodes", QByteArray::fromStdString(patch.dump()), Expect::Error,
            "/nodes/4/engine_groups/0/dp_address", "the master address is none of the group's nodes (d0, d1, d2, d3)");
    }
    // Ports on one host.
    row("engine/engine port clash (second group on p0 from 9001)",
        R"([{"op": "replace", "path": "/nodes/0/npu_count", "value": 32},
            {"op": "add", "path": "/nodes/0/engine_groups/-", "value": {"dp_size": 2, "dp_size_local": 2,
             "dp_rank_start": 0, "dp_address": "192.0.0.1", "dp_port": 13396, "engine_start_port": 9001, "tp_size": 8}}])",
        Expect::Error, "/nodes/0/engine_groups/1/engine_start_port",
        "port 9001 on 192.0.0.1 is used twice: engine DP rank 1 of node p0; engine DP rank 0 of node p0");
    row("engine vs kv_port clash", replaceOp("/roles/decode/kv_transfer_config/kv_port", "9003"), Expect::Error,
        "/roles/decode/kv_transfer_config/kv_port", "port 9003 on 192.0.0.6 is used twice: engine DP rank 19 of node d1; kv_port of node d1");
    {
        ojson patch = ojson::array();
        for (int n = 4; n < 8; ++n)
            patch.push_back({{"op", "replace"}, {"path", QStringLiteral("/nodes/%1/engine_groups/0/dp_port").arg(n).toStdString()},
                             {"value", 9005}});
        row("engine vs DP master port clash", QByteArray::fromStdString(patch.dump()), Expect::Error,
            "/nodes/4/engine_groups/0/dp_port",
            "port 9005 on 192.0.0.5 is used twice: engine DP rank 5 of node d0; DP master port of the decode group");
    }
    row("proxy port clash with an engine", replaceOp("/proxy/port", 9001), Expect::Error, "/proxy/port",
        "port 9001 on 192.0.0.1 is used twice: engine DP rank 1 of node p0; the proxy");
    row("ports past 65535", replaceOp("/nodes/4/engine_groups/0/engine_start_port", 65530), Expect::Error,
        "/nodes/4/engine_groups/0/engine_start_port", "engine ports 65530-65545 run past 65535");
    // kv_transfer_config against the pool.
    row("kv_producer on the decode pool", replaceOp("/roles/decode/kv_transfer_config/kv_role", "kv_producer"), Expect::Error,
        "/roles/decode/kv_transfer_config/kv_role", "kv_role \"kv_producer\" does not match the decode pool, which needs \"kv_consumer\"");
    row("kv_consumer on the prefill pool", replaceOp("/roles/prefill/kv_transfer_config/kv_role", "kv_consumer"), Expect::Error,
        "/roles/prefill/kv_transfer_config/kv_role", "does not match the prefill pool, which needs \"kv_producer\"");
    row("kv_transfer_config without kv_role", R"([{"op": "remove", "path": "/roles/prefill/kv_transfer_config/kv_role"}])",
        Expect::Error, "/roles/prefill/kv_transfer_config/kv_role", "kv_transfer_config has no kv_role; prefill engines need \"kv_producer\"");
    row("kv_both is a warning", replaceOp("/roles/decode/kv_transfer_config/kv_role", "kv_both"), Expect::WarningOnly,
        "/roles/decode/kv_transfer_config/kv_role", "PD disaggregation expects \"kv_consumer\"");
    // Pools.
    row("empty prefill pool",
        R"([{"op": "remove", "path": "/nodes/0"}, {"op": "remove", "path": "/nodes/0"},
            {"op": "remove", "path": "/nodes/0"}, {"op": "remove", "path": "/nodes/0"}])",
        Expect::Error, "/nodes", "the prefill pool is empty");
    row("empty decode pool",
        R"([{"op": "remove", "path": "/nodes/4"}, {"op": "remove", "path": "/nodes/4"},
            {"op": "remove", "path": "/nodes/4"}, {"op": "remove", "path": "/nodes/4"}])",
        Expect::Error, "/nodes", "the decode pool is empty");
    row("a node without engines", replaceOp("/nodes/3/engine_groups", ojson::array()), Expect::WarningOnly, "/nodes/3/engine_groups",
        "node \"p3\" runs no engines");
    // NPUs.
    row("TP x engines above the NPU count", replaceOp("/nodes/0/npu_count", 8), Expect::Error, "/nodes/0/engine_groups",
        "node \"p0\" needs 16 NPUs (TP size × engines) but has 8");
    row("TP 16 on a decode node of 16 engines", replaceOp("/nodes/6/engine_groups/0/tp_size", 16), Expect::Error,
        "/nodes/6/engine_groups", "node \"d2\" needs 256 NPUs (TP size × engines) but has 16");
    // Duplicate nodes.
    row("duplicate node names", replaceOp("/nodes/5/name", "d0"), Expect::Error, "/nodes/5/name",
        "node name \"d0\" is already used by /nodes/4");
    row("duplicate address, same role", replaceOp("/nodes/5/address", "192.0.0.5"), Expect::Error, "/nodes/5/address",
        "address 192.0.0.5 is already node \"d0\" (/nodes/4)");
    row("duplicate address, other role", replaceOp("/nodes/4/address", "192.0.0.1"), Expect::Warning, "/nodes/4/address",
        "address 192.0.0.1 is also node \"p0\" of the prefill pool");
    // Proxy instance lists.
    {
        ojson list = seedPrefillInstances(8);
        list.push_back("192.0.0.9:9000");
        row("proxy list names a non-engine", replaceOp("/proxy/prefill_instances", list), Expect::Error,
            "/proxy/prefill_instances/8", "the proxy's prefill list names 192.0.0.9:9000, which is no prefill engine");
        row("proxy list misses an engine", replaceOp("/proxy/prefill_instances", seedPrefillInstances(7)), Expect::WarningOnly,
            "/proxy/prefill_instances", "engine 192.0.0.4:9001 (node p3, DP rank 1) is not in the proxy's prefill list");
        ojson twice = seedPrefillInstances(8);
        twice.push_back("192.0.0.1:9000");
        row("proxy list names an engine twice", replaceOp("/proxy/prefill_instances", twice), Expect::WarningOnly,
            "/proxy/prefill_instances/8", "192.0.0.1:9000 is listed twice");
        ojson decodeAsPrefill = seedPrefillInstances(7);
        decodeAsPrefill.push_back("192.0.0.5:9000");
        row("decode engine in the prefill list", replaceOp("/proxy/prefill_instances", decodeAsPrefill), Expect::Error,
            "/proxy/prefill_instances/7", "names 192.0.0.5:9000, which is no prefill engine");
        ojson noPort = seedPrefillInstances(7);
        noPort.push_back("192.0.0.4");
        row("proxy list entry without a port", replaceOp("/proxy/prefill_instances", noPort), Expect::Error,
            "/proxy/prefill_instances/7", "instance \"192.0.0.4\" is not host:port");
    }
}

void TestProfileValidator::brokenVariants()
{
    QFETCH(QString, profile);
    QFETCH(QByteArray, patch);
    QFETCH(int, expect);
    QFETCH(QString, pointer);
    QFETCH(QString, phrase);

    const bool isError = Expect(expect) == Expect::Error;
    QString loadError;
    const QList<ValidationIssue> issues = validatePatched(profile, patch, &loadError);
    QVERIFY2(loadError.isEmpty(), qPrintable(loadError));
    bool found = false;
    for (const ValidationIssue &issue : issues) {
        if (issue.pointer == pointer && issue.message.contains(phrase) &&
            issue.severity == (isError ? Severity::Error : Severity::Warning))
            found = true;
    }
    QVERIFY2(found, qPrintable(QStringLiteral("expected %1 at %2 containing \"%3\"; got:\n%4")
                                   .arg(isError ? QStringLiteral("an error") : QStringLiteral("a warning"), pointer, phrase,
                                        describe(issues))));
    if (isError)
        QVERIFY(hasErrors(issues));
    if (Expect(expect) == Expect::WarningOnly)  // a warning alone never blocks a launch
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
}

void TestProfileValidator::unsafeFieldValues_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QByteArray>("patch");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("phrase");

    // Values reach remote shells (ssh, the launcher, the template): anything a shell treats specially is refused.
    struct Bad {
        const char *label;
        const char *text;     // inserted into an otherwise valid value
        const char *phrase;
    };
    const Bad bad[] = {
        {"$( )", "$(reboot)", "contains '$', which a shell would interpret"},
        {"backticks", "`reboot`", "contains '`', which a shell would interpret"},
        {"semicolon", ";reboot", "contains ';', which a shell would interpret"},
        {"pipe", "|sh", "contains '|', which a shell would interpret"},
        {"ampersand", "&", "contains '&', which a shell would interpret"},
        {"newline", "\nreboot", "contains a newline"},
        {"trailing newline", "\n", "contains a newline"},
        {"single quote", "'", "contains ''', which a shell would interpret"},
        {"double quote", "\"", "contains '\"', which a shell would interpret"},
        {"space", " x", "contains ' ', which a shell would interpret"},
        {"glob *", "*", "contains '*', which a shell would interpret"},
        {"glob ?", "?", "contains '?', which a shell would interpret"},
        {"glob [", "[0-9]", "contains '[', which a shell would interpret"},
        {"redirection", ">x", "contains '>', which a shell would interpret"},
        {"tab", "\tx", "contains the control character U+0009"},
        {"non-ASCII", "\xe8\x8a\x82\xe7\x82\xb9", "contains the non-ASCII character '\xe8\x8a\x82'"},
    };
    struct Field {
        const char *label;
        const char *pointer;
        const char *valid;    // the bad text is appended to this
        const char *what;     // how the validator names the field
    };
    const Field fields[] = {
        {"node name", "/nodes/0/name", "p0", "node name"},
        {"address", "/nodes/1/address", "192.0.0.2", "address"},
        {"SSH user", "/nodes/2/ssh/user", "root", "SSH user"},
        {"identity file", "/nodes/3/ssh/identity_file", "/root/.ssh/id_ed25519", "identity file"},
        {"jump host", "/nodes/4/ssh/jump_host", "bastion", "jump host"},
        {"NIC name", "/nodes/5/nic_name", "eth0", "NIC name"},
        {"local IP", "/nodes/6/local_ip", "192.0.0.7", "local IP"},
        {"DP master address", "/nodes/7/engine_groups/0/dp_address", "192.0.0.5", "DP master address"},
        {"template path", "/template_path", "./run_dp_template.sh", "template path"},
        {"run dir", "/run_dir", "/root/pdconsole", "run directory"},
        {"model path", "/roles/prefill/model_path", "vllm-ascend/DeepSeek-R1-W8A8", "model path"},
        {"proxy script", "/proxy/script_path", "./proxy.py", "proxy script"},
        {"proxy address", "/proxy/address", "192.0.0.1", "proxy address"},
    };
    for (const Field &f : fields) {
        for (const Bad &b : bad) {
            const std::string value = std::string(f.valid) + b.text;
            QTest::addRow("%s with %s", f.label, b.label)
                << QStringLiteral("deepseek-r1-8node") << replaceOp(f.pointer, value) << true
                << QString::fromLatin1(f.pointer)
                << QString::fromUtf8(f.what) + QStringLiteral(" \"")  // the message names the field first
                << QString::fromUtf8(b.phrase);
        }
    }
    // Environment variable names: the key of /roles/<role>/env.
    for (const Bad &b : bad) {
        const std::string name = std::string("HCCL_X") + b.text;
        ojson patch = ojson::array({ojson{{"op", "add"}, {"path", "/roles/decode/env/" + name}, {"value", "1"}}});
        QTest::addRow("env name with %s", b.label)
            << QStringLiteral("deepseek-r1-8node") << QByteArray::fromStdString(patch.dump()) << true
            << QStringLiteral("/roles/decode/env/") + QString::fromStdString(name)
            << QStringLiteral("variable name \"") << QStringLiteral("is not a valid environment variable name");
    }
    // Free text (env values, extra arguments): quotes and spaces are fine, control characters are not.
    QTest::newRow("env value with a newline")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/roles/decode/env/HCCL_BUFFSIZE", "1024\nreboot") << true
        << QStringLiteral("/roles/decode/env/HCCL_BUFFSIZE") << QStringLiteral("value \"1024\\nreboot\"")
        << QStringLiteral("contains a line break");
    QTest::newRow("env value with a carriage return")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/roles/prefill/env/OMP_NUM_THREADS", "10\r") << true
        << QStringLiteral("/roles/prefill/env/OMP_NUM_THREADS") << QStringLiteral("value ")
        << QStringLiteral("contains a line break");
    QTest::newRow("env value with an escape character")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/roles/prefill/env/HCCL_BUFFSIZE", "\x1b[2J") << true
        << QStringLiteral("/roles/prefill/env/HCCL_BUFFSIZE") << QStringLiteral("value ")
        << QStringLiteral("contains the control character U+001b");
    QTest::newRow("extra argument with a newline")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/roles/prefill/extra_args/1", "--seed\n1024") << true
        << QStringLiteral("/roles/prefill/extra_args/1") << QStringLiteral("argument \"--seed\\n1024\"")
        << QStringLiteral("contains a line break");
    QTest::newRow("extra argument with a NUL")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/roles/decode/extra_args/0", std::string("--a\0b", 5)) << true
        << QStringLiteral("/roles/decode/extra_args/0") << QStringLiteral("argument ")
        << QStringLiteral("contains the control character U+0000");
    QTest::newRow("cluster name with a space")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/name", "my cluster") << true << QStringLiteral("/name")
        << QStringLiteral("cluster name \"my cluster\"") << QStringLiteral("contains ' '");
    QTest::newRow("address starting with a dash (an ssh option)")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/nodes/1/address", "-oProxyCommand=reboot") << true
        << QStringLiteral("/nodes/1/address") << QStringLiteral("address ") << QStringLiteral("contains '='");
    QTest::newRow("user starting with a dash")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/nodes/1/ssh/user", "-oX") << true
        << QStringLiteral("/nodes/1/ssh/user") << QStringLiteral("SSH user ") << QStringLiteral("must not start with '-'");
    QTest::newRow("NIC name longer than the kernel allows")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/nodes/1/nic_name", "enp125s0f0np0abc") << true
        << QStringLiteral("/nodes/1/nic_name") << QStringLiteral("NIC name ") << QStringLiteral("longer than 15 characters");
    // api_key_env: its value is sent as a bearer token; only key and token names are accepted.
    QTest::newRow("api_key_env naming a cloud secret")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/proxy/api_key_env", "AWS_SECRET_ACCESS_KEY") << true
        << QStringLiteral("/proxy/api_key_env") << QStringLiteral("API key variable ")
        << QStringLiteral("is not the name of an API key or token variable");
    QTest::newRow("api_key_env naming HOME")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/proxy/api_key_env", "HOME") << true
        << QStringLiteral("/proxy/api_key_env") << QStringLiteral("API key variable ")
        << QStringLiteral("is not the name of an API key or token variable");
    QTest::newRow("api_key_env OPENAI_API_KEY (control row)")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/proxy/api_key_env", "OPENAI_API_KEY") << false
        << QString() << QString() << QString();
    QTest::newRow("api_key_env VLLM_TOKEN (control row)")
        << QStringLiteral("deepseek-r1-8node") << replaceOp("/proxy/api_key_env", "VLLM_TOKEN") << false
        << QString() << QString() << QString();
    // Values that look odd but are safe and real.
    QTest::newRow("IPv6 address, DNS names, jump host with user and port are fine (control row)")
        << QStringLiteral("deepseek-r1-8node")
        << QByteArray(R"([{"op": "replace", "path": "/proxy/address", "value": "fe80::1%eth0"},
                          {"op": "replace", "path": "/nodes/0/ssh/jump_host", "value": "ops@bastion.example.com:2222"},
                          {"op": "replace", "path": "/nodes/0/ssh/identity_file", "value": "~/.ssh/id_ed25519"},
                          {"op": "replace", "path": "/roles/decode/env/HCCL_BUFFSIZE", "value": "it's \"quoted\" $HOME"}])")
        << false << QString() << QString() << QString();
}

void TestProfileValidator::unsafeFieldValues()
{
    QFETCH(QString, profile);
    QFETCH(QByteArray, patch);
    QFETCH(bool, isError);
    QFETCH(QString, pointer);
    QFETCH(QString, prefix);
    QFETCH(QString, phrase);

    QString loadError;
    const QList<ValidationIssue> issues = validatePatched(profile, patch, &loadError);
    QVERIFY2(loadError.isEmpty(), qPrintable(loadError));
    if (!isError) {
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        return;
    }
    bool found = false;
    for (const ValidationIssue &issue : issues) {
        if (issue.severity == Severity::Error && issue.pointer == pointer && issue.message.startsWith(prefix) &&
            issue.message.contains(phrase))
            found = true;
    }
    QVERIFY2(found, qPrintable(QStringLiteral("expected an error at %1 starting \"%2\" containing \"%3\"; got:\n%4")
                                   .arg(pointer, prefix, phrase, describe(issues))));
}

void TestProfileValidator::warningsAloneDoNotFail()
{
    QList<ValidationIssue> issues{{Severity::Warning, QStringLiteral("/x"), QStringLiteral("w")}};
    QVERIFY(!hasErrors(issues));
    issues.append({Severity::Error, QStringLiteral("/y"), QStringLiteral("e")});
    QVERIFY(hasErrors(issues));
}

QTEST_GUILESS_MAIN(TestProfileValidator)
#include "tst_profilevalidator.moc"
