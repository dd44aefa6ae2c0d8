// SPDX-License-Identifier: MIT
// SimEngine's own control endpoints, beside the vLLM API it serves: GET /sim/state (what the engine
// holds now) and POST /sim/fault (inject or clear a fault).
#include "simengine.h"

#include "openaiformat.h"

#include <QTimer>

#include <optional>

namespace pd::sim {

using openai::Json;

void SimEngine::handleFault(const HttpRequest &req, const HttpResponderPtr &res)
{
    if (req.path == "/sim/state" && req.method == "GET") {
        const EngineState s = state();
        Json j;
        j["role"] = engineRoleName(m_options.role).toStdString();
        j["dp_rank"] = m_options.dpRank;
        j["fault"] = faultKindName(s.fault).toStdString();
        j["running"] = s.running;
        j["waiting"] = s.waiting;
        j["finished"] = s.finished;
        j["finished_by_reason"] = { { "stop", s.finishedStop }, { "length", s.finishedLength },
            { "abort", s.finishedAbort }, { "error", s.finishedError } };
        j["prompt_tokens"] = s.promptTokens;
        j["generation_tokens"] = s.generationTokens;
        j["kv_cache_usage"] = s.kvUsage;
        j["open_requests"] = s.openStreams;
        j["awaiting_group"] = s.awaitingGroup;
        j["group_blocked"] = s.groupBlocked;
        j["sim_time"] = s.simTime;
        j["engine_id"] = m_engineId.toStdString();
        res->respond(200, kJsonContentType, QByteArray::fromStdString(j.dump()));
        return;
    }
    if (req.path == "/sim/fault" && req.method == "POST") {
        const Json body = Json::parse(req.body.constData(), req.body.constData() + req.body.size(), nullptr, false);
        std::optional<FaultKind> kind;
        int ms = 0;
        if (body.is_object() && body.contains("kind") && body["kind"].is_string())
            kind = faultKindFromName(QString::fromStdString(body["kind"].get<std::string>()));
        if (body.is_object() && body.contains("ms") && body["ms"].is_number())
            ms = int(body["ms"].get<double>());
        if (!kind) {
            res->respond(400, kJsonContentType,
                QByteArray::fromStdString(
                    Json { { "error", "kind must be one of " + faultKindNames().toStdString() } }.dump()));
            return;
        }
        Json j;
        j["fault"] = faultKindName(*kind).toStdString();
        j["ms"] = ms;
        res->respond(200, kJsonContentType, QByteArray::fromStdString(j.dump()));
        // A crash drops this very connection too; answer first so the caller knows it landed.
        if (*kind == FaultKind::Crash)
            QTimer::singleShot(0, this, [this] { setFault(FaultKind::Crash); });
        else
            setFault(*kind, ms);
        return;
    }
    res->respond(404, kJsonContentType, QByteArrayLiteral("{\"detail\":\"Not Found\"}"));
}

} // namespace pd::sim
