// SPDX-License-Identifier: MIT
#pragma once
// The base of the tests that run the built pdctl against `pdsim cluster` as a child process: the cluster,
// its control address once the test has started it, a temporary directory for audit logs and exports,
// and the profile both are given. Header-only; the test class adds Q_OBJECT and its own slots.

#include "pdsimcluster.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <utility>

namespace pd::test {

class PdctlSimTest : public QObject {
protected:
    explicit PdctlSimTest(QString profile)
        : m_profile(std::move(profile))
    {
    }

    PdsimCluster m_sim;
    QString m_control; // "host:port" of pdsim's control API, set once it is ready
    QTemporaryDir m_dir;
    const QString m_profile;
};

} // namespace pd::test
