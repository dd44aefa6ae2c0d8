// SPDX-License-Identifier: MIT
#include "simlog/enginelog.h"

#include "http/httpserver.h"

#include <QCoreApplication>
#include <QDateTime>

#include <cmath>

namespace pd::sim {

namespace {

qint64 wallMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

EngineLog::EngineLog(
    const EngineOptions &options, EngineScheduler *scheduler, std::function<EngineLogSample()> sampler, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_scheduler(scheduler)
    , m_sampler(std::move(sampler))
    , m_file(options.logPath, options.logCapBytes > 0 ? options.logCapBytes : LogFile::kDefaultCap)
    , m_text(options.flavor, QCoreApplication::applicationPid(), options.dpRank)
{
    m_clientId = m_scheduler->registerClient(this);
    m_facts.host = options.host.toString().toUtf8();
    m_facts.port = options.port;
    m_facts.model = options.model.toUtf8();
    m_facts.modelPath = options.modelPath.toUtf8();
    m_facts.role = options.role;
    m_facts.maxModelLen = options.maxModelLen;
    m_facts.maxNumSeqs = options.effectiveMaxNumSeqs();
    m_facts.maxBatchedTokens = options.effectiveMaxBatchedTokens();
    m_facts.numGpuBlocks = options.effectiveNumGpuBlocks();
    m_facts.blockSize = options.blockSize;
    m_facts.speculativeTokens = options.timing.speculativeTokens;
    m_facts.loadSeconds = options.startupSeconds;
    m_execTimeout.setSingleShot(true);
    connect(&m_execTimeout, &QTimer::timeout, this, &EngineLog::execTimedOut);
}

EngineLog::~EngineLog()
{
    m_scheduler->unregisterClient(m_clientId);
}

bool EngineLog::open(QString *error)
{
    return m_file.open(error);
}

void EngineLog::write(const QList<QByteArray> &lines)
{
    for (const QByteArray &l : lines)
        m_file.append(l);
}

void EngineLog::processStarted()
{
    m_file.rotate();
    m_alive = true;
    m_crashed = false;
    m_hung = false;
    m_shuttingDown = false;
    m_metricsExceptionWritten = false;
    write(m_text.startBegin(m_facts, wallMs()));
}

void EngineLog::listening(quint16 port)
{
    m_facts.port = port;
    write(m_text.startListening(m_facts, wallMs()));
    m_last = m_sampler();
    m_lastTickMs = m_scheduler->nowMs();
}

void EngineLog::access(QByteArrayView peer, QByteArrayView method, QByteArrayView target, int status)
{
    m_file.append(m_text.access(peer, method, target, status, HttpServer::reasonPhrase(status)));
}

void EngineLog::arm()
{
    if (m_armed || !m_alive || m_hung)
        return;
    m_armed = true;
    const double realMs = kStatsIntervalSeconds / std::max(1e-9, m_options.timeScale) * 1000.0;
    m_scheduler->wakeIn(m_clientId, qint64(std::ceil(realMs)));
}

void EngineLog::activity()
{
    if (!m_armed)
        m_lastTickMs = m_scheduler->nowMs(); // the interval starts now
    arm();
}

void EngineLog::wake()
{
    m_armed = false;
    if (!m_alive || m_hung)
        return;
    const EngineLogSample now = m_sampler();
    const qint64 nowMs = m_scheduler->nowMs();
    const double seconds = std::max(1e-6, double(nowMs - m_lastTickMs) / 1000.0 * std::max(1e-9, m_options.timeScale));
    VllmStatsInterval s;
    s.seconds = seconds;
    s.promptThroughput = std::max(0.0, now.promptTokens - m_last.promptTokens) / seconds;
    s.generationThroughput = std::max(0.0, now.generationTokens - m_last.generationTokens) / seconds;
    s.running = now.running;
    s.waiting = now.waiting;
    s.kvUsage = now.kvUsage;
    s.prefixHitRate = now.prefixQueries > 0 ? now.prefixHits / now.prefixQueries : 0.0;
    s.drafts = std::max(0.0, now.specDrafts - m_last.specDrafts);
    s.draftTokens = std::max(0.0, now.specDraftTokens - m_last.specDraftTokens);
    s.accepted = std::max(0.0, now.specAccepted - m_last.specAccepted);
    const bool busy = s.promptThroughput > 0 || s.generationThroughput > 0 || s.running > 0 || s.waiting > 0;
    if (busy || m_lastWasBusy)
        write(m_text.stats(s, wallMs()));
    m_lastWasBusy = busy;
    m_last = now;
    m_lastTickMs = nowMs;
    if (busy)
        arm();
}

void EngineLog::faultChanged(FaultKind kind)
{
    const qint64 now = wallMs();
    const bool frozen = kind == FaultKind::Hang || kind == FaultKind::Stall;
    m_hung = kind == FaultKind::Hang; // the server's event loop is stuck: not even the stats line
    if (m_hung) {
        m_scheduler->cancel(m_clientId);
        m_armed = false;
    }
    if (frozen && !m_execTimeout.isActive()) {
        const double realMs = m_options.hcclExecTimeoutSeconds / std::max(1e-9, m_options.timeScale) * 1000.0;
        m_execTimeout.start(int(std::clamp(realMs, 1.0, 2e9)));
    } else if (!frozen) {
        m_execTimeout.stop();
    }
    if (kind != FaultKind::MalformedMetrics)
        m_metricsExceptionWritten = false;
    switch (kind) {
    case FaultKind::Crash:
        died(m_text.crash(now));
        break;
    case FaultKind::Http500:
        write(m_text.engineDead(now));
        break;
    case FaultKind::None:
        activity();
        break;
    default:
        break;
    }
}

void EngineLog::died(const QList<QByteArray> &lines)
{
    write(lines);
    m_execTimeout.stop();
    m_crashed = true;
    m_alive = false;
    m_scheduler->cancel(m_clientId);
    m_armed = false;
    m_file.flush(); // `pdsim engine` exits right after
}

void EngineLog::dpJoinTimedOut(int timeoutSeconds, int joined, int size, QByteArrayView master)
{
    died(m_text.dpJoinTimeout(wallMs(), timeoutSeconds, joined, size, master));
}

void EngineLog::dpWatchdogFired(qint64 seqNum, qint64 timeoutMs, qint64 ranMs, int deadRank)
{
    died(m_text.dpWatchdogTimeout(wallMs(), seqNum, timeoutMs, ranMs, deadRank));
}

void EngineLog::execTimedOut()
{
    write(m_text.execTimeout(wallMs(), m_options.hcclExecTimeoutSeconds));
}

void EngineLog::metricsServed()
{
    if (m_metricsExceptionWritten)
        return;
    m_metricsExceptionWritten = true;
    write(m_text.metricsException(wallMs()));
}

void EngineLog::shutdownBegin(bool connectionsOpen)
{
    if (m_shuttingDown || !m_alive)
        return;
    m_shuttingDown = true;
    write(m_text.shutdownBegin(wallMs(), connectionsOpen));
}

void EngineLog::stopped()
{
    m_execTimeout.stop();
    m_scheduler->cancel(m_clientId);
    m_armed = false;
    if (m_alive && !m_crashed) {
        shutdownBegin(false);
        write(m_text.shutdownEnd(wallMs()));
    }
    m_alive = false;
    m_file.flush();
}

} // namespace pd::sim
