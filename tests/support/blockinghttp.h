// SPDX-License-Identifier: MIT
#pragma once

// One HTTP request from a test with a JSON body (the simulator's control API, an engine's /sim routes), its
// answer waited for with the test's event loop running (the simulated cluster may live in the same thread):
// the body, and the status in *status (0 when nothing answered). Bounded: 5 s. httpCall() underneath.
#include "httpcall.h"

namespace pd::test {

inline QByteArray blockingHttp(
    const QByteArray &method, const QString &url, const QByteArray &body = {}, int *status = nullptr)
{
    const HttpAnswer answer = httpCall(method, url, body, 5000);
    if (status)
        *status = answer.status;
    return answer.body;
}

} // namespace pd::test
