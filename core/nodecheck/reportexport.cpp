// SPDX-License-Identifier: MIT
#include "nodecheck/reportexport.h"

#include <nlohmann/json.hpp>

namespace pd {

namespace {

QByteArray csvField(const QByteArray &raw)
{
    if (!raw.contains(',') && !raw.contains('"') && !raw.contains('\n') && !raw.contains('\r'))
        return raw;
    QByteArray q = raw;
    q.replace("\"", "\"\"");
    return '"' + q + '"';
}

QByteArray csvField(const QString &s)
{
    return csvField(s.toUtf8());
}

std::string u8(const QString &s)
{
    return s.toStdString();
}

std::string u8(const QByteArray &b)
{
    return QString::fromUtf8(b).toStdString(); // invalid UTF-8 becomes U+FFFD, JSON stays valid
}

} // namespace

QByteArray reportToCsv(const ClusterReport &report)
{
    QByteArray out = "node,host,device,check,verdict,reason,command,exit_code,stdout,stderr\r\n";
    for (const NodeReport &n : report.nodes) {
        for (const CheckResult &c : n.checks) {
            QList<QByteArray> row { csvField(n.node), csvField(n.host),
                c.device < 0 ? QByteArray() : QByteArray::number(c.device), csvField(checkKindName(c.kind)),
                csvField(verdictName(c.verdict)), csvField(c.reason),
                csvField(c.kind == CheckKind::Reach ? QString() : c.command),
                c.exitCode < 0 ? QByteArray() : QByteArray::number(c.exitCode), csvField(c.out), csvField(c.err) };
            out += row.join(',') + "\r\n";
        }
    }
    return out;
}

QByteArray reportToJson(const ClusterReport &report)
{
    nlohmann::ordered_json root;
    root["started"] = u8(report.started.toString(Qt::ISODateWithMs));
    root["finished"] = u8(report.finished.toString(Qt::ISODateWithMs));
    root["summary"] = { { "pass", report.count(Verdict::Pass) }, { "warning", report.count(Verdict::Warning) },
        { "fail", report.count(Verdict::Fail) }, { "unknown", report.count(Verdict::Unknown) } };
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
    for (const NodeReport &n : report.nodes) {
        nlohmann::ordered_json node;
        node["node"] = u8(n.node);
        node["host"] = u8(n.host);
        node["generation"] = u8(generationName(n.generation));
        node["devices"] = n.deviceCount;
        node["reachable"] = n.reachable;
        node["timed_out"] = n.timedOut;
        node["error"] = u8(n.transportError);
        node["elapsed_ms"] = n.elapsedMs;
        nlohmann::ordered_json checks = nlohmann::ordered_json::array();
        for (const CheckResult &c : n.checks) {
            nlohmann::ordered_json j;
            j["device"] = c.device < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.device);
            j["check"] = u8(checkKindName(c.kind));
            j["verdict"] = u8(verdictName(c.verdict));
            j["reason"] = u8(c.reason);
            j["command"] = u8(c.kind == CheckKind::Reach ? QString() : c.command);
            j["exit_code"] = c.exitCode;
            nlohmann::ordered_json values = nlohmann::ordered_json::object();
            for (auto it = c.values.begin(); it != c.values.end(); ++it)
                values[u8(it.key())] = u8(it.value());
            j["values"] = values;
            j["stdout"] = u8(c.out);
            j["stderr"] = u8(c.err);
            checks.push_back(j);
        }
        node["checks"] = checks;
        nodes.push_back(node);
    }
    root["nodes"] = nodes;
    return QByteArray::fromStdString(root.dump(2)) + '\n';
}

} // namespace pd
