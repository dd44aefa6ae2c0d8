// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

#include <array>
#include <cmath>
#include <limits>

// The warm-up / smoke test of the proxy (the 8-node DeepSeek-R1 guide's FAQ: prefill engines need a
// few requests before a benchmark; spec proxy-api §8.2: the proxy answers a decoder failure with 200
// and an empty or truncated body). Value types only: what to send, what one request gave, what the run adds up to.
namespace pd {

struct WarmUpOptions {
    int count = 20; // requests to send
    int concurrency = 4; // at most this many in flight (1..64)
    int promptTokens = 128; // prompt length, about 4 characters per token
    int maxTokens = 16; // max_tokens, with ignore_eos so every request asks for exactly this many
    bool stream = true; // SSE: TTFT and TPOT are measured only for streamed requests
    QString model; // empty: the first model of the proxy's /v1/models, else fallbackModel
    QString fallbackModel; // the profile's served model name
    int requestTimeoutMs = 60000; // whole request, from sending to the last byte
    quint64 seed = 1; // prompt text (distinct per request so prefix caching folds nothing)
    // Non-empty: the traffic is marked as this tool's, not a user's: the OpenAI "user" field, the
    // X-PD-Traffic header and the prompt's first word carry it ("pdconsole-canary").
    QString trafficTag;

    // Empty when usable, else what is wrong ("count must be 1..100000, got 0").
    QString validate() const;
};

enum class WarmUpOutcome {
    Ok, // 200, the whole answer, at least one token (a stream ended with data: [DONE])
    HttpError, // an HTTP status other than 200
    EmptyOk, // 200 with an empty body: a decoder failed behind the proxy (§8.2)
    NoDone, // 200 stream that ended without data: [DONE]: truncated (§2.5 step 11, §8.12a)
    Malformed, // a line or body that is not what the OpenAI API sends (the detail names the line)
    ErrorPayload, // 200 whose body or stream carries an error object
    NoTokens, // 200, complete, but not one generated token
    Timeout, // no complete answer within the per-request timeout
    ConnectionFailed, // refused, reset before an answer, TLS failure, host not found
    Cancelled, // the run was cancelled while this request was in flight
};
inline constexpr int kWarmUpOutcomeCount = int(WarmUpOutcome::Cancelled) + 1;
template<> inline constexpr std::size_t enumCount<WarmUpOutcome> = std::size_t(kWarmUpOutcomeCount);

// "ok", "http-error", "empty-200", "no-done", "malformed", "error-payload", "no-tokens", "timeout",
// "connection-failed", "cancelled": stable names for CSV, JSON and the command line.
QString warmUpOutcomeName(WarmUpOutcome outcome);

// One request. Times in milliseconds since the request was handed to the network; NaN when unknown.
struct WarmUpSample {
    int index = 0;
    WarmUpOutcome outcome = WarmUpOutcome::Ok;
    int httpStatus = 0; // 0: no HTTP answer
    QString detail; // why it is not ok: status and body excerpt, the line, the timeout
    double ttftMs = std::numeric_limits<double>::quiet_NaN(); // first content chunk (streamed only)
    double tpotMs = std::numeric_limits<double>::quiet_NaN(); // (last - first) / (tokens - 1)
    double e2eMs = std::numeric_limits<double>::quiet_NaN(); // to the end of the answer
    int tokens = 0; // usage.completion_tokens, else the content chunks seen
    int chunks = 0; // content chunks (streamed)
    double startedMs = 0; // since the run started (for the per-request chart)
};

struct LatencyStats {
    int count = 0;
    double p50 = std::numeric_limits<double>::quiet_NaN();
    double p90 = std::numeric_limits<double>::quiet_NaN();
    double p99 = std::numeric_limits<double>::quiet_NaN();
    double max = std::numeric_limits<double>::quiet_NaN();
};

struct WarmUpResult {
    WarmUpOptions options;
    QString proxy; // base URL
    QString model;
    QString modelSource; // "option", "proxy /v1/models", "profile"
    QString error; // the run could not start (no model, bad options); no request sent
    bool cancelled = false;
    QDateTime started;
    qint64 durationMs = 0;
    QList<WarmUpSample> samples; // by index; only requests that were sent
    std::array<int, kWarmUpOutcomeCount> counts {};
    std::array<QString, kWarmUpOutcomeCount> examples; // the first detail of each kind
    LatencyStats ttft; // over ok requests only
    LatencyStats tpot;
    LatencyStats e2e;
    QString auditError; // the audit line could not be written

    int sent() const { return int(samples.size()); }
    int ok() const { return counts[int(WarmUpOutcome::Ok)]; }
    int cancelledCount() const { return counts[int(WarmUpOutcome::Cancelled)]; }
    // Requests that ended (sent minus cancelled) and failed.
    int completed() const { return sent() - cancelledCount(); }
    int failed() const { return completed() - ok(); }
    // ok / completed, in [0, 1]; NaN when nothing completed.
    double successRate() const { return completed() > 0 ? double(ok()) / completed() : std::nan(""); }
    bool allOk() const { return error.isEmpty() && !cancelled && completed() == options.count && failed() == 0; }
};

// Recomputes counts, examples and the percentiles (Prometheus quantile() semantics) from samples.
void summarizeWarmUp(WarmUpResult &result);
LatencyStats latencyStats(QList<double> values);

} // namespace pd
Q_DECLARE_METATYPE(pd::WarmUpSample)
Q_DECLARE_METATYPE(pd::WarmUpResult)
