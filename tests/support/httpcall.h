// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

namespace pd::test {

struct HttpAnswer {
    int status = 0;      // 0: no answer (see error)
    QByteArray body;     // the body whatever the status, as curl -s printed it
    QString error;       // empty when an answer came (any status)
};

// One HTTP request (a JSON body when not empty), waited for with the test's event loop running, at most
// timeoutMs. For the simulator's control API and the proxy in tests; loopback only.
HttpAnswer httpCall(const QByteArray &method, const QString &url, const QByteArray &body = {}, int timeoutMs = 10000);

} // namespace pd::test
