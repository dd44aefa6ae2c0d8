// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QTimer>

#include <cstdint>

namespace pd {
class ClusterStore;
class StateTracker;
} // namespace pd
class Monitoring;

// The soak's hook (bench/soak.sh, bench_soak): with PDCONSOLE_SOAK_DIR set, the console writes what it
// measures of itself into that folder while it runs; without the variable nothing is installed.
//   samples.csv  every 10 s: wall ms, resident set (KiB), the series store's bytes (rings + state),
//                the longest GUI event-loop stall of the window (a 5 ms precise timer's lateness),
//                polls answered and failed in the window, engines Serving
//   events.csv   as they happen: wall ms, then "state,<engine id>,<state>" for every derived-state
//                change, "proxy,<reachable|unreachable>" when the proxy's reachability changes,
//                "poll-failed,<engine id>,<error>" for every failed /metrics poll, and once
//                "startup,first-paint,<ms>": the time from the probe's installation to the first frame,
//                after which the stall clock starts
class SoakProbe final : public QObject {
    Q_OBJECT
public:
    static void installIfAsked(pd::ClusterStore *store, pd::StateTracker *tracker, Monitoring *monitoring);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    SoakProbe(const QString &dir, pd::ClusterStore *store, pd::StateTracker *tracker, Monitoring *monitoring);
    void tick();
    void sample();
    void observed(const QList<int> &engines);
    void statesChanged(const QList<int> &engines);
    void proxyChanged();
    void event(const QString &line);

    pd::ClusterStore *m_store;
    pd::StateTracker *m_tracker;
    Monitoring *m_monitoring;
    QFile m_samples;
    QFile m_events;
    QTimer m_tick;
    QTimer m_sampleTimer;
    QElapsedTimer m_sinceTick;
    QElapsedTimer m_sinceInstall;
    double m_stallMaxMs = 0;
    std::int64_t m_pollsOk = 0;
    std::int64_t m_pollsFailed = 0;
    int m_proxyReachable = -1; // unknown
};
