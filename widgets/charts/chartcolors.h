// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPalette>

// The colours a chart paints with, taken from the widget's palette so charts follow the light and
// dark themes (widgets/apptheme.*): background, title and tick labels, grid, the "no data" text. Line
// colours are given for a light background; lineOn() lightens one that would not read on a dark one.
namespace pd {

struct ChartColors {
    QColor background;
    QColor text;
    QColor grid;
    QColor axis;
    QColor placeholder;
    bool dark = false;

    static ChartColors fromPalette(const QPalette &palette);
    // The colour a line is drawn in on this background: unchanged on a light one; on a dark one
    // lifted to at least 4.5:1 contrast (same hue).
    QColor lineOn(const QColor &color) const;
};

// The line colours of the dashboards (for a light background; ChartColors::lineOn adapts them):
// the first line, the second, and what went wrong.
namespace seriescolor {
inline QColor first()
{
    return QColor(0x2b, 0x6c, 0xb0);
} // blue
inline QColor second()
{
    return QColor(0xc0, 0x64, 0x12);
} // orange
inline QColor alarm()
{
    return QColor(0xb3, 0x26, 0x1e);
} // red
} // namespace seriescolor

// WCAG 2 contrast ratio of two colours, 1..21.
double contrastRatio(const QColor &a, const QColor &b);

} // namespace pd
