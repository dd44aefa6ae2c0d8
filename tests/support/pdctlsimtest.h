// SPDX-License-Identifier: MIT
#pragma once
// The base of the tests that run the built pdctl against `pdsim cluster` as a child process: the cluster,
// its control address once the test has started it, a temporary directory for audit logs and exports,
// and the profile both are given. Header-only; the test class adds Q_OBJECT and its own slots.

#include "httpcall.h"
#include "pdsimcluster.h"

#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

namespace pd::test {

class PdctlSimTest : public QObject {
protected:
    explicit PdctlSimTest(QString profile)
        : m_profile(std::move(profile))
    {
    }

    // The simulated cluster's state (GET /cluster); discarded JSON when it did not answer.
    nlohmann::json cluster()
    {
        const QByteArray body = httpCall("GET", m_sim.controlUrl(QStringLiteral("/cluster"))).body;
        return nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    }
    // Decode engines the simulated cluster has serving.
    int runningDecode()
    {
        int n = 0;
        const nlohmann::json state = cluster();
        if (state.is_object())
            for (const nlohmann::json &e : state["engines"])
                n += e.value("role", std::string()) == "decode" && e.value("status", std::string()) == "ready";
        return n;
    }
    // Decode instances the proxy at `healthUrl` lists (draining ones included), from its /healthcheck.
    static int listedDecode(const QString &healthUrl)
    {
        const QByteArray body = httpCall("GET", healthUrl).body;
        const nlohmann::json j
            = nlohmann::json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
        return j.is_object() ? j.value("decode_instances", -1) : -1;
    }

    PdsimCluster m_sim;
    QString m_control; // "host:port" of pdsim's control API, set once it is ready
    QTemporaryDir m_dir;
    const QString m_profile;
};

} // namespace pd::test
