// SPDX-License-Identifier: MIT
#pragma once

#include "util/enumnames.h"

#include <QList>
#include <QString>

// The 25 known engine-log failure signatures of spec ascend-node-tools.md §3 (vLLM, vLLM-Ascend, CANN,
// HCCL, KV connectors), widened to the texts operators report, plus a 26th (ZMQ errors of the KV
// connector's side channel), as data: a regular expression per line, a one-line diagnosis and fix, a severity,
// and the literal anchors the fast matcher looks for before it runs the expression.
namespace pd {

enum class LogSeverity { Info, Warning, Error, Critical };
template<> inline constexpr std::size_t enumCount<LogSeverity> = std::size_t(LogSeverity::Critical) + 1;
QString logSeverityName(LogSeverity severity);

struct LogSignature {
    int id = 0; // 1..25, the spec's row number
    QString title; // short name for lists ("NPU out of memory")
    QString pattern; // the spec's regex (PCRE / QRegularExpression)
    QString diagnosis;
    QString fix;
    LogSeverity severity = LogSeverity::Error;
    QStringList anchors; // every match contains at least one of these literally
    bool triggersNodeChecks = false; // rows 8, 9, 11, 12, 15, 16, 17: run the network checks on both ends
};

// In the spec's order, which is also match priority (row 5 before the general row 10).
const QList<LogSignature> &logSignatures();
const LogSignature *logSignature(int id);

} // namespace pd
