// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include <nlohmann/json.hpp>

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

} // namespace pd::sim::openai
