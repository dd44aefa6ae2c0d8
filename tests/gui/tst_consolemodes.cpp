// SPDX-License-Identifier: MIT
// The pdconsole executable in every way an operator starts it: a profile, a Prometheus source (a real
// one and one where nothing listens), each view, theme and language, a non-default poll interval from
// the settings, and the last profile reopened from the settings. Each run must start, paint a
// screenshot and exit 0. `--demo` has its own test (tst_demo: it needs the demo's fixed ports).
//
// Every run gets its own XDG config and runtime directories, so the user's settings are never read and
// the settings a case needs are written where QSettings looks (XDG_CONFIG_HOME/pdconsole/pdconsole.conf).
#include "../sim/prometheusharness.h"

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kProfile = QStringLiteral(PD_SOURCE_DIR "/resources/profiles/demo-loopback.json");

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QImage shot;
    QByteArray output;
};

// settings: "group/key" -> value, written before the console starts.
Run runConsole(const QStringList &arguments, const QVariantMap &settings = {})
{
    Run run;
    QTemporaryDir home;
    if (!home.isValid())
        return run;
    const QString config = home.filePath(QStringLiteral("config"));
    const QString runtime = home.filePath(QStringLiteral("runtime"));
    QDir().mkpath(config + QStringLiteral("/pdconsole"));
    QDir().mkpath(runtime);
    QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (!settings.isEmpty()) {
        QSettings ini(config + QStringLiteral("/pdconsole/pdconsole.conf"), QSettings::IniFormat);
        for (auto it = settings.begin(); it != settings.end(); ++it)
            ini.setValue(it.key(), it.value());
        ini.sync();
    }
    const QString shot = home.filePath(QStringLiteral("shot.png"));

    QProcess console;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    console.setProcessEnvironment(env);
    console.setProgram(QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"));
    console.setArguments(arguments + QStringList { QStringLiteral("--screenshot"), shot,
                                                   QStringLiteral("--quit-after"), QStringLiteral("3") });
    console.setProcessChannelMode(QProcess::MergedChannels);
    console.start();
    if (!console.waitForStarted(10000))
        return run;
    // Bounded: the console quits by itself after 3 s; 90 s covers a loaded machine under ASan.
    if (!console.waitForFinished(90000)) {
        console.kill();
        console.waitForFinished(5000);
    }
    run.output = console.readAll();
    run.status = console.exitStatus();
    run.exitCode = console.exitCode();
    run.shot = QImage(shot);
    return run;
}

void expectPainted(const Run &run)
{
    QVERIFY2(run.status == QProcess::NormalExit, run.output.constData());
    QVERIFY2(run.exitCode == 0, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.output))));
    QVERIFY2(!run.shot.isNull(), "no screenshot written");
    QCOMPARE(run.shot.size(), QSize(1400, 900));
}

} // namespace

class TestConsoleModes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsPaintsAndExits_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QVariantMap>("settings");
        const QString profile = QStringLiteral("--profile");
        QTest::newRow("profile") << QStringList { profile, kProfile } << QVariantMap {};
        // Nothing listens on port 9 (discard): the source is unreachable. This crashed at start (exit 139).
        QTest::newRow("prometheus-unreachable")
            << QStringList { profile, kProfile, QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:9") }
            << QVariantMap {};
        QTest::newRow("prometheus-unreachable-slow-poll")
            << QStringList { profile, kProfile, QStringLiteral("--prometheus"), QStringLiteral("http://127.0.0.1:9") }
            << QVariantMap { { QStringLiteral("poll/intervalMs"), 2500 } };
        QTest::newRow("view-pools") << QStringList { profile, kProfile, QStringLiteral("--view"), QStringLiteral("pools") }
                                    << QVariantMap {};
        QTest::newRow("view-cluster") << QStringList { profile, kProfile, QStringLiteral("--view"), QStringLiteral("cluster") }
                                      << QVariantMap {};
        QTest::newRow("theme-dark") << QStringList { profile, kProfile, QStringLiteral("--theme"), QStringLiteral("dark") }
                                    << QVariantMap {};
        QTest::newRow("lang-zh_CN") << QStringList { profile, kProfile, QStringLiteral("--lang"), QStringLiteral("zh_CN") }
                                    << QVariantMap {};
        // The series store is sized for the engine poller's interval, not always 1 s.
        QTest::newRow("poll-interval-2500") << QStringList { profile, kProfile }
                                            << QVariantMap { { QStringLiteral("poll/intervalMs"), 2500 } };
        QTest::newRow("reopen-last-profile")
            << QStringList {}
            << QVariantMap { { QStringLiteral("session/lastProfile"), kProfile },
                             { QStringLiteral("session/reopenLastProfile"), true } };
        QTest::newRow("no-profile") << QStringList {} << QVariantMap {};
    }

    void startsPaintsAndExits()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QVariantMap, settings);
        expectPainted(runConsole(arguments, settings));
    }

    // --help, --version and a usage error answer on a machine without any display (no DISPLAY, no
    // WAYLAND_DISPLAY, no QT_QPA_PLATFORM): they never reach the GUI application.
    void answersWithoutADisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("version") << QStringList{QStringLiteral("--version")} << 0 << QByteArray("pdconsole ");
        QTest::newRow("help") << QStringList{QStringLiteral("--help")} << 0 << QByteArray("--demo");
        QTest::newRow("usage error") << QStringList{QStringLiteral("--no-such-option")} << 2 << QByteArray("no-such-option");
    }
    void answersWithoutADisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, says);
        QProcess console;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        console.setProcessEnvironment(env);
        console.setProcessChannelMode(QProcess::MergedChannels);
        console.start(QStringLiteral(PD_BINARY_DIR "/app/console/pdconsole"), arguments);
        QVERIFY(console.waitForFinished(30000));
        const QByteArray output = console.readAll();
        QCOMPARE(console.exitStatus(), QProcess::NormalExit);
        QVERIFY2(console.exitCode() == exitCode, output.constData());
        QVERIFY2(output.contains(says), output.constData());
    }

    // A real Prometheus that scrapes the profile's engines (nothing listens there: every target is down).
    void realPrometheus()
    {
        if (pd::test::PrometheusHarness::binary().isEmpty())
            QSKIP("prometheus is not installed (scripts/setup installs it)");
        pd::test::PrometheusHarness prometheus;
        QString error;
        QVERIFY2(prometheus.start({ QStringLiteral("127.0.0.2:9000"), QStringLiteral("127.0.0.6:9000") }, &error),
                 qPrintable(error));
        expectPainted(runConsole({ QStringLiteral("--profile"), kProfile, QStringLiteral("--prometheus"),
                                   prometheus.url().toString() },
                                 { { QStringLiteral("poll/intervalMs"), 2000 } }));
    }
};

QTEST_GUILESS_MAIN(TestConsoleModes)
#include "tst_consolemodes.moc"
