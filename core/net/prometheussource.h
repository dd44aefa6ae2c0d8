// SPDX-License-Identifier: MIT
#pragma once

#include "net/prometheusfeed.h"

#include <QObject>
#include <QThread>

#include <string>
#include <vector>

// The GUI-thread face of the Prometheus data source: the console's charts fed from a Prometheus
// server that already scrapes the engines, instead of polling every engine itself. The network,
// JSON decoding (answers of several MB during the backfill) and round assembly run on the source's
// own thread (PrometheusFeed); deliveries arrive here by one queued signal each and are dropped when
// they belong to an older engine list. Destroying the source stops its thread.
namespace pd {

class PrometheusSource final : public PrometheusOutlet {
    Q_OBJECT
public:
    explicit PrometheusSource(const PrometheusSourceConfig &config, QObject *parent = nullptr);
    ~PrometheusSource() override;

    // One "host:port" per engine, in Profile::engines() order. Starts over (detection, backfill).
    void setEngines(const std::vector<std::string> &hostPorts);
    void start();
    void stop();

private:
    QThread m_thread;
    PrometheusFeed *m_feed; // lives in m_thread, deleted when it finishes
    quint64 m_generation = 0;
};

} // namespace pd
