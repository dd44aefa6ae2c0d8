// SPDX-License-Identifier: MIT
#pragma once

// Quantiles of cumulative histogram bucket counts, with Prometheus histogram_quantile() semantics
// (promql/quantile.go bucketQuantile): linear interpolation inside the bucket that holds the rank,
// the first bucket starts at 0 (or returns its bound when that bound is <= 0), a rank in the +Inf
// bucket returns the largest finite bound. Pure functions, no allocation.
namespace pd {

// q in [0,1]; bounds ascending with +Inf last; cumulative[i] = observations <= bounds[i] (here: the
// windowed delta of the exposed cumulative counts). NaN when there are fewer than 2 buckets, the last
// bound is not +Inf, or the window holds no observation. q < 0 gives -Inf, q > 1 gives +Inf.
double histogramQuantile(double q, const double *bounds, const double *cumulative, int bucketCount);

// Prometheus quantile() aggregation over plain values (rank q·(n-1), linear between neighbours).
// Reorders `values`; NaN when n == 0.
double valuesQuantile(double q, float *values, int n);

} // namespace pd
