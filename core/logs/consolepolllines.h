// SPDX-License-Identifier: MIT
#pragma once

#include <QStringView>

// The console's own polling in a server's access log: uvicorn writes one line per request, and the
// console asks the proxy for /healthcheck and every engine for /metrics, /health and /v1/models
// every few seconds, so on a quiet cluster most of a log is the console talking to itself. The Logs
// tab hides these lines on request. A line qualifies when it is an access line of a GET or HEAD of
// one of those paths (`"GET /metrics HTTP/1.1" 200 OK`); completions, adds and removes never do.
namespace pd {

bool isConsolePollLine(QStringView line);

} // namespace pd
