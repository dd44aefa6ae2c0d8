// SPDX-License-Identifier: MIT
#include "quantile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pd {

double histogramQuantile(double q, const double *bounds, const double *cumulative, int bucketCount)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(q))
        return nan;
    if (q < 0)
        return -std::numeric_limits<double>::infinity();
    if (q > 1)
        return std::numeric_limits<double>::infinity();
    if (bucketCount < 2 || !std::isinf(bounds[bucketCount - 1]))
        return nan;
    const double total = cumulative[bucketCount - 1];
    if (!(total > 0))
        return nan;
    const double rank = q * total;
    // First finite bucket whose cumulative count reaches the rank; none: the rank lies in +Inf.
    int b = 0;
    while (b < bucketCount - 1 && cumulative[b] < rank)
        ++b;
    if (b == bucketCount - 1)
        return bounds[bucketCount - 2];
    if (b == 0 && bounds[0] <= 0)
        return bounds[0];
    const double start = b == 0 ? 0.0 : bounds[b - 1];
    const double below = b == 0 ? 0.0 : cumulative[b - 1];
    const double inBucket = cumulative[b] - below;
    if (!(inBucket > 0))
        return bounds[b];
    return start + (bounds[b] - start) * ((rank - below) / inBucket);
}

double valuesQuantile(double q, float *values, int n)
{
    if (n <= 0 || std::isnan(q))
        return std::numeric_limits<double>::quiet_NaN();
    q = std::clamp(q, 0.0, 1.0);
    const double rank = q * double(n - 1);
    const int lower = int(std::floor(rank));
    const int upper = std::min(lower + 1, n - 1);
    std::nth_element(values, values + lower, values + n);
    const double lo = values[lower];
    if (upper == lower)
        return lo;
    // The smallest of the elements after `lower` is the next order statistic.
    const double hi = *std::min_element(values + lower + 1, values + n);
    return lo + (hi - lo) * (rank - double(lower));
}

} // namespace pd
