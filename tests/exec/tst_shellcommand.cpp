// SPDX-License-Identifier: MIT
// The one quoting function and the command builder: every hostile value, run through a real /bin/sh
// (dash here) via LocalRunner, arrives as exactly one literal argument, and nothing is executed.
#include "exec/localrunner.h"
#include "exec/shellcommand.h"

#include "metacharacters.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;

class TestShellCommand : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    pd::LocalRunner m_runner;

    QString canary() const { return m_dir.filePath(QStringLiteral("CANARY")); }

    // Runs `printf '%s\0' WORDS` and returns the words the shell passed to printf.
    QList<QByteArray> argumentsSeen(const pd::ShellCommand &command)
    {
        const pd::CommandResult result = m_runner.run(pd::CommandTarget(), command.line(), 10s);
        if (!result.ok()) {
            qWarning() << "command failed:" << result.error << result.err << command.line();
            return {};
        }
        QList<QByteArray> seen = result.out.split('\0');
        if (!seen.isEmpty() && seen.last().isEmpty())
            seen.removeLast();
        return seen;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Globs must not match anything surprising either: run in a directory with files in it.
        QVERIFY(QDir::setCurrent(m_dir.path()));
        QFile(m_dir.filePath(QStringLiteral("a-file"))).open(QIODevice::WriteOnly);
    }

    void oneWordArrivesLiterally_data()
    {
        QTest::addColumn<QString>("value");
        const auto values = pdtest::metacharacterValues(canary());
        for (const auto &[name, value] : values)
            QTest::newRow(name) << value;
        QTest::newRow("empty") << QString();
    }

    void oneWordArrivesLiterally()
    {
        QFETCH(QString, value);
        pd::ShellCommand command;
        command.syntax("printf '%s\\0'").word(QStringLiteral("value"), value);
        QVERIFY2(command.isValid(), qPrintable(command.error()));
        const QList<QByteArray> seen = argumentsSeen(command);
        QCOMPARE(seen.size(), 1);
        QCOMPARE(QString::fromUtf8(seen.first()), value);
        QVERIFY2(!QFile::exists(canary()), "a metacharacter was executed by the shell");

        // The minimal quoting used in generated scripts is just as safe.
        const pd::CommandResult r
            = m_runner.run(pd::CommandTarget(), "printf '%s\\0' " + pd::quoteShellWordIfNeeded(value), 10s);
        QVERIFY(r.ok());
        QCOMPARE(QString::fromUtf8(r.out), value + QChar(0));
        QVERIFY(!QFile::exists(canary()));
    }

    void plainWordsStayBare()
    {
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("--enable-expert-parallel")),
            QByteArray("--enable-expert-parallel"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("expandable_segments:True")),
            QByteArray("expandable_segments:True"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("vllm-ascend/DeepSeek-R1-W8A8")),
            QByteArray("vllm-ascend/DeepSeek-R1-W8A8"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("~root")), QByteArray("'~root'"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("=x")), QByteArray("'=x'"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QString()), QByteArray("''"));
        QCOMPARE(pd::quoteShellWordIfNeeded(QStringLiteral("it's")), QByteArray("'it'\\''s'"));
    }

    void everyValueInOneCommandStaysItsOwnWord()
    {
        const auto values = pdtest::metacharacterValues(canary());
        QStringList expected;
        for (const auto &[name, value] : values)
            expected << value;
        pd::ShellCommand command;
        command.syntax("printf '%s\\0'").words(QStringLiteral("values"), expected);
        const QList<QByteArray> seen = argumentsSeen(command);
        QCOMPARE(seen.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i)
            QCOMPARE(QString::fromUtf8(seen.at(i)), expected.at(i));
        QVERIFY(!QFile::exists(canary()));
    }

    void gluedWordJoinsTheOption()
    {
        pd::ShellCommand command;
        command.syntax("printf '%s\\0'").syntax("--model=").gluedWord(QStringLiteral("model"), QStringLiteral("a b;c"));
        const QList<QByteArray> seen = argumentsSeen(command);
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.first(), QByteArray("--model=a b;c"));
    }

    void nulBytesAreRefusedNamingTheField()
    {
        pd::ShellCommand command;
        command.syntax("echo").word(
            QStringLiteral("node d1 model_path"), QStringLiteral("a") + QChar(0) + QStringLiteral("b"));
        QVERIFY(!command.isValid());
        QVERIFY2(command.error().contains(QLatin1String("node d1 model_path")), qPrintable(command.error()));
        QVERIFY(command.error().contains(QLatin1String("NUL")));
        // Later fields do not clear the first error.
        command.word(QStringLiteral("other"), QStringLiteral("fine"));
        QVERIFY(!command.isValid());
        QVERIFY(command.error().contains(QLatin1String("model_path")));
    }

    void unpairedSurrogatesAreRefused()
    {
        pd::ShellCommand command;
        command.word(QStringLiteral("env value"), QString(QChar(0xD800)));
        QVERIFY(!command.isValid());
        QVERIFY(command.error().contains(QLatin1String("env value")));
    }

    void variableNamesAreValidated_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("OPENAI_API_KEY") << true;
        QTest::newRow("underscore-first") << QStringLiteral("_KEY1") << true;
        QTest::newRow("digit-first") << QStringLiteral("1KEY") << false;
        QTest::newRow("substitution") << QStringLiteral("A$(touch x)") << false;
        QTest::newRow("brace") << QStringLiteral("A}") << false;
        QTest::newRow("empty") << QString() << false;
    }

    void variableNamesAreValidated()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        pd::ShellCommand command;
        command.syntax("printf '%s\\0'").variable(QStringLiteral("api_key_env"), name);
        QCOMPARE(command.isValid(), valid);
        if (!valid) {
            QVERIFY(command.error().contains(QLatin1String("api_key_env")));
            return;
        }
        qputenv(name.toLatin1().constData(), "sec ret;$(x)");
        const QList<QByteArray> seen = argumentsSeen(command);
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.first(), QByteArray("sec ret;$(x)"));
    }

    void hereDocumentBodyArrivesVerbatim()
    {
        QByteArray body;
        const auto values = pdtest::metacharacterValues(canary());
        for (const auto &[name, value] : values)
            body += value.toUtf8() + '\n';
        const QString target = m_dir.filePath(QStringLiteral("it's here;.txt"));
        pd::ShellCommand command;
        command.syntax("cat >")
            .word(QStringLiteral("target"), target)
            .hereDocument(QStringLiteral("body"), body, "PDCONSOLE_EOF");
        command.syntax("&& echo written");
        QVERIFY2(command.isValid(), qPrintable(command.error()));
        const pd::CommandResult result = m_runner.run({}, command.line(), 10s);
        QVERIFY2(result.ok(), result.err.constData());
        QCOMPARE(result.out, QByteArray("written\n"));
        QFile file(target);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), body);
        QVERIFY(!QFile::exists(canary()));
    }

    void hereDocumentRefusesItsEndMarker()
    {
        pd::ShellCommand command;
        command.syntax("cat").hereDocument(QStringLiteral("script"), "line\nEOF\nmore\n", "EOF");
        QVERIFY(!command.isValid());
        QVERIFY(command.error().contains(QLatin1String("script")));
    }
};

QTEST_GUILESS_MAIN(TestShellCommand)
#include "tst_shellcommand.moc"
