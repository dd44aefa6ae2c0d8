// SPDX-License-Identifier: MIT
#include "cluster/shellwords.h"

#include <QTest>

using namespace pd;

class TestShellWords final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void split_data();
    void split();
    void errors_data();
    void errors();
};

void TestShellWords::split_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");

    auto w = [](std::initializer_list<const char *> list) {
        QStringList out;
        for (const char *s : list)
            out.append(QString::fromUtf8(s));
        return out;
    };
    QTest::newRow("empty") << QString() << QStringList();
    QTest::newRow("only blanks") << QStringLiteral(" \t \n ") << QStringList();
    QTest::newRow("plain words, runs of blanks") << QStringLiteral("  python  proxy.py\t--port 8000 ") << w({"python", "proxy.py", "--port", "8000"});
    QTest::newRow("single quotes keep everything") << QStringLiteral("'a b' '$(x) \\n \"q\"'") << w({"a b", "$(x) \\n \"q\""});
    QTest::newRow("double quotes") << QStringLiteral("\"a b\" \"it's\"") << w({"a b", "it's"});
    QTest::newRow("double quotes: \\\" \\\\ \\$ \\` are escapes")
        << QStringLiteral("\"\\\" \\\\ \\$ \\`\"") << w({"\" \\ $ `"});
    QTest::newRow("double quotes: other backslashes stay") << QStringLiteral("\"a\\nb\"") << w({"a\\nb"});
    QTest::newRow("empty quotes make an empty word") << QStringLiteral("a '' \"\" b") << w({"a", "", "", "b"});
    QTest::newRow("quotes join with neighbours") << QStringLiteral("--x='{\"a\": 1}'tail") << w({"--x={\"a\": 1}tail"});
    QTest::newRow("backslash escapes a blank") << QStringLiteral("a\\ b c") << w({"a b", "c"});
    QTest::newRow("backslash escapes a quote") << QStringLiteral("it\\'s") << w({"it's"});
    QTest::newRow("backslash-newline continues the line") << QStringLiteral("a \\\n  b \\\n c") << w({"a", "b", "c"});
    QTest::newRow("backslash-CRLF continues the line (pasted from Windows)") << QStringLiteral("a \\\r\n  b") << w({"a", "b"});
    QTest::newRow("continuation right after a word joins with the next line")
        << QStringLiteral("2 2 2 2\\\n--decoder-hosts") << w({"2", "2", "2", "2--decoder-hosts"});
    QTest::newRow("continuation after a word, next line indented (the 8-node guide)")
        << QStringLiteral("2 2 2 2\\\n    --decoder-hosts") << w({"2", "2", "2", "2", "--decoder-hosts"});
    QTest::newRow("continuation inside double quotes") << QStringLiteral("\"a\\\nb\"") << w({"ab"});
    QTest::newRow("no expansion of any kind") << QStringLiteral("$HOME ~ * $(id) `id` ;") << w({"$HOME", "~", "*", "$(id)", "`id`", ";"});
    QTest::newRow("kv-transfer-config JSON in single quotes")
        << QStringLiteral("--kv-transfer-config \\\n '{\"kv_connector\": \"MooncakeConnectorV1\", \"kv_port\": \"20001\"}'")
        << w({"--kv-transfer-config", "{\"kv_connector\": \"MooncakeConnectorV1\", \"kv_port\": \"20001\"}"});
    QTest::newRow("non-ASCII survives") << QStringLiteral("节点 'é'") << w({"节点", "é"});
}

void TestShellWords::split()
{
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    QString error;
    const auto result = splitShellWords(text, &error);
    QVERIFY2(result.has_value(), qPrintable(error));
    QCOMPARE(*result, words);
    QVERIFY(error.isEmpty());
}

void TestShellWords::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("unterminated single quote") << QStringLiteral("--hosts 'a b") << QStringLiteral("unterminated single quote starting at character 9");
    QTest::newRow("unterminated double quote") << QStringLiteral("a \"b") << QStringLiteral("unterminated double quote starting at character 3");
    QTest::newRow("escaped closing quote leaves it open") << QStringLiteral("\"a\\\"") << QStringLiteral("unterminated double quote starting at character 1");
    QTest::newRow("quote opened on a continued line") << QStringLiteral("a \\\n 'b") << QStringLiteral("unterminated single quote starting at character 6");
}

void TestShellWords::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    QString message;
    QVERIFY(!splitShellWords(text, &message).has_value());
    QCOMPARE(message, error);
    // A null error pointer is allowed.
    QVERIFY(!splitShellWords(text, nullptr).has_value());
}

QTEST_GUILESS_MAIN(TestShellWords)
#include "tst_shellwords.moc"
