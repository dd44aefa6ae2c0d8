// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QString>

#include <memory>
#include <optional>

// What one simulated vLLM engine is: its role, model, limits, timing model and start-up behaviour.
// Plain value type; the cluster mode fills one per engine, `pdsim engine` fills it from the command line.
namespace pd::sim {

class DpStepPace;

enum class EngineRole { Prefill, Decode };
enum class MetricsFlavor { V0_9_1, Main };

enum class FaultKind {
    None,
    Hang, // connections accepted, nothing answered, requests frozen
    Crash, // the process exits; an in-process engine closes its server and connections
    Http500, // /health 500, requests fail 500
    Slow, // faultMs added to every response
    MalformedMetrics, // truncated and garbled exposition
    Stall, // /health 200, running requests never finish, token counters stop
    KvStuck, // KV pulls from prefillers never complete: pulled requests wait forever, running ones finish
    KvPinned, // the KV cache reads ~99 % used and nothing moves (blocks never freed: a wedged engine)
    CutStream, // answers break mid-way: a stream after its first text chunk, closed without [DONE]
    BigMetrics, // a label-cardinality runaway: a valid exposition of ~6 MiB, over a poller's cap
};

QString faultKindName(FaultKind kind);
std::optional<FaultKind> faultKindFromName(QStringView name);
QString faultKindNames(); // "none, hang, ...": every name, for usage and error texts
QString engineRoleName(EngineRole role);

// Timing and capacity of the model (realistic-load.md §0, DeepSeek-R1 W8A8 on A3). Times in seconds.
struct ModelTiming {
    double prefillRate = 13000.0;       // R_p tokens/s per engine
    double prefillOverhead = 0.050;     // P0 per step
    double attentionGrowth = 30000.0;   // A: t ∝ n (1 + n/A)
    int prefillWarmupSteps = 3;         // first steps after start run slower
    double prefillWarmupFactor = 3.0;
    double decodeBase = 0.040;          // T0
    double decodePerSeq = 0.0016;       // k_b per running sequence
    double decodePerKContext = 0.00010; // k_c per 1k context tokens per sequence
    double mtpAcceptance = 0.80;        // α; 0 disables the MTP head
    int speculativeTokens = 1;          // 0: no spec-decode families
    double kvBytesPerToken = 71424.0;
    double kvBandwidth = 20e9;          // bytes/s P→D
    double kvTransferBase = 0.010;
    double kvFirstContact = 0.240;      // first pull from a given prefill engine
    bool jitter = true;                 // lognormal σ 0.05 per step + rare 0.2–1 s hiccups
};

struct EngineOptions {
    EngineRole role = EngineRole::Decode;
    QString model = QStringLiteral("deepseek_r1");
    QString modelPath;                  // `root` in /v1/models; the model name when empty
    int dpRank = 0;
    QHostAddress host = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0;                   // 0: any free port
    quint16 kvPort = 0;                 // remote_port handed to decoders; the HTTP port when 0
    int maxNumSeqs = 0;                 // 0: 4 for prefill, 28 for decode
    int maxNumBatchedTokens = 0;        // 0: 16384 for prefill, 256 for decode
    int maxModelLen = 32768;
    int numGpuBlocks = 0;               // 0: 782 prefill, 2344 decode (realistic-load §2.6)
    int blockSize = 128;
    MetricsFlavor flavor = MetricsFlavor::V0_9_1;
    double startupSeconds = 0.0;        // simulated seconds with nothing listening
    double timeScale = 1.0;             // simulated seconds per real second
    FaultKind fault = FaultKind::None;
    int faultMs = 0;                    // for FaultKind::Slow
    QByteArray apiKey;                  // when set, /v1/* needs "Authorization: Bearer KEY"
    quint64 seed = 0;                   // 0: derived from port and rank
    QString logPath;                    // the engine's log file (vLLM's stdout + stderr); empty: none
    qint64 logCapBytes = 0;             // rotate to <logPath>.1 beyond this; 0: 64 MiB
    int hcclExecTimeoutSeconds = 1800;  // HCCL_EXEC_TIMEOUT: a hang or stall logs its timeout after this
    ModelTiming timing;
    // A rank of a coupled DP group: the group's shared step pace and this rank's slot in it (none: the
    // engine steps alone).
    std::shared_ptr<DpStepPace> stepPace;
    int stepPaceSlot = -1;

    int effectiveMaxNumSeqs() const;
    int effectiveMaxBatchedTokens() const;
    int effectiveNumGpuBlocks() const;
};

} // namespace pd::sim
