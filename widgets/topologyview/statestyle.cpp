// SPDX-License-Identifier: MIT
#include "topologyview/statestyle.h"

#include "apptheme.h"
#include "stateappearance.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace pd {

namespace StateStyle {

QColor fill(EngineState state, bool dark)
{
    return stateFill(state, dark);
}

QColor fill(EngineState state)
{
    return fill(state, isDarkTheme());
}

const CanvasColors &canvasColors(bool dark)
{
    static const CanvasColors light { QColor(0xf4, 0xf5, 0xf7), QColor(0xe8, 0xf0, 0xfa), QColor(0xf1, 0xec, 0xf8),
        QColor(0x9d, 0xb7, 0xdc), QColor(0xb9, 0xa7, 0xd9), QColor(0xb8, 0xbe, 0xc7), QColor(Qt::white),
        QColor(0xff, 0xfb, 0xe6), QColor(0x1f, 0x23, 0x28), QColor(0x5f, 0x66, 0x70), QColor(0x11, 0x3c, 0x8c),
        QColor(0x11, 0x3c, 0x8c, 40), QColor(0xb3, 0x26, 0x1e), QColor(0x1e, 0x7e, 0x34), QColor(0xd8, 0xdb, 0xdf),
        QColor(0x9a, 0xa0, 0xa8), QColor(0x8a, 0x91, 0x9c), QColor(0x1f, 0x5f, 0xa8), QColor(0x1b, 0x1f, 0x24),
        QColor(0xff, 0xc1, 0x07) };
    static const CanvasColors darkColors { QColor(0x1b, 0x1e, 0x21), QColor(0x1f, 0x2a, 0x38), QColor(0x2a, 0x24, 0x36),
        QColor(0x3d, 0x5a, 0x80), QColor(0x5c, 0x4a, 0x80), QColor(0x4b, 0x51, 0x59), QColor(0x26, 0x2a, 0x2f),
        QColor(0x3a, 0x35, 0x1c), QColor(0xe4, 0xe6, 0xe9), QColor(0xa0, 0xa7, 0xb0), QColor(0x8a, 0xb4, 0xf8),
        QColor(0x8a, 0xb4, 0xf8, 50), QColor(0xff, 0x6b, 0x6b), QColor(0x5c, 0xc9, 0x7b), QColor(0x3a, 0x3f, 0x45),
        QColor(0x6b, 0x72, 0x7b), QColor(0x7a, 0x82, 0x8c), QColor(0x6f, 0xa8, 0xf0), QColor(0xf4, 0xf5, 0xf7),
        QColor(0xff, 0xc1, 0x07) };
    return dark ? darkColors : light;
}

QColor ink(const QColor &fill)
{
    return inkOn(fill);
}

bool isProblem(EngineState state)
{
    return stateAppearance(state).failure;
}

QString label(EngineState state)
{
    return engineStateLabel(state);
}

void drawGlyph(QPainter &p, EngineState state, const QRectF &box, const QColor &ink)
{
    drawStateGlyph(p, state, box, ink);
}

QPixmap glyph(EngineState state, int size, const QColor &ink)
{
    return stateGlyphPixmap(state, size, ink);
}

} // namespace StateStyle

QColor metricColor(double fraction)
{
    // Five stops of a perceptually ordered ramp (viridis-like); NaN is handled by the caller.
    static const std::array<QColor, 5> stops { QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
        QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25) };
    const double f = std::clamp(fraction, 0.0, 1.0) * double(stops.size() - 1);
    const int i = std::min(int(f), int(stops.size()) - 2);
    const double t = f - i;
    const QColor &a = stops[std::size_t(i)];
    const QColor &b = stops[std::size_t(i) + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
        float(a.greenF() + (b.greenF() - a.greenF()) * t), float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace pd
