// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineoptions.h"

#include <QByteArray>
#include <QList>

// The text a vLLM(-Ascend) OpenAI server writes to its log (stdout and stderr, as the launcher's
// `> log 2>&1` merges them), one function per moment of its life. Pure: no clock, no file; the
// caller passes the wall time (ms since the epoch) and the facts. Two generations:
//   0.9.1  `INFO 12-01 18:53:05 [loggers.py:118] Engine 000: Avg prompt throughput: ...`
//   main   `(APIServer pid=4711) INFO 12-01 18:53:05 [loggers.py:271] Engine 000: ...`
// uvicorn's own lines keep its format (`INFO:     127.0.0.1:5000 - "GET /metrics HTTP/1.1" 200 OK`).
// The failure texts carry the spec's signatures (ascend-node-tools.md §3) so that the console's
// LogMatcher diagnoses them: a crash #24 (device task failure), an engine dead behind 500s #15 (error
// CQE), a hang or stall past HCCL_EXEC_TIMEOUT #14, a broken DP group's survivors #8 and #14, a DP group
// that never formed #19; a metrics exception is a generic Python error.
namespace pd::sim {

struct VllmStartupFacts {
    QByteArray host;
    quint16 port = 0;
    QByteArray model; // served name
    QByteArray modelPath; // the weights
    EngineRole role = EngineRole::Decode;
    int maxModelLen = 0;
    int maxNumSeqs = 0;
    int maxBatchedTokens = 0;
    int numGpuBlocks = 0;
    int blockSize = 128;
    int speculativeTokens = 0;
    double loadSeconds = 0; // simulated start-up
};

struct VllmStatsInterval {
    double promptThroughput = 0; // tokens per (simulated) second over the interval
    double generationThroughput = 0;
    int running = 0;
    int waiting = 0;
    double kvUsage = 0; // 0..1
    double prefixHitRate = 0; // 0..1
    double drafts = 0; // speculative decoding in the interval: draft steps, draft tokens, accepted
    double draftTokens = 0;
    double accepted = 0;
    double seconds = 10;
};

class VllmLogText final {
public:
    VllmLogText(MetricsFlavor flavor, qint64 pid, int dpRank);

    QList<QByteArray> startBegin(const VllmStartupFacts &facts, qint64 now) const; // process start .. weights loading
    QList<QByteArray> startListening(const VllmStartupFacts &facts, qint64 now) const; // KV cache .. startup complete
    QByteArray access(
        QByteArrayView peer, QByteArrayView method, QByteArrayView target, int status, QByteArrayView reason) const;
    QList<QByteArray> stats(const VllmStatsInterval &interval, qint64 now) const;
    QList<QByteArray> crash(qint64 now) const;
    QList<QByteArray> engineDead(qint64 now) const; // http500: the EngineCore died, the server answers 500
    QList<QByteArray> execTimeout(qint64 now, int timeoutSeconds) const; // hang / stall past HCCL_EXEC_TIMEOUT
    // A coupled DP group (dp-groups.md): the rendezvous at the DP master timed out with `joined` of `size`
    // ranks there (a distributed-initialisation error, #19's wrapper under it), and the watchdog of a rank
    // blocked in a collective whose peer died (#8's EI0006, then #14's watchdog line).
    QList<QByteArray> dpJoinTimeout(qint64 now, int timeoutSeconds, int joined, int size, QByteArrayView master) const;
    QList<QByteArray> dpWatchdogTimeout(qint64 now, qint64 seqNum, qint64 timeoutMs, qint64 ranMs, int deadRank) const;
    QList<QByteArray> metricsException(qint64 now) const;
    QList<QByteArray> shutdownBegin(qint64 now, bool connectionsOpen) const;
    QList<QByteArray> shutdownEnd(qint64 now) const;

private:
    enum class Process { ApiServer, EngineCore };
    QByteArray line(const char *level, Process process, const char *where, const QByteArray &message, qint64 now) const;
    QByteArray uvicorn(const char *level, const QByteArray &message) const;
    QByteArray prefix(Process process) const;
    void traceback(QList<QByteArray> &out, Process process, const char *where, qint64 now,
        std::initializer_list<const char *> frames) const;
    // Where the EngineCore reports a fatal error (vllm/v1/engine/core.py), and its lines and traceback.
    static constexpr const char *kCoreErrorWhere = "core.py:517";
    QByteArray coreError(const QByteArray &message, qint64 now) const;
    void coreTraceback(QList<QByteArray> &out, qint64 now, std::initializer_list<const char *> frames) const;
    // Where the API server's output handler reports that the EngineCore died (vllm/v1/engine/async_llm.py).
    static constexpr const char *kOutputHandlerWhere = "async_llm.py:420";
    QByteArray outputHandlerError(const QByteArray &message, qint64 now) const;
    void outputHandlerTraceback(QList<QByteArray> &out, qint64 now, std::initializer_list<const char *> frames) const;

    MetricsFlavor m_flavor;
    qint64 m_pid;
    int m_dpRank;
};

} // namespace pd::sim
