// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <QMetaType>

#include <optional>

// What the proxy's GET /healthcheck says (spec proxy-api §2.1). The proxy's "status" is always "ok"
// and says nothing about backends; the counts include draining instances and exclude waiting ones.
namespace pd {

struct ProxyHealth {
    bool reachable = false;
    int prefillInstances = 0;
    int decodeInstances = 0;
    std::optional<int> requestNum; // absent before vllm-ascend v0.21
    QString error;                 // why the last poll failed, empty when reachable
    QDateTime when;                // when this was observed
};

// Parses a /healthcheck body. On failure returns nullopt and sets *error (with line:column for JSON
// syntax, the key for a wrong shape).
std::optional<ProxyHealth> parseProxyHealth(const QByteArray &body, QString *error);

} // namespace pd
Q_DECLARE_METATYPE(pd::ProxyHealth)
