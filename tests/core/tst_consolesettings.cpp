// SPDX-License-Identifier: MIT
#include "settings/consolesettings.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using pd::ConsoleSettings;
using Key = pd::ConsoleSettings::Key;

class TestConsoleSettings final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

private Q_SLOTS:
    void everyKeyHasADistinctNameAndAValidDefault()
    {
        ConsoleSettings settings(path("defaults.ini"));
        QSet<QString> names;
        for (int i = 0; i < ConsoleSettings::kKeyCount; ++i) {
            const Key key = Key(i);
            QVERIFY2(!names.contains(ConsoleSettings::keyName(key)), qPrintable(ConsoleSettings::keyName(key)));
            names.insert(ConsoleSettings::keyName(key));
            // The default is accepted by the key's own rule, and is what an empty file reads.
            QVERIFY2(
                settings.setValue(key, ConsoleSettings::defaultValue(key)), qPrintable(ConsoleSettings::keyName(key)));
            settings.reset(key);
            QCOMPARE(settings.value(key), ConsoleSettings::defaultValue(key));
        }
        QVERIFY(settings.warnings().isEmpty());
        QCOMPARE(settings.pollIntervalMs(), 1000);
        QCOMPARE(settings.stateThresholds(), pd::StateThresholds {});
        QCOMPARE(settings.notificationSettings(), pd::NotificationSettings {});
        QCOMPARE(settings.theme(), pd::Theme::System);
        QCOMPARE(settings.language(), QStringLiteral("en"));
        QVERIFY(!settings.auditLogPath().isEmpty()); // AuditLog's default when none is set
    }

    void roundTripThroughTheFile()
    {
        const QString file = path("roundtrip.ini");
        {
            ConsoleSettings settings(file);
            QVERIFY(settings.setValue(Key::PollIntervalMs, 2500));
            QVERIFY(settings.setValue(Key::ProxyIntervalMs, 3000));
            settings.setStateThresholds({ 3, 7, 4 });
            QVERIFY(settings.setValue(Key::KnownHostsPath, QStringLiteral("/tmp/kh")));
            QVERIFY(settings.setValue(Key::AuditLogPath, QStringLiteral("/var/tmp/audit.jsonl")));
            QVERIFY(settings.setValue(Key::Theme, QStringLiteral("dark")));
            QVERIFY(settings.setValue(Key::Language, QStringLiteral("zh_CN")));
            QVERIFY(settings.setValue(Key::ReadOnlyDefault, true));
            QVERIFY(settings.setValue(Key::RecentProfiles, QStringList { QStringLiteral("/a.json") }));
            QVERIFY(settings.setValue(Key::LastProfile, QStringLiteral("/a.json")));
            pd::NotificationSettings n;
            n.enabled = false;
            n.minIntervalMs = 5000;
            n.minSeverity = pd::ProblemSeverity::Warning;
            settings.setNotificationSettings(n);
            QVERIFY(settings.setValue(Key::WindowGeometry, QByteArray("\x01\x02\x00\xff", 4)));
            settings.sync();
        }
        ConsoleSettings again(file);
        QCOMPARE(again.pollIntervalMs(), 2500);
        QCOMPARE(again.proxyIntervalMs(), 3000);
        QCOMPARE(again.stateThresholds(), (pd::StateThresholds { 3, 7, 4 }));
        QCOMPARE(again.knownHostsPath(), QStringLiteral("/tmp/kh"));
        QCOMPARE(again.auditLogPath(), QStringLiteral("/var/tmp/audit.jsonl"));
        QCOMPARE(again.theme(), pd::Theme::Dark);
        QCOMPARE(again.language(), QStringLiteral("zh_CN"));
        QVERIFY(again.readOnlyByDefault());
        QCOMPARE(again.recentProfiles(), QStringList { QStringLiteral("/a.json") });
        QCOMPARE(again.lastProfile(), QStringLiteral("/a.json"));
        QCOMPARE(again.notificationSettings().enabled, false);
        QCOMPARE(again.notificationSettings().minIntervalMs, 5000);
        QCOMPARE(again.notificationSettings().minSeverity, pd::ProblemSeverity::Warning);
        QCOMPARE(again.value(Key::WindowGeometry).toByteArray(), QByteArray("\x01\x02\x00\xff", 4));
        QVERIFY(again.warnings().isEmpty());
    }

    void badValuesInTheFileReadAsTheDefaultWithAWarningNamingTheKey_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("stored");
        QTest::addColumn<int>("which");
        QTest::newRow("negative interval") << "poll/intervalMs"
                                           << "-5" << int(Key::PollIntervalMs);
        QTest::newRow("interval not a number") << "poll/intervalMs"
                                               << "fast" << int(Key::PollIntervalMs);
        QTest::newRow("zero stale polls") << "state/stalePolls"
                                          << "0" << int(Key::StalePolls);
        QTest::newRow("unknown theme") << "ui/theme"
                                       << "solarized" << int(Key::Theme);
        QTest::newRow("unknown language") << "ui/language"
                                          << "klingon" << int(Key::Language);
        QTest::newRow("read-only not a bool") << "ops/readOnlyDefault"
                                              << "maybe" << int(Key::ReadOnlyDefault);
        QTest::newRow("severity out of range") << "notifications/minSeverity"
                                               << "9" << int(Key::NotificationsMinSeverity);
    }
    void badValuesInTheFileReadAsTheDefaultWithAWarningNamingTheKey()
    {
        QFETCH(QString, key);
        QFETCH(QString, stored);
        QFETCH(int, which);
        const QString file = path("bad.ini");
        QFile::remove(file);
        {
            QSettings raw(file, QSettings::IniFormat);
            raw.setValue(key, stored);
        }
        ConsoleSettings settings(file);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QRegularExpression::escape(key)));
        QCOMPARE(settings.value(Key(which)), ConsoleSettings::defaultValue(Key(which)));
        QCOMPARE(settings.warnings().size(), 1);
        QVERIFY(settings.warnings().first().startsWith(key));
        QVERIFY(settings.warnings().first().contains(stored));
    }

    void badValuesAreRefusedWhenStored()
    {
        ConsoleSettings settings(path("refuse.ini"));
        QVERIFY(settings.setValue(Key::PollIntervalMs, 1500));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("poll/intervalMs")));
        QVERIFY(!settings.setValue(Key::PollIntervalMs, -1));
        QCOMPARE(settings.pollIntervalMs(), 1500); // the old value is kept
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("ui/theme")));
        QVERIFY(!settings.setValue(Key::Theme, QStringLiteral("neon")));
        QCOMPARE(settings.theme(), pd::Theme::System);
    }

    void themeNamesMapBothWays()
    {
        for (const pd::Theme t : { pd::Theme::System, pd::Theme::Light, pd::Theme::Dark })
            QCOMPARE(ConsoleSettings::themeFromName(ConsoleSettings::themeName(t)), t);
        QVERIFY(!ConsoleSettings::themeFromName(QStringLiteral("neon")));
    }
};

QTEST_GUILESS_MAIN(TestConsoleSettings)
#include "tst_consolesettings.moc"
