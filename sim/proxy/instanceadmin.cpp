// SPDX-License-Identifier: MIT
#include "instanceadmin.h"

#include "proxytext.h"

#include <variant>

namespace pd::sim {

AdminReply AdminReply::internalServerError()
{
    return {500, QByteArrayLiteral("text/plain; charset=utf-8"), QByteArrayLiteral("Internal Server Error"), {}};
}

namespace {

struct ParsedItem {
    QString raw;
    BackendAddress address;
};

struct ParsedRequest {
    OrderedJson type;
    QList<ParsedItem> items;
};

// Python's int() on the port text (whitespace, sign, underscores between digits).
std::optional<int> portValue(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    qsizetype i = 0;
    bool negative = false;
    if (t.at(0) == QLatin1Char('+') || t.at(0) == QLatin1Char('-')) {
        negative = t.at(0) == QLatin1Char('-');
        ++i;
    }
    QString digits;
    bool lastUnderscore = true; // no leading underscore
    for (; i < t.size(); ++i) {
        const QChar c = t.at(i);
        if (c == QLatin1Char('_')) {
            if (lastUnderscore)
                return std::nullopt;
            lastUnderscore = true;
            continue;
        }
        if (!c.isDigit())
            return std::nullopt;
        digits += QChar(QLatin1Char(char('0' + c.digitValue())));
        lastUnderscore = false;
    }
    if (digits.isEmpty() || lastUnderscore)
        return std::nullopt;
    bool ok = false;
    const int value = digits.toInt(&ok);
    if (!ok)
        return std::nullopt;
    return negative ? -value : value;
}

// Everything the real handler does before looking at `type`; nullopt means an unhandled exception.
std::optional<ParsedRequest> parse(const QByteArray &body)
{
    OrderedJson data;
    try {
        data = OrderedJson::parse(body.constData(), body.constData() + body.size());
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
    if (!data.is_object())
        return std::nullopt;
    ParsedRequest request;
    request.type = data.contains("type") ? data["type"] : OrderedJson();
    OrderedJson instances = data.contains("instances") ? data["instances"] : OrderedJson::array();
    if (instances.is_string())
        instances = OrderedJson::array({instances});
    if (!instances.is_array())
        return std::nullopt;
    for (const auto &item : instances) {
        if (!item.is_string())
            return std::nullopt;
        const QString raw = QString::fromStdString(item.get<std::string>());
        const QStringList parts = raw.split(QLatin1Char(':'));
        if (parts.size() != 2)
            return std::nullopt;
        const auto port = portValue(parts.at(1));
        if (!port)
            return std::nullopt;
        request.items.append({raw, {parts.at(0), *port}});
    }
    return request;
}

std::optional<ProxyRole> roleOf(const OrderedJson &type)
{
    if (type == "prefill")
        return ProxyRole::Prefill;
    if (type == "decode")
        return ProxyRole::Decode;
    return std::nullopt;
}

AdminReply jsonReply(const QByteArray &body)
{
    return {200, QByteArrayLiteral("application/json"), body, {}};
}

AdminReply typeError(const OrderedJson &type)
{
    OrderedJson error;
    const QString text = QStringLiteral("Instance type '") + pythonStr(type)
        + QStringLiteral("' is not supported. Only 'prefill' and 'decode' are allowed.");
    error["error"] = text.toStdString();
    return jsonReply(compactJson(error));
}

// An add or remove request the proxy takes: its instances and their pool.
struct AdmittedRequest {
    QList<ParsedItem> items;
    ProxyRole role;
};

// The request, or the proxy's answer refusing it: 500 for a body it cannot read, its error for an
// unknown instance type.
std::variant<AdmittedRequest, AdminReply> admit(const QByteArray &body)
{
    const auto request = parse(body);
    if (!request)
        return AdminReply::internalServerError();
    const auto role = roleOf(request->type);
    if (!role)
        return typeError(request->type);
    return AdmittedRequest { request->items, *role };
}

QStringList raws(const QList<ParsedItem> &items)
{
    QStringList out;
    for (const ParsedItem &item : items)
        out << item.raw;
    return out;
}

} // namespace

QByteArray InstanceAdmin::listsResponse(const ProxyScheduler &scheduler, const QString &message)
{
    auto list = [](const QStringList &items) {
        OrderedJson array = OrderedJson::array();
        for (const QString &item : items)
            array.push_back(item.toStdString());
        return array;
    };
    OrderedJson out;
    out["message"] = message.toStdString();
    out["current_prefill_instances"] = list(scheduler.instances(ProxyRole::Prefill));
    out["current_decode_instances"] = list(scheduler.instances(ProxyRole::Decode));
    return compactJson(out);
}

AdminReply InstanceAdmin::add(ProxyScheduler &scheduler, const QByteArray &body)
{
    const auto admitted = admit(body);
    if (const auto *refusal = std::get_if<AdminReply>(&admitted))
        return *refusal;
    const auto &[items, role] = std::get<AdmittedRequest>(admitted);
    QStringList queued;
    for (const ParsedItem &item : items) {
        const QString key = instanceKey(item.address);
        if (scheduler.contains(role, key) || scheduler.isWaiting(key))
            continue;
        scheduler.addWaiting(role, item.address);
        queued << item.raw;
    }
    const QString message = queued.isEmpty()
        ? QStringLiteral("add %1 instances: %2.").arg(roleName(role), pythonListRepr(raws(items)))
        : QStringLiteral("Instances %1 are waiting to be added.").arg(pythonListRepr(queued));
    return jsonReply(listsResponse(scheduler, message));
}

AdminReply InstanceAdmin::remove(ProxyScheduler &scheduler, const QByteArray &body)
{
    const auto admitted = admit(body);
    if (const auto *refusal = std::get_if<AdminReply>(&admitted))
        return *refusal;
    const auto &[items, role] = std::get<AdmittedRequest>(admitted);
    QStringList keys;
    for (const ParsedItem &item : items)
        keys << instanceKey(item.address);
    const QString listed = pythonListRepr(raws(items));
    if (scheduler.requestCount() == 0) {
        scheduler.remove(role, keys);
        return jsonReply(
            listsResponse(scheduler, QStringLiteral("remove %1 instances: %2.").arg(roleName(role), listed)));
    }
    scheduler.taint(role, keys);
    AdminReply reply = jsonReply(listsResponse(
        scheduler, QStringLiteral("Instances %1 are isolated and waiting to be removed.").arg(listed)));
    reply.logLines << QStringLiteral("Start to taint %1 instances %2.").arg(roleName(role), pythonListRepr(keys));
    return reply;
}

} // namespace pd::sim
