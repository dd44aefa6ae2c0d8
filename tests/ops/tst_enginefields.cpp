// SPDX-License-Identifier: MIT
// The metacharacter table thrown at every field of an engine start that reaches the node's shell:
// run directory, template path, node name, profile name, and a launcher argument (the DP master
// address). A template that records what it received proves each value arrived as one literal word;
// the engine is then found, stopped, and gone. Nothing in the table may ever be executed.
#include "exec/localrunner.h"
#include "ops/launchspec.h"

#include "../exec/metacharacters.h"
#include "opsfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;

class TestEngineFields : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    pd::LocalRunner m_runner;

    QString canary() const { return m_dir.filePath(QStringLiteral("CANARY")); }

    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void everyFieldArrivesLiterally_data()
    {
        QTest::addColumn<QString>("value");
        const auto values = pdtest::metacharacterValues(canary());
        for (const auto &[name, value] : values)
            QTest::newRow(name) << value;
    }

    void everyFieldArrivesLiterally()
    {
        QFETCH(QString, value);
        pd::Profile profile;
        profile.name = QStringLiteral("profile ") + value;
        profile.runDir = m_dir.filePath(
            QStringLiteral("run ") + QString::fromLatin1(QTest::currentDataTag()) + QLatin1Char('/') + value);
        profile.templatePath = QStringLiteral("t-") + value;
        profile.launchFlavor = pd::LaunchFlavor::V091;
        pd::Node node = pdtest::loopbackNode(
            QStringLiteral("n-") + value, QStringLiteral("127.0.0.1"), pd::Role::Decode, 1, 1, 0, value);
        node.engineGroups[0].engineStartPort = 9000;
        profile.nodes = { node };
        const pd::Engine engine = profile.engines().first();

        // The template: record the arguments and the node name, then stay alive like an engine.
        const QString templateFile = profile.runDir + QLatin1Char('/') + profile.templatePath;
        QVERIFY(QDir().mkpath(QFileInfo(templateFile).path()));
        QFile t(templateFile);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("printf '%s\\0' \"$@\" > args.bin\nprintf '%s' \"$PDCONSOLE_NODE\" > node.bin\nexec sleep 60\n");
        t.close();

        pd::ControlTimings timings;
        timings.verifyDelay = 300ms;
        timings.stopGrace = 3000ms;
        const pd::DetachedProcess process = pd::engineProcess(profile, engine);
        const pd::ProcessOutcome started = pd::startProcess(m_runner, process, timings);
        QVERIFY2(started.ok, qPrintable(started.error + QString::fromUtf8(started.logTail)));
        const auto cleanup = qScopeGuard([pid = started.pid] { pdtest::killSessionLeader(pid); });

        QList<QByteArray> args = readFile(profile.runDir + QStringLiteral("/args.bin")).split('\0');
        args.removeLast();
        QCOMPARE(args.size(), 7);
        QCOMPARE(QString::fromUtf8(args.at(1)), value); // $2: the DP master address
        QCOMPARE(args.at(5), QByteArray("9000"));
        QCOMPARE(QString::fromUtf8(readFile(profile.runDir + QStringLiteral("/node.bin"))), node.name);
        QCOMPARE(readFile(process.pidFile).trimmed().toLongLong(), started.pid);

        const QList<pd::ProcessOutcome> status = pd::processStatus(m_runner, { process }, 10s);
        QCOMPARE(status.first().process, pd::ProcessFact::Running);
        QCOMPARE(status.first().pid, started.pid);

        const pd::ProcessOutcome stopped = pd::stopProcess(m_runner, process, timings);
        QVERIFY2(stopped.ok, qPrintable(stopped.error));
        QVERIFY(pdtest::processGone(started.pid));
        QVERIFY2(!QFile::exists(canary()), "a metacharacter was executed");
    }

    void nulBytesAreRefusedBeforeAnythingRuns()
    {
        pd::Profile profile;
        profile.name = QStringLiteral("p");
        profile.runDir = m_dir.filePath(QStringLiteral("nul"));
        profile.nodes = { pdtest::loopbackNode(QStringLiteral("n"), QStringLiteral("127.0.0.1"), pd::Role::Decode, 1, 1,
            0, QStringLiteral("a") + QChar(0) + QStringLiteral("b")) };
        const pd::ProcessOutcome started
            = pd::startProcess(m_runner, pd::engineProcess(profile, profile.engines().first()), {});
        QVERIFY(!started.ok);
        QVERIFY2(
            started.error.contains(QLatin1String("NUL")) && started.error.contains(QLatin1String("command of engine")),
            qPrintable(started.error));
        QVERIFY(!QFile::exists(profile.runDir));
    }
};

QTEST_GUILESS_MAIN(TestEngineFields)
#include "tst_enginefields.moc"
