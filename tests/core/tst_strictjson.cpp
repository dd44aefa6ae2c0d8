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
