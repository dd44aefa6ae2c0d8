// SPDX-License-Identifier: MIT
#pragma once

#include "triage/notificationpolicy.h"

#include <QObject>

class QSystemTrayIcon;

// Shows NotificationPolicy's decisions as system tray messages, so an operator with the window in the
// background still sees a new top-severity problem. Settings persist in QSettings ("notifications/").
namespace pd {

class Triage;

class TrayNotifier final : public QObject {
    Q_OBJECT
public:
    TrayNotifier(Triage *triage, QObject *parent = nullptr);

    void setSettings(const NotificationSettings &settings);
    const NotificationSettings &settings() const { return m_policy.settings(); }
    bool trayAvailable() const;

Q_SIGNALS:
    void messageClicked();

private:
    void onAppeared(const QList<Problem> &problems);

    Triage *m_triage;
    NotificationPolicy m_policy;
    QSystemTrayIcon *m_tray = nullptr;
};

} // namespace pd
