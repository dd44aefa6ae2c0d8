// SPDX-License-Identifier: MIT
#include "net/pollroundadapter.h"

namespace pd {

PollRound toPollRound(const PollBatch &batch, int engineCount, std::int64_t nowWallMs)
{
    PollRound round;
    round.timeMs = nowWallMs;
    round.engines.resize(std::size_t(std::max(0, engineCount)));
    for (const PollOutcome &o : batch.outcomes) {
        if (o.engine < 0 || o.engine >= engineCount)
            continue;
        EnginePoll &poll = round.engines[std::size_t(o.engine)];
        // The body arrived (roundAt - finishedAt) ms before the batch was cut.
        poll.scrapedAtMs = nowWallMs - std::max<std::int64_t>(0, batch.roundAtMs - o.finishedAtMs);
        if (o.status == PollStatus::Ok && o.metrics) {
            poll.metrics = o.metrics;
            poll.error.reset();
            continue;
        }
        PollError error;
        switch (o.status) {
        case PollStatus::Timeout: error.kind = PollError::Kind::Timeout; break;
        case PollStatus::Refused: error.kind = PollError::Kind::Refused; break;
        case PollStatus::HttpError: error.kind = PollError::Kind::Http; break;
        case PollStatus::Malformed: error.kind = PollError::Kind::Parse; break;
        default: error.kind = PollError::Kind::Other; break;
        }
        error.message = o.error;
        poll.metrics.reset();
        poll.error = error;
    }
    return round;
}

} // namespace pd
