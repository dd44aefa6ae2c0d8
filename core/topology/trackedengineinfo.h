// SPDX-License-Identifier: MIT
#pragma once

#include "topology/engineinfoprovider.h"

// The topology's tooltips and metric colours once the derived-state tracker runs: state, since and
// evidence from StateTracker (the derived state, never a second opinion), figures and the last error
// from ObservedStates (last good scrape, series store). GUI thread.
namespace pd {

class ObservedStates;
class StateTracker;

class TrackedEngineInfo final : public EngineInfoProvider {
public:
    TrackedEngineInfo(const StateTracker *tracker, const ObservedStates *observed);

    EngineSummary summary(int engine) const override;
    double metricValue(int engine, Metric metric) const override;

private:
    const StateTracker *m_tracker;
    const ObservedStates *m_observed;
};

} // namespace pd
