// SPDX-License-Identifier: MIT
// The strict JSON reader on big objects: many keys keep their order and every value, and a duplicate is
// still found (and named) when it is the last of 80,000 keys. bench_strictjson measures the speed.
#include "cluster/strictjson.h"

#include <QTest>

using namespace pd;

namespace {

QByteArray objectWithKeys(int count, const QByteArray &extra = {})
{
    QByteArray text = "{\"outer\": {";
    for (int i = 0; i < count; ++i) {
        if (i)
            text += ',';
        text += "\"key" + QByteArray::number(i) + "\": [" + QByteArray::number(i) + ", {\"v\": true}]";
    }
    text += extra + "}}";
    return text;
}

} // namespace

class TestStrictJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void manyKeysKeepOrderAndValues()
    {
        const StrictJsonResult r = parseStrictJson(objectWithKeys(80000));
        QVERIFY2(r.ok, qPrintable(r.message));
        const auto &outer = r.value.at("outer");
        QCOMPARE(int(outer.size()), 80000);
        int i = 0;
        for (const auto &[key, value] : outer.items()) {
            QCOMPARE(QString::fromStdString(key), QStringLiteral("key%1").arg(i));
            QCOMPARE(value.at(0).get<int>(), i);
            QVERIFY(value.at(1).at("v").get<bool>());
            ++i;
        }
        // Lookups on the built object still work (the members were appended behind ordered_map's back).
        QCOMPARE(outer.at("key79999").at(0).get<int>(), 79999);
        QVERIFY(outer.contains("key40000"));
        QVERIFY(!outer.contains("key80000"));
    }

    void duplicateAfterManyKeysIsNamed()
    {
        const StrictJsonResult r = parseStrictJson(objectWithKeys(80000, ", \"key123\": 1"));
        QVERIFY(!r.ok);
        QCOMPARE(r.pointer, QStringLiteral("/outer/key123"));
        QVERIFY2(r.message.contains(QLatin1String("duplicate key \"key123\"")), qPrintable(r.message));
    }

    // Outside input that is not JSON, or JSON at its limits: always a clear error (with a line and column)
    // or a value, never a crash or a hang.
    void hostileInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("truncated object") << QByteArray("{\"a\": {\"b\": [1, 2") << false;
        QTest::newRow("truncated string") << QByteArray("{\"a\": \"abc") << false;
        QTest::newRow("bad UTF-8 in a string") << QByteArray("{\"a\": \"\xff\xfe\"}") << false;
        QTest::newRow("bad UTF-8 in a key") << QByteArray("{\"\xc3\x28\": 1}") << false;
        QTest::newRow("NaN") << QByteArray(R"({"a": NaN})") << false;
        QTest::newRow("Infinity") << QByteArray(R"({"a": Infinity})") << false;
        QTest::newRow("1e999") << QByteArray(R"({"a": 1e999})") << false;
        QTest::newRow("integer past 64 bits") << QByteArray(R"({"a": 123456789012345678901234567890})") << true;
        QTest::newRow("NUL inside") << QByteArray("{\"a\": 1}\0{\"b\": 2}", 18) << false;
        QTest::newRow("trailing garbage") << QByteArray(R"({"a": 1} x)") << false;
        QTest::newRow("10 MB string") << (QByteArray("{\"a\": \"") + QByteArray(10 * 1024 * 1024, 'x') + "\"}") << true;
        QTest::newRow("10 MB of one line of garbage") << QByteArray(10 * 1024 * 1024, '{') << false;
        QTest::newRow("100k nested arrays") << (QByteArray(100000, '[') + QByteArray(100000, ']')) << true;
    }

    void hostileInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        const StrictJsonResult r = parseStrictJson(text);
        QCOMPARE(r.ok, ok);
        if (!ok) {
            QVERIFY(!r.message.isEmpty());
            QVERIFY(r.line >= 1 || !r.pointer.isEmpty());
        }
    }

    void sameKeyInSiblingObjectsIsFine()
    {
        const StrictJsonResult r = parseStrictJson(R"({"a": {"x": 1, "y": {"x": 2}}, "b": {"x": 3}, "c": [{"x": 1}, {"x": 2}]})");
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(r.value.at("b").at("x").get<int>(), 3);
        const StrictJsonResult dup = parseStrictJson(R"({"c": [{"x": 1}, {"x": 2, "x": 3}]})");
        QVERIFY(!dup.ok);
        QCOMPARE(dup.pointer, QStringLiteral("/c/1/x"));
    }
};

QTEST_GUILESS_MAIN(TestStrictJson)
#include "tst_strictjson.moc"
