// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>

// Numbers and label values printed the way prometheus_client does (vllm-metrics.md §1.3): Python repr,
// switched to Go's exponent form once there are 7+ integer digits ("4.127943e+07", "4.6261317632e+010").
namespace pd::sim {

// The longest text formatPromNumber() writes (a 17-digit mantissa, sign, dot and exponent), with room.
inline constexpr int kMaxPromNumber = 40;
// Writes the number to `out` (room for kMaxPromNumber bytes), returns its length.
int formatPromNumber(double value, char *out);
void appendPromNumber(QByteArray &out, double value);
QByteArray promNumber(double value);
// Label value with \\, \" and \n escaped.
QByteArray promEscapeLabel(QByteArrayView value);

} // namespace pd::sim
