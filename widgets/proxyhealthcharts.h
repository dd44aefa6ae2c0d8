// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace pd {

class CanaryHistory;
class ProxyHealthHistory;
class TimeSeriesChart;

// The proxy's /healthcheck over time, for the Pools dashboard: requests in flight (request_num) and
// the prefill / decode instance counts, side by side, over the dashboard's time range. A proxy that
// did not answer is a gap; one too old to report request_num says so instead of drawing zeros.
// Beside them the canary's success rate and end-to-end latency: what a client got (canaryprobe.h).
class ProxyHealthCharts final : public QWidget {
    Q_OBJECT
public:
    explicit ProxyHealthCharts(QWidget *parent = nullptr);

    void setHistory(const ProxyHealthHistory *history); // nullptr: nothing to show
    void setCanaryHistory(const CanaryHistory *history, bool enabled); // nullptr or off: says so
    void refresh(qint64 fromMs, qint64 toMs);

    TimeSeriesChart *requestsChart() const { return m_requests; }
    TimeSeriesChart *instancesChart() const { return m_instances; }

private:
    const ProxyHealthHistory *m_history = nullptr;
    TimeSeriesChart *m_requests;
    TimeSeriesChart *m_instances;
    const CanaryHistory *m_canary = nullptr;
    bool m_canaryEnabled = false;
    TimeSeriesChart *m_canaryRate;
    TimeSeriesChart *m_canaryLatency;
};

} // namespace pd
