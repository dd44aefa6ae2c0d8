// SPDX-License-Identifier: MIT
#pragma once

#include "ops/detachedprocess.h"

// The result of one operation over many processes (start 16 engines, stop a pool): every outcome in
// request order, and what failed and why in words an operator can act on.
namespace pd {

struct OperationSummary {
    int id = 0;
    ProcessAction action = ProcessAction::Status;
    QList<ProcessOutcome> outcomes;
    QStringList notes; // things found on the way (pid files of engines the profile does not name)

    int succeeded() const;
    int failed() const;
    QList<ProcessOutcome> failures() const;
    // "start 16 processes: 14 ok, 2 failed" and one line per failure with its log tail indented.
    QString text() const;
};

} // namespace pd
