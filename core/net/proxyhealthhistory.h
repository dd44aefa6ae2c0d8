// SPDX-License-Identifier: MIT
#pragma once

#include "net/proxyhealth.h"

#include <QList>
#include <QObject>
#include <QPointF>

#include <cstdint>
#include <optional>
#include <vector>

// What the proxy's /healthcheck said over this console run, for the Pools dashboard's proxy charts:
// a bounded ring of polls (24 h at the default 1 s interval), oldest dropped first.
//
// A poll the proxy did not answer is a gap, never a zero; so is a silence longer than maxGapMs
// between two answers (no poll happened, nothing is known). request_num is absent before
// vllm-ascend v0.21: those answers have no requests-in-flight value (a gap, not 0), and
// reportsRequestNum() says so for the chart's caption.
//
// Threading: GUI thread; append() is connected to ProxyHealthPoller::updated.
namespace pd {

class ProxyHealthHistory final : public QObject {
    Q_OBJECT
public:
    enum class Series : std::uint8_t { RequestsInFlight, PrefillInstances, DecodeInstances };

    explicit ProxyHealthHistory(int capacity = 86'400, QObject *parent = nullptr);

    // One poll's outcome, at health.when. A poll older than the newest held is ignored (clock steps).
    void append(const ProxyHealth &health);
    void clear(); // a different proxy: its history is not this one's
    // Answers further apart than this are not joined by a line (default 5 s: a few poll intervals).
    void setMaxGapMs(qint64 ms) { m_maxGapMs = ms; }

    int size() const { return int(m_count); }
    int capacity() const { return int(m_samples.size()); }
    qint64 newestMs() const;
    // nullopt: no answer held yet; else whether the newest answer carried request_num.
    std::optional<bool> reportsRequestNum() const;

    // The series over [fromMs, toMs] for a chart: x ms since the epoch, y the value, y NaN a break.
    // More samples than maxPoints are cut into maxPoints/2 columns of equal time, each giving its
    // minimum and maximum in the order they occurred (a one-poll spike stays visible).
    QList<QPointF> points(Series series, qint64 fromMs, qint64 toMs, int maxPoints) const;

Q_SIGNALS:
    void appended();

private:
    struct Sample {
        qint64 ms = 0;
        float requests = 0; // NaN: unreachable or not reported
        float prefill = 0; // NaN: unreachable
        float decode = 0;
    };
    const Sample &at(std::size_t i) const { return m_samples[(m_head + i) % m_samples.size()]; } // 0 = oldest
    static float valueOf(const Sample &s, Series series);

    std::vector<Sample> m_samples;
    std::size_t m_head = 0; // index of the oldest sample
    std::size_t m_count = 0;
    qint64 m_maxGapMs = 5000;
};

} // namespace pd
