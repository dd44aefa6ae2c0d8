// SPDX-License-Identifier: MIT
#include "floatblockcodec.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace pd {

namespace {

constexpr std::uint32_t kCanonicalNan = 0x7fc00000u;

std::uint32_t bitsOf(float v)
{
    return std::bit_cast<std::uint32_t>(v);
}

float floatOf(std::uint32_t bits)
{
    return std::bit_cast<float>(bits);
}

// Appends bits most significant first; flush() writes the last partial byte.
class BitWriter {
public:
    explicit BitWriter(std::vector<std::uint8_t> &out)
        : m_out(out)
    {
    }
    void put(std::uint64_t value, int bits)
    {
        while (bits > 0) {
            const int room = 8 - m_used;
            const int take = std::min(room, bits);
            const auto chunk = std::uint8_t((value >> (bits - take)) & ((1u << take) - 1u));
            m_byte = std::uint8_t(m_byte | (chunk << (room - take)));
            m_used += take;
            bits -= take;
            if (m_used == 8) {
                m_out.push_back(m_byte);
                m_byte = 0;
                m_used = 0;
            }
        }
    }
    void flush()
    {
        if (m_used > 0)
            m_out.push_back(m_byte);
        m_byte = 0;
        m_used = 0;
    }

private:
    std::vector<std::uint8_t> &m_out;
    std::uint8_t m_byte = 0;
    int m_used = 0;
};

class BitReader {
public:
    BitReader(const std::uint8_t *data, std::size_t size)
        : m_data(data)
        , m_size(size)
        , m_bits(size * 8)
    {
    }
    // The next 57 bits or more, most significant first, without consuming them (zeros past the end): one
    // 8-byte big-endian load where the data allows it, byte by byte at its end.
    std::uint64_t peek() const
    {
        const std::size_t byte = m_pos >> 3;
        std::uint64_t word = 0;
        if (byte + 8 <= m_size) {
            std::memcpy(&word, m_data + byte, 8);
            if constexpr (std::endian::native == std::endian::little)
                word = __builtin_bswap64(word);
        } else {
            for (std::size_t i = 0; byte + i < m_size; ++i)
                word |= std::uint64_t(m_data[byte + i]) << (56 - 8 * i);
        }
        return word << (m_pos & 7);
    }
    // False when fewer bits are left.
    bool consume(int bits)
    {
        if (m_pos + std::size_t(bits) > m_bits)
            return false;
        m_pos += std::size_t(bits);
        return true;
    }
    // 1 to 32 bits; false when the stream is shorter.
    bool get(int bits, std::uint32_t &value)
    {
        value = std::uint32_t(peek() >> (64 - bits));
        return consume(bits);
    }

private:
    const std::uint8_t *m_data;
    std::size_t m_size;
    std::size_t m_bits;
    std::size_t m_pos = 0;
};

// The first `bits` (1 to 57) of a peeked word, after skipping `skip` bits.
inline std::uint32_t field(std::uint64_t word, int skip, int bits)
{
    return std::uint32_t((word << skip) >> (64 - bits));
}

std::uint32_t keptBits(float v, int kept)
{
    if (std::isnan(v))
        return kCanonicalNan;
    std::uint32_t u = bitsOf(v);
    const int drop = FloatBlockCodec::kFullMantissa - std::clamp(kept, 0, FloatBlockCodec::kFullMantissa);
    if (drop == 0 || (u & 0x7f800000u) == 0x7f800000u)
        return u;
    const std::uint32_t mask = (1u << drop) - 1u;
    const std::uint32_t rounded = (u + (1u << (drop - 1))) & ~mask;
    // Rounding up past the largest finite value would give infinity: truncate there instead.
    return (rounded & 0x7f800000u) == 0x7f800000u ? (u & ~mask) : rounded;
}

} // namespace

float FloatBlockCodec::keep(float value, int keptMantissaBits)
{
    return floatOf(keptBits(value, keptMantissaBits));
}

namespace {

void encodeXor(const std::uint32_t *bits, int count, std::vector<std::uint8_t> &out)
{
    out.push_back(FloatBlockCodec::kXor);
    BitWriter w(out);
    w.put(bits[0], 32);
    std::uint32_t previous = bits[0];
    int windowLead = -1, windowTrail = 0; // no window yet
    for (int i = 1; i < count; ++i) {
        const std::uint32_t x = bits[i] ^ previous;
        previous = bits[i];
        if (x == 0) {
            w.put(0, 1);
            continue;
        }
        const int lead = std::min(31, std::countl_zero(x));
        const int trail = std::countr_zero(x);
        if (windowLead >= 0 && lead >= windowLead && trail >= windowTrail) {
            w.put(0b10, 2);
            w.put(x >> windowTrail, 32 - windowLead - windowTrail);
            continue;
        }
        const int length = 32 - lead - trail;
        w.put(0b11, 2);
        w.put(std::uint32_t(lead), 5);
        w.put(std::uint32_t(length - 1), 5);
        w.put(x >> trail, length);
        windowLead = lead;
        windowTrail = trail;
    }
    w.flush();
}

constexpr float kLargestPacked = 16777216.0f; // 2^24: every whole number up to it is exact in a float

// Whole numbers within ±2^24 and a gap now and then: the smallest and the width to pack them in, or
// false when the block holds anything else.
bool packable(const std::uint32_t *bits, int count, std::int32_t &smallest, int &width)
{
    std::int64_t lo = 0, hi = -1;
    for (int i = 0; i < count; ++i) {
        if (bits[i] == kCanonicalNan)
            continue;
        const float v = floatOf(bits[i]);
        if (!(std::abs(v) <= kLargestPacked) || v != std::floor(v) || (v == 0.0f && std::signbit(v)))
            return false;
        const auto n = std::int64_t(v);
        if (hi < lo) {
            lo = hi = n;
        } else {
            lo = std::min(lo, n);
            hi = std::max(hi, n);
        }
    }
    if (hi < lo)
        return false;
    // The values and the gap code (all ones), reserved even without a gap so a value never reads as one.
    const std::uint64_t codes = std::uint64_t(hi - lo) + 2u;
    width = int(std::bit_width(codes - 1));
    smallest = std::int32_t(lo);
    return true;
}

void encodePacked(const std::uint32_t *bits, int count, std::int32_t smallest, int width, std::vector<std::uint8_t> &out)
{
    out.push_back(FloatBlockCodec::kPacked);
    for (int b = 0; b < 4; ++b)
        out.push_back(std::uint8_t(std::uint32_t(smallest) >> (8 * b)));
    out.push_back(std::uint8_t(width));
    const std::uint32_t gap = std::uint32_t((std::uint64_t(1) << width) - 1);
    BitWriter w(out);
    for (int i = 0; i < count; ++i)
        w.put(bits[i] == kCanonicalNan ? gap : std::uint32_t(std::int64_t(floatOf(bits[i])) - smallest), width);
    w.flush();
}

struct FloatLayout {
    int smallestExponent = 0; // biased
    int exponentWidth = 0;
    bool signs = false;
    bool negative = false; // every number negative (signs not stored)
};

// Normal numbers, zeros and gaps only (no infinity, no subnormal, no -0): the layout of kFloats.
bool floatLayout(const std::uint32_t *bits, int count, FloatLayout &layout)
{
    int lo = 255, hi = -1;
    bool anyPositive = false, anyNegative = false;
    for (int i = 0; i < count; ++i) {
        const std::uint32_t u = bits[i];
        if (u == kCanonicalNan || u == 0)
            continue;
        const int exponent = int((u >> 23) & 0xffu);
        if (exponent == 0 || exponent == 255)
            return false;
        lo = std::min(lo, exponent);
        hi = std::max(hi, exponent);
        (u >> 31 ? anyNegative : anyPositive) = true;
    }
    if (hi < 0)
        return false;
    layout.smallestExponent = lo;
    layout.exponentWidth = int(std::bit_width(std::uint32_t(hi - lo + 2)));
    layout.signs = anyPositive && anyNegative;
    layout.negative = anyNegative && !anyPositive;
    return true;
}

std::size_t floatsSize(const std::uint32_t *bits, int count, const FloatLayout &layout, int kept)
{
    std::size_t total = 0;
    for (int i = 0; i < count; ++i) {
        total += std::size_t(layout.exponentWidth);
        if (bits[i] != kCanonicalNan && bits[i] != 0)
            total += std::size_t(kept + (layout.signs ? 1 : 0));
    }
    return 5 + (total + 7) / 8;
}

void encodeFloats(const std::uint32_t *bits, int count, const FloatLayout &layout, int kept, std::vector<std::uint8_t> &out)
{
    out.push_back(FloatBlockCodec::kFloats);
    out.push_back(std::uint8_t(layout.smallestExponent));
    out.push_back(std::uint8_t(layout.exponentWidth));
    out.push_back(std::uint8_t((layout.signs ? 1 : 0) | (layout.negative ? 2 : 0)));
    out.push_back(std::uint8_t(kept));
    BitWriter w(out);
    const int drop = FloatBlockCodec::kFullMantissa - kept;
    for (int i = 0; i < count; ++i) {
        const std::uint32_t u = bits[i];
        if (u == 0 || u == kCanonicalNan) {
            w.put(u == 0 ? 0 : 1, layout.exponentWidth);
            continue;
        }
        w.put(std::uint32_t(int((u >> 23) & 0xffu) - layout.smallestExponent + 2), layout.exponentWidth);
        if (layout.signs)
            w.put(u >> 31, 1);
        if (kept > 0)
            w.put((u & 0x7fffffu) >> drop, kept);
    }
    w.flush();
}

// kScaled: every number as a whole multiple of one power of two, 2^scale, the step a value of the
// block's largest magnitude keeps `kept` mantissa bits at. Codes count from the block's smallest
// multiple; all ones is a gap. False when the block holds an infinity or only gaps, or needs more
// than 24 bits a value.
constexpr int kSmallestScale = -100;
constexpr int kLargestScale = 119;

struct ScaledLayout {
    int scale = 0; // the step is 2^scale
    std::int32_t first = 0; // the smallest value's multiple of the step
    int width = 0;
};

bool scaledLayout(const float *values, int count, int kept, ScaledLayout &layout)
{
    float largest = 0.0f, lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (int i = 0; i < count; ++i) {
        const float v = values[i];
        if (std::isnan(v))
            continue;
        if (std::isinf(v))
            return false;
        largest = std::max(largest, std::abs(v));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (!(lo <= hi) || largest == 0.0f)
        return false;
    int exponent = 0;
    std::frexp(largest, &exponent); // largest = f * 2^exponent, 0.5 <= f < 1
    layout.scale = exponent - 1 - kept;
    // Far from any metric: steps whose multiples could leave the normal floats are not worth a format.
    if (layout.scale < kSmallestScale || layout.scale > kLargestScale || exponent > kLargestScale + 1)
        return false;
    const double first = std::round(std::ldexp(double(lo), -layout.scale));
    const double last = std::round(std::ldexp(double(hi), -layout.scale));
    const double codes = last - first + 2; // the values and the gap code
    if (codes > double(1 << 24))
        return false;
    layout.first = std::int32_t(first);
    layout.width = int(std::bit_width(std::uint32_t(codes) - 1));
    return true;
}

std::size_t varintSize(std::int32_t value)
{
    const std::uint32_t zigzag = (std::uint32_t(value) << 1) ^ std::uint32_t(value >> 31);
    return std::size_t(std::max(1, (int(std::bit_width(zigzag)) + 6) / 7));
}

void encodeScaled(const float *values, int count, const ScaledLayout &layout, std::vector<std::uint8_t> &out)
{
    out.push_back(FloatBlockCodec::kScaled);
    out.push_back(std::uint8_t(std::int8_t(layout.scale)));
    out.push_back(std::uint8_t(layout.width));
    // The smallest multiple, zigzag (sign in the lowest bit), 7 bits a byte, low bits first.
    std::uint32_t first = (std::uint32_t(layout.first) << 1) ^ std::uint32_t(layout.first >> 31);
    while (first >= 0x80u) {
        out.push_back(std::uint8_t(first | 0x80u));
        first >>= 7;
    }
    out.push_back(std::uint8_t(first));
    const std::uint32_t gap = std::uint32_t((std::uint64_t(1) << layout.width) - 1);
    BitWriter w(out);
    for (int i = 0; i < count; ++i) {
        const float v = values[i];
        w.put(std::isnan(v)
                ? gap
                : std::uint32_t(std::int64_t(std::round(std::ldexp(double(v), -layout.scale))) - layout.first),
            layout.width);
    }
    w.flush();
}

} // namespace

void FloatBlockCodec::encode(
    const float *values, int count, int keptMantissaBits, std::vector<std::uint8_t> &out, ErrorBound bound)
{
    if (count <= 0) {
        out.push_back(kAllGaps);
        return;
    }
    std::array<std::uint32_t, 512> stackBits;
    std::vector<std::uint32_t> heapBits;
    std::uint32_t *bits = stackBits.data();
    if (count > int(stackBits.size())) {
        heapBits.resize(std::size_t(count));
        bits = heapBits.data();
    }
    bool constant = true;
    for (int i = 0; i < count; ++i) {
        bits[i] = keptBits(values[i], keptMantissaBits);
        constant = constant && bits[i] == bits[0];
    }
    if (constant) {
        if (bits[0] == kCanonicalNan) {
            out.push_back(kAllGaps);
            return;
        }
        out.push_back(kConstant);
        for (int b = 0; b < 4; ++b)
            out.push_back(std::uint8_t(bits[0] >> (8 * b)));
        return;
    }
    const std::size_t start = out.size();
    encodeXor(bits, count, out);
    const std::size_t xorSize = out.size() - start;
    std::int32_t smallest = 0;
    int width = 0;
    const std::size_t packedSize = packable(bits, count, smallest, width)
        ? 6 + (std::size_t(count) * std::size_t(width) + 7) / 8
        : SIZE_MAX;
    FloatLayout layout;
    const int kept = std::clamp(keptMantissaBits, 0, kFullMantissa);
    const std::size_t floatSize = floatLayout(bits, count, layout) ? floatsSize(bits, count, layout, kept) : SIZE_MAX;
    // Scaled codes round every value to the block's step: only where the caller allows that, not when
    // every bit is to be kept, and not for whole numbers (a count of 3 stays 3 beside a count of 3,000).
    ScaledLayout scaled;
    const bool mayScale = bound == ErrorBound::BlockLargest && kept < kFullMantissa && packedSize == SIZE_MAX;
    const std::size_t scaledSize = mayScale && scaledLayout(values, count, kept, scaled)
        ? 3 + varintSize(scaled.first) + (std::size_t(count) * std::size_t(scaled.width) + 7) / 8
        : SIZE_MAX;
    const std::size_t smallestLossy = std::min(floatSize, scaledSize);
    if (packedSize < xorSize && packedSize <= smallestLossy) {
        out.resize(start);
        encodePacked(bits, count, smallest, width, out);
    } else if (smallestLossy < xorSize) {
        out.resize(start);
        if (scaledSize < floatSize)
            encodeScaled(values, count, scaled, out);
        else
            encodeFloats(bits, count, layout, kept, out);
    }
}

bool FloatBlockCodec::decode(const std::uint8_t *data, std::size_t size, int count, float *out)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto fail = [&] {
        std::fill_n(out, std::max(0, count), nan);
        return false;
    };
    if (count <= 0)
        return true;
    if (size < 1)
        return fail();
    switch (data[0]) {
    case kAllGaps:
        std::fill_n(out, count, nan);
        return true;
    case kConstant: {
        if (size < 5)
            return fail();
        std::uint32_t u = 0;
        for (int b = 0; b < 4; ++b)
            u |= std::uint32_t(data[1 + b]) << (8 * b);
        std::fill_n(out, count, floatOf(u));
        return true;
    }
    case kXor:
        break;
    case kPacked: {
        if (size < 6 || data[5] < 1 || data[5] > 26)
            return fail();
        std::uint32_t u = 0;
        for (int b = 0; b < 4; ++b)
            u |= std::uint32_t(data[1 + b]) << (8 * b);
        const auto smallest = std::int64_t(std::int32_t(u));
        const int width = data[5];
        const std::uint32_t gap = std::uint32_t((std::uint64_t(1) << width) - 1);
        BitReader r(data + 6, size - 6);
        for (int i = 0; i < count; ++i) {
            const std::uint32_t code = field(r.peek(), 0, width);
            if (!r.consume(width))
                return fail();
            out[i] = code == gap ? nan : float(smallest + std::int64_t(code));
        }
        return true;
    }
    case kFloats: {
        if (size < 5 || data[2] < 1 || data[2] > 9 || data[4] > kFullMantissa)
            return fail();
        const int smallestExponent = data[1];
        const int exponentWidth = data[2];
        const bool signs = data[3] & 1;
        const std::uint32_t negative = (data[3] & 2) ? 0x80000000u : 0u;
        const int kept = data[4];
        BitReader r(data + 5, size - 5);
        const int numberBits = exponentWidth + (signs ? 1 : 0) + kept;
        for (int i = 0; i < count; ++i) {
            // One load per value: its code, sign and mantissa bits are at most 9 + 1 + 23.
            const std::uint64_t word = r.peek();
            const std::uint32_t code = field(word, 0, exponentWidth);
            if (code < 2) {
                if (!r.consume(exponentWidth))
                    return fail();
                out[i] = code == 0 ? 0.0f : nan;
                continue;
            }
            const int exponent = smallestExponent + int(code) - 2;
            if (exponent > 254 || !r.consume(numberBits))
                return fail();
            const std::uint32_t sign = signs ? field(word, exponentWidth, 1) << 31 : negative;
            const std::uint32_t mantissa = kept > 0 ? field(word, numberBits - kept, kept) << (kFullMantissa - kept) : 0;
            out[i] = floatOf(sign | (std::uint32_t(exponent) << 23) | mantissa);
        }
        return true;
    }
    case kScaled: {
        if (size < 4)
            return fail();
        const int scale = int(std::int8_t(data[1]));
        if (data[2] < 1 || data[2] > 24 || scale < kSmallestScale || scale > kLargestScale)
            return fail();
        const float step = std::ldexp(1.0f, scale);
        const int width = data[2];
        std::uint32_t zigzag = 0;
        std::size_t at = 3;
        for (int shift = 0;; shift += 7, ++at) {
            if (at >= size || shift > 28)
                return fail();
            zigzag |= std::uint32_t(data[at] & 0x7fu) << shift;
            if (!(data[at] & 0x80u))
                break;
        }
        ++at;
        const std::int64_t first = std::int64_t(zigzag >> 1) * ((zigzag & 1u) ? -1 : 1) - std::int64_t(zigzag & 1u);
        const std::uint32_t gap = std::uint32_t((std::uint64_t(1) << width) - 1);
        if (std::abs(first) + gap > (std::int64_t(1) << 25))
            return fail();
        BitReader r(data + at, size - at);
        for (int i = 0; i < count; ++i) {
            const std::uint32_t code = field(r.peek(), 0, width);
            if (!r.consume(width))
                return fail();
            // A multiple of at most 2^25 times a power of two: exact in a float.
            out[i] = code == gap ? nan : float(first + std::int64_t(code)) * step;
        }
        return true;
    }
    default:
        return fail();
    }
    BitReader r(data + 1, size - 1);
    std::uint32_t value = 0;
    if (!r.get(32, value))
        return fail();
    out[0] = floatOf(value);
    int windowLead = -1, windowTrail = 0;
    for (int i = 1; i < count; ++i) {
        // One load per value: '11', 5 + 5 bits and at most 32 meaningful bits fit in the 57 peeked.
        const std::uint64_t word = r.peek();
        if ((word >> 63) == 0) { // '0': the same value
            if (!r.consume(1))
                return fail();
            out[i] = floatOf(value);
            continue;
        }
        int used = 2;
        if (((word >> 62) & 1u) == 1) { // '11': a new window
            const int lead = int(field(word, 2, 5));
            const int length = int(field(word, 7, 5)) + 1;
            if (lead + length > 32)
                return fail();
            windowLead = lead;
            windowTrail = 32 - lead - length;
            used = 12;
        } else if (windowLead < 0) {
            return fail();
        }
        const int length = 32 - windowLead - windowTrail;
        const std::uint32_t meaningful = field(word, used, length);
        if (!r.consume(used + length))
            return fail();
        value ^= meaningful << windowTrail;
        out[i] = floatOf(value);
    }
    return true;
}

} // namespace pd
