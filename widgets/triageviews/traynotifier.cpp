// SPDX-License-Identifier: MIT
#include "triageviews/traynotifier.h"

#include "triage/triage.h"

#include <QApplication>
#include <QDateTime>
#include <QSettings>
#include <QStyle>
#include <QSystemTrayIcon>

#include <algorithm>

namespace pd {

namespace {

// How long the desktop shows a problem's balloon.
constexpr int kBalloonMs = 10000;

} // namespace

TrayNotifier::TrayNotifier(Triage *triage, QObject *parent)
    : QObject(parent)
    , m_triage(triage)
{
    QSettings s;
    NotificationSettings n;
    n.enabled = s.value(QStringLiteral("notifications/enabled"), n.enabled).toBool();
    n.minIntervalMs = s.value(QStringLiteral("notifications/minIntervalMs"), n.minIntervalMs).toInt();
    n.minSeverity = ProblemSeverity(
        std::clamp(s.value(QStringLiteral("notifications/minSeverity"), int(n.minSeverity)).toInt(), 0, 2));
    m_policy.setSettings(n);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(QApplication::style()->standardIcon(QStyle::SP_ComputerIcon), this);
        m_tray->setToolTip(QStringLiteral("pdconsole"));
        m_tray->show();
        connect(m_tray, &QSystemTrayIcon::messageClicked, this, &TrayNotifier::messageClicked);
    }
    connect(triage, &Triage::problemsAppeared, this, &TrayNotifier::onAppeared);
    // Held-back problems are announced once the interval has passed, even without a new one.
    connect(triage, &Triage::problemsChanged, this, [this] { onAppeared({}); });
}

void TrayNotifier::setSettings(const NotificationSettings &settings)
{
    m_policy.setSettings(settings);
    QSettings s;
    s.setValue(QStringLiteral("notifications/enabled"), settings.enabled);
    s.setValue(QStringLiteral("notifications/minIntervalMs"), settings.minIntervalMs);
    s.setValue(QStringLiteral("notifications/minSeverity"), int(settings.minSeverity));
}

bool TrayNotifier::trayAvailable() const
{
    return m_tray != nullptr;
}

void TrayNotifier::onAppeared(const QList<Problem> &problems)
{
    const auto n = m_policy.decide(problems, m_triage->problems(), QDateTime::currentMSecsSinceEpoch());
    if (!n)
        return;
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(n->title, n->body,
            n->severity == ProblemSeverity::Warning ? QSystemTrayIcon::Warning : QSystemTrayIcon::Critical, kBalloonMs);
}

} // namespace pd
