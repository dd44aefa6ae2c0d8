// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/enginemetrics.h"

#include <QString>

#include <string_view>

// The poller's body parser for vLLM engines (a MetricsBodyParser): MetricsExtractor over the body,
// its error (line, column, why) as text when the body is malformed. Runs on the poller thread.
namespace pd {

bool parseVllmMetricsBody(std::string_view body, EngineMetrics *out, QString *error);

} // namespace pd
