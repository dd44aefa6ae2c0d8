// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

// Edit ▸ Preferences (Ctrl+,): the console's settings (ConsoleSettings) in one form. OK stores them
// and emits applied(); the polling, state thresholds, notifications and theme apply at once, the
// language, known_hosts and audit paths at the next start (the form says so).
namespace pd {

class ConsoleSettings;

class SettingsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(ConsoleSettings *settings, QWidget *parent = nullptr);

    void load(); // the form from the settings
    void store(); // the settings from the form (what OK does before applied())
    void restoreDefaults(); // the form to every default (stored by OK)

    QComboBox *themeBox() const { return m_theme; }
    QComboBox *languageBox() const { return m_language; }
    QSpinBox *pollIntervalBox() const { return m_pollInterval; }

Q_SIGNALS:
    void applied();

private:
    ConsoleSettings *m_settings;
    QSpinBox *m_pollInterval;
    QSpinBox *m_pollTimeout;
    QSpinBox *m_proxyInterval;
    QSpinBox *m_stalePolls;
    QSpinBox *m_unreachablePolls;
    QSpinBox *m_stallPolls;
    QLineEdit *m_knownHosts;
    QLineEdit *m_auditPath;
    QComboBox *m_theme;
    QComboBox *m_language;
    QCheckBox *m_readOnly;
    QCheckBox *m_reopenLast;
    QCheckBox *m_notify;
    QSpinBox *m_notifyInterval;
    QComboBox *m_notifySeverity;
    QCheckBox *m_autoEject;
    QCheckBox *m_autoHeal;
    QSpinBox *m_ejectAfter;
    QSpinBox *m_maxEjections;
    QSpinBox *m_ejectWindow;
    QLineEdit *m_webhook;
    QCheckBox *m_canary;
    QSpinBox *m_canaryInterval;
    QLabel *m_webhookError = nullptr;
};

} // namespace pd
