// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace pd::sim {

// Which generation of the vllm-ascend load-balance proxy is simulated (spec proxy-api.md §10).
// Main: vllm-ascend main HEAD (expanded host/port lists, /instances/*, /v1/models, /reset_prefix_cache,
//       /healthcheck with request_num, upstream errors forwarded, no retry on 400).
// V091Dev: the v0.9.1-dev branch proxy (--*-hosts-num / --*-ports-inc, /healthcheck with 3 keys, no
//       elastic scaling API, no /v1/models, no /reset_prefix_cache, every backend error is a 500).
enum class ProxyGeneration { Main, V091Dev };

// One backend as given on the command line or in /instances/add: the host string is kept as given
// (not normalised); the port is whatever integer Python's int() accepted.
struct BackendAddress {
    QString host;
    int port = 0;

    QString displayName() const; // "host:port" as given
    friend bool operator==(const BackendAddress &, const BackendAddress &) = default;
};

// The proxy's command line as a value. fromArguments() mimics the proxy's argparse parser of the
// chosen generation, including its errors: usage errors (unknown flag, bad int, missing value) report
// exit status 2, the host/port length ValueError exit status 1.
// The cluster mode may build options directly (or parse a v0.9.1-dev command line for its expansion
// and then switch `generation` to Main to get the scaling API).
struct ProxyOptions {
    QString host = QStringLiteral("localhost");
    int port = 8000;
    QList<BackendAddress> prefillers;
    QList<BackendAddress> decoders;
    int maxRetries = 3;
    double retryDelay = 0.001;            // seconds, base of the exponential backoff
    int maxWaitingRetries = 3;
    double waitingRetryInterval = 10.0;   // seconds
    int workers = 1;                      // accepted; pdsim always runs one shared scheduler
    QString logLevel = QStringLiteral("INFO");
    ProxyGeneration generation = ProxyGeneration::Main;

    // Defects of the real proxy (spec §8), on by default.
    bool listenerCrashDefect = true;      // §8.1: NodeListener dies on a tainted waiting instance
    bool emptyOkOnDecoderFailure = true;  // §8.2 / #13140: 200 with empty or truncated body
    double backendTimeout = 0.0;          // seconds; 0 = no timeout towards backends (§8.10)

    // Bearer token for every backend call; the real proxy sends "Bearer None" without the variable.
    QString apiKey = QStringLiteral("None");
    bool accessLog = false;               // uvicorn's access line per answer on stdout (pdsim: with a log file)

    // `arguments` are the proxy's flags (without program or sub-command name). The API key is read from
    // OPENAI_API_KEY. On failure returns nullopt, sets *error to the text the real proxy prints and
    // *exitCode to its exit status.
    static std::optional<ProxyOptions> fromArguments(const QStringList &arguments, QString *error,
                                                     int *exitCode = nullptr);
    static QString usage(ProxyGeneration generation);
    // The command line a real proxy with these options would run with (expanded host/port lists; the
    // waiting flags only for a main-line proxy), as `pdsim cluster` reports it in its state.
    QStringList toArguments() const;
};

} // namespace pd::sim
