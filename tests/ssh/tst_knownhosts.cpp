// SPDX-License-Identifier: MIT
// pdconsole's known_hosts reader: patterns, ports, hashed names, @revoked, lines of any length, changed
// and other-type keys, and atomic appends that keep the old bytes.
#include "ssh/knownhosts.h"

#include <QFile>
#include <QMessageAuthenticationCode>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace pd;

namespace {

const QByteArray kType = "ssh-ed25519";
const QByteArray kKey = "AAAAC3NzaC1lZDI1NTE5AAAAIGm0cmFpbmVkLWtleS1vbmUtZm9yLXRlc3RzLW9ubHkx";
const QByteArray kOtherKey = "AAAAC3NzaC1lZDI1NTE5AAAAIG90aGVyLWtleS10d28tZm9yLXRlc3RzLW9ubHktMTIz";

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(content);
    return path;
}

QByteArray read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray hashedName(const QString &name, const QByteArray &salt)
{
    return "|1|" + salt.toBase64() + '|'
        + QMessageAuthenticationCode::hash(name.toUtf8(), salt, QCryptographicHash::Sha1).toBase64();
}

} // namespace

class TestKnownHosts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void patterns()
    {
        QVERIFY(knownHostPatternMatches("10.0.0.1", QStringLiteral("10.0.0.1")));
        QVERIFY(!knownHostPatternMatches("10.0.0.1", QStringLiteral("10.0.0.11")));
        QVERIFY(knownHostPatternMatches("a,10.0.0.*", QStringLiteral("10.0.0.17")));
        QVERIFY(knownHostPatternMatches("NODE?", QStringLiteral("node7")));
        QVERIFY(!knownHostPatternMatches("10.0.0.*,!10.0.0.9", QStringLiteral("10.0.0.9")));
        QVERIFY(knownHostPatternMatches("[127.0.0.2]:2222", QStringLiteral("[127.0.0.2]:2222")));
        QVERIFY(!knownHostPatternMatches("127.0.0.2", QStringLiteral("[127.0.0.2]:2222")));
        QVERIFY(knownHostPatternMatches(hashedName(QStringLiteral("[10.1.2.3]:2200"), "0123456789abcdefghij"),
                                        QStringLiteral("[10.1.2.3]:2200")));
        QVERIFY(!knownHostPatternMatches(hashedName(QStringLiteral("10.1.2.3"), "0123456789abcdefghij"),
                                         QStringLiteral("10.1.2.4")));
        QCOMPARE(knownHostName(QStringLiteral("h"), 22), QStringLiteral("h"));
        QCOMPARE(knownHostName(QStringLiteral("h"), 2222), QStringLiteral("[h]:2222"));
    }

    void verdicts()
    {
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("kh"),
            "# comment\n"
            "\n"
            "10.0.0.1 " + kType + ' ' + kKey + "\n"
            "10.0.0.2 " + kType + ' ' + kOtherKey + "\n"
            "10.0.0.3 ecdsa-sha2-nistp256 AAAAE2VjZHNh\n"
            "@cert-authority * " + kType + ' ' + kKey + "\n");
        const QStringList files{path, dir.filePath(QStringLiteral("missing-global"))};
        QCOMPARE(checkKnownHost(files, QStringLiteral("10.0.0.1"), 22, kType, kKey).verdict, KnownHostVerdict::Known);
        const KnownHostCheck changed = checkKnownHost(files, QStringLiteral("10.0.0.2"), 22, kType, kKey);
        QCOMPARE(changed.verdict, KnownHostVerdict::Changed);
        QCOMPARE(changed.file, path);
        QCOMPARE(changed.line, 4);
        QCOMPARE(checkKnownHost(files, QStringLiteral("10.0.0.3"), 22, kType, kKey).verdict, KnownHostVerdict::Other);
        // The cert-authority line is not a host key for everyone.
        QCOMPARE(checkKnownHost(files, QStringLiteral("10.0.0.4"), 22, kType, kKey).verdict, KnownHostVerdict::NotFound);
        // Port 2222 is another name than port 22.
        QCOMPARE(checkKnownHost(files, QStringLiteral("10.0.0.1"), 2222, kType, kKey).verdict, KnownHostVerdict::NotFound);
    }

    void revokedKeyIsRefusedEverywhere()
    {
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("kh"),
            "10.0.0.1 " + kType + ' ' + kKey + "\n"
            "@revoked 10.9.9.9 " + kType + ' ' + kKey + "\n");
        const KnownHostCheck r = checkKnownHost({path}, QStringLiteral("10.0.0.1"), 22, kType, kKey);
        QCOMPARE(r.verdict, KnownHostVerdict::Revoked);
        QCOMPARE(r.line, 2);
        QCOMPARE(checkKnownHost({path}, QStringLiteral("10.0.0.1"), 22, kType, kOtherKey).verdict, KnownHostVerdict::Changed);
    }

    // A 100 kB line (a pasted certificate, garbage) must not hide the entries after it.
    void longLineDoesNotStopTheReading()
    {
        QTemporaryDir dir;
        const QByteArray longLine = "junk.example " + kType + ' ' + QByteArray(100000, 'A') + '\n';
        const QString path = write(dir, QStringLiteral("kh"), longLine + "10.0.0.2 " + kType + ' ' + kOtherKey + "\n");
        QCOMPARE(checkKnownHost({path}, QStringLiteral("10.0.0.2"), 22, kType, kKey).verdict, KnownHostVerdict::Changed);
        QCOMPARE(checkKnownHost({path}, QStringLiteral("10.0.0.2"), 22, kType, kOtherKey).verdict, KnownHostVerdict::Known);
    }

    // What a known_hosts file can hold that is not a clean entry: every line is skipped or judged on its
    // own, nothing stops the reading, and the real entry at the end is still found.
    void hostileLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("10 MB line") << QByteArray(10 * 1024 * 1024, 'x');
        QTest::newRow("bad UTF-8") << QByteArray("\xff\xfe\xc3\x28 " + kType + " \x80\x81");
        QTest::newRow("NUL bytes") << (QByteArray("10.0.0.2\0evil ", 14) + kType + ' ' + kOtherKey);
        QTest::newRow("marker alone") << QByteArray("@revoked");
        QTest::newRow("revoked without key") << QByteArray("@revoked 10.0.0.2");
        QTest::newRow("unknown marker") << QByteArray("@evil 10.0.0.2 " + kType + ' ' + kOtherKey);
        QTest::newRow("hashed, bad base64") << QByteArray("|1|!!!|###| " + kType + ' ' + kOtherKey);
        QTest::newRow("hashed, empty parts") << QByteArray("|1|| " + kType + ' ' + kOtherKey);
        QTest::newRow("only commas") << QByteArray(",,,, " + kType + ' ' + kOtherKey);
        QTest::newRow("tabs as separators") << QByteArray("10.9.9.9\t" + kType + "\t" + kOtherKey);
        QTest::newRow("CRLF") << QByteArray("10.9.9.8 " + kType + ' ' + kOtherKey + '\r');
        // 60 stars against a 10 kB name-like pattern: must not take exponential time.
        QTest::newRow("many stars") << (QByteArray("*a").repeated(60) + "b " + kType + ' ' + kOtherKey);
    }

    void hostileLines()
    {
        QFETCH(QByteArray, line);
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("kh"), line + "\n10.0.0.2 " + kType + ' ' + kKey + '\n');
        QCOMPARE(checkKnownHost({path}, QStringLiteral("10.0.0.2"), 22, kType, kKey).verdict, KnownHostVerdict::Known);
        // A long name against the many-stars row (and every other row) stays a plain not-found.
        const QString longName = QString(10000, QLatin1Char('a'));
        QCOMPARE(checkKnownHost({path}, longName, 22, kType, kKey).verdict, KnownHostVerdict::NotFound);
    }

    void globalFileCounts()
    {
        QTemporaryDir dir;
        const QString user = write(dir, QStringLiteral("user"), {});
        const QString global = write(dir, QStringLiteral("global"), "10.0.0.5 " + kType + ' ' + kOtherKey + "\n");
        const KnownHostCheck r = checkKnownHost({user, global}, QStringLiteral("10.0.0.5"), 22, kType, kKey);
        QCOMPARE(r.verdict, KnownHostVerdict::Changed);
        QCOMPARE(r.file, global);
    }

    void addKeepsOldBytesAndAppends()
    {
        QTemporaryDir dir;
        const QByteArray old = "# mine, no final newline\n10.0.0.1 " + kType + ' ' + kKey;
        const QString path = write(dir, QStringLiteral("kh"), old);
        QString error;
        QVERIFY2(addKnownHost(path, QStringLiteral("127.0.0.3"), 2022, kType, kOtherKey, &error), qPrintable(error));
        QCOMPARE(read(path), old + "\n[127.0.0.3]:2022 " + kType + ' ' + kOtherKey + '\n');
        QCOMPARE(checkKnownHost({path}, QStringLiteral("127.0.0.3"), 2022, kType, kOtherKey).verdict, KnownHostVerdict::Known);
        // A new file in a new directory, private to the user.
        const QString fresh = dir.filePath(QStringLiteral("sub/dir/known_hosts"));
        QVERIFY2(addKnownHost(fresh, QStringLiteral("h"), 22, kType, kKey, &error), qPrintable(error));
        QCOMPARE(read(fresh), "h " + kType + ' ' + kKey + '\n');
        QCOMPARE(QFile::permissions(fresh) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
    }

    // The write goes to a temporary file renamed over the old one: when it cannot be written (the
    // directory is read-only), the old file is still whole.
    void failedWriteLeavesTheOldFile()
    {
        if (::geteuid() == 0)
            QSKIP("root writes into read-only directories");
        QTemporaryDir dir;
        const QByteArray old = "10.0.0.1 " + kType + ' ' + kKey + '\n';
        const QString path = write(dir, QStringLiteral("kh"), old);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        QString error;
        QVERIFY(!addKnownHost(path, QStringLiteral("h"), 22, kType, kOtherKey, &error));
        QVERIFY(error.contains(path));
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QCOMPARE(read(path), old);
    }
};

QTEST_GUILESS_MAIN(TestKnownHosts)
#include "tst_knownhosts.moc"
