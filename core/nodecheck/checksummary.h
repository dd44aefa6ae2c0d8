// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

#include <QStringList>

// One node's check report in the lines an operator reads in Problems: every failed check, every
// warning, one line each ("NPU 3 link: link status: DOWN"). Passes and unknowns say nothing.
namespace pd {

struct NodeCheckSummary {
    QStringList failures;
    QStringList warnings;
};

NodeCheckSummary summarizeNodeChecks(const NodeReport &report);

} // namespace pd
