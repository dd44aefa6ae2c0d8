// SPDX-License-Identifier: MIT
#include "logs/logmatcher.h"

#include <queue>

namespace pd {

namespace {

constexpr std::int32_t kHasOutput = std::int32_t(0x40000000);
constexpr std::int32_t kStateMask = kHasOutput - 1;

// Generic error markers: vLLM's "ERROR mm-dd ...", Python tracebacks and exceptions, CANN "[ERROR]".
const char *const kGenericAnchors[] = { "ERROR", "Traceback (most recent call last)", "Error: ", "Exception: " };

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
        m_entries.push_back(Entry { s.id, QRegularExpression(s.pattern) });
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
    // Byte classes: bytes that behave the same in every state share a class (class 0: bytes no anchor uses).
    const size_t states = m_out.size();
    std::vector<int> firstByteOfClass;
    for (int b = 0; b < 256; ++b) {
        int cls = -1;
        for (size_t c = 0; c < firstByteOfClass.size() && cls < 0; ++c) {
            bool same = true;
            for (size_t st = 0; st < states && same; ++st)
                same = m_delta[st * 256 + size_t(b)] == m_delta[st * 256 + size_t(firstByteOfClass[c])];
            if (same)
                cls = int(c);
        }
        if (cls < 0) {
            cls = int(firstByteOfClass.size());
            firstByteOfClass.push_back(b);
        }
        m_class[b] = std::uint8_t(cls);
    }
    Q_ASSERT(firstByteOfClass.size() <= 256);
    m_classes = int(firstByteOfClass.size());
    m_shift = 0;
    while ((1 << m_shift) < m_classes)
        ++m_shift;
    m_dfa.assign(states << m_shift, 0);
    for (size_t st = 0; st < states; ++st) {
        for (int c = 0; c < m_classes; ++c) {
            const std::int32_t t = m_delta[st * 256 + size_t(firstByteOfClass[size_t(c)])];
            m_dfa[(st << m_shift) + size_t(c)] = t | (m_out[size_t(t)] ? kHasOutput : 0);
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
        const std::int32_t t = m_dfa[(size_t(s) << m_shift) + m_class[std::uint8_t(ch)]];
        s = t & kStateMask;
        if (t & kHasOutput)
            mask |= m_out[size_t(s)];
    }
    return evaluate(line, mask);
}

void LogMatcher::scan(QByteArrayView text, const Hit &hit, qint64 firstLine) const
{
    const char *const data = text.data();
    const qsizetype n = text.size();
    const std::int32_t *dfa = m_dfa.data();
    const std::uint8_t *cls = m_class;
    const int shift = m_shift;
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
        const std::int32_t t = dfa[(size_t(s) << shift) + cls[b]];
        s = t & kStateMask;
        if (t & kHasOutput) [[unlikely]]
            mask |= out[size_t(s)];
    }
    if (mask && lineStart < n) {
        const LogLineClass c = evaluate(QByteArrayView(data + lineStart, n - lineStart), mask);
        if (c.error)
            hit(line, lineStart, n, c);
    }
}

} // namespace pd
