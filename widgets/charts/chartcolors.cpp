// SPDX-License-Identifier: MIT
#include "charts/chartcolors.h"

#include "apptheme.h"

#include <cmath>

namespace pd {

namespace {

double luminance(const QColor &c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
        float(a.greenF() + (b.greenF() - a.greenF()) * t), float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ChartColors ChartColors::fromPalette(const QPalette &palette)
{
    ChartColors c;
    c.background = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.dark = isDark(palette);
    // Grid lines a step off the background, the axis line a little more: present, never loud.
    c.grid = mix(c.background, c.text, c.dark ? 0.16 : 0.12);
    c.axis = mix(c.background, c.text, 0.35);
    c.placeholder = mix(c.background, c.text, 0.6);
    return c;
}

QColor ChartColors::lineOn(const QColor &color) const
{
    if (!dark)
        return color;
    QColor lifted = color.toHsl();
    for (int i = 0; i < 12 && contrastRatio(lifted, background) < 4.5; ++i)
        lifted
            = QColor::fromHslF(lifted.hslHueF(), lifted.hslSaturationF(), std::min(1.0f, lifted.lightnessF() + 0.05f));
    return lifted.toRgb();
}

} // namespace pd
