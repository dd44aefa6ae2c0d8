// SPDX-License-Identifier: MIT
#pragma once

#include "ops/warmuptypes.h"

#include <QList>
#include <QMetaType>
#include <QPointF>
#include <QString>

#include <cstdint>
#include <deque>

// What the canary (canaryprobe.h) saw: one tiny completion through the proxy every few seconds, the
// client's view of the cluster. The proxy exports no failure counter (proxy-api.md §8.2: a decoder
// failure is a 200 with an empty or truncated body), so this is the only measure of what clients get.
namespace pd {

struct CanarySample {
    std::int64_t atMs = 0; // when it was sent, ms since the epoch
    WarmUpOutcome outcome = WarmUpOutcome::Ok;
    int httpStatus = 0;
    double e2eMs = std::numeric_limits<double>::quiet_NaN(); // to the end of the answer (ok only)
    double ttftMs = std::numeric_limits<double>::quiet_NaN();
    QString detail; // why it failed, empty when ok
    bool ok() const { return outcome == WarmUpOutcome::Ok; }
};

// The recent verdict, for triage and the status line.
struct CanaryStatus {
    bool enabled = false;
    int window = 0; // samples considered (at most the window asked for)
    int failed = 0; // of those, failed
    int consecutiveFailures = 0; // the newest samples that failed, in a row
    std::int64_t failingSinceMs = 0; // the first failure of that run, 0 when the newest sample is ok
    CanarySample last; // the newest sample (atMs 0: none yet)
    CanarySample lastFailure; // the newest failed sample (atMs 0: none in the window)
    CanarySample otherFailure; // the newest failure of another kind than the newest sample's (atMs 0: none)
};

class CanaryHistory {
public:
    enum class Series : std::uint8_t { SuccessRate, LatencyMs };

    // 17,280 samples: 24 h at the default 5 s interval.
    explicit CanaryHistory(int capacity = 17'280);

    void append(const CanarySample &sample);
    void clear();
    int size() const { return int(m_samples.size()); }
    const std::deque<CanarySample> &samples() const { return m_samples; }

    // Over the newest `window` samples.
    CanaryStatus status(int window) const;

    // A chart series over [fromMs, toMs]: x ms since the epoch. SuccessRate is the percentage of ok
    // answers among the last `rateWindow` samples at each sample (a smoothed line, not 0/100 spikes);
    // LatencyMs the end-to-end time of ok answers, a failed one a break. More samples than maxPoints
    // are folded per column of equal time into the column's worst value (lowest rate, highest
    // latency), so a short outage is never averaged away.
    QList<QPointF> points(Series series, std::int64_t fromMs, std::int64_t toMs, int maxPoints, int rateWindow = 12) const;

private:
    std::deque<CanarySample> m_samples;
    std::size_t m_capacity;
};

} // namespace pd
Q_DECLARE_METATYPE(pd::CanarySample)
