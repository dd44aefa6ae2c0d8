// SPDX-License-Identifier: MIT
#include "ops/canaryhistory.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pd {

CanaryHistory::CanaryHistory(int capacity)
    : m_capacity(std::size_t(std::max(1, capacity)))
{
}

void CanaryHistory::append(const CanarySample &sample)
{
    m_samples.push_back(sample);
    while (m_samples.size() > m_capacity)
        m_samples.pop_front();
}

void CanaryHistory::clear()
{
    m_samples.clear();
}

CanaryStatus CanaryHistory::status(int window) const
{
    CanaryStatus s;
    s.enabled = true;
    if (m_samples.empty())
        return s;
    s.last = m_samples.back();
    const std::size_t n = std::min(m_samples.size(), std::size_t(std::max(1, window)));
    s.window = int(n);
    bool run = true;
    for (std::size_t i = 0; i < n; ++i) {
        const CanarySample &x = m_samples[m_samples.size() - 1 - i];
        if (x.ok()) {
            run = false;
            continue;
        }
        ++s.failed;
        if (s.lastFailure.atMs == 0)
            s.lastFailure = x;
        if (s.otherFailure.atMs == 0 && x.outcome != s.last.outcome)
            s.otherFailure = x;
        if (run) {
            ++s.consecutiveFailures;
            s.failingSinceMs = x.atMs;
        }
    }
    // A run of failures longer than the window started before it.
    for (std::size_t i = n; run && i < m_samples.size(); ++i) {
        const CanarySample &x = m_samples[m_samples.size() - 1 - i];
        if (x.ok())
            break;
        ++s.consecutiveFailures;
        s.failingSinceMs = x.atMs;
    }
    return s;
}

QList<QPointF> CanaryHistory::points(Series series, std::int64_t fromMs, std::int64_t toMs, int maxPoints, int rateWindow) const
{
    QList<QPointF> out;
    if (m_samples.empty() || toMs <= fromMs)
        return out;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto first = std::lower_bound(m_samples.begin(), m_samples.end(), fromMs,
        [](const CanarySample &s, std::int64_t ms) { return s.atMs < ms; });
    const std::size_t begin = std::size_t(first - m_samples.begin());
    std::size_t end = begin;
    while (end < m_samples.size() && m_samples[end].atMs <= toMs)
        ++end;
    if (begin == end)
        return out;

    // The rolling success rate at each sample in range, from a running count over the window.
    const std::size_t window = std::size_t(std::max(1, rateWindow));
    const std::size_t lead = begin >= window - 1 ? begin - (window - 1) : 0;
    int okInWindow = 0;
    std::vector<double> values;
    values.reserve(end - begin);
    for (std::size_t i = lead; i < end; ++i) {
        okInWindow += m_samples[i].ok() ? 1 : 0;
        if (i >= lead + window)
            okInWindow -= m_samples[i - window].ok() ? 1 : 0;
        if (i < begin)
            continue;
        const std::size_t held = std::min(window, i - lead + 1);
        const CanarySample &s = m_samples[i];
        values.push_back(series == Series::SuccessRate ? 100.0 * okInWindow / double(held) : (s.ok() ? s.e2eMs : nan));
    }

    const std::size_t n = values.size();
    const bool lowIsWorse = series == Series::SuccessRate;
    if (maxPoints <= 0 || n <= std::size_t(maxPoints)) {
        for (std::size_t i = 0; i < n; ++i) {
            if (std::isfinite(values[i]))
                out.append(QPointF(double(m_samples[begin + i].atMs), values[i]));
            else if (!out.isEmpty() && std::isfinite(out.last().y()))
                out.append(QPointF(double(m_samples[begin + i].atMs), nan));
        }
        return out;
    }
    const double columnMs = double(toMs - fromMs) / std::max(1, maxPoints);
    int column = -1;
    double worst = nan, worstX = 0;
    bool brokeInColumn = false;
    const auto flush = [&] {
        if (std::isfinite(worst))
            out.append(QPointF(worstX, worst));
        if (brokeInColumn && !out.isEmpty() && std::isfinite(out.last().y()))
            out.append(QPointF(worstX, nan));
    };
    for (std::size_t i = 0; i < n; ++i) {
        const double x = double(m_samples[begin + i].atMs);
        const int c = int((x - double(fromMs)) / columnMs);
        if (c != column) {
            if (column >= 0)
                flush();
            column = c;
            worst = nan;
            brokeInColumn = false;
        }
        const double v = values[i];
        if (!std::isfinite(v)) {
            brokeInColumn = true;
            if (!std::isfinite(worst))
                worstX = x;
            continue;
        }
        if (!std::isfinite(worst) || (lowIsWorse ? v < worst : v > worst)) {
            worst = v;
            worstX = x;
        }
    }
    flush();
    return out;
}

} // namespace pd
