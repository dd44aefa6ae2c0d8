// SPDX-License-Identifier: MIT
#include "settingsdialog.h"

#include "settings/consolesettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pd {

namespace {

using Key = ConsoleSettings::Key;

QSpinBox *spin(int min, int max, const QString &suffix, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setSuffix(suffix);
    return box;
}

} // namespace

SettingsDialog::SettingsDialog(ConsoleSettings *settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_pollInterval(spin(100, 600000, tr(" ms"), this))
    , m_pollTimeout(spin(100, 600000, tr(" ms"), this))
    , m_proxyInterval(spin(100, 600000, tr(" ms"), this))
    , m_stalePolls(spin(1, 1000, tr(" polls"), this))
    , m_unreachablePolls(spin(1, 1000, tr(" polls"), this))
    , m_stallPolls(spin(1, 1000, tr(" polls"), this))
    , m_knownHosts(new QLineEdit(this))
    , m_auditPath(new QLineEdit(this))
    , m_theme(new QComboBox(this))
    , m_language(new QComboBox(this))
    , m_readOnly(new QCheckBox(tr("Start in read-only mode (every change to the cluster refused)"), this))
    , m_reopenLast(new QCheckBox(tr("Reopen the last profile at start"), this))
    , m_notify(new QCheckBox(tr("Desktop notifications for new problems"), this))
    , m_notifyInterval(spin(0, 86400, tr(" s"), this))
    , m_notifySeverity(new QComboBox(this))
    , m_autoEject(new QCheckBox(tr("Remove a failing instance from the proxy automatically (auto-eject)"), this))
    , m_autoHeal(new QCheckBox(tr("Restart a broken DP group and bring it back automatically (auto-heal)"), this))
    , m_ejectAfter(spin(1, 1000, tr(" polls"), this))
    , m_maxEjections(spin(1, 1000, QString(), this))
    , m_ejectWindow(spin(1, 86400, tr(" s"), this))
    , m_webhook(new QLineEdit(this))
    , m_canary(new QCheckBox(tr("Send a canary request through the proxy (client impact)"), this))
    , m_canaryInterval(spin(1, 600, tr(" s"), this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Preferences"));

    m_theme->addItem(tr("System"), ConsoleSettings::themeName(Theme::System));
    m_theme->addItem(tr("Light"), ConsoleSettings::themeName(Theme::Light));
    m_theme->addItem(tr("Dark"), ConsoleSettings::themeName(Theme::Dark));
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en")); // each language in its own words
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_notifySeverity->addItem(tr("Critical only"), int(ProblemSeverity::Critical));
    m_notifySeverity->addItem(tr("Critical and errors"), int(ProblemSeverity::Error));
    m_notifySeverity->addItem(tr("Critical, errors and warnings"), int(ProblemSeverity::Warning));
    m_knownHosts->setPlaceholderText(tr("~/.ssh/known_hosts"));
    m_auditPath->setPlaceholderText(tr("default: %1").arg(settings->auditLogPath()));

    auto *polling = new QGroupBox(tr("Polling and state"), this);
    auto *pollForm = new QFormLayout(polling);
    pollForm->addRow(tr("Engine &poll interval:"), m_pollInterval);
    pollForm->addRow(tr("Engine poll &timeout:"), m_pollTimeout);
    pollForm->addRow(tr("Pro&xy health interval:"), m_proxyInterval);
    pollForm->addRow(tr("Metrics &stale after:"), m_stalePolls);
    pollForm->addRow(tr("&Unreachable after:"), m_unreachablePolls);
    pollForm->addRow(tr("Sta&lled after:"), m_stallPolls);

    auto *looks = new QGroupBox(tr("Looks and language"), this);
    auto *looksForm = new QFormLayout(looks);
    looksForm->addRow(tr("T&heme:"), m_theme);
    looksForm->addRow(tr("&Language:"), m_language);
    looksForm->addRow(QString(), new QLabel(tr("<i>The language applies at the next start.</i>"), looks));

    auto *ops = new QGroupBox(tr("Operations"), this);
    auto *opsForm = new QFormLayout(ops);
    opsForm->addRow(QString(), m_readOnly);
    opsForm->addRow(QString(), m_reopenLast);
    opsForm->addRow(tr("&known_hosts file:"), m_knownHosts);
    opsForm->addRow(tr("&Audit log:"), m_auditPath);
    opsForm->addRow(QString(), new QLabel(tr("<i>The files apply at the next start.</i>"), ops));

    auto *notify = new QGroupBox(tr("Notifications"), this);
    auto *notifyForm = new QFormLayout(notify);
    notifyForm->addRow(QString(), m_notify);
    notifyForm->addRow(tr("Notify &for:"), m_notifySeverity);
    notifyForm->addRow(tr("At most one &every:"), m_notifyInterval);

    auto *watch = new QGroupBox(tr("Watchdog"), this);
    auto *watchForm = new QFormLayout(watch);
    m_autoEject->setToolTip(tr("Never the last instance of a pool, never a WAITING one, a coupled DP group only "
                               "whole; every ejection audited; added back once it serves again."));
    m_webhook->setPlaceholderText(tr("https://… (each problem as it appears and clears, as JSON)"));
    m_autoHeal->setToolTip(tr("A broken coupled DP group is ejected, restarted as one group and added back once it "
                              "serves; one group at a time, at most two an hour, never while an operator acts on the "
                              "pool; a proxy that stays busy is restarted with its current lists (its requests in "
                              "flight fail). Every step audited."));
    connect(m_autoEject, &QCheckBox::toggled, m_autoHeal, &QCheckBox::setEnabled);
    watchForm->addRow(QString(), m_autoEject);
    watchForm->addRow(QString(), m_autoHeal);
    watchForm->addRow(tr("&Eject after:"), m_ejectAfter);
    watchForm->addRow(tr("At &most:"), m_maxEjections);
    watchForm->addRow(tr("ejections &per:"), m_ejectWindow);
    watchForm->addRow(tr("Alert &webhook:"), m_webhook);
    m_canary->setToolTip(tr("One tiny completion (4 tokens) through the proxy per interval, marked as the console's "
                            "(user \"pdconsole-canary\", header X-PD-Traffic): its success rate and latency are "
                            "charted on Pools, and failures in a row are a problem."));
    watchForm->addRow(QString(), m_canary);
    watchForm->addRow(tr("Canary &every:"), m_canaryInterval);
    m_webhookError = new QLabel(watch);
    m_webhookError->setWordWrap(true);
    m_webhookError->setVisible(false);
    watchForm->addRow(QString(), m_webhookError);

    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        // A webhook that is no URL is said here, never stored or silently dropped.
        const QString url = m_webhook->text().trimmed();
        if (!m_settings->setValue(Key::WatchWebhookUrl, url)) {
            m_webhookError->setText(tr("<b>Not an http:// or https:// URL:</b> %1").arg(url.toHtmlEscaped()));
            m_webhookError->setVisible(true);
            m_webhook->setFocus();
            return;
        }
        store();
        accept();
        Q_EMIT applied();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
        &SettingsDialog::restoreDefaults);

    // Two columns: the dialog fits a 1400x900 screen with room to spare.
    auto *left = new QVBoxLayout;
    left->addWidget(polling);
    left->addWidget(looks);
    left->addWidget(notify);
    left->addStretch();
    auto *right = new QVBoxLayout;
    right->addWidget(ops);
    right->addWidget(watch);
    right->addStretch();
    auto *columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addLayout(right);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(buttons);
    load();
}

void SettingsDialog::load()
{
    const ConsoleSettings &s = *m_settings;
    m_pollInterval->setValue(s.pollIntervalMs());
    m_pollTimeout->setValue(s.pollTimeoutMs());
    m_proxyInterval->setValue(s.proxyIntervalMs());
    const StateThresholds t = s.stateThresholds();
    m_stalePolls->setValue(t.stalePolls);
    m_unreachablePolls->setValue(t.unreachablePolls);
    m_stallPolls->setValue(t.stallPolls);
    m_knownHosts->setText(s.knownHostsPath());
    m_auditPath->setText(s.value(Key::AuditLogPath).toString());
    m_theme->setCurrentIndex(m_theme->findData(ConsoleSettings::themeName(s.theme())));
    m_language->setCurrentIndex(m_language->findData(s.language()));
    m_readOnly->setChecked(s.readOnlyByDefault());
    m_reopenLast->setChecked(s.reopenLastProfile());
    const NotificationSettings n = s.notificationSettings();
    m_notify->setChecked(n.enabled);
    m_notifyInterval->setValue(n.minIntervalMs / 1000);
    m_notifySeverity->setCurrentIndex(m_notifySeverity->findData(int(n.minSeverity)));
    const EjectionSettings e = s.ejectionSettings();
    m_autoEject->setChecked(e.enabled);
    m_autoHeal->setChecked(e.autoHeal);
    m_autoHeal->setEnabled(e.enabled);
    m_ejectAfter->setValue(e.badPolls);
    m_maxEjections->setValue(e.maxEjections);
    m_ejectWindow->setValue(int(e.windowMs / 1000));
    m_webhook->setText(s.webhookUrl());
    m_canary->setChecked(s.canaryEnabled());
    m_canaryInterval->setValue(s.canaryIntervalMs() / 1000);
}

void SettingsDialog::store()
{
    ConsoleSettings &s = *m_settings;
    s.setValue(Key::PollIntervalMs, m_pollInterval->value());
    s.setValue(Key::PollTimeoutMs, m_pollTimeout->value());
    s.setValue(Key::ProxyIntervalMs, m_proxyInterval->value());
    s.setStateThresholds({ m_stalePolls->value(), m_unreachablePolls->value(), m_stallPolls->value() });
    s.setValue(Key::KnownHostsPath, m_knownHosts->text().trimmed());
    s.setValue(Key::AuditLogPath, m_auditPath->text().trimmed());
    s.setValue(Key::Theme, m_theme->currentData());
    s.setValue(Key::Language, m_language->currentData());
    s.setValue(Key::ReadOnlyDefault, m_readOnly->isChecked());
    s.setValue(Key::ReopenLastProfile, m_reopenLast->isChecked());
    NotificationSettings n = s.notificationSettings();
    n.enabled = m_notify->isChecked();
    n.minIntervalMs = m_notifyInterval->value() * 1000;
    n.minSeverity = ProblemSeverity(m_notifySeverity->currentData().toInt());
    s.setNotificationSettings(n);
    EjectionSettings e = s.ejectionSettings();
    e.enabled = m_autoEject->isChecked();
    e.autoHeal = m_autoHeal->isChecked();
    e.badPolls = m_ejectAfter->value();
    e.maxEjections = m_maxEjections->value();
    e.windowMs = std::int64_t(m_ejectWindow->value()) * 1000;
    s.setEjectionSettings(e);
    s.setValue(Key::WatchWebhookUrl, m_webhook->text().trimmed());
    s.setValue(Key::CanaryEnabled, m_canary->isChecked());
    s.setValue(Key::CanaryIntervalMs, m_canaryInterval->value() * 1000);
    s.sync();
}

void SettingsDialog::restoreDefaults()
{
    m_pollInterval->setValue(ConsoleSettings::defaultValue(Key::PollIntervalMs).toInt());
    m_pollTimeout->setValue(ConsoleSettings::defaultValue(Key::PollTimeoutMs).toInt());
    m_proxyInterval->setValue(ConsoleSettings::defaultValue(Key::ProxyIntervalMs).toInt());
    m_stalePolls->setValue(ConsoleSettings::defaultValue(Key::StalePolls).toInt());
    m_unreachablePolls->setValue(ConsoleSettings::defaultValue(Key::UnreachablePolls).toInt());
    m_stallPolls->setValue(ConsoleSettings::defaultValue(Key::StallPolls).toInt());
    m_knownHosts->clear();
    m_auditPath->clear();
    m_theme->setCurrentIndex(m_theme->findData(ConsoleSettings::defaultValue(Key::Theme)));
    m_language->setCurrentIndex(m_language->findData(ConsoleSettings::defaultValue(Key::Language)));
    m_readOnly->setChecked(ConsoleSettings::defaultValue(Key::ReadOnlyDefault).toBool());
    m_reopenLast->setChecked(ConsoleSettings::defaultValue(Key::ReopenLastProfile).toBool());
    m_notify->setChecked(ConsoleSettings::defaultValue(Key::NotificationsEnabled).toBool());
    m_notifyInterval->setValue(ConsoleSettings::defaultValue(Key::NotificationsMinIntervalMs).toInt() / 1000);
    m_notifySeverity->setCurrentIndex(
        m_notifySeverity->findData(ConsoleSettings::defaultValue(Key::NotificationsMinSeverity).toInt()));
    m_autoEject->setChecked(ConsoleSettings::defaultValue(Key::WatchAutoEject).toBool());
    m_autoHeal->setChecked(ConsoleSettings::defaultValue(Key::WatchAutoHeal).toBool());
    m_ejectAfter->setValue(ConsoleSettings::defaultValue(Key::WatchEjectAfterPolls).toInt());
    m_maxEjections->setValue(ConsoleSettings::defaultValue(Key::WatchMaxEjections).toInt());
    m_ejectWindow->setValue(ConsoleSettings::defaultValue(Key::WatchEjectWindowS).toInt());
    m_webhook->clear();
    m_canary->setChecked(ConsoleSettings::defaultValue(Key::CanaryEnabled).toBool());
    m_canaryInterval->setValue(ConsoleSettings::defaultValue(Key::CanaryIntervalMs).toInt() / 1000);
}

} // namespace pd
