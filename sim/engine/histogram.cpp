// SPDX-License-Identifier: MIT
#include "histogram.h"

namespace pd::sim {

Histogram::Histogram(std::vector<double> bounds)
    : m_bounds(std::move(bounds)), m_cumulative(m_bounds.size() + 1, 0.0)
{
}

void Histogram::observe(double value)
{
    // Cumulative buckets: every bucket whose bound is >= value, and +Inf.
    for (std::size_t i = m_bounds.size(); i-- > 0;) {
        if (value > m_bounds[i])
            break;
        m_cumulative[i] += 1.0;
    }
    m_cumulative.back() += 1.0;
    m_sum += value;
}

std::vector<double> Histogram::buckets125(int maxModelLen)
{
    std::vector<double> out;
    for (double decade = 1.0;; decade *= 10.0) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * decade;
            if (v > maxModelLen)
                return out;
            out.push_back(v);
        }
    }
}

std::vector<double> Histogram::iterationTokenBuckets()
{
    return {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
}

std::vector<double> Histogram::nBuckets()
{
    return {1, 2, 5, 10, 20};
}

std::vector<double> Histogram::ttftBuckets()
{
    return {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
            1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
}

std::vector<double> Histogram::tpotBuckets()
{
    return {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5,
            0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
}

std::vector<double> Histogram::requestLatencyBuckets()
{
    return {0.3,  0.5,  0.8,  1.0,  1.5,   2.0,   2.5,   5.0,   10.0,   15.0,  20.0,
            30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
}

std::vector<double> Histogram::nixlXferBuckets()
{
    return {0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0};
}

std::vector<double> Histogram::nixlPostBuckets()
{
    return {0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0};
}

std::vector<double> Histogram::nixlBytesBuckets()
{
    std::vector<double> out;
    for (int e = 11; e <= 33; e += 2)
        out.push_back(double(1ULL << e));
    return out;
}

std::vector<double> Histogram::nixlDescriptorBuckets()
{
    return {10, 20, 30, 50, 75, 100, 200, 400, 1000, 2000, 4000, 10000, 20000, 50000};
}

std::vector<double> Histogram::httpHighrBuckets()
{
    return {0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0,
            2.5,  3.0,   3.5,  4.0,   4.5, 5.0,  7.5, 10.0, 30.0, 60.0};
}

std::vector<double> Histogram::httpHandlerBuckets()
{
    return {0.1, 0.5, 1.0};
}

} // namespace pd::sim
