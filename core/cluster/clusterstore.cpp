// SPDX-License-Identifier: MIT
#include "cluster/clusterstore.h"

namespace pd {

ClusterStore::ClusterStore(QObject *parent)
    : QObject(parent)
{
}

void ClusterStore::setProfile(const Profile &profile, const QString &path)
{
    m_profile = profile;
    m_engines = profile.engines();
    m_observations = QList<EngineObservation>(m_engines.size());
    m_issues = validateProfile(profile);
    m_path = path;
    m_hasProfile = true;
    Q_EMIT profileChanged();
}

void ClusterStore::clear()
{
    m_profile = Profile();
    m_engines.clear();
    m_observations.clear();
    m_issues.clear();
    m_path.clear();
    m_hasProfile = false;
    Q_EMIT profileChanged();
}

void ClusterStore::revalidate()
{
    if (!m_hasProfile)
        return;
    m_issues = validateProfile(m_profile);
    Q_EMIT issuesChanged();
}

int ClusterStore::errorCount() const
{
    int n = 0;
    for (const ValidationIssue &issue : m_issues)
        n += issue.severity == Severity::Error ? 1 : 0;
    return n;
}

int ClusterStore::warningCount() const
{
    return int(m_issues.size()) - errorCount();
}

} // namespace pd

namespace pd {

void ClusterStore::applyPollBatch(const PollBatch &batch)
{
    QList<int> changed;
    changed.reserve(batch.outcomes.size());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const PollOutcome &outcome : batch.outcomes) {
        if (outcome.engine < 0 || outcome.engine >= m_observations.size())
            continue;
        EngineObservation &o = m_observations[outcome.engine];
        o.polled = true;
        o.last.assignWithoutMetrics(outcome);
        o.lastAt = now;
        if (outcome.status == PollStatus::Ok) {
            o.lastOkAt = now;
            o.lastGood = outcome.metrics;
            o.consecutiveFailures = 0;
        } else {
            ++o.consecutiveFailures;
        }
        changed.append(outcome.engine);
    }
    if (!changed.isEmpty())
        Q_EMIT enginesObserved(changed);
}

} // namespace pd
