// SPDX-License-Identifier: MIT
#include "decimate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pd {

namespace {

struct Emitter {
    QList<QPointF> &out;
    bool pendingBreak = false;

    void point(double x, double y)
    {
        if (pendingBreak && !out.isEmpty())
            out.append(QPointF(breakX, std::numeric_limits<double>::quiet_NaN()));
        pendingBreak = false;
        out.append(QPointF(x, y));
    }
    void gap(double x)
    {
        if (!pendingBreak)
            breakX = x;
        pendingBreak = true;
    }
    double breakX = 0;
};

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if (a % b > 0)
        ++q;
    return q;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if (a % b < 0)
        --q;
    return q;
}

} // namespace

QList<QPointF> decimateMinMax(const RingColumn &column, std::int64_t fromMs, std::int64_t toMs, int maxPoints)
{
    QList<QPointF> out;
    if (column.isEmpty() || toMs < fromMs || maxPoints < 1)
        return out;
    const std::int64_t res = column.resolutionMs;
    const std::int64_t s0 = std::max(ceilDiv(fromMs, res), column.firstSlot);
    const std::int64_t s1 = std::min(floorDiv(toMs, res), column.lastSlot);
    if (s1 < s0)
        return out;
    const std::int64_t n = s1 - s0 + 1;
    Emitter emit{out};
    // One read of the range: a sealed block is decoded once, not once per slot.
    std::vector<float> values(static_cast<std::size_t>(n));
    column.read(s0, s1, values.data());
    auto valueAt = [&values, s0](std::int64_t slot) { return values[std::size_t(slot - s0)]; };

    if (n <= maxPoints) {
        out.reserve(int(n));
        for (std::int64_t s = s0; s <= s1; ++s) {
            const float v = valueAt(s);
            if (std::isnan(v))
                emit.gap(double(s * res));
            else
                emit.point(double(s * res), v);
        }
        return out;
    }

    const int columns = std::max(1, maxPoints / 2);
    out.reserve(columns * 2);
    // Column c holds the slots whose start lies in [fromMs + c·w, fromMs + (c+1)·w), w = range / columns.
    const double span = double(toMs - fromMs) + 1.0;
    const double perMs = double(columns) / span;
    int current = -1;
    std::int64_t minSlot = 0, maxSlot = 0;
    float minV = 0, maxV = 0;
    bool any = false;
    std::int64_t firstGapSlot = 0;

    auto flush = [&] {
        if (current < 0)
            return;
        if (!any) {
            emit.gap(double(firstGapSlot * res));
            return;
        }
        if (minSlot == maxSlot || minV == maxV) {
            emit.point(double(minSlot * res), minV);
        } else if (minSlot < maxSlot) {
            emit.point(double(minSlot * res), minV);
            emit.point(double(maxSlot * res), maxV);
        } else {
            emit.point(double(maxSlot * res), maxV);
            emit.point(double(minSlot * res), minV);
        }
    };

    for (std::int64_t s = s0; s <= s1; ++s) {
        const int c = std::min(columns - 1, int(double(s * res - fromMs) * perMs));
        if (c != current) {
            flush();
            current = c;
            any = false;
            firstGapSlot = s;
        }
        const float v = valueAt(s);
        if (std::isnan(v))
            continue;
        if (!any) {
            any = true;
            minV = maxV = v;
            minSlot = maxSlot = s;
        } else if (v < minV) {
            minV = v;
            minSlot = s;
        } else if (v > maxV) {
            maxV = v;
            maxSlot = s;
        }
    }
    flush();
    return out;
}

} // namespace pd
