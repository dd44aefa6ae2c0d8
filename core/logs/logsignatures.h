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
// The signature whose title this is (a diagnosis keeps the title); nullptr: none.
const LogSignature *logSignatureTitled(const QString &title);

// Rows named by id where code reads them (triage's causes); the ids are the spec's row numbers and stay.
inline constexpr int kSigHcclLinkTimeout = 8; // EI0006: a peer rank did not send in time
inline constexpr int kSigHcclExecTimeout = 14; // collective timeout, the HCCL watchdog
inline constexpr int kSigLlmDataDistLink = 16; // KV transfer, LLMDataDist
inline constexpr int kSigMooncakeTransfer = 17; // KV transfer, Mooncake
inline constexpr int kSigKvConnectorZmq = 26; // the KV connector's side channel

} // namespace pd
