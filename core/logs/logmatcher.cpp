// SPDX-License-Identifier: MIT
#include "logs/logmatcher.h"

#include <queue>

namespace pd {

namespace {

// Generic error markers: vLLM's "ERROR mm-dd ...", Python tracebacks and exceptions, CANN "[ERROR]".
const char *const kGenericAnchors[] = {"ERROR", "Traceback (most recent call last)", "Error: ", "Exception: "};

} // namespace

LogMatcher::LogMatcher()
    : LogMatcher(logSignatures())
{
}

LogMatcher::LogMatcher(const QList<LogSignature> &signatures)
{
    m_delta.assign(256, -1);
    m_out.assign(1, 0);
    m_fail.assign(1, 0);
    for (const char *g : kGenericAnchors)
        addPattern(QByteArray(g), 0);
    Q_ASSERT(signatures.size() <= 63);
    for (const LogSignature &s : signatures) {
        m_entries.push_back(Entry{s.id, QRegularExpression(s.pattern)});
        m_entries.back().re.optimize();
        for (const QString &a : s.anchors)
            addPattern(a.toUtf8(), int(m_entries.size()));
    }
    finish();
}

void LogMatcher::addPattern(const QByteArray &literal, int bit)
{
    int state = 0;
    for (char ch : literal) {
        const auto b = std::uint8_t(ch);
        int next = m_delta[size_t(state) * 256 + b];
        if (next < 0) {
            next = int(m_out.size());
            m_out.push_back(0);
            m_fail.push_back(0);
            m_delta.resize(m_delta.size() + 256, -1);
            m_delta[size_t(state) * 256 + b] = next;
        }
        state = next;
    }
    m_out[size_t(state)] |= std::uint64_t(1) << bit;
}

void LogMatcher::finish()
{
    // Breadth-first: failure links, merged outputs, and the full transition table (a DFA).
    std::queue<int> queue;
    for (int b = 0; b < 256; ++b) {
        int &t = m_delta[size_t(b)];
        if (t < 0) {
            t = 0;
        } else {
            m_fail[size_t(t)] = 0;
            queue.push(t);
        }
    }
    while (!queue.empty()) {
        const int s = queue.front();
        queue.pop();
        m_out[size_t(s)] |= m_out[size_t(m_fail[size_t(s)])];
        for (int b = 0; b < 256; ++b) {
            int &t = m_delta[size_t(s) * 256 + size_t(b)];
            const int viaFail = m_delta[size_t(m_fail[size_t(s)]) * 256 + size_t(b)];
            if (t < 0) {
                t = viaFail;
            } else {
                m_fail[size_t(t)] = viaFail;
                queue.push(t);
            }
        }
    }
}

LogLineClass LogMatcher::evaluate(QByteArrayView line, std::uint64_t mask) const
{
    LogLineClass c;
    c.error = (mask & 1) != 0;
    const std::uint64_t sigs = mask >> 1;
    if (!sigs)
        return c;
    const QString text = QString::fromUtf8(line);
    for (size_t i = 0; i < m_entries.size(); ++i) {
        if (!(sigs & (std::uint64_t(1) << i)))
            continue;
        if (m_entries[i].re.match(text).hasMatch()) {
            c.signatureId = m_entries[i].id;
            c.error = true;
            break;
        }
    }
    return c;
}

LogLineClass LogMatcher::classify(QByteArrayView line) const
{
    std::uint64_t mask = 0;
    std::int32_t s = 0;
    for (char ch : line) {
        s = m_delta[size_t(s) * 256 + std::uint8_t(ch)];
        mask |= m_out[size_t(s)];
    }
    return evaluate(line, mask);
}

void LogMatcher::scan(QByteArrayView text, const Hit &hit, qint64 firstLine) const
{
    const char *const data = text.data();
    const qsizetype n = text.size();
    const std::int32_t *delta = m_delta.data();
    const std::uint64_t *out = m_out.data();
    qint64 line = firstLine;
    qsizetype lineStart = 0;
    std::uint64_t mask = 0;
    std::int32_t s = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const auto b = std::uint8_t(data[i]);
        if (b == '\n') {
            if (mask) {
                const LogLineClass c = evaluate(QByteArrayView(data + lineStart, i - lineStart), mask);
                if (c.error)
                    hit(line, lineStart, i, c);
                mask = 0;
            }
            s = 0;
            ++line;
            lineStart = i + 1;
            continue;
        }
        s = delta[size_t(s) * 256 + b];
        mask |= out[size_t(s)];
    }
    if (mask && lineStart < n) {
        const LogLineClass c = evaluate(QByteArrayView(data + lineStart, n - lineStart), mask);
        if (c.error)
            hit(line, lineStart, n, c);
    }
}

} // namespace pd
