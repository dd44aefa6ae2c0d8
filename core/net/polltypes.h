// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/enginemetrics.h"
#include "util/enumnames.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <functional>
#include <optional>
#include <string_view>

// What the engine poller is given and what it hands back, one batch per round.
namespace pd {

// The engine poller asks /health with every second poll of an engine (the reason: pollloop.cpp).
inline constexpr int kDefaultHealthEvery = 2;

struct PollTarget {
    int engine = 0;        // index in the profile's engine list
    QByteArray host;       // IPv4, IPv6 literal or name
    quint16 port = 0;
    bool https = false;    // the engine serves https (profile tls.engines): fetched with libcurl, verified
    QByteArray caFile;     // PEM file libcurl verifies it against (empty: the system's CAs)
};

// Which HTTP client fetches from the engines. Native: the poller's own keep-alive client
// (HttpGetClient) for targets at a numeric address, libcurl for names; Curl: libcurl for all (kept to
// measure the two against each other on the same machine state, and as a fallback).
enum class PollTransport { Native, Curl };

// How one engine answered in one poll.
enum class PollStatus {
    Ok,           // /metrics 200 and parsed
    Refused,      // nothing listens (not started, crashed, loading weights)
    Timeout,      // no complete answer in time (hung engine, overloaded host)
    HttpError,    // /metrics answered a status other than 200
    Malformed,    // /metrics 200 but the body did not parse
    Failed,       // any other transport error
};
template<> inline constexpr std::size_t enumCount<PollStatus> = std::size_t(PollStatus::Failed) + 1; // last + 1

struct PollOutcome {
    // User-provided on purpose: `PollOutcome()` and list growth would otherwise zero the 3.9 KB of the
    // disengaged metrics before constructing, for every outcome of every round.
    PollOutcome() {}
    int engine = 0;
    PollStatus status = PollStatus::Failed;
    int httpStatus = 0;             // of /metrics
    int healthStatus = 0;           // of the latest /health probe: 200 healthy, 500/503 dead, 0 none yet
    QString error;                  // empty when Ok
    double latencyMs = 0;           // /metrics request time
    qint64 finishedAtMs = 0;        // poller clock (ms since the poller started)
    qint64 startedAtMs = 0;         // poller clock when the poll's /metrics request went out
    qint64 bodyBytes = 0;
    std::optional<EngineMetrics> metrics;

    // Everything of `other` but its metrics (3.9 KB that a holder of the latest good metrics keeps once).
    void assignWithoutMetrics(const PollOutcome &other)
    {
        engine = other.engine;
        status = other.status;
        httpStatus = other.httpStatus;
        healthStatus = other.healthStatus;
        error = other.error;
        latencyMs = other.latencyMs;
        finishedAtMs = other.finishedAtMs;
        startedAtMs = other.startedAtMs;
        bodyBytes = other.bodyBytes;
    }
};

struct PollBatch {
    quint64 generation = 0;         // targets generation; batches of older generations are stale
    qint64 roundAtMs = 0;           // poller clock when the batch was cut
    QList<PollOutcome> outcomes;    // the engines that finished a poll since the previous batch
};

// Turns a /metrics body into EngineMetrics on the poller thread. Returns false with *error (line and
// column) when the body is malformed.
using MetricsBodyParser = std::function<bool(std::string_view body, EngineMetrics *out, QString *error)>;

QString pollStatusName(PollStatus status);

} // namespace pd

Q_DECLARE_METATYPE(pd::PollBatch)
