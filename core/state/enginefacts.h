// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"
#include "util/enumnames.h"

#include <QString>

#include <cstdint>

// The independent facts observed of one engine, each with the time it was last established
// (ms since the epoch, 0 = never). The state shown to an operator is derived from these by
// deriveState() (derivestate.h); nothing here is a verdict.
namespace pd {

// How the engine's HTTP endpoint answered its latest /metrics poll.
enum class HttpFact : std::uint8_t {
    Unknown, // never polled
    Ok, // /metrics 200 and parsed
    Refused, // nothing listens
    Timeout, // no complete answer in time
    ServerError, // /metrics answered 5xx
    ClientError, // /metrics answered another non-200 status (404, 401, ...)
    Malformed, // /metrics 200 but the body did not parse
    Failed, // another transport error (DNS, reset, ...)
    // (the last value: enumCount below counts up to it)
};
template<> inline constexpr std::size_t enumCount<HttpFact> = std::size_t(HttpFact::Failed) + 1;

// Whether the latest metrics are current (series-store vocabulary: fresh / stale / unreachable).
enum class FreshnessFact : std::uint8_t { Unknown, Fresh, Stale, Unreachable };
template<> inline constexpr std::size_t enumCount<FreshnessFact> = std::size_t(FreshnessFact::Unreachable) + 1;

struct ProgressCounters {
    double generationTokens = 0;
    double promptTokens = 0;
    double requestSuccess = 0;
    bool operator==(const ProgressCounters &) const = default;
};

struct EngineFacts {
    // Process, from SSH (or the local runner) when known.
    ProcessFact process = ProcessFact::Unknown;
    std::int64_t processAtMs = 0;
    QString processDetail; // e.g. "pid 4242", "exit status 137"

    // HTTP: the latest /metrics poll.
    HttpFact http = HttpFact::Unknown;
    std::int64_t httpAtMs = 0;
    int httpStatus = 0; // of /metrics, 0 when none
    QString httpError; // the latest failure's words, empty when Ok
    int consecutiveFailures = 0; // failed polls in a row
    std::int64_t failingSinceMs = 0; // first failure of the current run of failures
    std::int64_t lastOkMs = 0; // when /metrics last parsed (0: never)
    QString lastError; // the last failure seen, kept after recovery
    std::int64_t lastErrorAtMs = 0;

    // /health: the latest probe's status (200 healthy, 5xx dead, 0 none yet).
    int healthStatus = 0;
    std::int64_t healthAtMs = 0;

    // /v1/models ready, when something probed it.
    bool modelsKnown = false;
    bool modelsReady = false;
    std::int64_t modelsAtMs = 0;

    // Proxy membership as the console tracks it.
    MembershipFact membership = MembershipFact::Unknown;
    std::int64_t membershipAtMs = 0; // last set (a reconciliation may set the same fact again)
    std::int64_t membershipSinceMs = 0; // when it became what it is (a drain's start, as the console saw it)
    QString membershipDetail;

    // The operator's intent, when this console stopped the engine or took it out of the proxy; cleared
    // when it is started or added again, or answers again after it went down (started elsewhere).
    OperatorIntent intent = OperatorIntent::None;
    std::int64_t intentAtMs = 0;
    QString intentDetail; // what it came from, in the operator's words: "scale-in", "stop", "rolling restart"

    // Progress: counters of the last good scrape and how many good polls in a row they stood still
    // while requests were running or waiting (a request that waits and never runs is stuck too).
    bool hasCounters = false;
    ProgressCounters counters;
    double running = 0; // vllm:num_requests_running of the last good scrape
    double waiting = 0;
    double kvUsage = -1; // fraction 0..1 of the KV cache in use; -1: not reported
    int frozenPolls = 0;
    std::int64_t lastProgressMs = 0; // when a counter last moved (or the first good scrape)

    // The latest known error signature seen in the engine's log; cleared when the process starts again.
    QString diagnosis;     // the signature's title, empty: none
    QString diagnosisLine; // the log line
    int diagnosisRepeats = 0;
    std::int64_t diagnosisAtMs = 0;
};

// Thresholds of the derivation, configurable.
struct StateThresholds {
    int stalePolls = 2; // failed polls in a row before metrics are stale and HTTP decides the state
    int unreachablePolls = 5; // failed polls in a row before metrics freshness is "unreachable"
    int stallPolls = 3; // good polls in a row with requests running or waiting and no counter moving
    double kvPinnedUsage = 0.95; // a stall with the KV cache this full is reported as the cache pinned
    bool operator==(const StateThresholds &) const = default;
};

QString httpFactName(HttpFact fact); // "ok", "refused", "timeout", "5xx", ...
QString freshnessFactName(FreshnessFact fact);
QString processFactName(ProcessFact fact);

FreshnessFact freshnessOf(const EngineFacts &facts, const StateThresholds &thresholds);

} // namespace pd
