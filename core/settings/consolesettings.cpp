// SPDX-License-Identifier: MIT
#include "settings/consolesettings.h"

#include "audit/auditlog.h"

#include <QSettings>
#include <QUrl>
#include <QtDebug>

#include <array>
#include <limits>

namespace pd {

namespace {

enum class Kind { Int, Bool, Choice, Path, List, Bytes, Url };

struct Spec {
    ConsoleSettings::Key key;
    const char *name;
    Kind kind;
    QVariant fallback;
    int min = 0;
    int max = std::numeric_limits<int>::max();
    QStringList choices = {};
};

using K = ConsoleSettings::Key;

// Every setting: its key in the file, its kind, its default and the values it accepts.
// The notification keys are the ones TrayNotifier has always read.
const std::array<Spec, ConsoleSettings::kKeyCount> &table()
{
    static const NotificationSettings n;
    static const StateThresholds t;
    static const EjectionSettings e;
    static const std::array<Spec, ConsoleSettings::kKeyCount> specs { {
        { K::PollIntervalMs, "poll/intervalMs", Kind::Int, 1000, 100, 600000 },
        { K::PollTimeoutMs, "poll/timeoutMs", Kind::Int, 2000, 100, 600000 },
        { K::ProxyIntervalMs, "poll/proxyIntervalMs", Kind::Int, 1000, 100, 600000 },
        { K::StalePolls, "state/stalePolls", Kind::Int, t.stalePolls, 1, 1000 },
        { K::UnreachablePolls, "state/unreachablePolls", Kind::Int, t.unreachablePolls, 1, 1000 },
        { K::StallPolls, "state/stallPolls", Kind::Int, t.stallPolls, 1, 1000 },
        { K::KnownHostsPath, "ssh/knownHostsPath", Kind::Path, QString() },
        { K::AuditLogPath, "audit/path", Kind::Path, QString() },
        { K::Theme, "ui/theme", Kind::Choice, QStringLiteral("system"), 0, 0,
            { QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark") } },
        { K::Language, "ui/language", Kind::Choice, QStringLiteral("en"), 0, 0,
            { QStringLiteral("en"), QStringLiteral("zh_CN") } },
        { K::ReadOnlyDefault, "ops/readOnlyDefault", Kind::Bool, false },
        { K::RecentProfiles, "recentProfiles", Kind::List, QStringList() },
        { K::LastProfile, "session/lastProfile", Kind::Path, QString() },
        { K::ReopenLastProfile, "session/reopenLastProfile", Kind::Bool, true },
        { K::NotificationsEnabled, "notifications/enabled", Kind::Bool, n.enabled },
        { K::NotificationsMinIntervalMs, "notifications/minIntervalMs", Kind::Int, n.minIntervalMs, 0, 86400000 },
        { K::NotificationsMinSeverity, "notifications/minSeverity", Kind::Int, int(n.minSeverity), 0, 2 },
        { K::WatchAutoEject, "watch/autoEject", Kind::Bool, e.enabled },
        { K::WatchEjectAfterPolls, "watch/ejectAfterPolls", Kind::Int, e.badPolls, 1, 1000 },
        { K::WatchMaxEjections, "watch/maxEjections", Kind::Int, e.maxEjections, 1, 1000 },
        { K::WatchEjectWindowS, "watch/ejectWindowS", Kind::Int, int(e.windowMs / 1000), 1, 86400 },
        { K::WatchWebhookUrl, "watch/webhookUrl", Kind::Url, QString() },
        { K::WatchAutoHeal, "watch/autoHeal", Kind::Bool, e.autoHeal },
        { K::CanaryEnabled, "canary/enabled", Kind::Bool, true },
        { K::CanaryIntervalMs, "canary/intervalMs", Kind::Int, 5000, 1000, 600000 },
        { K::WindowGeometry, "window/geometry", Kind::Bytes, QByteArray() },
        { K::WindowState, "window/state", Kind::Bytes, QByteArray() },
        { K::SplitterState, "window/splitter", Kind::Bytes, QByteArray() },
    } };
    return specs;
}

const Spec &specOf(ConsoleSettings::Key key)
{
    const Spec &spec = table().at(std::size_t(key));
    Q_ASSERT(spec.key == key); // the table is in the order of the enum
    return spec;
}

// Why `value` does not fit `spec`; empty when it does. *normalised gets the typed value.
QString check(const Spec &spec, const QVariant &value, QVariant *normalised)
{
    switch (spec.kind) {
    case Kind::Int: {
        bool ok = false;
        const qlonglong v = value.toString().trimmed().toLongLong(&ok);
        if (!ok)
            return QStringLiteral("\"%1\" is not a whole number").arg(value.toString());
        if (v < spec.min || v > spec.max)
            return QStringLiteral("%1 is outside %2..%3").arg(v).arg(spec.min).arg(spec.max);
        *normalised = int(v);
        return {};
    }
    case Kind::Bool: {
        const QString s = value.toString().trimmed().toLower();
        if (s == QLatin1String("true") || s == QLatin1String("1"))
            *normalised = true;
        else if (s == QLatin1String("false") || s == QLatin1String("0"))
            *normalised = false;
        else
            return QStringLiteral("\"%1\" is not true or false").arg(value.toString());
        return {};
    }
    case Kind::Choice: {
        const QString s = value.toString();
        if (!spec.choices.contains(s))
            return QStringLiteral("\"%1\" is not one of %2").arg(s, spec.choices.join(QStringLiteral(", ")));
        *normalised = s;
        return {};
    }
    case Kind::Path:
        if (!value.canConvert<QString>())
            return QStringLiteral("not a path");
        *normalised = value.toString();
        return {};
    case Kind::List:
        if (value.typeId() == QMetaType::QString) // one entry, as INI files store a single-item list
            *normalised = QStringList { value.toString() };
        else if (value.canConvert<QStringList>())
            *normalised = value.toStringList();
        else
            return QStringLiteral("not a list of paths");
        return {};
    case Kind::Url: {
        const QString text = value.toString().trimmed();
        const QUrl url(text, QUrl::StrictMode);
        if (!text.isEmpty()
            && (!url.isValid() || url.host().isEmpty()
                || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))))
            return QStringLiteral("\"%1\" is not an http:// or https:// URL").arg(text);
        *normalised = text;
        return {};
    }
    case Kind::Bytes:
        if (!value.canConvert<QByteArray>())
            return QStringLiteral("not binary data");
        *normalised = value.toByteArray();
        return {};
    }
    return QStringLiteral("unknown kind");
}

} // namespace

ConsoleSettings::ConsoleSettings()
    : m_settings(std::make_unique<QSettings>())
{
}

ConsoleSettings::ConsoleSettings(const QString &iniPath)
    : m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{
}

ConsoleSettings::~ConsoleSettings() = default;

QString ConsoleSettings::keyName(Key key)
{
    return QLatin1String(specOf(key).name);
}

QVariant ConsoleSettings::defaultValue(Key key)
{
    return specOf(key).fallback;
}

QStringList ConsoleSettings::languages()
{
    return specOf(Key::Language).choices;
}

QString ConsoleSettings::themeName(Theme theme)
{
    return specOf(Key::Theme).choices.value(int(theme));
}

std::optional<Theme> ConsoleSettings::themeFromName(const QString &name)
{
    const int i = int(specOf(Key::Theme).choices.indexOf(name));
    if (i < 0)
        return std::nullopt;
    return Theme(i);
}

QVariant ConsoleSettings::value(Key key) const
{
    const Spec &spec = specOf(key);
    const QString name = QLatin1String(spec.name);
    if (!m_settings->contains(name))
        return spec.fallback;
    QVariant typed;
    const QString why = check(spec, m_settings->value(name), &typed);
    if (why.isEmpty())
        return typed;
    warn(QStringLiteral("%1 in %2: %3; using the default %4")
             .arg(name, m_settings->fileName(), why,
                 spec.fallback.toString().isEmpty() ? QStringLiteral("(none)") : spec.fallback.toString()));
    return spec.fallback;
}

bool ConsoleSettings::setValue(Key key, const QVariant &value)
{
    const Spec &spec = specOf(key);
    QVariant typed;
    const QString why = check(spec, value, &typed);
    if (!why.isEmpty()) {
        warn(QStringLiteral("%1: %2; not stored").arg(QLatin1String(spec.name), why));
        return false;
    }
    m_settings->setValue(QLatin1String(spec.name), typed);
    return true;
}

void ConsoleSettings::reset(Key key)
{
    m_settings->remove(QLatin1String(specOf(key).name));
}

bool ConsoleSettings::contains(Key key) const
{
    return m_settings->contains(QLatin1String(specOf(key).name));
}

void ConsoleSettings::sync()
{
    m_settings->sync();
}

QString ConsoleSettings::fileName() const
{
    return m_settings->fileName();
}

StateThresholds ConsoleSettings::stateThresholds() const
{
    StateThresholds t;
    t.stalePolls = value(Key::StalePolls).toInt();
    t.unreachablePolls = value(Key::UnreachablePolls).toInt();
    t.stallPolls = value(Key::StallPolls).toInt();
    return t;
}

void ConsoleSettings::setStateThresholds(const StateThresholds &thresholds)
{
    setValue(Key::StalePolls, thresholds.stalePolls);
    setValue(Key::UnreachablePolls, thresholds.unreachablePolls);
    setValue(Key::StallPolls, thresholds.stallPolls);
}

QString ConsoleSettings::auditLogPath() const
{
    const QString path = value(Key::AuditLogPath).toString();
    return path.isEmpty() ? AuditLog::defaultPath() : path;
}

Theme ConsoleSettings::theme() const
{
    return themeFromName(value(Key::Theme).toString()).value_or(Theme::System);
}

EjectionSettings ConsoleSettings::ejectionSettings() const
{
    EjectionSettings e;
    e.enabled = value(Key::WatchAutoEject).toBool();
    e.badPolls = value(Key::WatchEjectAfterPolls).toInt();
    e.readdPolls = e.badPolls;
    e.maxEjections = value(Key::WatchMaxEjections).toInt();
    e.windowMs = std::int64_t(value(Key::WatchEjectWindowS).toInt()) * 1000;
    e.autoHeal = value(Key::WatchAutoHeal).toBool();
    return e;
}

void ConsoleSettings::setEjectionSettings(const EjectionSettings &settings)
{
    setValue(Key::WatchAutoEject, settings.enabled);
    setValue(Key::WatchEjectAfterPolls, settings.badPolls);
    setValue(Key::WatchMaxEjections, settings.maxEjections);
    setValue(Key::WatchEjectWindowS, int(settings.windowMs / 1000));
    setValue(Key::WatchAutoHeal, settings.autoHeal);
}

NotificationSettings ConsoleSettings::notificationSettings() const
{
    NotificationSettings n;
    n.enabled = value(Key::NotificationsEnabled).toBool();
    n.minIntervalMs = value(Key::NotificationsMinIntervalMs).toInt();
    n.minSeverity = ProblemSeverity(value(Key::NotificationsMinSeverity).toInt());
    return n;
}

void ConsoleSettings::setNotificationSettings(const NotificationSettings &settings)
{
    setValue(Key::NotificationsEnabled, settings.enabled);
    setValue(Key::NotificationsMinIntervalMs, settings.minIntervalMs);
    setValue(Key::NotificationsMinSeverity, int(settings.minSeverity));
}

void ConsoleSettings::warn(const QString &text) const
{
    if (!m_warnings.contains(text))
        m_warnings.append(text);
    qWarning().noquote() << "pdconsole settings:" << text;
}

} // namespace pd
