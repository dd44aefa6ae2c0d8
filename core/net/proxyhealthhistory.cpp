// SPDX-License-Identifier: MIT
#include "net/proxyhealthhistory.h"
#include "metrics/quietnan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pd {

namespace {


// Appends points and breaks: never a break first, never two in a row.
struct PointSink {
    QList<QPointF> &out;
    void point(double x, double y) { out.append(QPointF(x, y)); }
    void gap(double x)
    {
        if (!out.isEmpty() && std::isfinite(out.last().y()))
            out.append(QPointF(x, std::numeric_limits<double>::quiet_NaN()));
    }
};

} // namespace

ProxyHealthHistory::ProxyHealthHistory(int capacity, QObject *parent)
    : QObject(parent)
    , m_samples(std::size_t(std::max(1, capacity)))
{
}

void ProxyHealthHistory::append(const ProxyHealth &health)
{
    const qint64 ms = health.when.toMSecsSinceEpoch();
    if (m_count > 0 && ms < newestMs())
        return;
    Sample s { ms, kNanF, kNanF, kNanF };
    if (health.reachable) {
        s.prefill = float(health.prefillInstances);
        s.decode = float(health.decodeInstances);
        if (health.requestNum)
            s.requests = float(*health.requestNum);
    }
    if (m_count < m_samples.size()) {
        m_samples[(m_head + m_count) % m_samples.size()] = s;
        ++m_count;
    } else {
        m_samples[m_head] = s; // full: the oldest gives way
        m_head = (m_head + 1) % m_samples.size();
    }
    Q_EMIT appended();
}

void ProxyHealthHistory::clear()
{
    m_head = 0;
    m_count = 0;
}

qint64 ProxyHealthHistory::newestMs() const
{
    return m_count > 0 ? at(m_count - 1).ms : 0;
}

std::optional<bool> ProxyHealthHistory::reportsRequestNum() const
{
    for (std::size_t i = m_count; i-- > 0;) {
        const Sample &s = at(i);
        if (!std::isnan(s.prefill))
            return !std::isnan(s.requests);
    }
    return std::nullopt;
}

float ProxyHealthHistory::valueOf(const Sample &s, Series series)
{
    switch (series) {
    case Series::RequestsInFlight:
        return s.requests;
    case Series::PrefillInstances:
        return s.prefill;
    case Series::DecodeInstances:
        return s.decode;
    }
    return kNanF;
}

QList<QPointF> ProxyHealthHistory::points(Series series, qint64 fromMs, qint64 toMs, int maxPoints) const
{
    QList<QPointF> out;
    if (m_count == 0 || toMs <= fromMs)
        return out;
    // The first sample at or after fromMs, and the one before it so the line enters at the edge.
    std::size_t lo = 0, hi = m_count;
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (at(mid).ms < fromMs)
            lo = mid + 1;
        else
            hi = mid;
    }
    const std::size_t first = lo > 0 ? lo - 1 : 0;
    std::size_t last = first;
    while (last < m_count && at(last).ms <= toMs)
        ++last;
    const std::size_t n = last - first;
    const int columns = std::max(1, maxPoints / 2);
    const bool decimate = maxPoints > 0 && n > std::size_t(maxPoints);
    const double columnMs = double(toMs - fromMs) / columns;

    PointSink sink { out };
    // Per column (when decimating): the min and max in time order, breaks before or after them.
    struct Column {
        int index = -1;
        double minX = 0, minY = 0, maxX = 0, maxY = 0;
        bool hasValue = false, breakBefore = false, breakAfter = false;
        double breakX = 0;
    } col;
    const auto flush = [&] {
        if (col.index < 0)
            return;
        if (col.breakBefore || (!col.hasValue && col.breakAfter))
            sink.gap(col.breakX);
        if (col.hasValue) {
            if (col.minX == col.maxX) {
                sink.point(col.minX, col.minY);
            } else if (col.minX < col.maxX) {
                sink.point(col.minX, col.minY);
                sink.point(col.maxX, col.maxY);
            } else {
                sink.point(col.maxX, col.maxY);
                sink.point(col.minX, col.minY);
            }
            if (col.breakAfter)
                sink.gap(std::max(col.minX, col.maxX) + 1);
        }
        col = Column {};
    };
    const auto add = [&](double x, double y) {
        if (!decimate) {
            if (std::isnan(y))
                sink.gap(x);
            else
                sink.point(x, y);
            return;
        }
        const int index = std::clamp(int((x - double(fromMs)) / columnMs), 0, columns - 1);
        if (index != col.index) {
            flush();
            col.index = index;
        }
        if (std::isnan(y)) {
            (col.hasValue ? col.breakAfter : col.breakBefore) = true;
            if (!col.hasValue)
                col.breakX = x;
            return;
        }
        if (!col.hasValue || y < col.minY)
            col.minX = x, col.minY = y;
        if (!col.hasValue || y > col.maxY)
            col.maxX = x, col.maxY = y;
        col.hasValue = true;
        col.breakAfter = false; // a break between two values of one column is under a pixel
    };

    qint64 previousMs = 0;
    bool previousValue = false;
    for (std::size_t i = first; i < last; ++i) {
        const Sample &s = at(i);
        const float v = valueOf(s, series);
        if (previousValue && s.ms - previousMs > m_maxGapMs)
            add(double(previousMs + 1), std::nan("")); // silence: nobody asked the proxy
        add(double(s.ms), double(v));
        previousMs = s.ms;
        previousValue = !std::isnan(v);
    }
    flush();
    return out;
}

} // namespace pd
