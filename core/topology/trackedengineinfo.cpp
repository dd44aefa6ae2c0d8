// SPDX-License-Identifier: MIT
#include "topology/trackedengineinfo.h"

#include "state/statetracker.h"
#include "topology/observedstates.h"

namespace pd {

TrackedEngineInfo::TrackedEngineInfo(const StateTracker *tracker, const ObservedStates *observed)
    : m_tracker(tracker)
    , m_observed(observed)
{
}

EngineSummary TrackedEngineInfo::summary(int engine) const
{
    EngineSummary s = m_observed->summary(engine);
    if (engine < 0 || engine >= m_tracker->engineCount())
        return s;
    const DerivedState derived = m_tracker->derived(engine);
    s.state = derived.state;
    const std::int64_t since = m_tracker->stateSinceMs(engine);
    s.since = since > 0 ? QDateTime::fromMSecsSinceEpoch(since) : QDateTime();
    s.evidence = derived.reason;
    if (!derived.evidence.isEmpty())
        s.evidence += QStringLiteral(" — ") + derived.evidence.join(QStringLiteral("; "));
    return s;
}

double TrackedEngineInfo::metricValue(int engine, Metric metric) const
{
    return m_observed->metricValue(engine, metric);
}

} // namespace pd
