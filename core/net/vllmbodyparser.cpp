// SPDX-License-Identifier: MIT
#include "net/vllmbodyparser.h"

#include "metrics/metricsextractor.h"

namespace pd {

bool parseVllmMetricsBody(std::string_view body, EngineMetrics *out, QString *error)
{
    const auto result = MetricsExtractor::extract(body, *out);
    if (!result.ok() && error)
        *error = QString::fromStdString(result.error.toString());
    return result.ok();
}

} // namespace pd
