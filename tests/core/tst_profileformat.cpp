// SPDX-License-Identifier: MIT
#include "cluster/profileformat.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace pd;

namespace {

QString sourcePath(const QString &relative)
{
    return QStringLiteral(PD_SOURCE_DIR "/") + relative;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString describe(const QList<ProfileError> &errors)
{
    QStringList lines;
    for (const ProfileError &e : errors)
        lines.append(e.format(QStringLiteral("FILE")));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestProfileFormat final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bundledProfilesRoundTrip_data();
    void bundledProfilesRoundTrip();
    void bundledSeedProfileContents();
    void saveThenLoadGivesTheSameProfile();
    void failedSaveLeavesTheOldFile();
    void badFiles_data();
    void badFiles();
    void errorsAreFormattedForTheTerminal();
    void tenMegabyteFileIsRefused();
    void allSchemaProblemsAreReportedInOnePass();
};

void TestProfileFormat::bundledProfilesRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("deepseek-r1-8node") << sourcePath(QStringLiteral("resources/profiles/deepseek-r1-8node.json"));
    QTest::newRow("deepseek-v3-2node-a2") << sourcePath(QStringLiteral("resources/profiles/deepseek-v3-2node-a2.json"));
    QTest::newRow("demo-loopback") << sourcePath(QStringLiteral("resources/profiles/demo-loopback.json"));
    QTest::newRow("demo-groups") << sourcePath(QStringLiteral("resources/profiles/demo-groups.json"));
    QTest::newRow("tutorial-main-2p2d") << sourcePath(QStringLiteral("tests/data/profiles/tutorial-main-2p2d.json"));
}

void TestProfileFormat::bundledProfilesRoundTrip()
{
    QFETCH(QString, path);
    const QByteArray bytes = readAll(path);
    QVERIFY2(!bytes.isEmpty(), qPrintable(path));
    const ProfileLoadResult loaded = loadProfileFile(path);
    QVERIFY2(loaded.errors.isEmpty(), qPrintable(describe(loaded.errors)));
    QVERIFY(loaded.profile.has_value());
    // The canonical form re-serialises byte for byte: a load/save cycle never churns a file under git.
    QCOMPARE(serializeProfile(*loaded.profile), bytes);
    // And parsing the same bytes from memory gives the same profile.
    const ProfileLoadResult parsed = parseProfile(bytes);
    QVERIFY(parsed.profile.has_value());
    QCOMPARE(*parsed.profile, *loaded.profile);
}

void TestProfileFormat::bundledSeedProfileContents()
{
    // 8-node guide: 4 prefill nodes × 2 engines (TP 8, own master), 4 decode nodes × 16 engines (TP 1, master .5).
    const ProfileLoadResult loaded = loadProfileFile(sourcePath(QStringLiteral("resources/profiles/deepseek-r1-8node.json")));
    QVERIFY(loaded.profile.has_value());
    const Profile &p = *loaded.profile;
    QCOMPARE(p.nodes.size(), 8);
    QCOMPARE(p.engines(Role::Prefill).size(), 8);
    QCOMPARE(p.engines(Role::Decode).size(), 64);
    QCOMPARE(p.launchFlavor, LaunchFlavor::V091);
    QCOMPARE(p.proxy.port, 8000);
    QCOMPARE(p.proxy.generation, ProxyGeneration::V091Dev);
    for (int n = 0; n < 4; ++n) {
        const Node &node = p.nodes.at(n);
        QCOMPARE(node.role, Role::Prefill);
        QCOMPARE(node.address, QStringLiteral("192.0.0.%1").arg(n + 1));
        QCOMPARE(node.engineGroups.size(), 1);
        QCOMPARE(node.engineGroups.first().tpSize, 8);
        QCOMPARE(node.engineGroups.first().dpAddress, node.address);
    }
    for (int n = 4; n < 8; ++n) {
        const Node &node = p.nodes.at(n);
        QCOMPARE(node.role, Role::Decode);
        QCOMPARE(node.engineGroups.first().dpRankStart, (n - 4) * 16);
        QCOMPARE(node.engineGroups.first().dpAddress, QStringLiteral("192.0.0.5"));
        QCOMPARE(node.engineGroups.first().engineStartPort, 9000);
    }
    QCOMPARE(p.prefill.kvRole(), QStringLiteral("kv_producer"));
    QCOMPARE(p.decode.kvRole(), QStringLiteral("kv_consumer"));
    QCOMPARE(p.decode.kvPort(), 20001);
}

void TestProfileFormat::saveThenLoadGivesTheSameProfile()
{
    const ProfileLoadResult loaded = loadProfileFile(sourcePath(QStringLiteral("resources/profiles/deepseek-r1-8node.json")));
    QVERIFY(loaded.profile.has_value());
    Profile changed = *loaded.profile;
    changed.name = QStringLiteral("renamed");
    changed.nodes[5].ssh.jumpHost = QStringLiteral("ops@bastion.example.com:2222");
    changed.decode.env.append({QStringLiteral("HCCL_CONNECT_TIMEOUT"), QStringLiteral("7200")});
    changed.proxy.prefillInstances = {QStringLiteral("192.0.0.1:9000")};

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cluster.json"));
    QString error;
    QVERIFY2(saveProfileFile(changed, path, &error), qPrintable(error));
    const ProfileLoadResult reloaded = loadProfileFile(path);
    QVERIFY2(reloaded.profile.has_value(), qPrintable(describe(reloaded.errors)));
    QCOMPARE(*reloaded.profile, changed);
    QCOMPARE(readAll(path), serializeProfile(changed));
    // Nothing but the profile is left in the directory (no temporary files).
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("cluster.json")});
}

void TestProfileFormat::failedSaveLeavesTheOldFile()
{
    const ProfileLoadResult loaded = loadProfileFile(sourcePath(QStringLiteral("resources/profiles/demo-loopback.json")));
    QVERIFY(loaded.profile.has_value());
    Profile changed = *loaded.profile;
    changed.name = QStringLiteral("changed");

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A name that fits NAME_MAX (255) but leaves no room for the temporary file's suffix next to it: the
    // atomic save cannot create its temporary file, even as root, and must not touch the old file.
    const QString path = dir.filePath(QString(250, QLatin1Char('p')) + QStringLiteral(".json"));
    const QByteArray old("{\"the\": \"old profile\"}\n");
    QVERIFY(writeAll(path, old));
    QString error;
    QVERIFY(!saveProfileFile(changed, path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);

    // A directory that does not exist: an error, no crash, nothing created.
    const QString missing = dir.filePath(QStringLiteral("no/such/dir/cluster.json"));
    error.clear();
    QVERIFY(!saveProfileFile(changed, missing, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(missing));
}

void TestProfileFormat::badFiles_data()
{
    QTest::addColumn<QString>("file");     // under tests/data/profiles/bad
    QTest::addColumn<int>("line");         // 0: a schema error, located by pointer
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("message");  // a phrase the operator recognises

    auto syntax = [](const char *name, const char *file, int line, int column, const char *message) {
        QTest::newRow(name) << QString::fromLatin1(file) << line << column << QString() << QString::fromLatin1(message);
    };
    auto schema = [](const char *name, const char *file, const char *pointer, const char *message) {
        QTest::newRow(name) << QString::fromLatin1(file) << 0 << 0 << QString::fromLatin1(pointer)
                            << QString::fromUtf8(message);
    };
    // JSON syntax: FILE:LINE:COLUMN of the offending token. For a multi-byte token (a string where a comma
    // belongs, a byte sequence that is not UTF-8) the column is that of the token's last byte, as the parser
    // reports it; columns count bytes.
    syntax("truncated", "truncated.json", 9, 1, "unexpected end of input");
    syntax("trailing comma", "syntax-trailing-comma.json", 11, 49, "syntax error while parsing object key");
    syntax("missing comma", "syntax-missing-comma.json", 4, 8, "expected '}'");
    syntax("single quotes", "syntax-single-quotes.json", 4, 3, "invalid literal");
    syntax("garbage after the object", "syntax-trailing-garbage.json", 13, 1, "expected end of input");
    syntax("not UTF-8", "not-utf8.json", 4, 16, "ill-formed UTF-8 byte");
    syntax("empty file", "empty.json", 1, 1, "unexpected end of input; expected '[', '{', or a literal");
    // Structure and types.
    schema("top-level array", "top-level-array.json", "/", "expected an object, got an array");
    schema("name is a number", "type-name-integer.json", "/name", "expected a string, got an integer");
    schema("proxy is an array", "type-proxy-array.json", "/proxy", "expected an object, got an array");
    schema("npu_count as a string", "type-npu-count-string.json", "/nodes/1/npu_count", "expected an integer, got a string");
    schema("npu_count with a fraction", "type-npu-count-fraction.json", "/nodes/1/npu_count", "expected an integer, got 16.5");
    schema("env value is a number", "env-value-integer.json", "/roles/decode/env/HCCL_BUFFSIZE",
           "expected a string, got an integer (quote numbers: \"256\")");
    // Numbers too large (or small) for their field.
    schema("port 70000", "port-70000.json", "/proxy/port", "70000 is out of range (1..65535)");
    schema("port -1", "port-negative.json", "/proxy/port", "-1 is out of range (1..65535)");
    schema("port 0", "port-zero.json", "/proxy/port", "0 is out of range (1..65535)");
    schema("port 1e300", "port-1e300.json", "/proxy/port", "expected an integer, got 1e+300");
    schema("port 2^64", "port-2pow64.json", "/proxy/port", "expected an integer");
    schema("port 2^64-1", "port-2pow64-minus-1.json", "/proxy/port", "18446744073709551615 is out of range (1..65535)");
    schema("dp_size_local 100000", "dp-size-local-too-large.json", "/nodes/0/engine_groups/0/dp_size_local",
           "100000 is out of range (1..4096)");
    // Keys.
    schema("duplicate key, nested", "duplicate-nested.json", "/nodes/2/ssh/user", "duplicate key \"user\"");
    schema("duplicate key, top level", "duplicate-top.json", "/name", "duplicate key \"name\"");
    schema("unknown key (typo dp_sise)", "unknown-key-typo.json", "/nodes/0/engine_groups/0/dp_sise",
           "unknown key \"dp_sise\" (expected one of: dp_size, dp_size_local,");
    schema("unknown key, top level", "unknown-key-top.json", "/node_count", "unknown key \"node_count\"");
    schema("missing role", "missing-role.json", "/nodes/3", "missing required key \"role\"");
    schema("missing proxy", "missing-proxy.json", "/", "missing required key \"proxy\"");
    schema("missing proxy port", "missing-proxy-port.json", "/proxy", "missing required key \"port\"");
    // Enumerations.
    schema("role decoder", "enum-role.json", "/nodes/3/role", "expected \"prefill\" or \"decode\", got \"decoder\"");
    schema("NPU generation A5", "enum-npu-generation.json", "/nodes/1/npu_generation", "expected \"A2\" or \"A3\", got \"A5\"");
    schema("proxy generation v0.9.1", "enum-proxy-generation.json", "/proxy/generation",
           "expected \"v0.9.1-dev\" or \"main\", got \"v0.9.1\"");
    // Format tag and version.
    schema("format tag", "wrong-format-tag.json", "/format", "this is not a pdconsole profile");
    schema("version 2", "wrong-version.json", "/version", "format version 2 is not supported");
    schema("version as a string", "version-string.json", "/version", "expected an integer, got a string");
}

void TestProfileFormat::badFiles()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, pointer);
    QFETCH(QString, message);

    const QString path = sourcePath(QStringLiteral("tests/data/profiles/bad/")) + file;
    QVERIFY2(QFile::exists(path), qPrintable(path));
    const ProfileLoadResult result = loadProfileFile(path);
    QVERIFY2(!result.profile.has_value(), "a bad file must not load");
    QVERIFY(!result.errors.isEmpty());
    const ProfileError &first = result.errors.first();
    const QString shown = describe(result.errors);
    QCOMPARE(first.line, line);
    QCOMPARE(first.column, column);
    QCOMPARE(first.pointer, pointer);
    QVERIFY2(first.message.contains(message), qPrintable(shown));
    // The same bytes give the same first error when parsed from memory.
    const ProfileLoadResult fromMemory = parseProfile(readAll(path));
    QVERIFY(!fromMemory.errors.isEmpty());
    QCOMPARE(fromMemory.errors.first().format(QStringLiteral("FILE")), first.format(QStringLiteral("FILE")));
}

void TestProfileFormat::errorsAreFormattedForTheTerminal()
{
    const QString dir = sourcePath(QStringLiteral("tests/data/profiles/bad/"));
    const ProfileLoadResult role = loadProfileFile(dir + QStringLiteral("enum-role.json"));
    QCOMPARE(role.errors.size(), 1);
    QCOMPARE(role.errors.first().format(QStringLiteral("cluster.json")),
             QStringLiteral("cluster.json: /nodes/3/role: expected \"prefill\" or \"decode\", got \"decoder\""));

    const ProfileLoadResult comma = loadProfileFile(dir + QStringLiteral("syntax-trailing-comma.json"));
    QCOMPARE(comma.errors.size(), 1);
    QVERIFY2(comma.errors.first().format(QStringLiteral("cluster.json")).startsWith(QStringLiteral("cluster.json:11:49: ")),
             qPrintable(comma.errors.first().format(QStringLiteral("cluster.json"))));
    // The library's own exception prefix is not shown to the operator.
    QVERIFY(!comma.errors.first().message.contains(QStringLiteral("json.exception")));

    const ProfileLoadResult missing = loadProfileFile(dir + QStringLiteral("no-such-file.json"));
    QCOMPARE(missing.errors.size(), 1);
    QVERIFY2(missing.errors.first().message.contains(QStringLiteral("cannot open")), qPrintable(describe(missing.errors)));
}

void TestProfileFormat::tenMegabyteFileIsRefused()
{
    // A valid profile padded with whitespace to 10 MB: refused for its size before it is parsed.
    QByteArray bytes = readAll(sourcePath(QStringLiteral("tests/data/profiles/minimal.json")));
    QVERIFY(!bytes.isEmpty());
    QVERIFY(parseProfile(bytes).profile.has_value());
    bytes.append(QByteArray(10 * 1024 * 1024 - bytes.size(), ' '));
    QCOMPARE(bytes.size(), 10 * 1024 * 1024);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("huge.json"));
    QVERIFY(writeAll(path, bytes));
    for (const ProfileLoadResult &result : {loadProfileFile(path), parseProfile(bytes)}) {
        QVERIFY(!result.profile.has_value());
        QCOMPARE(result.errors.size(), 1);
        QCOMPARE(result.errors.first().line, 0);
        QVERIFY2(result.errors.first().message.contains(QStringLiteral("10.5 MB")), qPrintable(describe(result.errors)));
        QVERIFY2(result.errors.first().message.contains(QStringLiteral("at most 8 MB")), qPrintable(describe(result.errors)));
    }
    // Exactly at the cap still loads.
    QByteArray atCap = readAll(sourcePath(QStringLiteral("tests/data/profiles/minimal.json")));
    atCap.append(QByteArray(kMaxProfileBytes - atCap.size(), '\n'));
    QVERIFY(parseProfile(atCap).profile.has_value());
}

void TestProfileFormat::allSchemaProblemsAreReportedInOnePass()
{
    // An operator fixing a hand-written file sees every problem at once, not one per attempt.
    QByteArray bytes = readAll(sourcePath(QStringLiteral("tests/data/profiles/minimal.json")));
    bytes.replace("\"role\": \"decode\"}", "\"role\": \"decoder\"}");  // node 3
    bytes.replace("\"port\": 8000", "\"port\": 70000");
    bytes.replace("\"dp_size\": 1,", "\"dp_sise\": 1,");
    const ProfileLoadResult result = parseProfile(bytes);
    QVERIFY(!result.profile.has_value());
    QStringList pointers;
    for (const ProfileError &e : result.errors)
        pointers.append(e.pointer);
    QVERIFY2(pointers.contains(QStringLiteral("/nodes/0/engine_groups/0/dp_sise")), qPrintable(describe(result.errors)));
    QVERIFY2(pointers.contains(QStringLiteral("/nodes/0/engine_groups/0")), qPrintable(describe(result.errors)));
    QVERIFY2(pointers.contains(QStringLiteral("/nodes/3/role")), qPrintable(describe(result.errors)));
    QVERIFY2(pointers.contains(QStringLiteral("/proxy/port")), qPrintable(describe(result.errors)));
}

QTEST_GUILESS_MAIN(TestProfileFormat)
#include "tst_profileformat.moc"
