// SPDX-License-Identifier: MIT
#include "topology/trackedengineinfo.h"

#include "cluster/clusterstore.h"
#include "metrics/seriesstore.h"
#include "state/statetracker.h"

#include <cmath>

namespace pd {

TrackedEngineInfo::TrackedEngineInfo(const StateTracker *tracker, const ClusterStore *store)
    : m_tracker(tracker)
    , m_store(store)
{
}

EngineSummary TrackedEngineInfo::summary(int engine) const
{
    EngineSummary s;
    if (engine < 0 || engine >= m_tracker->engineCount() || engine >= m_store->observations().size())
        return s;
    const DerivedState derived = m_tracker->derived(engine);
    s.state = derived.state;
    const std::int64_t since = m_tracker->stateSinceMs(engine);
    s.since = since > 0 ? QDateTime::fromMSecsSinceEpoch(since) : QDateTime();
    s.evidence = derived.reason;
    if (!derived.evidence.isEmpty())
        s.evidence += QStringLiteral(" — ") + derived.evidence.join(QStringLiteral("; "));

    const EngineObservation &o = m_store->observations().at(engine);
    if (o.polled && !o.last.error.isEmpty())
        s.lastError = o.last.error;
    if (m_series && engine < m_series->engineCount() && s.lastError.isEmpty()) {
        const EngineStatus &status = m_series->status(engine);
        if (status.lastError)
            s.lastError = status.lastError->message;
    }
    // Figures of an engine that no longer answers are its last good scrape: say so.
    const QString stale = o.polled && o.last.status != PollStatus::Ok && o.lastOkAt.isValid()
        ? tr(" (at %1)").arg(o.lastOkAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")))
        : QString();
    const auto add = [&s, &stale](const QString &label, double value, const QString &format) {
        if (!std::isnan(value))
            s.metrics.append({ label, format.arg(value, 0, 'f', value == std::floor(value) ? 0 : 1) + stale });
    };
    add(tr("running"), metricValue(engine, Metric::Running), QStringLiteral("%1"));
    add(tr("waiting"), metricValue(engine, Metric::Waiting), QStringLiteral("%1"));
    add(tr("KV cache"), metricValue(engine, Metric::KvUsage) * 100.0, QStringLiteral("%1 %"));
    add(tr("generation"), metricValue(engine, Metric::GenerationTokensRate), QStringLiteral("%1 tok/s"));
    add(tr("prompt"), metricValue(engine, Metric::PromptTokensRate), QStringLiteral("%1 tok/s"));
    return s;
}

double TrackedEngineInfo::metricValue(int engine, Metric metric) const
{
    if (engine < 0 || engine >= m_store->observations().size())
        return kAbsent;
    if (m_series && engine < m_series->engineCount()) {
        const float v = m_series->latest(SeriesId::forEngine(engine, metric));
        if (!std::isnan(v))
            return v;
    }
    const std::optional<EngineMetrics> &m = m_store->observations().at(engine).lastGood;
    if (!m)
        return kAbsent;
    switch (metric) {
    case Metric::Running:
        return m->running;
    case Metric::Waiting:
        return m->waiting;
    case Metric::KvUsage:
        return m->kvUsage;
    default:
        return kAbsent;
    }
}

} // namespace pd
