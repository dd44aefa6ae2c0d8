// SPDX-License-Identifier: MIT
#include "topology/observedstates.h"

#include "metrics/seriesstore.h"

namespace pd {

EngineState stateFromObservation(const EngineObservation &observation)
{
    if (!observation.polled)
        return EngineState::Unknown;
    switch (observation.last.status) {
    case PollStatus::Ok:
        return observation.last.healthStatus >= 500 ? EngineState::Unhealthy : EngineState::Serving;
    case PollStatus::Refused:
    case PollStatus::Timeout:
    case PollStatus::Failed:
        return EngineState::Unreachable;
    case PollStatus::HttpError:
    case PollStatus::Malformed:
        return EngineState::Unhealthy;
    }
    return EngineState::Unknown;
}

ObservedStates::ObservedStates(ClusterStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    connect(m_store, &ClusterStore::profileChanged, this, &ObservedStates::reset);
    connect(m_store, &ClusterStore::enginesObserved, this, &ObservedStates::observe);
    reset();
}

void ObservedStates::reset()
{
    const QList<EngineObservation> &observations = m_store->observations();
    m_states.resize(observations.size());
    m_since.fill(QDateTime(), observations.size());
    for (qsizetype i = 0; i < observations.size(); ++i) {
        m_states[i] = stateFromObservation(observations.at(i));
        if (observations.at(i).polled)
            m_since[i] = observations.at(i).lastAt;
    }
    Q_EMIT statesReset(m_states);
}

void ObservedStates::observe(const QList<int> &engines)
{
    const QList<EngineObservation> &observations = m_store->observations();
    if (observations.size() != m_states.size()) {
        reset();
        return;
    }
    QList<int> changed;
    for (int engine : engines) {
        if (engine < 0 || engine >= m_states.size())
            continue;
        const EngineState state = stateFromObservation(observations.at(engine));
        if (state == m_states.at(engine))
            continue;
        m_states[engine] = state;
        m_since[engine] = observations.at(engine).lastAt;
        changed.append(engine);
    }
    if (!changed.isEmpty())
        Q_EMIT statesChanged(changed);
    Q_EMIT roundObserved();
}

EngineSummary ObservedStates::summary(int engine) const
{
    EngineSummary s;
    if (engine < 0 || engine >= m_states.size())
        return s;
    const EngineObservation &o = m_store->observations().at(engine);
    s.state = m_states.at(engine);
    s.since = m_since.at(engine);
    if (o.polled) {
        s.evidence = o.last.status == PollStatus::Ok
            ? tr("/metrics %1 in %2 ms, /health %3")
                  .arg(o.last.httpStatus)
                  .arg(o.last.latencyMs, 0, 'f', 1)
                  .arg(o.last.healthStatus)
            : tr("%1 for %n poll(s)", nullptr, o.consecutiveFailures).arg(pollStatusName(o.last.status));
        if (!o.last.error.isEmpty())
            s.lastError = o.last.error;
    }
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

double ObservedStates::metricValue(int engine, Metric metric) const
{
    if (engine < 0 || engine >= m_states.size())
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
