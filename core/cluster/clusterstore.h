// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "cluster/profilevalidator.h"
#include "net/polltypes.h"

#include <QObject>
#include <QDateTime>
#include <QString>

#include <optional>

// The one source of live truth on the GUI thread: the opened profile (the desired cluster), its
// validation, and what is observed of every engine (its latest poll outcome and metrics).
// Views and models read it and listen to its signals; services write to it.
namespace pd {

// What the console last observed of one engine over HTTP: the poller's outcome and the last good
// metrics. Facts carry their time; the state shown to the operator is derived from them.
struct EngineObservation {
    EngineObservation() {} // not value-initialised: no 8 KB memset per engine for two disengaged metrics
    bool polled = false;            // any outcome yet
    PollOutcome last; // the latest outcome, without its metrics (lastGood has them)
    QDateTime lastAt;               // when the latest outcome arrived
    QDateTime lastOkAt;             // when /metrics last parsed
    std::optional<EngineMetrics> lastGood;
    int consecutiveFailures = 0;
};


class ClusterStore final : public QObject {
    Q_OBJECT
public:
    explicit ClusterStore(QObject *parent = nullptr);

    // Replaces the cluster (a different profile was opened): models reset.
    void setProfile(const Profile &profile, const QString &path);
    void clear();
    // Validates the profile again and announces the issues (issuesChanged), leaving everything that
    // hangs on profileChanged alone: running operations, pollers and the state are not reset.
    void revalidate();

    bool hasProfile() const { return m_hasProfile; }
    const Profile &profile() const { return m_profile; }
    const QList<Engine> &engines() const { return m_engines; }
    QString profilePath() const { return m_path; }
    const QList<ValidationIssue> &issues() const { return m_issues; }
    int errorCount() const;
    int warningCount() const;

    // Observed state, one entry per engine (same order as engines()).
    const QList<EngineObservation> &observations() const { return m_observations; }
    // Applies one poll round; emits enginesObserved once with the engines that changed.
    void applyPollBatch(const PollBatch &batch);

Q_SIGNALS:
    void profileChanged();      // a new profile (or none): everything derived from it starts over
    void issuesChanged();       // the same profile validated again
    void enginesObserved(const QList<int> &engines);

private:
    Profile m_profile;
    QList<Engine> m_engines;
    QList<ValidationIssue> m_issues;
    QList<EngineObservation> m_observations;
    QString m_path;
    bool m_hasProfile = false;
};

} // namespace pd
