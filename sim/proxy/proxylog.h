// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <functional>

namespace pd::sim {

// Where a line of the simulated proxy's output goes: print() goes to stdout, the Python logger and
// tracebacks to stderr. The logger's level decides which logger lines are written at all.
enum class ProxyStream { Stdout, Stderr };
enum class ProxyLogLevel { Debug = 10, Info = 20, Warning = 30, Error = 40, Critical = 50 };

ProxyLogLevel proxyLogLevel(const QString &name); // "INFO" -> Info; unknown -> Info

// A sink the proxy's parts write through; SimProxy turns it into its output() signal.
struct ProxyLog {
    std::function<void(ProxyStream, const QString &)> write;
    ProxyLogLevel level = ProxyLogLevel::Info;

    void print(const QString &line) const;                        // stdout
    void log(ProxyLogLevel level, const QString &message) const;  // stderr, "LEVEL message"
    void raw(const QString &line) const;                          // stderr as is
};

} // namespace pd::sim
