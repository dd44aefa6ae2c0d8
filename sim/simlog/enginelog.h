// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineoptions.h"
#include "engine/enginescheduler.h"
#include "simlog/logfile.h"
#include "simlog/vllmlogtext.h"

#include <QObject>
#include <QTimer>

#include <functional>

// What one simulated engine writes to its log file over its life (VllmLogText's lines): the start-up
// sequence in two parts (at process start and when it listens), uvicorn's access line per answered
// request, vLLM's stats line every 10 simulated seconds while it has work (plus one all-zero line after
// it goes idle, as vLLM does before it falls silent), the lines a real engine prints for each fault,
// and the shutdown lines. The stats tick is a client of the engine thread's EngineScheduler, armed only
// while there is something to report, so an idle engine has nothing pending.
// Thread contract: the engine's thread.
namespace pd::sim {

struct EngineLogSample {
    double promptTokens = 0;
    double generationTokens = 0;
    int running = 0;
    int waiting = 0;
    double kvUsage = 0;
    double prefixQueries = 0;
    double prefixHits = 0;
    double specDrafts = 0;
    double specDraftTokens = 0;
    double specAccepted = 0;
};

class EngineLog final : public QObject, private EngineScheduler::Client {
    Q_OBJECT
public:
    static constexpr double kStatsIntervalSeconds = 10.0; // VLLM_LOG_STATS_INTERVAL

    EngineLog(const EngineOptions &options, EngineScheduler *scheduler, std::function<EngineLogSample()> sampler,
        QObject *parent = nullptr);
    ~EngineLog() override;

    bool open(QString *error);
    LogFile &file() { return m_file; }

    void processStarted(); // a new process: the previous log moves to .1, the start-up begins
    void listening(quint16 port);
    void access(QByteArrayView peer, QByteArrayView method, QByteArrayView target, int status);
    void activity(); // a request arrived: report stats until the engine is idle again
    void faultChanged(FaultKind kind);
    void metricsServed(); // a /metrics answer went out (the malformed fault's exception, once)
    // The process exits because its DP group never formed / its group's collective timed out.
    void dpJoinTimedOut(int timeoutSeconds, int joined, int size, QByteArrayView master);
    void dpWatchdogFired(qint64 seqNum, qint64 timeoutMs, qint64 ranMs, int deadRank);
    void shutdownBegin(bool connectionsOpen);
    void stopped();

private:
    void wake() override;
    void write(const QList<QByteArray> &lines);
    void arm();
    void execTimedOut();
    void died(const QList<QByteArray> &lines);

    EngineOptions m_options;
    EngineScheduler *m_scheduler;
    EngineScheduler::ClientId m_clientId = -1;
    std::function<EngineLogSample()> m_sampler;
    LogFile m_file;
    VllmLogText m_text;
    VllmStartupFacts m_facts;
    QTimer m_execTimeout;
    EngineLogSample m_last;
    qint64 m_lastTickMs = 0;
    bool m_armed = false;
    bool m_lastWasBusy = false;
    bool m_hung = false;
    bool m_crashed = false;
    bool m_shuttingDown = false;
    bool m_metricsExceptionWritten = false;
    bool m_alive = false;
};

} // namespace pd::sim
