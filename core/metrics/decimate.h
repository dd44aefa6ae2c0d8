// SPDX-License-Identifier: MIT
#pragma once

#include "ringseries.h"

#include <QList>
#include <QPointF>

#include <cstdint>

// Min/max decimation of one ring column for a chart: the time range is cut into maxPoints/2 equal
// pixel columns; each column yields its minimum and maximum (in the order they occurred, one point
// when they coincide), so spikes survive any zoom level. x is ms since the epoch (slot start), y the
// value. A break is one point with y = NaN: it is emitted where a whole column (or, undecimated, a
// slot) holds no value between two that do, so a renderer splits its line there. Never more than
// maxPoints points, never more than 2 per column; leading and trailing gaps produce no point.
namespace pd {

QList<QPointF> decimateMinMax(const RingColumn &column, std::int64_t fromMs, std::int64_t toMs, int maxPoints);

} // namespace pd
