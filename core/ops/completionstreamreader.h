// SPDX-License-Identifier: MIT
#pragma once

#include "ops/warmuptypes.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

// Reads one completion answer as it arrives and says what it was. Pure: bytes and the time they
// arrived in, a verdict out; no network, no clock of its own.
//
// Streamed (SSE, what vLLM and the proxy send): `data: {json}` events separated by blank lines, then
// `data: [DONE]`. Comment lines (`:`) and the fields `event:`, `id:`, `retry:` are allowed; any other
// line, a data payload that is not a JSON object, an object with neither `choices` nor `usage`, or a
// line over 1 MiB is malformed, and the verdict names the line (1-based, in the body). A content chunk
// is one whose choices[0].text (completions) or choices[0].delta.content (chat) is not empty; its
// arrival time gives TTFT (the first) and TPOT (first to last over tokens - 1, tokens from
// usage.completion_tokens when the stream carries it, else the content chunks).
//
// Not streamed: the whole body is one JSON object with choices and usage.
namespace pd {

struct CompletionVerdict {
    WarmUpOutcome outcome = WarmUpOutcome::Ok;
    QString detail;
    double ttftMs = std::numeric_limits<double>::quiet_NaN();
    double tpotMs = std::numeric_limits<double>::quiet_NaN();
    int tokens = 0;
    int chunks = 0;
};

class CompletionStreamReader {
public:
    static constexpr qsizetype kMaxLine = 1 << 20;

    // Bytes of the 200 body as they arrived, atMs after the request was sent.
    void feed(QByteArrayView bytes, double atMs);
    // The body ended (the server closed it, cleanly or not). Call once.
    CompletionVerdict finish();

    int contentChunks() const { return m_chunks; }
    qint64 bytes() const { return m_bytes; }
    double firstContentMs() const { return m_firstMs; }

private:
    void line(QByteArrayView text, double atMs);
    void dispatch(double atMs);
    void problem(WarmUpOutcome outcome, const QString &detail);

    QByteArray m_partial;
    QByteArray m_data; // data lines of the event being read
    int m_dataLine = 0; // line of its first data field
    bool m_hasData = false;
    int m_line = 0; // lines completed so far
    qint64 m_bytes = 0;
    bool m_done = false;
    int m_chunks = 0;
    double m_firstMs = std::numeric_limits<double>::quiet_NaN();
    double m_lastMs = std::numeric_limits<double>::quiet_NaN();
    double m_feedMs = 0; // when the last bytes arrived
    std::optional<int> m_usageTokens;
    std::optional<std::pair<WarmUpOutcome, QString>> m_problem;
};

// The verdict on a non-streamed 200 body.
CompletionVerdict classifyCompletionBody(const QByteArray &body);

// A body excerpt for details: at most 160 characters, whitespace simplified.
QString completionExcerpt(QByteArrayView body);

} // namespace pd
