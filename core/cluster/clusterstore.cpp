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
    m_issues = validateProfile(profile);
    m_path = path;
    m_hasProfile = true;
    Q_EMIT profileChanged();
}

void ClusterStore::clear()
{
    m_profile = Profile();
    m_engines.clear();
    m_issues.clear();
    m_path.clear();
    m_hasProfile = false;
    Q_EMIT profileChanged();
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
