// SPDX-License-Identifier: MIT
#pragma once

#include "stateappearance.h"

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

// The line colours of the dashboards, from the one appearance table (stateappearance.h), for a light
// background (ChartColors::lineOn adapts them): the first line (blue), the second (orange), and what
// went wrong (red).
namespace seriescolor {
inline QColor first()
{
    return poolColor(Role::Prefill, false);
}
inline QColor second()
{
    return toneInk(Tone::Caution, false);
}
inline QColor alarm()
{
    return toneInk(Tone::Bad, false);
}
} // namespace seriescolor

// WCAG 2 contrast ratio of two colours, 1..21.
double contrastRatio(const QColor &a, const QColor &b);

} // namespace pd
