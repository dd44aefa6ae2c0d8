// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

// A Prometheus histogram kept cumulative, so rendering reads the bucket values as they are and the last
// bucket (+Inf) is the count by construction.
namespace pd::sim {

class Histogram final {
public:
    Histogram() = default;
    explicit Histogram(std::vector<double> bounds);

    void observe(double value);
    const std::vector<double> &bounds() const { return m_bounds; }
    const std::vector<double> &cumulative() const { return m_cumulative; } // size bounds + 1
    double count() const { return m_cumulative.back(); }
    double sum() const { return m_sum; }
    const double *countPtr() const { return &m_cumulative.back(); }
    const double *sumPtr() const { return &m_sum; }

    // Bucket lists of vLLM 0.9.1 (vllm-metrics.md §2.3) and of the NIXL connector (§3.3).
    static std::vector<double> buckets125(int maxModelLen);
    static std::vector<double> iterationTokenBuckets();
    static std::vector<double> nBuckets();
    static std::vector<double> ttftBuckets();
    static std::vector<double> tpotBuckets();
    static std::vector<double> requestLatencyBuckets();
    static std::vector<double> nixlXferBuckets();
    static std::vector<double> nixlPostBuckets();
    static std::vector<double> nixlBytesBuckets();
    static std::vector<double> nixlDescriptorBuckets();
    static std::vector<double> httpHighrBuckets();
    static std::vector<double> httpHandlerBuckets();

private:
    std::vector<double> m_bounds;
    std::vector<double> m_cumulative = {0.0};
    double m_sum = 0.0;
};

} // namespace pd::sim
