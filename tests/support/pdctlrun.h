// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace pd::test {

// What the built pdctl did with one command line.
struct PdctlRun {
    int exitCode = -1; // -1: it did not finish in time, or crashed
    QString out; // its stdout
    QString err; // its stderr
    QString both() const { return out + err; }
};

struct PdctlOptions {
    int timeoutMs = 120000; // then killed (exitCode -1)
    QStringList environment; // "NAME=value" entries added to the test's own environment
};

QString pdctlPath(); // the built pdctl

// Runs the built pdctl with `args` to its end, stdin closed (a confirmation prompt reads end of file).
PdctlRun runPdctl(const QStringList &args, const PdctlOptions &options = {});

} // namespace pd::test
