// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginefacts.h"
#include "triage/notificationpolicy.h"
#include "watch/ejectionsettings.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>
#include <optional>

class QSettings;

// The console's settings: one typed facade over QSettings. Every key, its default and what values it
// accepts sit in one table (consolesettings.cpp); a stored value that is out of range or unknown (a
// negative interval, a theme nobody knows) reads as the default, with a warning naming the key, kept in
// warnings() and sent to qWarning. Nothing here throws or asserts on what the file holds.
// Tests pass an explicit INI file; the console uses the per-user default (organisation pdconsole).
namespace pd {

enum class Theme { System, Light, Dark };

class ConsoleSettings {
public:
    enum class Key {
        PollIntervalMs,
        PollTimeoutMs,
        ProxyIntervalMs,
        StalePolls,
        UnreachablePolls,
        StallPolls,
        KnownHostsPath,
        AuditLogPath,
        Theme,
        Language,
        ReadOnlyDefault,
        RecentProfiles,
        LastProfile,
        ReopenLastProfile,
        NotificationsEnabled,
        NotificationsMinIntervalMs,
        NotificationsMinSeverity,
        WatchAutoEject,
        WatchEjectAfterPolls,
        WatchMaxEjections,
        WatchEjectWindowS,
        WatchWebhookUrl,
        WatchAutoHeal,
        CanaryEnabled,
        CanaryIntervalMs,
        WindowGeometry,
        WindowState,
        SplitterState,
    };
    static constexpr int kKeyCount = int(Key::SplitterState) + 1;

    ConsoleSettings(); // the per-user settings of the application (QSettings' default)
    explicit ConsoleSettings(const QString &iniPath); // an explicit INI file (tests, --settings)
    ~ConsoleSettings();
    ConsoleSettings(const ConsoleSettings &) = delete;
    ConsoleSettings &operator=(const ConsoleSettings &) = delete;

    static QString keyName(Key key); // "poll/intervalMs", ...
    static QVariant defaultValue(Key key);
    static QStringList languages(); // "en", "zh_CN"
    static QString themeName(Theme theme); // "system", "light", "dark"
    static std::optional<Theme> themeFromName(const QString &name);

    // The stored value when it is valid, else the default (and a warning naming the key).
    QVariant value(Key key) const;
    // Stores a value; false (nothing stored, a warning) when the table refuses it.
    bool setValue(Key key, const QVariant &value);
    void reset(Key key); // back to the default
    bool contains(Key key) const;
    void sync();
    QString fileName() const;
    QStringList warnings() const { return m_warnings; }

    int pollIntervalMs() const { return value(Key::PollIntervalMs).toInt(); }
    int pollTimeoutMs() const { return value(Key::PollTimeoutMs).toInt(); }
    int proxyIntervalMs() const { return value(Key::ProxyIntervalMs).toInt(); }
    StateThresholds stateThresholds() const;
    void setStateThresholds(const StateThresholds &thresholds);
    QString knownHostsPath() const { return value(Key::KnownHostsPath).toString(); } // empty: ~/.ssh/known_hosts
    QString auditLogPath() const; // the stored path, or AuditLog::defaultPath() when none is set
    Theme theme() const;
    QString language() const { return value(Key::Language).toString(); }
    bool readOnlyByDefault() const { return value(Key::ReadOnlyDefault).toBool(); }
    QStringList recentProfiles() const { return value(Key::RecentProfiles).toStringList(); }
    QString lastProfile() const { return value(Key::LastProfile).toString(); }
    bool reopenLastProfile() const { return value(Key::ReopenLastProfile).toBool(); }
    NotificationSettings notificationSettings() const;
    void setNotificationSettings(const NotificationSettings &settings);
    // The watchdog's auto-eject (off by default; re-add after as many good polls as bad ones) and the
    // webhook it posts alerts to (empty: none). docs/watchdog.md.
    EjectionSettings ejectionSettings() const;
    void setEjectionSettings(const EjectionSettings &settings);
    QString webhookUrl() const { return value(Key::WatchWebhookUrl).toString(); }
    // The canary: one tiny completion through the proxy per interval, marked as the console's traffic
    // (on by default; canaryprobe.h).
    bool canaryEnabled() const { return value(Key::CanaryEnabled).toBool(); }
    int canaryIntervalMs() const { return value(Key::CanaryIntervalMs).toInt(); }

private:
    void warn(const QString &text) const;

    std::unique_ptr<QSettings> m_settings;
    mutable QStringList m_warnings;
};

} // namespace pd
