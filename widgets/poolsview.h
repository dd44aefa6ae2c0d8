// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartmarker.h"
#include "metrics/seriesid.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace pd {

class CanaryHistory;
class ProxyHealthCharts;
class ProxyHealthHistory;
class SeriesStore;
class TimeSeriesChart;
struct ProxyHealth;

// The Pools dashboard over 5 min, 1 h or 24 h ending now: on top the proxy's /healthcheck (requests in
// flight, instances per pool); then prefill and decode side by side (requests running and waiting,
// finished requests per second, aborted and failed ones, queue time, token throughput, TTFT / TPOT /
// E2E p50 and p99, KV cache, prefix-cache hit rate, preemptions, MTP acceptance), each row on one y
// axis for both pools. Selecting an engine shows the same charts for that engine alone.
// Redraws once per ingested round, only while visible; every line is one seriesView() + one replace().
class PoolsView final : public QWidget {
    Q_OBJECT
public:
    explicit PoolsView(QWidget *parent = nullptr);

    void setSeriesStore(SeriesStore *store); // nullptr: nothing to show
    void setEngine(int engine, const QString &label); // -1: back to the pools
    void setRangeMs(qint64 rangeMs);
    void showProxyHealth(const ProxyHealth &health);
    void setProxyHistory(const ProxyHealthHistory *history); // nullptr: no proxy charts
    void setCanaryHistory(const CanaryHistory *history, bool enabled); // the canary charts beside them
    void refresh();
    // The operations' markers: column 0 (prefill) and column 1 (decode) get their pool's; in the
    // engine view both columns show that engine's.
    void setMarkers(const QList<ChartMarker> &prefill, const QList<ChartMarker> &decode);
    // Every line of every visible chart over the shown range, full resolution, one row per time.
    bool exportCsv(const QString &path, QString *error) const;

    int engine() const { return m_engine; }
    qint64 rangeMs() const { return m_rangeMs; }
    TimeSeriesChart *chart(int column, int row) const;
    ProxyHealthCharts *proxyCharts() const;
    static int rowCount();

private:
    struct Line {
        QString name;
        Metric metric;
        Agg poolAgg; // how the pool line aggregates
        Agg engineAgg; // the same line for one engine
        QColor color;
    };
    struct Row {
        QString title;
        double scale;
        QString unit;
        double minStep; // 1 for counts
        QList<Line> lines;
    };
    static const QList<Row> &rows();
    qint64 rangeEndMs() const;

    SeriesStore *m_store = nullptr;
    const ProxyHealthHistory *m_proxyHistory = nullptr;
    int m_engine = -1;
    qint64 m_rangeMs = 5 * 60 * 1000;
    QComboBox *m_range;
    QLabel *m_title;
    QLabel *m_proxy;
    QPushButton *m_back;
    QPushButton *m_export;
    ProxyHealthCharts *m_proxyCharts;
    QLabel *m_proxyTitle = nullptr;
    QList<QList<TimeSeriesChart *>> m_charts; // [column][row]
    QList<QLabel *> m_columnTitles;
};

} // namespace pd
