// SPDX-License-Identifier: MIT
// The quiet NaN that marks a gap (no sample, a failed poll) in every series, as float and as double.
#pragma once

#include <limits>

namespace pd {

inline constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
inline constexpr double kNanD = std::numeric_limits<double>::quiet_NaN();

} // namespace pd
