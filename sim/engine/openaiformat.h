// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>

// JSON shapes of vLLM 0.9.1's OpenAI server: completion and chat answers, their SSE chunks, error bodies
// and the model list. Keys in vLLM's order (ordered_json).
namespace pd::sim::openai {

using Json = nlohmann::ordered_json;

struct Usage {
    int promptTokens = 0;
    int completionTokens = 0;
    int cachedTokens = -1; // < 0: prompt_tokens_details null
};

Json usageJson(const Usage &u);
QByteArray errorBody(int code, const QByteArray &message);
QByteArray completionBody(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
                          const QByteArray &text, const char *finishReason, const Usage &usage,
                          const Json &kvTransferParams);
// One SSE event ("data: {...}\n\n") carrying text (and the finish reason on the last one).
QByteArray streamChunk(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
                       const QByteArray &text, const char *finishReason, bool roleDelta);
QByteArray streamUsageChunk(const QByteArray &id, qint64 created, const QByteArray &model, bool chat,
                            const Usage &usage);
QByteArray modelsBody(const QByteArray &id, const QByteArray &root, qint64 created, int maxModelLen);
// The token text the simulator emits (a deterministic word per token).
QByteArray tokenText(quint64 seed, int index);
// A request body's prompt length in tokens (4 UTF-8 bytes per token, the simulator's tokenizer; chat adds
// 4 template tokens per message; token-id prompts count their ids) and the prompt text used for
// prefix-cache lookups. {0, ""} when the body has no prompt or messages.
std::pair<int, std::string> promptOf(const Json &body, bool chat);

} // namespace pd::sim::openai
