// SPDX-License-Identifier: MIT
#include "openaiformat.h"

#include <QStringBuilder>

namespace pd::sim::openai {

namespace {
std::string str(const QByteArray &b)
{
    return std::string(b.constData(), std::size_t(b.size()));
}
QByteArray bytes(const Json &j)
{
    const std::string s = j.dump();
    return QByteArray(s.data(), qsizetype(s.size()));
}
Json reason(const char *r)
{
    return r ? Json(r) : Json(nullptr);
}
constexpr const char *kWords[] = {
    "the", "cluster", "serves", "tokens", "from", "a", "decode", "engine", "while", "prefill",
    "nodes", "compute", "prompts", "and", "move", "KV", "blocks", "over", "the", "network",
    "to", "keep", "latency", "low", "under", "load", "with", "many", "requests", "in", "flight",
    "today",
};
} // namespace

Json usageJson(const Usage &u)
{
    Json j;
    j["prompt_tokens"] = u.promptTokens;
    j["total_tokens"] = u.promptTokens + u.completionTokens;
    j["completion_tokens"] = u.completionTokens;
    if (u.cachedTokens >= 0)
        j["prompt_tokens_details"] = Json{{"cached_tokens", u.cachedTokens}};
    else
        j["prompt_tokens_details"] = nullptr;
    return j;
}

QByteArray errorBody(int code, const QByteArray &message)
{
    const char *type = code == 404 ? "NotFoundError"
                       : code == 401 ? "Unauthorized"
                       : code >= 500 ? "InternalServerError"
                                     : "BadRequestError";
    Json j;
    j["object"] = "error";
    j["message"] = str(message);
    j["type"] = type;
    j["param"] = nullptr;
    j["code"] = code;
    return bytes(j);
}

namespace {

// The fields a completion's answer and each of its stream chunks start with.
Json completionHead(const QByteArray &id, const char *object, qint64 created, const QByteArray &model)
{
    Json j;
    j["id"] = str(id);
    j["object"] = object;
    j["created"] = created;
    j["model"] = str(model);
    return j;
}

// A /v1/completions choice (the answer's and each stream chunk's): its text and how it ended.
void setTextChoice(Json &choice, const QByteArray &text, const char *finishReason)
{
    choice["text"] = str(text);
    choice["logprobs"] = nullptr;
    choice["finish_reason"] = reason(finishReason);
    choice["stop_reason"] = nullptr;
}

} // namespace

QByteArray completionBody(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
    const QByteArray &text, const char *finishReason, const Usage &usage, const Json &kvTransferParams)
{
    Json j = completionHead(id, chat ? "chat.completion" : "text_completion", created, model);
    Json choice;
    choice["index"] = 0;
    if (chat) {
        Json msg;
        msg["role"] = "assistant";
        msg["reasoning_content"] = nullptr;
        msg["content"] = str(text);
        msg["tool_calls"] = Json::array();
        choice["message"] = msg;
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = reason(finishReason);
        choice["stop_reason"] = nullptr;
    } else {
        setTextChoice(choice, text, finishReason);
        choice["prompt_logprobs"] = nullptr;
    }
    j["choices"] = Json::array({choice});
    j["usage"] = usageJson(usage);
    if (chat)
        j["prompt_logprobs"] = nullptr;
    j["kv_transfer_params"] = kvTransferParams;
    return bytes(j);
}

QByteArray streamChunk(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
                       const QByteArray &text, const char *finishReason, bool roleDelta)
{
    Json j = completionHead(id, chat ? "chat.completion.chunk" : "text_completion", created, model);
    Json choice;
    choice["index"] = 0;
    if (chat) {
        Json delta;
        if (roleDelta)
            delta["role"] = "assistant";
        delta["content"] = str(text);
        choice["delta"] = delta;
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = reason(finishReason);
        if (finishReason)
            choice["stop_reason"] = nullptr;
    } else {
        setTextChoice(choice, text, finishReason);
    }
    j["choices"] = Json::array({choice});
    return QByteArrayLiteral("data: ") + bytes(j) + QByteArrayLiteral("\n\n");
}

QByteArray streamUsageChunk(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
                            const Usage &usage)
{
    Json j = completionHead(id, chat ? "chat.completion.chunk" : "text_completion", created, model);
    j["choices"] = Json::array();
    j["usage"] = usageJson(usage);
    return QByteArrayLiteral("data: ") + bytes(j) + QByteArrayLiteral("\n\n");
}

QByteArray modelsBody(const QByteArray &id, const QByteArray &root, qint64 created, int maxModelLen)
{
    Json perm;
    perm["id"] = "modelperm-" + std::to_string(created) + "0a1b2c3d4e5f";
    perm["object"] = "model_permission";
    perm["created"] = created;
    perm["allow_create_engine"] = false;
    perm["allow_sampling"] = true;
    perm["allow_logprobs"] = true;
    perm["allow_search_indices"] = false;
    perm["allow_view"] = true;
    perm["allow_fine_tuning"] = false;
    perm["organization"] = "*";
    perm["group"] = nullptr;
    perm["is_blocking"] = false;
    Json card;
    card["id"] = str(id);
    card["object"] = "model";
    card["created"] = created;
    card["owned_by"] = "vllm";
    card["root"] = str(root);
    card["parent"] = nullptr;
    card["max_model_len"] = maxModelLen;
    card["permission"] = Json::array({perm});
    Json j;
    j["object"] = "list";
    j["data"] = Json::array({card});
    return bytes(j);
}

QByteArray tokenText(quint64 seed, int index)
{
    constexpr int n = int(sizeof kWords / sizeof kWords[0]);
    const quint64 k = seed * 31 + quint64(index) * 7;
    return (index == 0 ? QByteArray() : QByteArray(" ")) + QByteArray(kWords[k % n]);
}

namespace {

int tokensOfText(const std::string &s)
{
    return int((s.size() + 3) / 4); // the simulator's tokenizer: 4 bytes per token
}

} // namespace

std::pair<int, std::string> promptOf(const Json &body, bool chat)
{
    std::string text;
    int tokens = 0;
    if (chat) {
        const auto it = body.find("messages");
        if (it == body.end() || !it->is_array())
            return {0, {}};
        for (const Json &m : *it) {
            tokens += 4;
            if (!m.is_object())
                continue;
            const auto c = m.find("content");
            if (c == m.end())
                continue;
            if (c->is_string()) {
                text += c->get<std::string>();
            } else if (c->is_array()) {
                for (const Json &part : *c) {
                    if (part.is_object() && part.contains("text") && part["text"].is_string())
                        text += part["text"].get<std::string>();
                }
            }
            text += '\n';
        }
        return {tokens + tokensOfText(text), text};
    }
    const auto it = body.find("prompt");
    if (it == body.end())
        return {0, {}};
    if (it->is_string()) {
        text = it->get<std::string>();
        return {tokensOfText(text), text};
    }
    if (it->is_array() && !it->empty()) {
        const Json &first = it->front();
        if (first.is_number_integer())
            return {int(it->size()), it->dump()}; // token ids
        if (first.is_string()) {
            text = first.get<std::string>();
            return {tokensOfText(text), text};
        }
        if (first.is_array())
            return {int(first.size()), first.dump()};
    }
    return {0, {}};
}

} // namespace pd::sim::openai
