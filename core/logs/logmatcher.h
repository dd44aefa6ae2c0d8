// SPDX-License-Identifier: MIT
#pragma once

#include "logs/logsignatures.h"

#include <QByteArrayView>
#include <QRegularExpression>

#include <cstdint>
#include <functional>
#include <vector>

// Finds the known signatures (and generic error lines) in engine logs fast enough for many MB: one
// Aho-Corasick pass over the bytes for the signatures' literal anchors, and the signature's regular
// expression only on the few lines that contain an anchor. Immutable after construction; share one
// instance between threads.
namespace pd {

struct LogLineClass {
    int signatureId = 0; // 1..26, 0 when no known signature matches
    bool error = false; // an error line: a signature, "ERROR", a Python traceback or "...Error: "
    bool operator==(const LogLineClass &) const = default;
};

class LogMatcher final {
public:
    LogMatcher(); // the spec's table
    explicit LogMatcher(const QList<LogSignature> &signatures);

    LogLineClass classify(QByteArrayView line) const;
    int match(QByteArrayView line) const { return classify(line).signatureId; }

    // Calls hit(lineIndex, begin, end, class) for every error line of text (lines split at '\n'; a last
    // line without '\n' counts). lineIndex counts from firstLine.
    using Hit = std::function<void(qint64 lineIndex, qsizetype begin, qsizetype end, const LogLineClass &)>;
    void scan(QByteArrayView text, const Hit &hit, qint64 firstLine = 0) const;

private:
    LogLineClass evaluate(QByteArrayView line, std::uint64_t mask) const;
    void addPattern(const QByteArray &literal, int bit);
    void finish();

    struct Entry {
        int id;
        QRegularExpression re;
    };
    std::vector<Entry> m_entries; // index = bit - 1
    std::vector<std::int32_t> m_delta; // state * 256 + byte -> state (while building)
    std::vector<std::uint64_t> m_out; // state -> bits (bit 0: generic error)
    std::vector<std::int32_t> m_fail;
    // The scanning automaton: bytes folded into the classes the anchors use (a much smaller table that
    // stays in cache); an entry with the high bit set leads to a state with outputs.
    std::uint8_t m_class[256] = {};
    int m_classes = 1;
    int m_shift = 0; // row stride = 1 << m_shift >= m_classes
    std::vector<std::int32_t> m_dfa; // state * m_classes + class -> state | kHasOutput
};

} // namespace pd
