// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <memory>

namespace pd {
class ClusterStore;
class MainWindow;
class MetricsPoller;
class ProxyHealthPoller;
class SeriesStore;
} // namespace pd

// Live monitoring, wired: the engine poller (its own thread) and the proxy's /healthcheck poller feed
// the cluster store (current state), the series store (history, rebuilt for each opened cluster) and
// the window's views. Follows the store: opening a profile retargets everything.
class Monitoring final : public QObject {
    Q_OBJECT
public:
    Monitoring(pd::ClusterStore *store, pd::MainWindow *window, QObject *parent = nullptr);
    ~Monitoring() override;
    void start();

private:
    void retarget();

    pd::ClusterStore *m_store;
    pd::MainWindow *m_window;
    std::unique_ptr<pd::MetricsPoller> m_engines;
    std::unique_ptr<pd::ProxyHealthPoller> m_proxy;
    std::unique_ptr<pd::SeriesStore> m_series;
};
