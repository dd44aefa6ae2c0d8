// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QString>

// A known failure signature seen in a log: what triage and the node's timeline consume.
namespace pd {

struct DiagnosisEvent {
    QString node; // profile node name
    QString engine; // engine id ("host:port") or "proxy"; empty when the log is not an engine's
    QString logPath;
    QDateTime time; // when the console saw the line (UTC)
    int signatureId = 0; // row of logSignatures()
    qint64 offset = -1; // byte offset of the line in the log file
    QString line; // the line itself (trimmed to 2,000 characters)
    int repeats = 1; // lines of the same signature folded into this event
};

} // namespace pd

Q_DECLARE_METATYPE(pd::DiagnosisEvent)
