// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/dpgroups.h"
#include "clustersim/clusteroptions.h"
#include "clustersim/engineshard.h"
#include "http/httpserver.h"
#include "proxy/proxyoptions.h"

#include <QList>
#include <QObject>
#include <QThread>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

// Every engine and the proxy of a profile in one process (`pdsim cluster`). Engines are sharded over
// worker threads (one Qt event loop per ~64 engines, each with one wake-up timer); the proxy, the
// control API and the background load live in the thread that owns the SimCluster.
//
// Control API (HTTP, JSON) on the proxy's address, port controlPort():
//   GET  /cluster                      proxy, load statistics, every engine with status and counters,
//                                      every DP group ("groups": id, role, coupled, state, ranks, ...)
//   POST /cluster/engines/start        {"engines": ["host:port", ...]} | {"node": "d1"} | {"all": true}
//                                      | {"group": "decode@127.0.0.6:13395"}
//   POST /cluster/engines/stop         same selection; stops like a killed process
//   POST /cluster/engines/fault        same selection + {"kind": "stall", "ms": 0}
//   POST /cluster/proxy/stop|start     the proxy process goes away / restarts (forgetting runtime adds)
//   POST /cluster/load                 {"rps": 2.5}
// "host:port" is where the engine listens (after --loopback) or its address in the profile.
// The ranks of a coupled DP group live and die together (DpGroupCoordinator, docs/pdsim-engine.md "DP
// groups"): a rank's start joins the group's rendezvous (not listening until every rank started), a
// stop or crash of one rank freezes the others until the watchdog takes them down.
// With ClusterOptions::logDir every engine and the proxy write their logs where the console's
// launcher would put them with run_dir = logDir (core/ops/launchspec: engines/<node>-<port>.log,
// proxy/proxy-<port>.log), so the console's log tail reads them through its normal path.
namespace pd::sim {

class DpGroupCoordinator;
class LoadGenerator;
class LogFile;
class SimProxy;

struct ClusterEngine {
    QString listenId;   // where it listens, "127.0.0.6:9000"
    QString profileId;  // as the profile names it, "192.0.0.5:9000"
    QString node;
    EngineRole role = EngineRole::Decode;
    int dpRank = 0;
    int shard = 0;
};

class SimCluster final : public QObject {
    Q_OBJECT
public:
    explicit SimCluster(ClusterOptions options, QObject *parent = nullptr);
    ~SimCluster() override;

    bool start(QString *error);
    void shutdown();

    const QList<ClusterEngine> &engines() const { return m_engines; }
    QString proxyAddress() const;        // "host:port"
    quint16 controlPort() const;
    bool isReady() const { return m_announced; }
    // Thread-safe reads of the engines (blocks briefly on each worker thread).
    QList<EngineSnapshot> snapshot() const;

Q_SIGNALS:
    void ready(const QString &proxyAddress, int engines);
    void message(const QString &line);

private:
    void handleControl(const HttpRequest &request, const HttpResponderPtr &responder);
    QList<int> select(const QByteArray &body, QString *error) const;
    // The profile's instance lists, or `lists` (prefill, decode) as a console restarting a proxy that has
    // no /instances API passes them: the process a real operator would start with other arguments.
    bool startProxy(QString *error, const std::optional<QPair<QStringList, QStringList>> &lists = std::nullopt);
    void stopProxy();
    bool openLogs(QString *error);
    void checkReady();
    QByteArray stateJson() const;
    // The running proxy's command line as a JSON array of words (null while no proxy runs).
    nlohmann::json proxyArgumentsJson() const;
    std::string groupId(int index) const;
    std::string rankState(int index) const;
    void startEngine(int index);
    void stopEngine(int index);

    ClusterOptions m_options;
    AddressMap m_addresses;
    QList<ClusterEngine> m_engines;
    QList<QThread *> m_threads;
    QList<EngineShard *> m_shards;
    std::unique_ptr<SimProxy> m_proxy;
    int m_proxyStarts = 0; // reported in GET /cluster: a test sees whether anyone restarted the proxy
    std::unique_ptr<LogFile> m_proxyLog;
    ProxyOptions m_proxyOptions;
    HttpServer m_control;
    LoadGenerator *m_load = nullptr;
    pd::DpGroups m_groups;
    DpGroupCoordinator *m_coordinator = nullptr;
    QList<bool> m_isReady;
    int m_ready = 0;
    bool m_announced = false;
};

} // namespace pd::sim
