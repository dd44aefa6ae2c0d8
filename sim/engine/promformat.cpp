// SPDX-License-Identifier: MIT
#include "promformat.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace pd::sim {

namespace {

// Python's repr() of a finite double: shortest round-trip digits, fixed notation when the decimal
// exponent is in [-4, 16), otherwise "d.ddde+XX".
int pythonRepr(double v, char *out)
{
    char sci[40];
    const auto res = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
    const char *p = sci;
    const char *end = res.ptr;
    char *o = out;
    if (*p == '-') {
        *o++ = '-';
        ++p;
    }
    char digits[24];
    int nd = 0;
    const char *e = p;
    while (e < end && *e != 'e') {
        if (*e != '.')
            digits[nd++] = *e;
        ++e;
    }
    int exp10 = 0;
    std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), end, exp10);
    if (exp10 < -4 || exp10 >= 16) {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            std::memcpy(o, digits + 1, nd - 1);
            o += nd - 1;
        }
        *o++ = 'e';
        *o++ = exp10 < 0 ? '-' : '+';
        const int a = exp10 < 0 ? -exp10 : exp10;
        if (a >= 100)
            *o++ = char('0' + a / 100);
        *o++ = char('0' + (a / 10) % 10);
        *o++ = char('0' + a % 10);
        return int(o - out);
    }
    if (exp10 < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp10 - 1; ++i)
            *o++ = '0';
        std::memcpy(o, digits, nd);
        o += nd;
        return int(o - out);
    }
    const int intDigits = exp10 + 1;
    for (int i = 0; i < intDigits; ++i)
        *o++ = i < nd ? digits[i] : '0';
    *o++ = '.';
    if (nd > intDigits) {
        std::memcpy(o, digits + intDigits, nd - intDigits);
        o += nd - intDigits;
    } else {
        *o++ = '0';
    }
    return int(o - out);
}

} // namespace

int formatPromNumber(double v, char *out)
{
    if (std::isnan(v)) {
        std::memcpy(out, "NaN", 3);
        return 3;
    }
    if (std::isinf(v)) {
        std::memcpy(out, v > 0 ? "+Inf" : "-Inf", 4);
        return 4;
    }
    // Fast path: small non-negative integers (most counters and buckets).
    if (v >= 0 && v < 1e6 && v == std::floor(v)) {
        char *end = std::to_chars(out, out + kMaxPromNumber, static_cast<long long>(v)).ptr;
        *end++ = '.';
        *end++ = '0';
        return int(end - out);
    }
    char s[48];
    const int n = pythonRepr(v, s);
    const char *dotp = static_cast<const char *>(std::memchr(s, '.', n));
    const int dot = dotp ? int(dotp - s) : -1;
    if (v > 0 && dot > 6) {
        // Go-style: mantissa from all digits, trailing zeros and dot stripped, exponent "e+0<dot-1>".
        int mn = 0;
        out[mn++] = s[0];
        out[mn++] = '.';
        for (int i = 1; i < n; ++i) {
            if (i != dot)
                out[mn++] = s[i];
        }
        while (mn > 0 && (out[mn - 1] == '0' || out[mn - 1] == '.'))
            --mn;
        std::memcpy(out + mn, "e+0", 3);
        mn += 3;
        return int(std::to_chars(out + mn, out + kMaxPromNumber, dot - 1).ptr - out);
    }
    std::memcpy(out, s, std::size_t(n));
    return n;
}

void appendPromNumber(QByteArray &out, double v)
{
    char buf[kMaxPromNumber];
    out.append(buf, formatPromNumber(v, buf));
}

QByteArray promNumber(double value)
{
    QByteArray out;
    appendPromNumber(out, value);
    return out;
}

QByteArray promEscapeLabel(QByteArrayView value)
{
    QByteArray out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\')
            out.append("\\\\");
        else if (c == '"')
            out.append("\\\"");
        else if (c == '\n')
            out.append("\\n");
        else
            out.append(c);
    }
    return out;
}

} // namespace pd::sim
