// SPDX-License-Identifier: MIT
#include "ops/completionstreamreader.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace pd {

namespace {

// The verdicts' details, shown in the warm-up dialog and its export (pdctl prints them in English).
struct CompletionStreamTr {
    Q_DECLARE_TR_FUNCTIONS(pd::WarmUp)
};

using json = nlohmann::json;

// The generated text of choices[0]: "text" (completions) or "delta.content" / "message.content" (chat).
QString choiceText(const json &choice)
{
    if (!choice.is_object())
        return {};
    if (const auto t = choice.find("text"); t != choice.end() && t->is_string())
        return QString::fromStdString(t->get<std::string>());
    for (const char *key : { "delta", "message" }) {
        const auto d = choice.find(key);
        if (d == choice.end() || !d->is_object())
            continue;
        if (const auto c = d->find("content"); c != d->end() && c->is_string())
            return QString::fromStdString(c->get<std::string>());
    }
    return {};
}

std::optional<int> completionTokens(const json &object)
{
    const auto usage = object.find("usage");
    if (usage == object.end() || !usage->is_object())
        return std::nullopt;
    const auto n = usage->find("completion_tokens");
    if (n == usage->end() || !n->is_number_integer())
        return std::nullopt;
    return n->get<int>();
}

// The message of an error object: {"error": "..."}, {"error": {"message": "..."}} or vLLM's
// {"object": "error", "message": "..."}.
std::optional<QString> errorMessage(const json &object)
{
    if (const auto e = object.find("error"); e != object.end() && !e->is_null()) {
        if (e->is_string())
            return QString::fromStdString(e->get<std::string>());
        if (e->is_object())
            if (const auto m = e->find("message"); m != e->end() && m->is_string())
                return QString::fromStdString(m->get<std::string>());
        return QString::fromStdString(e->dump());
    }
    if (object.value("object", std::string()) == "error")
        return QString::fromStdString(object.value("message", std::string("error")));
    return std::nullopt;
}

} // namespace

QString completionExcerpt(QByteArrayView body)
{
    const QByteArray cut = body.first(std::min<qsizetype>(160, body.size())).toByteArray().simplified();
    return QString::fromUtf8(cut) + (body.size() > 160 ? QStringLiteral("...") : QString());
}

void CompletionStreamReader::problem(WarmUpOutcome outcome, const QString &detail)
{
    if (!m_problem)
        m_problem = std::make_pair(outcome, detail);
}

void CompletionStreamReader::feed(QByteArrayView bytes, double atMs)
{
    m_bytes += bytes.size();
    m_feedMs = atMs;
    if (m_problem)
        return;
    while (!bytes.isEmpty() && !m_problem) {
        const qsizetype nl = bytes.indexOf('\n');
        if (nl < 0) {
            m_partial.append(bytes);
            if (m_partial.size() > kMaxLine)
                problem(WarmUpOutcome::Malformed,
                    CompletionStreamTr::tr("line %1: longer than %2 bytes").arg(m_line + 1).arg(kMaxLine));
            return;
        }
        if (m_partial.isEmpty()) {
            line(bytes.first(nl), atMs);
        } else {
            m_partial.append(bytes.first(nl));
            const QByteArray whole = std::exchange(m_partial, QByteArray());
            line(whole, atMs);
        }
        bytes = bytes.sliced(nl + 1);
    }
}

void CompletionStreamReader::line(QByteArrayView text, double atMs)
{
    ++m_line;
    if (text.endsWith('\r'))
        text.chop(1);
    if (text.size() > kMaxLine) {
        problem(WarmUpOutcome::Malformed, CompletionStreamTr::tr("line %1: longer than %2 bytes").arg(m_line).arg(kMaxLine));
        return;
    }
    if (text.isEmpty()) {
        dispatch(atMs);
        return;
    }
    if (text.startsWith(':'))
        return; // comment (keep-alive)
    const qsizetype colon = text.indexOf(':');
    const QByteArrayView field = colon < 0 ? text : text.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : text.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field == "data") {
        if (!m_hasData)
            m_dataLine = m_line;
        else
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
        return;
    }
    if (field == "event" || field == "id" || field == "retry")
        return;
    problem(WarmUpOutcome::Malformed,
        CompletionStreamTr::tr("line %1: not an event-stream field: %2").arg(m_line).arg(completionExcerpt(text)));
}

void CompletionStreamReader::dispatch(double atMs)
{
    if (!m_hasData)
        return;
    const QByteArray payload = std::exchange(m_data, QByteArray());
    m_hasData = false;
    if (payload == "[DONE]") {
        m_done = true;
        return;
    }
    if (m_done)
        return; // vLLM sends nothing after [DONE]; whatever follows does not change the answer
    const json j = json::parse(payload.constData(), payload.constData() + payload.size(), nullptr, false);
    if (!j.is_object()) {
        problem(WarmUpOutcome::Malformed,
            CompletionStreamTr::tr("line %1: data is not a JSON object: %2").arg(m_dataLine).arg(completionExcerpt(payload)));
        return;
    }
    if (const auto error = errorMessage(j)) {
        problem(WarmUpOutcome::ErrorPayload,
            CompletionStreamTr::tr("line %1: the stream carries an error: %2").arg(m_dataLine).arg(*error));
        return;
    }
    const auto choices = j.find("choices");
    const auto tokens = completionTokens(j);
    if (tokens)
        m_usageTokens = tokens;
    const bool hasChoices = choices != j.end() && choices->is_array() && !choices->empty();
    if (!hasChoices) {
        if (!tokens && !j.contains("usage"))
            problem(WarmUpOutcome::Malformed,
                CompletionStreamTr::tr("line %1: an event with neither choices nor usage: %2")
                    .arg(m_dataLine)
                    .arg(completionExcerpt(payload)));
        return;
    }
    if (choiceText(choices->front()).isEmpty())
        return; // a role-only or finish-only chunk
    ++m_chunks;
    if (!std::isfinite(m_firstMs))
        m_firstMs = atMs;
    m_lastMs = atMs;
}

CompletionVerdict CompletionStreamReader::finish()
{
    CompletionVerdict v;
    // The body may end without the blank line after its last event: that event still counts.
    // A body that ends inside a line was cut: that is a truncation unless the line is data: [DONE].
    bool cutInLine = false;
    if (!m_problem && !m_partial.isEmpty()) {
        QByteArray last = std::exchange(m_partial, QByteArray());
        if (last.endsWith('\r'))
            last.chop(1);
        if (last == "data: [DONE]" || last == "data:[DONE]") {
            dispatch(m_feedMs);
            m_done = true;
        } else {
            cutInLine = true;
        }
    }
    if (!m_problem && m_hasData && !cutInLine)
        dispatch(m_feedMs);
    v.chunks = m_chunks;
    v.tokens = m_usageTokens.value_or(m_chunks);
    v.ttftMs = m_firstMs;
    if (v.tokens > 1 && m_chunks > 0)
        v.tpotMs = (m_lastMs - m_firstMs) / (v.tokens - 1);
    if (m_problem) {
        v.outcome = m_problem->first;
        v.detail = m_problem->second;
        return v;
    }
    if (m_bytes == 0) {
        v.outcome = WarmUpOutcome::EmptyOk;
        v.detail = CompletionStreamTr::tr("HTTP 200 with an empty body (the proxy's answer when a decoder fails)");
        return v;
    }
    if (!m_done) {
        v.outcome = WarmUpOutcome::NoDone;
        v.detail
            = CompletionStreamTr::tr("the stream ended without data: [DONE] after %1 content chunk(s), %2 line(s)%3: truncated")
                  .arg(m_chunks)
                  .arg(m_line)
                  .arg(cutInLine ? CompletionStreamTr::tr(", inside line %1").arg(m_line + 1) : QString());
        return v;
    }
    if (m_chunks == 0) {
        v.outcome = WarmUpOutcome::NoTokens;
        v.detail = CompletionStreamTr::tr("data: [DONE] without a single generated token");
        return v;
    }
    return v;
}

CompletionVerdict classifyCompletionBody(const QByteArray &body)
{
    CompletionVerdict v;
    if (body.trimmed().isEmpty()) {
        v.outcome = WarmUpOutcome::EmptyOk;
        v.detail = CompletionStreamTr::tr("HTTP 200 with an empty body (the proxy's answer when a decoder fails)");
        return v;
    }
    const json j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    if (!j.is_object()) {
        v.outcome = WarmUpOutcome::Malformed;
        v.detail = CompletionStreamTr::tr("the body is not a JSON object (%1 bytes): %2")
                       .arg(body.size())
                       .arg(completionExcerpt(body));
        return v;
    }
    if (const auto error = errorMessage(j)) {
        v.outcome = WarmUpOutcome::ErrorPayload;
        v.detail = CompletionStreamTr::tr("HTTP 200 carrying an error: %1").arg(*error);
        return v;
    }
    const auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty()) {
        v.outcome = WarmUpOutcome::Malformed;
        v.detail = CompletionStreamTr::tr("the body has no choices: %1").arg(completionExcerpt(body));
        return v;
    }
    const QString text = choiceText(choices->front());
    v.tokens = completionTokens(j).value_or(text.isEmpty() ? 0 : 1);
    if (v.tokens == 0 || text.isEmpty()) {
        v.outcome = WarmUpOutcome::NoTokens;
        v.detail = CompletionStreamTr::tr("a complete answer without a single generated token");
    }
    return v;
}

} // namespace pd
