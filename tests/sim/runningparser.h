// SPDX-License-Identifier: MIT
#pragma once

#include "net/metricspoller.h"

#include <QString>

#include <string>
#include <string_view>

// Enough of a parser for the poller's own tests: the body must be a vLLM exposition; only
// vllm:num_requests_running is read. Shared by tst_metricspoller and tst_tlsendpoints.
namespace pd::test {

inline bool findRunning(std::string_view body, EngineMetrics *out, QString *error)
{
    const std::string_view key = "vllm:num_requests_running{";
    const auto at = body.find(key);
    if (at == std::string_view::npos) {
        *error = QStringLiteral("no vllm:num_requests_running");
        return false;
    }
    const auto space = body.find(' ', at);
    out->running = std::stod(std::string(body.substr(space + 1, body.find('\n', space) - space - 1)));
    return true;
}

} // namespace pd::test
