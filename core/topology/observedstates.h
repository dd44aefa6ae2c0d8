// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/clusterstore.h"
#include "topology/engineinfoprovider.h"

#include <QObject>
#include <QVector>

// Engine states from what the ClusterStore observes over HTTP, until the derived-state tracker (core/
// state) replaces it: ok -> Serving (Unhealthy when /health is 5xx), refused / timeout / transport
// error -> Unreachable, HTTP error or unparsable /metrics -> Unhealthy, never polled -> Unknown.
// It also answers the topology's tooltips and metric colours (last good scrape; generation tokens/s
// from the series store when one is set). GUI thread only.
namespace pd {

class SeriesStore;

EngineState stateFromObservation(const EngineObservation &observation);

class ObservedStates final : public QObject, public EngineInfoProvider {
    Q_OBJECT
public:
    explicit ObservedStates(ClusterStore *store, QObject *parent = nullptr);

    void setSeriesStore(const SeriesStore *series) { m_series = series; }
    const QVector<EngineState> &states() const { return m_states; }

    EngineSummary summary(int engine) const override;
    double metricValue(int engine, Metric metric) const override;

Q_SIGNALS:
    void statesReset(const QVector<EngineState> &states); // a different cluster
    void statesChanged(const QList<int> &engines); // one batch per poll round, changed ones only
    void roundObserved(); // after every round (metrics moved)

private:
    void reset();
    void observe(const QList<int> &engines);

    ClusterStore *m_store;
    const SeriesStore *m_series = nullptr;
    QVector<EngineState> m_states;
    QVector<QDateTime> m_since;
};

} // namespace pd
