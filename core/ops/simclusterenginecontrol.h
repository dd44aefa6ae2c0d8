// SPDX-License-Identifier: MIT
#pragma once

#include "ops/scaleenginecontrol.h"

#include <QUrl>

#include <nlohmann/json_fwd.hpp>

class QNetworkAccessManager;

// EngineControl over `pdsim cluster`'s control API (sim/clustersim/simcluster.h):
// POST /cluster/engines/start|stop {"engines":["host:port"]}, POST /cluster/proxy/start|stop, GET
// /cluster for process states ("proxy_running" for the proxy's, "proxy_arguments" for its command line).
namespace pd {

class SimClusterEngineControl final : public EngineControl {
    Q_OBJECT
public:
    explicit SimClusterEngineControl(const QUrl &controlBase, QObject *parent = nullptr);

    void preflight(const EngineRef &engine, PreflightDone done) override;
    void start(const EngineRef &engine, Done done) override;
    void stop(const EngineRef &engine, Done done) override;
    void isRunning(const EngineRef &engine, RunningDone done) override;
    void startProxy(Done done) override;
    void startProxyWith(const ProxyLists &lists, Done done) override;
    void stopProxy(Done done) override;
    void isProxyRunning(RunningDone done) override;
    void proxyCommandLine(CommandLineDone done) override;
    QString describe() const override;

    void setTimeout(int ms) { m_timeoutMs = ms; }

private:
    // POSTs `body`; `what` names the subject in errors (an engine id, "the proxy").
    void post(const QString &path, const QByteArray &body, const QString &what, Done done);
    void post(const QString &path, const EngineRef &engine, Done done);
    // GET /cluster: the whole state (a JSON object with "engines") or an error.
    void clusterState(std::function<void(const nlohmann::json &state, const QString &error)> done);
    // GET /cluster, the engine's object (status, node) or an error.
    void engineState(const EngineRef &engine,
        std::function<void(const QString &status, const QString &node, const QString &error)> done);

    QNetworkAccessManager *m_network;
    QUrl m_base;
    int m_timeoutMs = 5000;
};

} // namespace pd
