// SPDX-License-Identifier: MIT
#pragma once

#include "engineoptions.h"
#include "enginescheduler.h"
#include "enginestats.h"
#include "http/httpserver.h"

#include <QSet>
#include <QObject>
#include <QTimer>

#include <memory>
#include <unordered_map>

// One simulated vLLM OpenAI-compatible API server with its engine (vllm-metrics.md §4, realistic-load.md
// §2): a plain object owning its HttpServer, its LoadModel and its metrics, driven by the shared
// EngineScheduler of its thread. Many live in one process; none ticks while it has no work.
// Thread contract: create, use and destroy it in the thread of its scheduler.
namespace pd::sim {

class EngineLog;
class LoadModel;
class MetricsExposition;
class ScaledClock;

struct EngineState {
    bool listening = false;
    int running = 0;
    int waiting = 0;
    double finished = 0;
    double finishedStop = 0, finishedLength = 0, finishedAbort = 0, finishedError = 0;
    double promptTokens = 0;
    double generationTokens = 0;
    double kvUsage = 0;
    FaultKind fault = FaultKind::None;
    bool awaitingGroup = false; // started, waiting in its DP group's rendezvous (not listening)
    bool groupBlocked = false;  // its DP group broke: no step ends, /health still answers
    int openStreams = 0;
    double simTime = 0;
};

class SimEngine final : public QObject, private EngineScheduler::Client {
    Q_OBJECT
public:
    enum class Status { Stopped, Starting, Ready, Draining, Crashed };

    // scheduler: the thread's shared one; when null the engine makes its own.
    explicit SimEngine(const EngineOptions &options, EngineScheduler *scheduler = nullptr,
                       QObject *parent = nullptr);
    ~SimEngine() override;

    // Starts the simulated start-up; listening begins after options().startupSeconds (scaled).
    // With no start-up delay the port is bound at once and false means it could not be bound.
    bool start();
    // Stops at once like a killed process: server closed, connections dropped, state forgotten.
    void stop();
    // SIGTERM behaviour: stop accepting, let in-flight requests finish, then stopped(); after
    // graceMs the rest is dropped.
    void shutdown(int graceMs);

    void setFault(FaultKind kind, int ms = 0);

    // A rank of a coupled DP group (dp-groups.md; the cluster's DpGroupCoordinator drives these).
    // Gated: start() begins the process but it waits in the group's rendezvous, not listening, until
    // groupFormed(); only then does the simulated start-up (weights loading) run.
    void setGroupGated(bool gated) { m_groupGated = gated; }
    void groupFormed();
    // The group lost a rank: every step blocks in the next collective, exactly like the stall fault
    // (requests keep their state, new ones queue, /health 200), without changing fault().
    void setGroupBlocked(bool blocked);
    // The process exits: the rendezvous timed out (distributed-init error) / the collective's watchdog
    // fired (HCCL lines). Status becomes Crashed and crashed() is emitted.
    void exitJoinTimeout(int timeoutSeconds, int joined, int size, const QString &master);
    void exitWatchdog(int timeoutSeconds, int deadRank);
    FaultKind fault() const { return m_fault; }
    Status status() const { return m_status; }
    quint16 port() const;
    const EngineOptions &options() const { return m_options; }
    EngineState state() const;
    const EngineStats &stats() const { return *m_stats; }
    // The engine's log (options().logPath), null when it has none.
    EngineLog *log() const { return m_log.get(); }
    QByteArray renderMetrics();
    // The same text, into `out` (emptied first; its capacity is kept).
    void renderMetricsInto(QByteArray &out);
    QByteArray engineId() const { return m_engineId; }

Q_SIGNALS:
    void ready();
    void crashed();                 // FaultKind::Crash: the owning process should exit
    void stopped();                 // after shutdown() or stop()
    void failed(const QString &message);

private:
    struct Active;
    void wake() override;
    void listenNow();
    void beginStartup();
    void die();
    void resetSimulation();
    void handle(const HttpRequest &req, const HttpResponderPtr &res);
    void route(const HttpRequest &req, const HttpResponderPtr &res);
    void handleGeneration(const HttpRequest &req, const HttpResponderPtr &res, bool chat);
    void handleFault(const HttpRequest &req, const HttpResponderPtr &res);
    void reply(const HttpRequest &req, const HttpResponderPtr &res, int status,
               const QByteArray &contentType, const QByteArray &body);
    void recordHttp(const QByteArray &path, const QByteArray &method, int status,
                    qsizetype requestBytes, qsizetype responseBytes, double seconds);
    void processEvents();
    void scheduleWake();
    void checkDrained();
    void abortAll();
    // Ends one answer mid-way (the cut-stream fault): what was written stays, the connection closes.
    void cutOff(Active *a, quint64 id);
    int prefixCacheHits(const QByteArray &promptText);

    EngineOptions m_options;
    QByteArray m_engineId;
    EngineScheduler *m_scheduler = nullptr;
    std::unique_ptr<EngineScheduler> m_ownScheduler;
    EngineScheduler::ClientId m_clientId = -1;
    HttpServer *m_server = nullptr;
    std::unique_ptr<ScaledClock> m_clock;
    std::unique_ptr<EngineStats> m_stats;
    std::unique_ptr<LoadModel> m_model;
    std::unique_ptr<MetricsExposition> m_exposition;
    std::unique_ptr<EngineLog> m_log;
    QString m_logError;
    std::unordered_map<quint64, std::unique_ptr<Active>> m_active;
    QTimer m_startupTimer;
    QTimer m_graceTimer;
    Status m_status = Status::Stopped;
    FaultKind m_fault = FaultKind::None;
    int m_faultMs = 0;
    bool m_groupGated = false;
    bool m_awaitingGroup = false;
    bool m_groupBlocked = false;
    double m_startWall = 0;
    quint64 m_completionSeq = 0;
    QSet<quint64> m_prefixCache; // hashes of cached 128-token (512-byte) prompt blocks
};

} // namespace pd::sim
