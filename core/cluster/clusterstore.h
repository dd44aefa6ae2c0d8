// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "cluster/profilevalidator.h"

#include <QObject>
#include <QString>

// The one source of live truth on the GUI thread: the opened profile (the desired cluster), its
// validation, and (as later parts land) what is observed of every node and engine.
// Views and models read it and listen to its signals; services write to it.
namespace pd {

class ClusterStore final : public QObject {
    Q_OBJECT
public:
    explicit ClusterStore(QObject *parent = nullptr);

    // Replaces the cluster (a different profile was opened): models reset.
    void setProfile(const Profile &profile, const QString &path);
    void clear();

    bool hasProfile() const { return m_hasProfile; }
    const Profile &profile() const { return m_profile; }
    const QList<Engine> &engines() const { return m_engines; }
    QString profilePath() const { return m_path; }
    const QList<ValidationIssue> &issues() const { return m_issues; }
    int errorCount() const;
    int warningCount() const;

Q_SIGNALS:
    void profileChanged();

private:
    Profile m_profile;
    QList<Engine> m_engines;
    QList<ValidationIssue> m_issues;
    QString m_path;
    bool m_hasProfile = false;
};

} // namespace pd
