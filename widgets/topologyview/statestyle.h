// SPDX-License-Identifier: MIT
#pragma once

#include "state/enginestate.h"

#include <QColor>
#include <QPixmap>
#include <QString>

class QPainter;

// The topology's canvas colours, and its names for the one appearance table of engine states
// (stateappearance.h: fill, glyph, whether it is a failure), so every view draws from that table.
namespace pd {

namespace StateStyle {

inline constexpr int kStateCount = kEngineStateCount;

QColor fill(EngineState state, bool dark); // dark: the variant for a dark canvas (apptheme.h)
QColor fill(EngineState state); // the variant for the application's current palette
QColor ink(const QColor &fill); // black or white, whichever reads on the fill
bool isProblem(EngineState state); // a failure state: drawn with a heavy border too (Stopped never is)
QString label(EngineState state); // engineStateLabel()

// The state's painted glyph as a pixmap of size x size, cached (paint calls are hot).
QPixmap glyph(EngineState state, int size, const QColor &ink);
// Draws the glyph vector-wise.
void drawGlyph(QPainter &painter, EngineState state, const QRectF &box, const QColor &ink);

// The topology canvas around the cells, for a light or a dark palette.
struct CanvasColors {
    QColor background, prefillTint, decodeTint, prefillBorder, decodeBorder, nodeBorder, panel, filteredNode;
    QColor text, mutedText, selection, selectionBand, bad, good, noData, noDataHatch, requestArrow, kvArrow;
    QColor problemBorder; // the heavy border of problem cells, and of problem swatches in the legend
    QColor keyboardFocus; // the dashed frame of the engine the keyboard is on
};
const CanvasColors &canvasColors(bool dark);

} // namespace StateStyle

// A sequential colour ramp (dark blue -> green -> yellow) for colouring cells by a metric, 0..1.
QColor metricColor(double fraction);

} // namespace pd
