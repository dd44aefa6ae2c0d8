// SPDX-License-Identifier: MIT
#pragma once

#include "consoleshared.h"
#include "metrics/seriesstore.h"
#include "net/prometheusfeed.h"

#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>
#include <optional>

namespace pd {
class CanaryProbe;
class ClusterStore;
class ConsoleSettings;
class MainWindow;
class MetricsPoller;
class PrometheusSource;
class ProxyHealthHistory;
class ProxyHealthPoller;
class SeriesStore;
class StateTracker;
class Triage;
class TrayNotifier;
} // namespace pd

// Live monitoring, wired: the engine poller (its own thread) and the proxy's /healthcheck poller feed
// the cluster store (current state), the series store (history, rebuilt for each opened cluster), the
// proxy's history (kept for the run, cleared when the proxy changes) and the window's views; the state tracker derives every engine's state from what the store observes and
// triage turns states into the ranked problems, shown in the window and announced in the system tray. Follows the store: opening a profile retargets everything.
// With a Prometheus configuration the engines are not polled: the Prometheus source (its own thread)
// backfills the series store's history from the server and refreshes it, and its newest scrape of
// each engine feeds the cluster store as the poller's batch would (docs/prometheus-source.md).
class Monitoring final : public QObject {
    Q_OBJECT
public:
    explicit Monitoring(const ConsoleShared &shared,
        std::optional<pd::PrometheusSourceConfig> prometheus = std::nullopt, QObject *parent = nullptr);
    ~Monitoring() override;
    void start();
    // Poll intervals and timeout, state thresholds and notifications from the settings (again after
    // the Preferences dialog stored new ones).
    void applySettings(const pd::ConsoleSettings &settings);
    // The history of the open cluster (null before one is open); replaced when another one opens.
    const pd::SeriesStore *seriesStore() const { return m_series.get(); }

private:
    void retarget();
    void newSeriesStore(int pollIntervalMs);
    void ingestPrometheus(const pd::PrometheusDelivery &delivery);
    void showPrometheusStatus(const pd::PrometheusStatus &status);
    void updateCanary();

    pd::ClusterStore *m_store;
    pd::MainWindow *m_window;
    std::unique_ptr<pd::MetricsPoller> m_engines;          // null when fed from Prometheus
    std::unique_ptr<pd::PrometheusSource> m_prometheus;    // null when polling the engines
    QString m_prometheusShown;                             // the last status shown (not repeated)
    std::unique_ptr<pd::ProxyHealthPoller> m_proxy;
    std::unique_ptr<pd::ProxyHealthHistory> m_proxyHistory; // this run's /healthcheck answers, for the charts
    std::unique_ptr<pd::CanaryProbe> m_canary; // what a client gets through the proxy, for charts and triage
    bool m_canaryWanted = true; // the setting; it runs while a profile is open
    QUrl m_proxyUrl;
    std::unique_ptr<pd::SeriesStore> m_series;
    int m_pollIntervalMs = pd::SeriesStoreConfig{}.pollIntervalMs; // the engine poller's, from the settings
    pd::StateTracker *m_tracker;
    pd::Triage *m_triage;
    std::unique_ptr<pd::TrayNotifier> m_notifier;
};
