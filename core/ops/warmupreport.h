// SPDX-License-Identifier: MIT
#pragma once

#include "ops/warmuptypes.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

// A warm-up result as text (pdctl, the audit detail), CSV (one row per request) and JSON.
namespace pd {

// "ok 98/100 (98.0 %); empty-200 2; TTFT p50 120 ms p99 340 ms; TPOT p50 23.1 ms p99 30.2 ms; 4.2 s"
QString warmUpSummaryLine(const WarmUpResult &result);

// The header, the outcome table (ok and every kind that occurred, with an example) and the latency
// table (ok requests only), fixed-width for a terminal.
QString warmUpTable(const WarmUpResult &result);

// index,started_ms,outcome,http_status,ttft_ms,tpot_ms,e2e_ms,tokens,chunks,detail (RFC 4180 quoting;
// empty cells for unknown times).
QByteArray warmUpCsv(const WarmUpResult &result);

nlohmann::ordered_json warmUpJson(const WarmUpResult &result);

// "123.4", or "-" when NaN.
QString formatMs(double ms);

} // namespace pd
