// SPDX-License-Identifier: MIT
#pragma once

#include "nodecheck/checktypes.h"

#include <QByteArray>

// The node-check report as a file an operator attaches to a ticket: CSV (one row per node/device/check,
// raw output included, RFC 4180 quoting) and JSON (nodes -> checks, with parsed values and a summary).
namespace pd {

QByteArray reportToCsv(const ClusterReport &report);
QByteArray reportToJson(const ClusterReport &report);

} // namespace pd
