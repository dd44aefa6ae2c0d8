// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"

#include <QColor>
#include <QPixmap>
#include <QString>

class QPainter;

// How an engine state looks on the topology and in its legend: a fill colour (Okabe-Ito based, so the
// failing states stay apart for most colour-vision deficiencies) and a glyph drawn on the cell, so a
// state reads without colour at all. Serving, the normal state, is the only one without a glyph.
namespace pd {

namespace StateStyle {

inline constexpr int kStateCount = int(EngineState::Unreachable) + 1;

QColor fill(EngineState state);
QColor ink(const QColor &fill); // black or white, whichever reads on the fill
bool isProblem(EngineState state); // stalled, unhealthy, unreachable: drawn with a heavy border too
QString label(EngineState state); // translated

// The glyph of a state as a device-pixel pixmap of size x size, cached (paint calls are hot).
QPixmap glyph(EngineState state, int size, const QColor &ink);
// Draws the glyph vector-wise (the legend, the tooltip icon).
void drawGlyph(QPainter &painter, EngineState state, const QRectF &box, const QColor &ink);

} // namespace StateStyle

// A sequential colour ramp (dark blue -> green -> yellow) for colouring cells by a metric, 0..1.
QColor metricColor(double fraction);

} // namespace pd
