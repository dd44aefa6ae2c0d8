// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>

// What a short log excerpt (the tail of an engine that exited at start) says went wrong: its first line
// that matches a known signature (the first error is the cause, later ones its consequences). Nothing
// when no line matches: a generic "Error" line is not a diagnosis.
namespace pd {

struct LogTailDiagnosis {
    int signatureId = 0;
    QString title;
    QString fix;
    QString line; // the matching line, at most 200 characters
    // "cause in the log: <title> ("<line>"); fix: <fix>"
    QString text() const;
};

std::optional<LogTailDiagnosis> diagnoseLogTail(QByteArrayView tail);

} // namespace pd
