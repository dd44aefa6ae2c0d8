// SPDX-License-Identifier: MIT
// openai::promptOf, what pdsim reads of a completion or chat body to size the prefill and look up the
// prefix cache, on the bodies clients really send and on hostile ones: missing or mistyped fields,
// non-object messages, content parts without text, token-id and nested prompts, a 10 MB prompt and
// text that is not ASCII. It never throws and never counts a negative length.
#include "engine/openaiformat.h"

#include <QTest>

using pd::sim::openai::Json;
using pd::sim::openai::promptOf;

class TestOpenAiPrompt : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("chat");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<QByteArray>("text");

        // Completions: 4 UTF-8 bytes per token, rounded up.
        QTest::newRow("string prompt") << QByteArray(R"({"prompt":"abcdefgh"})") << false << 2 << QByteArray("abcdefgh");
        QTest::newRow("5 bytes round up") << QByteArray(R"({"prompt":"abcde"})") << false << 2 << QByteArray("abcde");
        QTest::newRow("non-ASCII counts bytes") << QByteArray(R"({"prompt":"你好"})") << false << 2 << QByteArray("你好");
        QTest::newRow("list of strings: the first") << QByteArray(R"({"prompt":["abcd","ignored"]})") << false << 1 << QByteArray("abcd");
        QTest::newRow("token ids") << QByteArray(R"({"prompt":[1,2,3]})") << false << 3 << QByteArray("[1,2,3]");
        QTest::newRow("nested token ids") << QByteArray(R"({"prompt":[[7,8]]})") << false << 2 << QByteArray("[7,8]");
        // Hostile completions: nothing to count, never a throw.
        QTest::newRow("no prompt") << QByteArray(R"({"model":"m"})") << false << 0 << QByteArray();
        QTest::newRow("null prompt") << QByteArray(R"({"prompt":null})") << false << 0 << QByteArray();
        QTest::newRow("numeric prompt") << QByteArray(R"({"prompt":1e308})") << false << 0 << QByteArray();
        QTest::newRow("object prompt") << QByteArray(R"({"prompt":{"a":1}})") << false << 0 << QByteArray();
        QTest::newRow("empty list") << QByteArray(R"({"prompt":[]})") << false << 0 << QByteArray();
        QTest::newRow("list of null") << QByteArray(R"({"prompt":[null]})") << false << 0 << QByteArray();
        QTest::newRow("empty nested list") << QByteArray(R"({"prompt":[[]]})") << false << 0 << QByteArray("[]");
        QTest::newRow("body is an array") << QByteArray(R"([1,2])") << false << 0 << QByteArray();
        // Chat: 4 template tokens per message, the texts joined by newlines.
        QTest::newRow("chat") << QByteArray(R"({"messages":[{"role":"user","content":"abcd"}]})") << true << 6 << QByteArray("abcd\n");
        QTest::newRow("chat content parts") << QByteArray(R"({"messages":[{"content":[{"type":"text","text":"ab"},{"type":"image_url"},{"text":"cd"}]}]})")
                                            << true << 6 << QByteArray("abcd\n");
        // Hostile chat.
        QTest::newRow("messages missing") << QByteArray(R"({"prompt":"abcd"})") << true << 0 << QByteArray();
        QTest::newRow("messages not a list") << QByteArray(R"({"messages":"abcd"})") << true << 0 << QByteArray();
        QTest::newRow("messages of every type") << QByteArray(R"({"messages":[1,"x",null,{"content":5},{"role":"user"}]})")
                                                << true << 21 << QByteArray("\n");
        QTest::newRow("content parts mistyped") << QByteArray(R"({"messages":[{"content":[1,{"text":2},"t"]}]})")
                                                << true << 5 << QByteArray("\n");
    }

    void bodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, chat);
        QFETCH(int, tokens);
        QFETCH(QByteArray, text);
        const Json parsed = Json::parse(body.constData(), body.constData() + body.size());
        const auto [gotTokens, gotText] = promptOf(parsed, chat);
        QCOMPARE(gotTokens, tokens);
        QCOMPARE(QByteArray::fromStdString(gotText), text);
    }

    void aTenMegabytePrompt()
    {
        const std::string big(10 * 1024 * 1024, 'x');
        const Json body = { { "prompt", big } };
        const auto [tokens, text] = promptOf(body, false);
        QCOMPARE(tokens, 10 * 1024 * 1024 / 4);
        QCOMPARE(text.size(), big.size());
    }
};

QTEST_GUILESS_MAIN(TestOpenAiPrompt)
#include "tst_openaiprompt.moc"
