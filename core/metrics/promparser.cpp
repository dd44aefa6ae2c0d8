// SPDX-License-Identifier: MIT
#include "promparser.h"

#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

#if defined(__SSE2__)
#include <emmintrin.h>
#define PD_PROM_SSE2 1
#endif

namespace pd {

namespace {

struct CharTables {
    std::array<bool, 256> nameStart{};  // [a-zA-Z_:]
    std::array<bool, 256> nameChar{};   // [a-zA-Z0-9_:]
    std::array<bool, 256> labelStart{}; // [a-zA-Z_]
    std::array<bool, 256> labelChar{};  // [a-zA-Z0-9_]
};

constexpr CharTables makeTables()
{
    CharTables t;
    for (int c = 0; c < 256; ++c) {
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        const bool digit = c >= '0' && c <= '9';
        t.labelStart[std::size_t(c)] = alpha;
        t.labelChar[std::size_t(c)] = alpha || digit;
        t.nameStart[std::size_t(c)] = alpha || c == ':';
        t.nameChar[std::size_t(c)] = alpha || digit || c == ':';
    }
    return t;
}

constexpr CharTables kChars = makeTables();

inline std::size_t uc(char c) { return static_cast<unsigned char>(c); }
inline bool isBlank(char c) { return c == ' ' || c == '\t'; }
inline const char *skipBlanks(const char *p, const char *e)
{
    while (p < e && isBlank(*p))
        ++p;
    return p;
}

bool equalsLowercase(std::string_view a, std::string_view lowerB)
{
    if (a.size() != lowerB.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
        if (c != lowerB[i])
            return false;
    }
    return true;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// from_chars reported result_out_of_range for a syntactically valid decimal in [p, e): decide
// whether it overflowed (→ Inf) or underflowed (→ 0) from the decimal magnitude of its first
// non-zero digit plus the exponent.
bool decimalOverflows(const char *p, const char *e)
{
    long long magnitude = 0;
    bool seen = false;
    long long intDigits = 0;
    while (p < e && isDigit(*p)) {
        if (!seen && *p != '0')
            seen = true;
        if (seen)
            ++intDigits;
        ++p;
    }
    if (seen)
        magnitude = intDigits - 1;
    if (p < e && *p == '.') {
        ++p;
        long long pos = 0;
        while (p < e && isDigit(*p)) {
            ++pos;
            if (!seen && *p != '0') {
                seen = true;
                magnitude = -pos;
            }
            ++p;
        }
    }
    long long exponent = 0;
    if (p < e && (*p == 'e' || *p == 'E')) {
        ++p;
        bool negExp = false;
        if (p < e && (*p == '+' || *p == '-')) {
            negExp = *p == '-';
            ++p;
        }
        while (p < e && isDigit(*p)) {
            if (exponent < 100'000'000)
                exponent = exponent * 10 + (*p - '0');
            ++p;
        }
        if (negExp)
            exponent = -exponent;
    }
    return magnitude + exponent > 0;
}

// Parses a value token starting at p; returns the first byte after it (must then be end or blank,
// checked by the caller), or nullptr when it is not a number.
const char *parseNumber(const char *p, const char *e, double &out)
{
    if (p >= e)
        return nullptr;
    bool neg = false;
    if (*p == '+' || *p == '-') {
        neg = *p == '-';
        ++p;
        if (p >= e)
            return nullptr;
    }
    const char c = char(*p | 0x20);
    if (c >= 'a' && c <= 'z') {
        const char *w = p;
        while (p < e && !isBlank(*p))
            ++p;
        const std::string_view word(w, std::size_t(p - w));
        if (equalsLowercase(word, "inf") || equalsLowercase(word, "infinity"))
            out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        else if (equalsLowercase(word, "nan"))
            out = std::numeric_limits<double>::quiet_NaN();
        else
            return nullptr;
        return p;
    }
    if (!isDigit(*p) && *p != '.')
        return nullptr;
    double v = 0;
    // Clinger's fast path: at most 19 significant digits, a mantissa <= 2^53 and |exponent| <= 22
    // give the correctly rounded result with one multiplication or division. Everything else (long
    // mantissas, big exponents, out of range) goes through std::from_chars.
    {
        const char *q = p;
        std::uint64_t m = 0;
        int digits = 0;
        int exp10 = 0;
        bool any = false;
        bool slow = false;
        while (q < e && isDigit(*q)) {
            any = true;
            if (m || *q != '0') {
                if (++digits > 19) {
                    slow = true;
                    break;
                }
                m = m * 10 + std::uint64_t(*q - '0');
            }
            ++q;
        }
        if (!slow && q < e && *q == '.') {
            ++q;
            // Trailing zeros of the fraction ("41.0") are not multiplied in, so the common
            // integral values need no division.
            int pendingZeros = 0;
            while (q < e && isDigit(*q)) {
                any = true;
                if (*q == '0') {
                    if (m)
                        ++pendingZeros;
                    else
                        --exp10; // leading zero of the fraction
                } else {
                    digits += pendingZeros + 1;
                    if (digits > 19) {
                        slow = true;
                        break;
                    }
                    for (; pendingZeros > 0; --pendingZeros) {
                        m *= 10;
                        --exp10;
                    }
                    m = m * 10 + std::uint64_t(*q - '0');
                    --exp10;
                }
                ++q;
            }
        }
        if (!slow) {
            if (!any)
                return nullptr;
            if (q < e && (*q == 'e' || *q == 'E')) {
                const char *x = q + 1;
                bool negExp = false;
                if (x < e && (*x == '+' || *x == '-')) {
                    negExp = *x == '-';
                    ++x;
                }
                if (x < e && isDigit(*x)) {
                    int ev = 0;
                    while (x < e && isDigit(*x)) {
                        if (ev < 100000)
                            ev = ev * 10 + (*x - '0');
                        ++x;
                    }
                    exp10 += negExp ? -ev : ev;
                    q = x;
                }
            }
            if (m <= (std::uint64_t(1) << 53) && exp10 >= -22 && exp10 <= 22) {
                static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
                v = exp10 < 0 ? double(m) / kPow10[-exp10] : double(m) * kPow10[exp10];
                out = neg ? -v : v;
                return q;
            }
        }
    }
    const auto r = std::from_chars(p, e, v, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range)
        v = decimalOverflows(p, r.ptr) ? std::numeric_limits<double>::infinity() : 0.0;
    else if (r.ec != std::errc())
        return nullptr;
    out = neg ? -v : v;
    return r.ptr;
}

bool validUtf8(const unsigned char *p, const unsigned char *e)
{
    while (p < e) {
        const unsigned c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        std::size_t n;
        unsigned cp;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (std::size_t(e - p) <= n)
            return false;
        for (std::size_t i = 1; i <= n; ++i) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF))
            || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

bool parseType(std::string_view w, PromType &t)
{
    struct Entry { std::string_view name; PromType type; };
    static constexpr Entry kTypes[] = {
        {"counter", PromType::Counter}, {"gauge", PromType::Gauge},
        {"histogram", PromType::Histogram}, {"summary", PromType::Summary},
        {"untyped", PromType::Untyped}, {"unknown", PromType::Unknown},
        {"info", PromType::Info}, {"stateset", PromType::StateSet},
        {"gaugehistogram", PromType::GaugeHistogram},
    };
    for (const auto &e : kTypes) {
        if (w == e.name) {
            t = e.type;
            return true;
        }
    }
    return false;
}

// True when [p, e) (after '#') is " EOF" followed only by blanks.
bool isEofMarker(const char *p, const char *e)
{
    p = skipBlanks(p, e);
    if (e - p < 3 || std::memcmp(p, "EOF", 3) != 0)
        return false;
    return skipBlanks(p + 3, e) == e;
}

#if PD_PROM_SSE2
// 16 bytes at a time: bit i set when byte i is in [lo, hi] (unsigned).
inline unsigned rangeMask(__m128i v, char lo, char hi)
{
    const __m128i ge = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(lo)), v);
    const __m128i le = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(hi)), v);
    return unsigned(_mm_movemask_epi8(_mm_and_si128(ge, le)));
}
inline unsigned identMask(__m128i v, char digitHi)
{
    return rangeMask(v, '0', digitHi) | rangeMask(v, 'A', 'Z') | rangeMask(v, 'a', 'z')
        | unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('_'))));
}

// The 16-bytes-at-a-time part of a scan from `p`, while a whole load stays before `limit`: `stops(v)`
// sets bit i when byte i ends the scan. The scan's end when a block had one (or `e` was passed);
// nullptr when the rest, from the advanced `p`, is left to the bytewise loop.
template<class Stops> inline const char *scanBlocks(const char *&p, const char *e, const char *limit, Stops stops)
{
    while (limit - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        if (const unsigned stop = stops(v))
            return std::min(p + __builtin_ctz(stop), e);
        p += 16;
        if (p >= e)
            return e;
    }
    return nullptr;
}
#endif

// Scans [a-zA-Z0-9_] (and ':' when withColon) from p. `limit` is the end of the whole body: 16-byte
// loads may look past the line end (a line ends at '\n', '\r' or the body end, none of which is an
// identifier byte) but never past the body.
inline const char *scanIdent(const char *p, const char *e, const char *limit, bool withColon)
{
#if PD_PROM_SSE2
    const char digitHi = withColon ? ':' : '9';
    if (const char *end = scanBlocks(p, e, limit, [digitHi](__m128i v) { return ~identMask(v, digitHi) & 0xFFFFu; }))
        return end;
#else
    (void)limit;
#endif
    const auto &table = withColon ? kChars.nameChar : kChars.labelChar;
    while (p < e && table[uc(*p)])
        ++p;
    return p;
}

// Finds the closing quote or a backslash of a label value; ORs every byte into `high` so the caller
// knows whether the value needs UTF-8 validation.
inline const char *scanLabelValue(const char *p, const char *e, const char *limit, unsigned &high)
{
#if PD_PROM_SSE2
    const auto stops = [&high](__m128i v) {
        const unsigned stop = unsigned(_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
        const unsigned hi = unsigned(_mm_movemask_epi8(v)); // the bytes >= 0x80
        if (hi & (stop ? (1u << __builtin_ctz(stop)) - 1 : ~0u))
            high |= 0x80;
        return stop;
    };
    if (const char *end = scanBlocks(p, e, limit, stops))
        return end;
#else
    (void)limit;
#endif
    while (p < e && *p != '"' && *p != '\\') {
        high |= unsigned(uc(*p));
        ++p;
    }
    return p;
}

class LineParser {
public:
    LineParser(std::string_view body, PromVisitor &v, PromParser::Result &r)
        : m_begin(body.data()), m_end(body.data() + body.size()), m_visitor(v), m_result(r),
          m_metadata(v.wantsMetadata())
    {
    }

    void run();

private:
    bool fail(PromErrorKind kind, const char *at, const char *message)
    {
        PromError &err = m_result.error;
        err.kind = kind;
        err.line = m_lineNo;
        err.column = std::size_t(at - m_lineStart) + 1;
        err.offset = std::size_t(at - m_begin);
        err.message = message;
        m_result.lines = m_lineNo;
        return false;
    }
    bool sampleLine(const char *q, const char *e);
    bool commentLine(const char *q, const char *e);
    bool afterEof(const char *p);

    const char *m_begin;
    const char *m_end;
    PromVisitor &m_visitor;
    PromParser::Result &m_result;
    const char *m_lineStart = nullptr;
    std::size_t m_lineNo = 0;
    bool m_metadata;
    bool m_eof = false;
};

void LineParser::run()
{
    const char *p = m_begin;
    while (p < m_end) {
        ++m_lineNo;
        m_lineStart = p;
        const auto *nl = static_cast<const char *>(std::memchr(p, '\n', std::size_t(m_end - p)));
        const char *e = nl ? nl : m_end;
        const char *next = nl ? nl + 1 : m_end;
        if (e > p && e[-1] == '\r')
            --e;
        const char *q = skipBlanks(p, e);
        if (!nl && q != e && !(*q == '#' && isEofMarker(q + 1, e))) {
            fail(PromErrorKind::MissingFinalNewline, e, "body ends without a newline (truncated mid-line)");
            return;
        }
        if (q != e) {
            const bool ok = *q == '#' ? commentLine(q, e) : sampleLine(q, e);
            if (!ok)
                return;
            if (m_eof) {
                m_result.lines = m_lineNo;
                afterEof(next);
                return;
            }
        }
        p = next;
    }
    m_result.lines = m_lineNo;
}

bool LineParser::afterEof(const char *p)
{
    ++m_lineNo;
    m_lineStart = p;
    for (; p < m_end; ++p) {
        if (*p == '\n') {
            ++m_lineNo;
            m_lineStart = p + 1;
        } else if (!isBlank(*p) && *p != '\r') {
            return fail(PromErrorKind::DataAfterEof, p, "data after # EOF");
        }
    }
    return true;
}

bool LineParser::commentLine(const char *q, const char *e)
{
    const char *p = q + 1;
    if (p == e || !isBlank(*p))
        return true; // "#foo": a comment
    p = skipBlanks(p, e);
    if (e - p >= 3 && std::memcmp(p, "EOF", 3) == 0 && skipBlanks(p + 3, e) == e) {
        m_eof = true;
        return true;
    }
    if (!m_metadata || e - p < 5 || !isBlank(p[4]))
        return true;
    const bool isHelp = std::memcmp(p, "HELP", 4) == 0;
    if (!isHelp && std::memcmp(p, "TYPE", 4) != 0)
        return true;
    p = skipBlanks(p + 4, e);
    if (p == e || !kChars.nameStart[uc(*p)])
        return fail(PromErrorKind::InvalidMetadata, p, isHelp ? "invalid metric name in # HELP" : "invalid metric name in # TYPE");
    const char *nameStart = p;
    p = scanIdent(p + 1, e, m_end, true);
    const std::string_view name(nameStart, std::size_t(p - nameStart));
    if (p != e && !isBlank(*p))
        return fail(PromErrorKind::InvalidMetadata, p, "invalid character in metric name");
    p = skipBlanks(p, e);
    if (isHelp) {
        m_visitor.help(name, std::string_view(p, std::size_t(e - p)));
        return true;
    }
    const char *w = p;
    while (p < e && !isBlank(*p))
        ++p;
    PromType t{};
    if (!parseType(std::string_view(w, std::size_t(p - w)), t))
        return fail(PromErrorKind::InvalidMetadata, w, "unknown metric type in # TYPE");
    if (skipBlanks(p, e) != e)
        return fail(PromErrorKind::InvalidMetadata, skipBlanks(p, e), "unexpected text after the type in # TYPE");
    m_visitor.type(name, t);
    return true;
}

bool LineParser::sampleLine(const char *q, const char *e)
{
    if (!kChars.nameStart[uc(*q)])
        return fail(PromErrorKind::InvalidMetricName, q, "expected a metric name");
    const char *nameStart = q;
    q = scanIdent(q + 1, e, m_end, true);
    const std::string_view name(nameStart, std::size_t(q - nameStart));
    if (!m_visitor.wantsSample(name)) {
        ++m_result.skipped;
        return true;
    }
    const char *afterName = q;
    q = skipBlanks(q, e);
    PromSample s;
    s.name = name;
    s.line = m_lineNo;
    if (q < e && *q == '{') {
        ++q;
        const char *blockStart = q;
        std::uint32_t count = 0;
        for (;;) {
            q = skipBlanks(q, e);
            if (q == e)
                return fail(PromErrorKind::ExpectedCommaOrBrace, q, "label set not closed by '}'");
            if (*q == '}')
                break;
            if (!kChars.labelStart[uc(*q)])
                return fail(PromErrorKind::InvalidLabelName, q, "expected a label name");
            q = scanIdent(q + 1, e, m_end, false);
            q = skipBlanks(q, e);
            if (q == e || *q != '=')
                return fail(PromErrorKind::ExpectedEquals, q, "expected '=' after the label name");
            q = skipBlanks(q + 1, e);
            if (q == e || *q != '"')
                return fail(PromErrorKind::ExpectedQuote, q, "expected '\"' to open the label value");
            ++q;
            const char *valueStart = q;
            unsigned high = 0;
            for (;;) {
                q = scanLabelValue(q, e, m_end, high);
                if (q == e)
                    return fail(PromErrorKind::UnterminatedLabelValue, q, "unterminated label value");
                if (*q == '"')
                    break;
                // a backslash
                if (q + 1 == e)
                    return fail(PromErrorKind::UnterminatedLabelValue, q + 1, "unterminated label value");
                const char x = q[1];
                if (x != '\\' && x != '"' && x != 'n')
                    return fail(PromErrorKind::InvalidEscape, q, "invalid escape in label value (only \\\\, \\\" and \\n)");
                q += 2;
            }
            if ((high & 0x80)
                && !validUtf8(reinterpret_cast<const unsigned char *>(valueStart),
                              reinterpret_cast<const unsigned char *>(q)))
                return fail(PromErrorKind::InvalidUtf8, valueStart, "label value is not valid UTF-8");
            ++count;
            q = skipBlanks(q + 1, e);
            if (q < e && *q == ',') {
                ++q;
                continue;
            }
            if (q < e && *q == '}')
                break;
            return fail(PromErrorKind::ExpectedCommaOrBrace, q, "expected ',' or '}' after the label value");
        }
        s.labels = PromLabels(std::string_view(blockStart, std::size_t(q - blockStart)), count);
        q = skipBlanks(q + 1, e);
    } else if (q == afterName && q < e) {
        return fail(PromErrorKind::InvalidMetricName, q, "invalid character in metric name");
    }
    if (q == e)
        return fail(PromErrorKind::MissingValue, q, "missing value");
    const char *valueStart = q;
    q = parseNumber(q, e, s.value);
    if (!q || (q < e && !isBlank(*q)))
        return fail(PromErrorKind::InvalidValue, valueStart, "invalid value");
    q = skipBlanks(q, e);
    if (q < e && *q != '#') {
        const char *ts = q;
        const char *digits = *q == '+' ? q + 1 : q;
        const auto r = std::from_chars(digits, e, s.timestampMs);
        if ((digits != q && digits < e && *digits == '-') || r.ec != std::errc() || (r.ptr < e && !isBlank(*r.ptr)))
            return fail(PromErrorKind::InvalidTimestamp, ts, "invalid timestamp (expected integer milliseconds)");
        s.hasTimestamp = true;
        q = skipBlanks(r.ptr, e);
    }
    if (q < e && *q != '#')
        return fail(PromErrorKind::TrailingGarbage, q, "unexpected text after the value");
    // q < e here means an exemplar ("# {...} value [ts]"): skipped.
    ++m_result.samples;
    m_visitor.sample(s);
    return true;
}

} // namespace

std::string PromError::toString() const
{
    if (kind == PromErrorKind::None)
        return {};
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

void PromLabels::const_iterator::advance()
{
    const char *p = skipBlanks(m_p, m_end);
    if (p >= m_end) {
        m_done = true;
        m_p = m_end;
        return;
    }
    // The block was validated by the parser (name = "value" [,]); stay in bounds regardless.
    const char *n = p;
    while (p < m_end && kChars.labelChar[uc(*p)])
        ++p;
    m_label.name = std::string_view(n, std::size_t(p - n));
    p = skipBlanks(p, m_end);
    if (p < m_end && *p == '=')
        p = skipBlanks(p + 1, m_end);
    if (p < m_end && *p == '"')
        ++p;
    const char *v = p;
    bool escaped = false;
    while (p < m_end && *p != '"') {
        if (*p == '\\' && p + 1 < m_end) {
            escaped = true;
            ++p;
        }
        ++p;
    }
    m_label.rawValue = std::string_view(v, std::size_t(p - v));
    m_label.escaped = escaped;
    if (p < m_end)
        p = skipBlanks(p + 1, m_end);
    if (p < m_end && *p == ',')
        ++p;
    if (p == n) { // no progress: not a label block
        m_done = true;
        m_p = m_end;
        return;
    }
    m_p = p;
    m_done = false;
}

PromLabel PromLabels::find(std::string_view name) const
{
    for (const PromLabel &l : *this) {
        if (l.name == name)
            return l;
    }
    return {};
}

std::string PromLabel::value() const
{
    if (!escaped)
        return std::string(rawValue);
    std::string out;
    out.reserve(rawValue.size());
    for (std::size_t i = 0; i < rawValue.size(); ++i) {
        char c = rawValue[i];
        if (c == '\\' && i + 1 < rawValue.size()) {
            c = rawValue[++i];
            if (c == 'n')
                c = '\n';
        }
        out.push_back(c);
    }
    return out;
}

bool PromLabel::valueEquals(std::string_view v) const
{
    if (!escaped)
        return rawValue == v;
    std::size_t j = 0;
    for (std::size_t i = 0; i < rawValue.size(); ++i, ++j) {
        char c = rawValue[i];
        if (c == '\\' && i + 1 < rawValue.size()) {
            c = rawValue[++i];
            if (c == 'n')
                c = '\n';
        }
        if (j >= v.size() || v[j] != c)
            return false;
    }
    return j == v.size();
}

PromParser::Result PromParser::parse(std::string_view body, PromVisitor &visitor)
{
    Result r;
    LineParser(body, visitor, r).run();
    return r;
}

bool PromParser::parseValue(std::string_view text, double &out)
{
    if (text.empty())
        return false;
    const char *e = text.data() + text.size();
    double v = 0;
    const char *p = parseNumber(text.data(), e, v);
    if (p != e)
        return false;
    out = v;
    return true;
}

std::string_view PromParser::typeName(PromType t)
{
    switch (t) {
    case PromType::Untyped: return "untyped";
    case PromType::Counter: return "counter";
    case PromType::Gauge: return "gauge";
    case PromType::Histogram: return "histogram";
    case PromType::Summary: return "summary";
    case PromType::Unknown: return "unknown";
    case PromType::Info: return "info";
    case PromType::StateSet: return "stateset";
    case PromType::GaugeHistogram: return "gaugehistogram";
    }
    return "untyped";
}

} // namespace pd
