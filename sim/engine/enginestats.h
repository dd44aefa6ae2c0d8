// SPDX-License-Identifier: MIT
#pragma once

#include "histogram.h"

#include <QByteArray>

#include <array>
#include <vector>

// Everything one engine reports on /metrics, as plain numbers. The load model moves the vLLM counters
// and histograms, the engine the HTTP and process figures; the exposition reads them by address.
namespace pd::sim {

enum class FinishReason { Stop = 0, Length = 1, Abort = 2, Error = 3 };

struct HttpSeries {
    QByteArray handler;
    QByteArray method;
    QByteArray status; // "2xx", "4xx", "5xx"
    double requests = 0;
    double created = 0;
};

struct HttpHandlerStats {
    QByteArray handler;
    QByteArray method;
    double requestSizeCount = 0, requestSizeSum = 0;
    double responseSizeCount = 0, responseSizeSum = 0;
    Histogram duration{Histogram::httpHandlerBuckets()};
    double created = 0;
};

struct EngineStats {
    explicit EngineStats(int maxModelLen = 32768, int speculativeTokens = 1);

    // Gauges, refreshed from the model before every render.
    double running = 0, waiting = 0, waitingCapacity = 0, waitingDeferred = 0, kvUsage = 0;

    // Counters.
    double promptTokens = 0, generationTokens = 0, preemptions = 0;
    double prefixQueries = 0, prefixHits = 0, externalQueries = 0, externalHits = 0;
    double mmQueries = 0, mmHits = 0;
    std::array<double, 4> success{}; // by FinishReason
    std::array<double, 3> promptBySource{}; // local_compute, local_cache_hit, external_kv_transfer
    double promptCached = 0;
    double specDrafts = 0, specDraftTokens = 0, specAccepted = 0;
    std::vector<double> specAcceptedPerPos;
    double nixlFailedTransfers = 0, nixlFailedNotifications = 0, nixlExpired = 0;

    // Histograms (vllm-metrics.md §2.3, §3.2, §3.3).
    Histogram requestPromptTokens, requestGenerationTokens, iterationTokens, requestMaxGenTokens,
        requestParamsN, requestParamsMaxTokens, ttft, tpot, requestTpot, e2e, queueTime,
        inferenceTime, prefillTime, decodeTime, prefillKvComputed;
    Histogram nixlXferTime, nixlPostTime, nixlBytes, nixlDescriptors;

    // Default prometheus_client families (synthetic values for a simulated API server).
    std::array<double, 3> gcCollected{}, gcUncollectable{}, gcCollections{};
    double processVirtual = 0, processResident = 0, processStart = 0, processCpu = 0;
    double processOpenFds = 0, processMaxFds = 65535;
    double one = 1.0, zero = 0.0;
    double created = 0; // unix seconds the vLLM metrics were created (engine ready)

    // prometheus-fastapi-instrumentator (§2.6); series appear on first use.
    std::vector<HttpSeries> httpRequests;
    std::vector<HttpHandlerStats> httpHandlers;
    Histogram httpHighr{Histogram::httpHighrBuckets()};
    double httpHighrCreated = 0;

    double finishedRequests() const { return success[0] + success[1] + success[2] + success[3]; }
};

} // namespace pd::sim
