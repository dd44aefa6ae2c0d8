// SPDX-License-Identifier: MIT
#pragma once

#include "topology/engineinfoprovider.h"

#include <QCoreApplication>

// What the topology's tooltips and metric colours show of one engine: its state, since when and why
// from the StateTracker (the one deriver of engine states), and its figures from the store's
// observations: the last good scrape (the token rates from the series store when one is set), marked
// with its time once the engine stops answering, and the latest error. GUI thread.
namespace pd {

class ClusterStore;
class SeriesStore;
class StateTracker;

class TrackedEngineInfo final : public EngineInfoProvider {
    Q_DECLARE_TR_FUNCTIONS(pd::TrackedEngineInfo)
public:
    TrackedEngineInfo(const StateTracker *tracker, const ClusterStore *store);

    void setSeriesStore(const SeriesStore *series) { m_series = series; }

    EngineSummary summary(int engine) const override;
    double metricValue(int engine, Metric metric) const override;

private:
    const StateTracker *m_tracker;
    const ClusterStore *m_store;
    const SeriesStore *m_series = nullptr;
};

} // namespace pd
