// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// The encoding of one series' values over one block of slots, for the series store's history
// (docs/series-store.md, "Memory"). Consecutive float32 values are XORed with their predecessor and
// only the bits that differ are written, with the window of those bits reused while it fits (the idea
// of Facebook's Gorilla and Prometheus' XOR chunks). Timestamps are implicit in the ring, so only
// values are encoded. Before encoding, each value's mantissa is rounded to `keptMantissaBits` bits
// (23 keeps every bit): the noise below that precision is what makes consecutive XORs long.
//
// One encoded block: a tag byte, then
//   kAllGaps  nothing (every value NaN, the store's gap),
//   kConstant 4 bytes, the one value (little endian),
//   kXor      a bit stream, most significant bit first: the first value's 32 bits; then per value
//             '0' same as the previous, '10' + the differing bits in the previous window,
//             '11' + 5 bits of leading zeros + 5 bits of (length - 1) + that many bits;
//             every NaN is stored as one quiet NaN, so a run of gaps costs a bit per slot;
//   kPacked   for a block of whole numbers (request counts, a gauge of running requests): the smallest
//             (int32, little endian), a width w (1 byte), then every value as (value - smallest) in w
//             bits, all ones for a gap;
//   kFloats   every value on its own, for noisy values whose XORs are long: the smallest biased
//             exponent, the exponent code width e, whether signs are stored, the mantissa bits kept k
//             (1 byte each), then per value an e-bit code (0 zero, 1 gap, 2+ exponent - smallest + 2)
//             followed, for a number, by its sign bit (when stored) and its k kept mantissa bits;
//   kScaled   for noisy values of one magnitude (10 s means, quantiles): block floating point. A step
//             2^s (s: 1 signed byte) at which the block's largest magnitude keeps k mantissa bits, a
//             width w (1 byte), the smallest value's multiple of the step (zigzag, 7 bits a byte, low
//             first), then every value as (its nearest multiple - the smallest) in w bits, all ones for
//             a gap. A value's error is then at most 2^-(k+1) of the block's largest magnitude (not of
//             its own); zero stays exact. Only where the caller allows an error bounded by the block
//             (ErrorBound::BlockLargest), never for a block of whole numbers, and never when k is 23.
// The encoder writes the smallest of kXor, kPacked, kFloats and kScaled that applies.
namespace pd {

class FloatBlockCodec final {
public:
    enum Tag : std::uint8_t { kAllGaps = 0, kConstant = 1, kXor = 2, kPacked = 3, kFloats = 4, kScaled = 5 };
    static constexpr int kFullMantissa = 23;

    // The value as the history keeps it: NaN canonical, infinities kept, the mantissa rounded to
    // nearest at `keptMantissaBits` (a relative error of at most 2^-(kept+1)).
    static float keep(float value, int keptMantissaBits);

    // What the kept bits are relative to. PerValue: each value keeps `keptMantissaBits` of its own
    // (kScaled is never used). BlockLargest: kScaled may be used where it is smaller, so a value's error
    // is bounded by 2^-(kept+1) of the block's largest magnitude.
    enum class ErrorBound : std::uint8_t { PerValue, BlockLargest };

    // Appends the encoding of values[0..count) to out.
    static void encode(const float *values, int count, int keptMantissaBits, std::vector<std::uint8_t> &out,
        ErrorBound bound = ErrorBound::PerValue);
    // Decodes exactly `count` values into out; false (and out filled with NaN) if the data is cut short
    // or its tag unknown.
    static bool decode(const std::uint8_t *data, std::size_t size, int count, float *out);
};

} // namespace pd
