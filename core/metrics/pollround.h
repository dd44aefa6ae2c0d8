// SPDX-License-Identifier: MIT
#pragma once

#include "enginemetrics.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

// What the poller hands the series store once per poll round (one queued signal per round).
namespace pd {

// Why an engine's /metrics poll failed. Errors are values.
struct PollError {
    enum class Kind : std::uint8_t { Timeout, Refused, Http, Parse, Other };
    Kind kind = Kind::Other;
    QString message; // for the operator, e.g. "connection refused", "HTTP 503", "line 12: bad value"
};

// One engine's outcome in a round. Exactly one of `metrics` / `error` is engaged for a polled engine;
// neither: the engine was not polled this round (no effect on its series or freshness).
struct EnginePoll {
    // User-provided on purpose: a round's vector would otherwise zero every engine's 3.9 KB of
    // disengaged metrics (4 MB a round at 1,024 engines) before constructing it.
    EnginePoll() { }
    std::optional<EngineMetrics> metrics;
    std::optional<PollError> error;
    std::int64_t scrapedAtMs = 0; // when the body arrived (rates use it for Δt); 0: the round's time
};

struct PollRound {
    std::int64_t timeMs = 0;        // the round's time, ms since the epoch, non-decreasing from round to round
    std::vector<EnginePoll> engines; // indexed like Profile::engines(); shorter: the rest not polled
};

} // namespace pd
