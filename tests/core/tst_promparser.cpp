// SPDX-License-Identifier: MIT
// PromParser: good and bad lines with their values and error positions, agreement with Debian's
// python3-prometheus-client on the fixture expositions, and hostile input (truncation at every
// byte, random bytes, a 10 MB body, 1 MB lines, huge exponents).
#include "metrics/metricsextractor.h"
#include "metrics/promparser.h"
#include "testdata.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define PD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PD_ASAN 1
#endif
#endif
#if PD_ASAN
#include <sanitizer/asan_interface.h>
#endif

using namespace pd;

namespace {

struct Collected {
    std::string name;
    std::string labels; // "k=v;k=v" unescaped
    double value = 0;
    bool hasTimestamp = false;
    std::int64_t timestamp = 0;
};

struct Collect final : PromVisitor {
    std::vector<Collected> samples;
    std::vector<std::pair<std::string, std::string>> helps;
    std::vector<std::pair<std::string, PromType>> types;
    bool metadata = true;
    bool wantsMetadata() const override { return metadata; }
    void sample(const PromSample &s) override
    {
        Collected c;
        c.name = std::string(s.name);
        for (const PromLabel &l : s.labels) {
            if (!c.labels.empty())
                c.labels += ';';
            c.labels += std::string(l.name) + '=' + l.value();
        }
        c.value = s.value;
        c.hasTimestamp = s.hasTimestamp;
        c.timestamp = s.timestampMs;
        samples.push_back(std::move(c));
    }
    void help(std::string_view f, std::string_view t) override { helps.emplace_back(f, t); }
    void type(std::string_view f, PromType t) override { types.emplace_back(f, t); }
};

struct Count final : PromVisitor {
    std::size_t n = 0;
    double sum = 0;
    void sample(const PromSample &s) override
    {
        ++n;
        sum += s.labels.size();
        for (const PromLabel &l : s.labels)
            sum += double(l.rawValue.size());
    }
};

QByteArray readFixture(const char *name)
{
    return test::readTestData(QStringLiteral("metrics/") + QLatin1String(name));
}

std::string_view view(const QByteArray &b)
{
    return { b.constData(), std::size_t(b.size()) };
}

bool sameDouble(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Checks what every error must satisfy: a kind, a message, a position inside the body.
void checkErrorShape(const PromParser::Result &r, std::string_view body)
{
    QVERIFY(!r.ok());
    QVERIFY(r.error.line >= 1);
    QVERIFY(r.error.column >= 1);
    QVERIFY(r.error.offset <= body.size());
    QVERIFY(std::strlen(r.error.message) > 0);
}

// Any bytes: the parser ends with a result, a failed one well-formed, and the extractor ends too.
void parseAndExtract(std::string_view body)
{
    Count c;
    const auto r = PromParser::parse(body, c);
    if (!r.ok())
        checkErrorShape(r, body);
    EngineMetrics m;
    MetricsExtractor::extract(body, m);
}

} // namespace

Q_DECLARE_METATYPE(pd::PromErrorKind)

class TestPromParser final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void goodLine_data();
    void goodLine();
    void badLine_data();
    void badLine();
    void metadataAndComments();
    void eofMarker();
    void skipping();
    void labelsView();
    void valuesAgreeWithStrtod();
    void agreesWithPythonPrometheusClient_data();
    void agreesWithPythonPrometheusClient();
    void truncatedAtEveryOffset_data();
    void truncatedAtEveryOffset();
    void tenMegabyteBody();
    void oneMegabyteLines();
    void randomBytes();
    void mutatedSample();
};

void TestPromParser::goodLine_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("labels");
    QTest::addColumn<double>("value");
    QTest::addColumn<bool>("hasTimestamp");
    QTest::addColumn<qint64>("timestamp");

    auto row = [](const char *tag, const char *in, const char *name, const char *labels, double v, bool hasTs = false,
                   qint64 ts = 0) {
        QTest::newRow(tag) << QByteArray(in) << QByteArray(name) << QByteArray(labels) << v << hasTs << ts;
    };
    row("bare", "a 1\n", "a", "", 1);
    row("empty braces", "a{} 1\n", "a", "", 1);
    row("one label", "a{b=\"c\"} 1\n", "a", "b=c", 1);
    row("trailing comma", "a{b=\"c\",} 2\n", "a", "b=c", 2);
    row("blanks everywhere", "a { b = \"c\" , d=\"e\" } 3\n", "a", "b=c;d=e", 3);
    row("escapes", "a{b=\"x\\\\y\\\"z\\nw\"} 1\n", "a", "b=x\\y\"z\nw", 1);
    row("empty value", "a{b=\"\"} 1\n", "a", "b=", 1);
    row("utf8 value", "a{b=\"Gr\xc3\xbc\xc3\x9f\x65 \xe2\x9c\x93\"} 1\n", "a", "b=Gr\xc3\xbc\xc3\x9f\x65 \xe2\x9c\x93",
        1);
    row("colon name", "vllm:num_requests_running{engine=\"0\"} 41.0\n", "vllm:num_requests_running", "engine=0", 41);
    row("leading blank", "\t a 1\n", "a", "", 1);
    row("tab separated", "a\t1\n", "a", "", 1);
    row("crlf", "a{b=\"c\"} 1.5\r\n", "a", "b=c", 1.5);
    row("NaN", "a NaN\n", "a", "", kNaN);
    row("nan lower", "a nan\n", "a", "", kNaN);
    row("+Inf", "a +Inf\n", "a", "", kInf);
    row("-Inf", "a -Inf\n", "a", "", -kInf);
    row("Infinity", "a Infinity\n", "a", "", kInf);
    row("le +Inf", "a_bucket{le=\"+Inf\"} 7\n", "a_bucket", "le=+Inf", 7);
    row("repr", "a 0.6237384506949017\n", "a", "", 0.6237384506949017);
    row("17 digits", "a 1.1479812190686443e+06\n", "a", "", 1.1479812190686443e+06);
    row("go exponent", "a 2.097152e+06\n", "a", "", 2097152.0);
    row("3-digit exponent", "a 4.6261317632e+010\n", "a", "", 46261317632.0);
    row("huge exponent", "a 1e309\n", "a", "", kInf);
    row("huge negative", "a -1e999999999999\n", "a", "", -kInf);
    row("tiny exponent", "a 1e-400\n", "a", "", 0.0);
    row("0.000…1e400", "a 0.0000001e400\n", "a", "", kInf);
    row("max double", "a 1.7976931348623157e+308\n", "a", "", 1.7976931348623157e+308);
    row("denormal", "a 5e-324\n", "a", "", 5e-324);
    row("leading dot", "a .5\n", "a", "", 0.5);
    row("trailing dot", "a 5.\n", "a", "", 5.0);
    row("plus sign", "a +3\n", "a", "", 3.0);
    row("negative zero", "a -0.0\n", "a", "", -0.0);
    row("integer 2^63", "a 9223372036854775808\n", "a", "", 9223372036854775808.0);
    row("timestamp", "a 1 1700000000000\n", "a", "", 1, true, 1700000000000);
    row("negative timestamp", "a 1 -5\n", "a", "", 1, true, -5);
    row("exemplar", "a_bucket{le=\"1\"} 4 # {trace_id=\"x\"} 0.5 1.7e9\n", "a_bucket", "le=1", 4);
    row("exemplar after ts", "a 4 17 # {t=\"x\"} 0.5\n", "a", "", 4, true, 17);
    row("trailing blanks", "a 1   \n", "a", "", 1);
    row("no final newline after EOF", "a 1\n# EOF", "a", "", 1);
}

void TestPromParser::goodLine()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, labels);
    QFETCH(double, value);
    QFETCH(bool, hasTimestamp);
    QFETCH(qint64, timestamp);
    Collect c;
    const auto r = PromParser::parse(view(input), c);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(c.samples.size(), std::size_t(1));
    QCOMPARE(QByteArray::fromStdString(c.samples[0].name), name);
    QCOMPARE(QByteArray::fromStdString(c.samples[0].labels), labels);
    QVERIFY2(sameDouble(c.samples[0].value, value), qPrintable(QString::number(c.samples[0].value, 'g', 17)));
    QCOMPARE(c.samples[0].hasTimestamp, hasTimestamp);
    QCOMPARE(c.samples[0].timestamp, timestamp);
}

void TestPromParser::badLine_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<PromErrorKind>("kind");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    using K = PromErrorKind;
    auto row
        = [](const char *tag, QByteArray in, K k, int line, int col) { QTest::newRow(tag) << in << k << line << col; };
    row("digit first", "1a 1\n", K::InvalidMetricName, 1, 1);
    row("dash in name", "a-b 1\n", K::InvalidMetricName, 1, 2);
    row("quoted name", "{\"a.b\"} 1\n", K::InvalidMetricName, 1, 1);
    row("binary", QByteArray("\x00\x01 1\n", 5), K::InvalidMetricName, 1, 1);
    row("label digit first", "a{1=\"x\"} 1\n", K::InvalidLabelName, 1, 3);
    row("no equals", "a{b\"x\"} 1\n", K::ExpectedEquals, 1, 4);
    row("no quote", "a{b=x} 1\n", K::ExpectedQuote, 1, 5);
    row("unterminated value", "a{b=\"x} 1\n", K::UnterminatedLabelValue, 1, 10);
    row("backslash at end", "a{b=\"x\\\n", K::UnterminatedLabelValue, 1, 8);
    row("invalid escape", "a{b=\"x\\t\"} 1\n", K::InvalidEscape, 1, 7);
    row("no comma", "a{b=\"x\" c=\"y\"} 1\n", K::ExpectedCommaOrBrace, 1, 9);
    row("unclosed set", "ok 1\nbad{\n", K::ExpectedCommaOrBrace, 2, 5);
    row("bad utf8", "a{b=\"\xff\"} 1\n", K::InvalidUtf8, 1, 6);
    row("overlong utf8", "a{b=\"\xc0\xaf\"} 1\n", K::InvalidUtf8, 1, 6);
    row("no value", "a\n", K::MissingValue, 1, 2);
    row("no value after labels", "a{} \n", K::MissingValue, 1, 5);
    row("word value", "a abc\n", K::InvalidValue, 1, 3);
    row("two dots", "a 1.2.3\n", K::InvalidValue, 1, 3);
    row("hex", "a 0x10\n", K::InvalidValue, 1, 3);
    row("underscore", "a 1_000\n", K::InvalidValue, 1, 3);
    row("exponent without digits", "a 1e\n", K::InvalidValue, 1, 3);
    row("sign only", "a -\n", K::InvalidValue, 1, 3);
    row("nan payload", "a nan(1)\n", K::InvalidValue, 1, 3);
    row("value glued to exemplar", "a 1#x\n", K::InvalidValue, 1, 3);
    row("word timestamp", "a 1 abc\n", K::InvalidTimestamp, 1, 5);
    row("float timestamp", "a 1 1.5\n", K::InvalidTimestamp, 1, 5);
    row("timestamp overflow", "a 1 99999999999999999999\n", K::InvalidTimestamp, 1, 5);
    row("third token", "a 1 2 3\n", K::TrailingGarbage, 1, 7);
    row("truncated", "a 1\nb 2", K::MissingFinalNewline, 2, 4);
    row("truncated in labels", "a 1\nb{c=\"", K::MissingFinalNewline, 2, 6);
    row("truncated comment", "a 1\n# HEL", K::MissingFinalNewline, 2, 6);
    row("data after EOF", "a 1\n# EOF\nb 2\n", K::DataAfterEof, 3, 1);
    row("unknown type", "# TYPE a foo\n", K::InvalidMetadata, 1, 10);
    row("type without name", "# TYPE \n", K::InvalidMetadata, 1, 8);
    row("type trailing", "# TYPE a gauge x\n", K::InvalidMetadata, 1, 16);
    row("help bad name", "# HELP 1a x\n", K::InvalidMetadata, 1, 8);
    row("error on line 3", "a 1\r\nb 2\r\nc{d=e} 3\r\n", K::ExpectedQuote, 3, 5);
}

void TestPromParser::badLine()
{
    QFETCH(QByteArray, input);
    QFETCH(PromErrorKind, kind);
    QFETCH(int, line);
    QFETCH(int, column);
    Collect c;
    const auto r = PromParser::parse(view(input), c);
    QVERIFY(!r.ok());
    QCOMPARE(int(r.error.kind), int(kind));
    QCOMPARE(int(r.error.line), line);
    QCOMPARE(int(r.error.column), column);
    checkErrorShape(r, view(input));
    const std::string text = r.error.toString();
    QVERIFY2(
        text.rfind("line " + std::to_string(line) + ", column " + std::to_string(column) + ": ", 0) == 0, text.c_str());
}

void TestPromParser::metadataAndComments()
{
    const QByteArray body = "# HELP vllm:x_total Tokens \\\\ and a \\n newline.\n"
                            "# TYPE vllm:x_total counter\n"
                            "#comment\n"
                            "# random comment words\n"
                            "#\n"
                            "\n"
                            "   \n"
                            "vllm:x_total 3\n"
                            "# TYPE h histogram\n"
                            "# TYPE s summary\n"
                            "# TYPE u untyped\n"
                            "# TYPE g gauge\n"
                            "# TYPE i info\n";
    Collect c;
    const auto r = PromParser::parse(view(body), c);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(r.lines, std::size_t(13));
    QCOMPARE(c.samples.size(), std::size_t(1));
    QCOMPARE(c.helps.size(), std::size_t(1));
    QCOMPARE(c.helps[0].first, std::string("vllm:x_total"));
    QCOMPARE(c.helps[0].second, std::string("Tokens \\\\ and a \\n newline."));
    QCOMPARE(c.types.size(), std::size_t(6));
    QCOMPARE(int(c.types[0].second), int(PromType::Counter));
    QCOMPARE(int(c.types[1].second), int(PromType::Histogram));
    QCOMPARE(int(c.types[2].second), int(PromType::Summary));
    QCOMPARE(int(c.types[5].second), int(PromType::Info));
    QCOMPARE(PromParser::typeName(PromType::Histogram), std::string_view("histogram"));

    // Without metadata the same lines are skipped like comments (an unknown type is not seen).
    Collect quiet;
    quiet.metadata = false;
    const QByteArray odd = "# TYPE a foo\na 1\n";
    QVERIFY(PromParser::parse(view(odd), quiet).ok());
    QVERIFY(quiet.types.empty());
    QCOMPARE(quiet.samples.size(), std::size_t(1));
}

void TestPromParser::eofMarker()
{
    Collect c;
    const QByteArray body = "a 1\n# EOF\n\n  \r\n";
    const auto r = PromParser::parse(view(body), c);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(c.samples.size(), std::size_t(1));
    QCOMPARE(r.lines, std::size_t(2));
    const QByteArray crlf = "a 1\r\n# EOF\r\n";
    QVERIFY(PromParser::parse(view(crlf), c).ok());
    // An empty body is a valid (empty) exposition.
    Collect e;
    QVERIFY(PromParser::parse({}, e).ok());
    QVERIFY(e.samples.empty());
}

void TestPromParser::skipping()
{
    struct OnlyA final : PromVisitor {
        int seen = 0;
        bool wantsSample(std::string_view n) override { return n == "a"; }
        void sample(const PromSample &) override { ++seen; }
    } v;
    // A declined line is skipped after its name: what follows is not validated.
    const QByteArray body = "b{not valid at all 1\na 1\nc_created 1.7e9\na{x=\"y\"} 2\n";
    const auto r = PromParser::parse(view(body), v);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(v.seen, 2);
    QCOMPARE(r.samples, std::size_t(2));
    QCOMPARE(r.skipped, std::size_t(2));
    // ...but the name itself is, and so is truncation.
    QCOMPARE(int(PromParser::parse("1b 1\n", v).error.kind), int(PromErrorKind::InvalidMetricName));
    QCOMPARE(int(PromParser::parse("a 1\nb 1", v).error.kind), int(PromErrorKind::MissingFinalNewline));
}

void TestPromParser::labelsView()
{
    struct Grab final : PromVisitor {
        PromSample s;
        std::string copy;
        void sample(const PromSample &x) override { s = x; }
    } g;
    const QByteArray body = "m{ engine = \"0\" ,le=\"2.097152e+06\",q=\"a\\\"b\\\\c\\nd\",} 1\n";
    QVERIFY(PromParser::parse(view(body), g).ok());
    QCOMPARE(g.s.labels.size(), 3u);
    QCOMPARE(g.s.labels.raw(), std::string_view(" engine = \"0\" ,le=\"2.097152e+06\",q=\"a\\\"b\\\\c\\nd\","));
    std::vector<std::string> names;
    for (const PromLabel &l : g.s.labels)
        names.emplace_back(l.name);
    QCOMPARE(names, (std::vector<std::string> { "engine", "le", "q" }));
    const PromLabel le = g.s.labels.find("le");
    QCOMPARE(le.rawValue, std::string_view("2.097152e+06"));
    QVERIFY(!le.escaped);
    double bound = 0;
    QVERIFY(PromParser::parseValue(le.rawValue, bound));
    QCOMPARE(bound, 2097152.0);
    const PromLabel q = g.s.labels.find("q");
    QVERIFY(q.escaped);
    QCOMPARE(q.value(), std::string("a\"b\\c\nd"));
    QVERIFY(q.valueEquals("a\"b\\c\nd"));
    QVERIFY(!q.valueEquals("a\"b\\c\n"));
    QVERIFY(!q.valueEquals("a\"b\\c\nde"));
    QVERIFY(g.s.labels.find("missing").name.empty());
    QVERIFY(g.s.labels.find("engine").valueEquals("0"));
    // A PromLabels over arbitrary text never reads outside it.
    const char junk[] = "=\"\\";
    int n = 0;
    for (const PromLabel &l : PromLabels(std::string_view(junk, 3), 1)) {
        (void)l;
        QVERIFY(++n < 10);
    }
}

void TestPromParser::valuesAgreeWithStrtod()
{
    // The fast path (Clinger) and the from_chars fallback must give strtod's correctly rounded
    // double for every decimal form prometheus_client prints and then some.
    QRandomGenerator rng(42);
    char buf[64];
    for (int i = 0; i < 200000; ++i) {
        const int form = int(rng.bounded(4));
        const double mant = rng.generateDouble() * std::pow(10.0, int(rng.bounded(40)) - 20);
        int len = 0;
        switch (form) {
        case 0:
            len = std::snprintf(buf, sizeof buf, "%.*g", int(rng.bounded(1, 18)), mant);
            break;
        case 1:
            len = std::snprintf(buf, sizeof buf, "%.*f", int(rng.bounded(0, 20)), mant);
            break;
        case 2:
            len = std::snprintf(buf, sizeof buf, "%.*e", int(rng.bounded(0, 17)), mant);
            break;
        default:
            len = std::snprintf(buf, sizeof buf, "%llu.%0*d",
                static_cast<unsigned long long>(rng.generate64()) >> rng.bounded(64), int(rng.bounded(1, 4)), 0);
        }
        double ours = 0;
        QVERIFY2(PromParser::parseValue(std::string_view(buf, std::size_t(len)), ours), buf);
        const double ref = std::strtod(buf, nullptr);
        if (!sameDouble(ours, ref))
            QFAIL(qPrintable(QStringLiteral("%1: %2 != strtod %3")
                                 .arg(QString::fromLatin1(buf))
                                 .arg(ours, 0, 'g', 17)
                                 .arg(ref, 0, 'g', 17)));
    }
}

void TestPromParser::agreesWithPythonPrometheusClient_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::newRow("0.9.1") << QByteArray("sample-vllm-metrics");
    QTest::newRow("main") << QByteArray("sample-vllm-metrics-main");
    QTest::newRow("edge cases") << QByteArray("edge-cases");
}

void TestPromParser::agreesWithPythonPrometheusClient()
{
    // The reference is what Debian's python3-prometheus-client 0.16 reads from the same file
    // (tests/data/metrics/gen_reference.py, committed: CI need not have Python).
    QFETCH(QByteArray, file);
    const QByteArray body = readFixture(QByteArray(file + ".txt").constData());
    const QByteArray ref = readFixture(QByteArray(file + ".reference.jsonl").constData());
    Collect c;
    const auto r = PromParser::parse(view(body), c);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    const QList<QByteArray> lines = ref.trimmed().split('\n');
    QCOMPARE(c.samples.size(), std::size_t(lines.size()));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const auto j = nlohmann::ordered_json::parse(lines[i].toStdString());
        const Collected &s = c.samples[std::size_t(i)];
        QCOMPARE(s.name, j[0].get<std::string>());
        std::string labels;
        for (const auto &[k, v] : j[1].items()) {
            if (!labels.empty())
                labels += ';';
            labels += k + '=' + v.get<std::string>();
        }
        QCOMPARE(s.labels, labels);
        const std::string repr = j[2].get<std::string>();
        const double expected = repr == "nan" ? kNaN
            : repr == "inf"                   ? kInf
            : repr == "-inf"                  ? -kInf
                                              : std::strtod(repr.c_str(), nullptr);
        QVERIFY2(sameDouble(s.value, expected), qPrintable(QString::fromStdString(s.name + " " + repr)));
    }
}

void TestPromParser::truncatedAtEveryOffset_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::newRow("0.9.1") << QByteArray("sample-vllm-metrics.txt");
    QTest::newRow("main") << QByteArray("sample-vllm-metrics-main.txt");
}

void TestPromParser::truncatedAtEveryOffset()
{
    // A body cut at any byte either parses (the cut fell on a line end) or says where it broke.
    // Under ASan the bytes past the prefix are poisoned, so any read past the end is reported.
    QFETCH(QByteArray, file);
    const QByteArray full = readFixture(file.constData());
    std::vector<char> buffer(full.begin(), full.end());
    std::size_t okCount = 0;
    for (qsizetype n = full.size(); n >= 0; --n) {
#if PD_ASAN
        __asan_poison_memory_region(buffer.data() + n, buffer.size() - std::size_t(n));
#endif
        const std::string_view body(buffer.data(), std::size_t(n));
        Count c;
        const auto r = PromParser::parse(body, c);
        const bool atLineEnd = n == 0 || full[n - 1] == '\n';
        if (r.ok() != atLineEnd)
            QFAIL(qPrintable(
                QStringLiteral("prefix of %1 bytes: %2").arg(n).arg(QString::fromStdString(r.error.toString()))));
        if (!r.ok()) {
            checkErrorShape(r, body);
            QCOMPARE(int(r.error.kind), int(PromErrorKind::MissingFinalNewline));
        } else {
            ++okCount;
        }
        if (n % 4 != 0 && !atLineEnd)
            continue; // the extractor on a quarter of the offsets keeps the test fast under ASan
        EngineMetrics m;
        const auto x = MetricsExtractor::extract(body, m);
        QCOMPARE(x.ok(), atLineEnd);
        if (!x.ok())
            QVERIFY(std::isnan(m.running) && m.histogram(Histogram::Ttft).bucketCount == 0);
    }
#if PD_ASAN
    __asan_unpoison_memory_region(buffer.data(), buffer.size());
#endif
    QCOMPARE(okCount, std::size_t(full.count('\n') + 1));
}

void TestPromParser::tenMegabyteBody()
{
    const QByteArray one = readFixture("sample-vllm-metrics.txt");
    QByteArray big;
    const int copies = int(10 * 1024 * 1024 / one.size()) + 1;
    big.reserve(qsizetype(copies) * one.size());
    for (int i = 0; i < copies; ++i)
        big += one;
    QVERIFY(big.size() > 10 * 1024 * 1024);
    Count c;
    const auto r = PromParser::parse(view(big), c);
    QVERIFY2(r.ok(), r.error.toString().c_str());
    QCOMPARE(c.n, std::size_t(copies) * 373);
    QCOMPARE(r.lines, std::size_t(copies) * 513);
    EngineMetrics m;
    const auto x = MetricsExtractor::extract(view(big), m);
    QVERIFY(x.ok());
    QCOMPARE(m.running, 41.0 * copies); // every copy counts as one more engine's samples, summed
}

void TestPromParser::oneMegabyteLines()
{
    // No line length limit: a 1 MB label value, a 1 MB name, a 1 MB run of garbage.
    const std::string mb(1 << 20, 'x');
    {
        const std::string body = "a{b=\"" + mb + "\"} 1\n";
        Collect c;
        const auto r = PromParser::parse(body, c);
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(c.samples.at(0).labels.size(), mb.size() + 2);
    }
    {
        const std::string body = "n" + mb + " 2\n";
        Count c;
        QVERIFY(PromParser::parse(body, c).ok());
        QCOMPARE(c.n, std::size_t(1));
    }
    {
        const std::string body = "a{b=\"" + mb; // unterminated, no newline
        Count c;
        const auto r = PromParser::parse(body, c);
        QCOMPARE(int(r.error.kind), int(PromErrorKind::MissingFinalNewline));
        QCOMPARE(r.error.column, body.size() + 1);
    }
    {
        const std::string body = "a{b=\"" + mb + "\n";
        Count c;
        const auto r = PromParser::parse(body, c);
        QCOMPARE(int(r.error.kind), int(PromErrorKind::UnterminatedLabelValue));
        QCOMPARE(r.error.column, body.size());
    }
    {
        const std::string body = "a " + std::string(1 << 20, '9') + "\n"; // a million-digit number
        Collect c;
        QVERIFY(PromParser::parse(body, c).ok());
        QCOMPARE(c.samples.at(0).value, kInf);
    }
    {
        const std::string body = std::string(1 << 20, '\xff') + "\n";
        Count c;
        const auto r = PromParser::parse(body, c);
        QCOMPARE(int(r.error.kind), int(PromErrorKind::InvalidMetricName));
        QCOMPARE(r.error.column, std::size_t(1));
    }
}

void TestPromParser::randomBytes()
{
    QRandomGenerator rng(7);
    static const char alphabet[] = "ab_:{}=\",\\n #\t\r\n019.e+-EOFHELPTYPInfa";
    for (int i = 0; i < 20000; ++i) {
        std::vector<char> body(rng.bounded(0, 300));
        const bool structured = i % 2;
        for (char &ch : body)
            ch = structured ? alphabet[rng.bounded(int(sizeof alphabet - 1))] : char(rng.bounded(256));
        parseAndExtract(std::string_view(body.data(), body.size()));
    }
}

void TestPromParser::mutatedSample()
{
    // Single-byte mutations of a real body: never a crash, always a well-formed result.
    const QByteArray full = readFixture("sample-vllm-metrics-main.txt");
    QRandomGenerator rng(11);
    static const char specials[] = "{}=\",\\\n #\x80\xff";
    for (int i = 0; i < 1000; ++i) {
        std::vector<char> body(full.begin(), full.end());
        const int edits = int(rng.bounded(1, 4));
        for (int k = 0; k < edits; ++k)
            body[rng.bounded(int(body.size()))] = specials[rng.bounded(int(sizeof specials - 1))];
        parseAndExtract(std::string_view(body.data(), body.size()));
    }
}

QTEST_GUILESS_MAIN(TestPromParser)
#include "tst_promparser.moc"
