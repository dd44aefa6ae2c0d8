// SPDX-License-Identifier: MIT
#include "net/proxyhealth.h"

#include "cluster/strictjson.h"

namespace pd {

std::optional<ProxyHealth> parseProxyHealth(const QByteArray &body, QString *error)
{
    const StrictJsonResult json = parseStrictJson(body);
    if (!json.ok) {
        *error = json.line > 0 ? QStringLiteral("/healthcheck is not JSON (%1:%2: %3)").arg(json.line).arg(json.column).arg(json.message)
                               : QStringLiteral("/healthcheck: %1: %2").arg(json.pointer, json.message);
        return std::nullopt;
    }
    const auto &v = json.value;
    if (!v.is_object()) {
        *error = QStringLiteral("/healthcheck answered a JSON value that is not an object");
        return std::nullopt;
    }
    ProxyHealth health;
    for (const char *key : {"prefill_instances", "decode_instances"}) {
        const auto it = v.find(key);
        if (it == v.end() || !it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1000000) {
            *error = QStringLiteral("/healthcheck: \"%1\" is missing or not a count").arg(QLatin1String(key));
            return std::nullopt;
        }
    }
    health.prefillInstances = v["prefill_instances"].get<int>();
    health.decodeInstances = v["decode_instances"].get<int>();
    if (const auto it = v.find("request_num"); it != v.end()) {
        if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 100000000) {
            *error = QStringLiteral("/healthcheck: \"request_num\" is not a count");
            return std::nullopt;
        }
        health.requestNum = it->get<int>();
    }
    health.reachable = true;
    return health;
}

} // namespace pd
