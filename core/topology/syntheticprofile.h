// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"

// A cluster of any size with the shape of a real one, for benchmarks, tests and screenshots of large
// fleets: a prefill pool and a decode pool, each one DP group spread over nodes of enginesPerNode
// engines (the last node of a pool may hold fewer), consecutive DP ranks and ports per node, nodes
// addressed 10.<pool>.<n / 256>.<n % 256>.
namespace pd {

Profile syntheticProfile(int engines, int enginesPerNode = 16, double prefillShare = 0.2);

} // namespace pd
