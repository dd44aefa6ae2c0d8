// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

// Prometheus text exposition format 0.0.4, plus the OpenMetrics bits prometheus_client emits
// (`# EOF`, `_created` families, exemplars after the value). Pure C++ (no Qt), allocation-free
// over the bytes of one body: everything delivered is a std::string_view into the body, numbers go
// through std::from_chars. What is accepted and rejected, and the error format:
// docs/metrics-parser.md.
//
// Thread-safety: PromParser::parse is a pure function of its input and the visitor; any number of
// threads may parse different bodies at once.
namespace pd {

enum class PromType : std::uint8_t {
    Untyped, Counter, Gauge, Histogram, Summary,
    // OpenMetrics only
    Unknown, Info, StateSet, GaugeHistogram,
};

enum class PromErrorKind : std::uint8_t {
    None,
    InvalidMetricName,      // the line starts with a byte that cannot begin a metric name
    InvalidLabelName,
    ExpectedEquals,         // label name not followed by '='
    ExpectedQuote,          // '=' not followed by '"'
    UnterminatedLabelValue, // end of line inside a quoted label value
    InvalidEscape,          // a backslash not followed by \\, \" or n
    ExpectedCommaOrBrace,   // after a label value
    MissingValue,
    InvalidValue,
    InvalidTimestamp,
    TrailingGarbage,        // bytes after value [timestamp] that are not an exemplar
    InvalidMetadata,        // malformed # HELP / # TYPE line, or unknown type word
    MissingFinalNewline,    // the body does not end with '\n': truncated mid-line
    DataAfterEof,           // anything but blank lines after "# EOF"
    InvalidUtf8,            // a label value that is not UTF-8
};

// Where and why a body was rejected. `message` is a static string (no allocation);
// line and column are 1-based, column counts bytes; offset is 0-based into the body.
struct PromError {
    PromErrorKind kind = PromErrorKind::None;
    std::size_t line = 0;
    std::size_t column = 0;
    std::size_t offset = 0;
    const char *message = "";

    explicit operator bool() const { return kind != PromErrorKind::None; }
    // "line 12, column 40: invalid escape in label value" (allocates; for logs and the UI).
    std::string toString() const;
};

// One label as written: name and value, the value still escaped when `escaped` is set.
struct PromLabel {
    std::string_view name;
    std::string_view rawValue;
    bool escaped = false;

    // The unescaped value (allocates; use rawValue on hot paths, it equals the value when !escaped).
    std::string value() const;
    // Compares the unescaped value without allocating.
    bool valueEquals(std::string_view v) const;
};

// The label block of one sample, already validated by the parser; iterating re-reads it lazily.
class PromLabels final {
public:
    PromLabels() = default;
    PromLabels(std::string_view block, std::uint32_t count) : m_block(block), m_count(count) {}

    class const_iterator {
    public:
        using value_type = PromLabel;
        using difference_type = std::ptrdiff_t;
        const_iterator() = default;
        const_iterator(const char *p, const char *end) : m_p(p), m_end(end) { advance(); }
        const PromLabel &operator*() const { return m_label; }
        const PromLabel *operator->() const { return &m_label; }
        const_iterator &operator++() { advance(); return *this; }
        const_iterator operator++(int) { auto t = *this; advance(); return t; }
        bool operator==(const const_iterator &o) const { return m_done == o.m_done && (m_done || m_p == o.m_p); }
    private:
        void advance();
        const char *m_p = nullptr;
        const char *m_end = nullptr;
        PromLabel m_label;
        bool m_done = true;
    };

    const_iterator begin() const { return {m_block.data(), m_block.data() + m_block.size()}; }
    const_iterator end() const { return {}; }
    std::uint32_t size() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    // The text between the braces, as written (empty without labels).
    std::string_view raw() const { return m_block; }
    // The first label called `name`, or nullptr-like (name empty) when absent.
    PromLabel find(std::string_view name) const;

private:
    std::string_view m_block;
    std::uint32_t m_count = 0;
};

struct PromSample {
    std::string_view name;
    PromLabels labels;
    double value = 0;
    std::int64_t timestampMs = 0;
    bool hasTimestamp = false;
    std::size_t line = 0; // 1-based
};

// The consumer of one parse. wantsSample() is asked for every sample line right after its metric
// name was read; returning false skips the rest of the line with one memchr (labels and value of a
// skipped line are not validated). # HELP / # TYPE lines are parsed and delivered only when
// wantsMetadata() returned true at the start of the parse; otherwise they are skipped like comments.
class PromVisitor {
public:
    PromVisitor() = default;
    PromVisitor(const PromVisitor &) = default;
    PromVisitor &operator=(const PromVisitor &) = default;
    virtual ~PromVisitor() = default;

    virtual bool wantsMetadata() const { return false; }
    virtual bool wantsSample(std::string_view name) { (void)name; return true; }
    virtual void sample(const PromSample &s) = 0;
    // `text` is the HELP text as written (escapes \\ and \n not resolved).
    virtual void help(std::string_view family, std::string_view text) { (void)family; (void)text; }
    virtual void type(std::string_view family, PromType t) { (void)family; (void)t; }
};

class PromParser final {
public:
    struct Result {
        PromError error;            // kind None on success
        std::size_t lines = 0;      // lines read (up to the error, or "# EOF")
        std::size_t samples = 0;    // sample lines delivered to the visitor
        std::size_t skipped = 0;    // sample lines the visitor declined
        bool ok() const { return error.kind == PromErrorKind::None; }
    };

    // Parses the whole body, calling the visitor in body order. Stops at the first error; the
    // samples delivered before it stay delivered (the caller decides whether to keep them).
    // The body may be any bytes and any size (no line length limit; lines are found with memchr).
    static Result parse(std::string_view body, PromVisitor &visitor);

    // A Prometheus number: decimal float, optional sign, NaN / Inf / +Inf / -Inf / Infinity
    // (case-insensitive). Overflow gives ±Inf, underflow ±0 (as Python's float() does). No hex, no '_'.
    static bool parseValue(std::string_view text, double &out);

    static std::string_view typeName(PromType t);
};

} // namespace pd
