// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/pollround.h"
#include "net/polltypes.h"

#include <cstdint>

// Turns the poller's batch (outcomes that finished since the previous batch, poller-relative times)
// into the series store's round (one slot per engine, wall-clock times). Engines without an outcome in
// the batch are "not polled this round" and keep their series and freshness as they were.
namespace pd {

PollRound toPollRound(const PollBatch &batch, int engineCount, std::int64_t nowWallMs);

} // namespace pd
