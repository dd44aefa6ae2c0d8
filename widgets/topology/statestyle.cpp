// SPDX-License-Identifier: MIT
#include "topology/statestyle.h"

#include "apptheme.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPixmapCache>

#include <algorithm>
#include <array>
#include <cmath>

namespace pd {

namespace StateStyle {

QColor fill(EngineState state, bool dark)
{
    // On a dark canvas the darkest fills (Stopped, Unreachable) lose their edge and Unknown glares:
    // lighter Stopped and Unreachable, a dim Unknown; the others keep their Okabe-Ito hue.
    if (dark) {
        switch (state) {
        case EngineState::Unknown:
            return QColor(0x5a, 0x60, 0x68);
        case EngineState::Stopped:
            return QColor(0x9a, 0xa0, 0xa8);
        case EngineState::Unreachable:
            return QColor(0xe0, 0x40, 0x5a);
        case EngineState::GroupBroken:
            return QColor(0xa7, 0x7b, 0xe0);
        default:
            break;
        }
    }
    switch (state) {
    case EngineState::Unknown:
        return QColor(0xc9, 0xcd, 0xd3);
    case EngineState::Stopped:
        return QColor(0x5f, 0x63, 0x68);
    case EngineState::Starting:
        return QColor(0xf0, 0xe4, 0x42);
    case EngineState::ReadyNotInProxy:
        return QColor(0x56, 0xb4, 0xe9);
    case EngineState::WaitingInProxy:
        return QColor(0x00, 0x72, 0xb2);
    case EngineState::Serving:
        return QColor(0x00, 0x9e, 0x73);
    case EngineState::Draining:
        return QColor(0xcc, 0x79, 0xa7);
    case EngineState::Stalled:
        return QColor(0xe6, 0x9f, 0x00);
    case EngineState::Unhealthy:
        return QColor(0xd5, 0x5e, 0x00);
    case EngineState::Unreachable:
        return QColor(0x9b, 0x11, 0x1e);
    case EngineState::GroupBroken: // a deep violet: alive, but held by a dead rank of its group
        return QColor(0x5e, 0x2b, 0x97);
    }
    return Qt::gray;
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
        QColor(0x9a, 0xa0, 0xa8), QColor(0x8a, 0x91, 0x9c), QColor(0x1f, 0x5f, 0xa8), QColor(0x1b, 0x1f, 0x24) };
    static const CanvasColors darkColors { QColor(0x1b, 0x1e, 0x21), QColor(0x1f, 0x2a, 0x38), QColor(0x2a, 0x24, 0x36),
        QColor(0x3d, 0x5a, 0x80), QColor(0x5c, 0x4a, 0x80), QColor(0x4b, 0x51, 0x59), QColor(0x26, 0x2a, 0x2f),
        QColor(0x3a, 0x35, 0x1c), QColor(0xe4, 0xe6, 0xe9), QColor(0xa0, 0xa7, 0xb0), QColor(0x8a, 0xb4, 0xf8),
        QColor(0x8a, 0xb4, 0xf8, 50), QColor(0xff, 0x6b, 0x6b), QColor(0x5c, 0xc9, 0x7b), QColor(0x3a, 0x3f, 0x45),
        QColor(0x6b, 0x72, 0x7b), QColor(0x7a, 0x82, 0x8c), QColor(0x6f, 0xa8, 0xf0), QColor(0xf4, 0xf5, 0xf7) };
    return dark ? darkColors : light;
}

QColor ink(const QColor &fill)
{
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.5 ? QColor(0x1b, 0x1f, 0x24) : Qt::white;
}

bool isProblem(EngineState state)
{
    return state == EngineState::Stalled || state == EngineState::Unhealthy || state == EngineState::Unreachable
        || state == EngineState::GroupBroken;
}

QString label(EngineState state)
{
    switch (state) {
    case EngineState::Unknown:
        return QCoreApplication::translate("StateStyle", "Unknown");
    case EngineState::Stopped:
        return QCoreApplication::translate("StateStyle", "Stopped");
    case EngineState::Starting:
        return QCoreApplication::translate("StateStyle", "Starting");
    case EngineState::ReadyNotInProxy:
        return QCoreApplication::translate("StateStyle", "Ready, not in proxy");
    case EngineState::WaitingInProxy:
        return QCoreApplication::translate("StateStyle", "Waiting in proxy");
    case EngineState::Serving:
        return QCoreApplication::translate("StateStyle", "Serving");
    case EngineState::Draining:
        return QCoreApplication::translate("StateStyle", "Draining");
    case EngineState::Stalled:
        return QCoreApplication::translate("StateStyle", "Stalled");
    case EngineState::Unhealthy:
        return QCoreApplication::translate("StateStyle", "Unhealthy");
    case EngineState::Unreachable:
        return QCoreApplication::translate("StateStyle", "Unreachable");
    case EngineState::GroupBroken:
        return QCoreApplication::translate("StateStyle", "Group broken");
    }
    return {};
}

void drawGlyph(QPainter &p, EngineState state, const QRectF &box, const QColor &ink)
{
    const double s = std::min(box.width(), box.height());
    const QRectF r(box.center().x() - s / 2, box.center().y() - s / 2, s, s);
    const QPointF c = r.center();
    const double line = std::max(1.2, s / 7);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(ink, line, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    const double k = s * 0.32; // half extent of most glyphs
    switch (state) {
    case EngineState::Unknown: {
        QFont font = p.font();
        font.setPixelSize(std::max(6, int(s * 0.9)));
        font.setBold(true);
        p.setFont(font);
        p.drawText(r, Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    case EngineState::Stopped:
        p.fillRect(QRectF(c.x() - k * 0.85, c.y() - k * 0.85, 1.7 * k, 1.7 * k), ink);
        break;
    case EngineState::Starting: {
        QPainterPath path;
        path.moveTo(c.x(), c.y() - k);
        path.lineTo(c.x() + k, c.y() + k * 0.8);
        path.lineTo(c.x() - k, c.y() + k * 0.8);
        path.closeSubpath();
        p.fillPath(path, ink);
        break;
    }
    case EngineState::ReadyNotInProxy:
        p.drawEllipse(c, k * 0.9, k * 0.9);
        break;
    case EngineState::WaitingInProxy: {
        QPainterPath path; // an hourglass
        path.moveTo(c.x() - k * 0.8, c.y() - k);
        path.lineTo(c.x() + k * 0.8, c.y() - k);
        path.lineTo(c.x() - k * 0.8, c.y() + k);
        path.lineTo(c.x() + k * 0.8, c.y() + k);
        path.closeSubpath();
        p.fillPath(path, ink);
        break;
    }
    case EngineState::Serving:
        break;
    case EngineState::Draining: {
        QPainterPath path;
        path.moveTo(c.x(), c.y() + k);
        path.lineTo(c.x() + k, c.y() - k * 0.8);
        path.lineTo(c.x() - k, c.y() - k * 0.8);
        path.closeSubpath();
        p.fillPath(path, ink);
        break;
    }
    case EngineState::Stalled: // pause bars: frozen
        p.fillRect(QRectF(c.x() - k * 0.8, c.y() - k, k * 0.55, 2 * k), ink);
        p.fillRect(QRectF(c.x() + k * 0.25, c.y() - k, k * 0.55, 2 * k), ink);
        break;
    case EngineState::Unhealthy: // an exclamation mark
        p.fillRect(QRectF(c.x() - k * 0.25, c.y() - k * 1.05, k * 0.5, k * 1.35), ink);
        p.fillRect(QRectF(c.x() - k * 0.25, c.y() + k * 0.55, k * 0.5, k * 0.5), ink);
        break;
    case EngineState::Unreachable: // a cross
        p.setPen(QPen(ink, std::max(1.5, s / 5), Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(c.x() - k, c.y() - k), QPointF(c.x() + k, c.y() + k));
        p.drawLine(QPointF(c.x() + k, c.y() - k), QPointF(c.x() - k, c.y() + k));
        break;
    case EngineState::GroupBroken: // a broken link: two half rings that do not meet
        p.drawArc(QRectF(c.x() - k * 1.05, c.y() - k * 0.55, k * 1.1, k * 1.1), 45 * 16, 270 * 16);
        p.drawArc(QRectF(c.x() - k * 0.05, c.y() - k * 0.55, k * 1.1, k * 1.1), -135 * 16, 270 * 16);
        break;
    }
    p.restore();
}

QPixmap glyph(EngineState state, int size, const QColor &ink)
{
    // QPixmapCache: owned by the application, so no pixmap outlives it.
    const QString key = QStringLiteral("pd-glyph-%1-%2-%3").arg(int(state)).arg(size).arg(ink.rgba(), 0, 16);
    QPixmap pixmap;
    if (!QPixmapCache::find(key, &pixmap)) {
        pixmap = QPixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        drawGlyph(p, state, QRectF(0, 0, size, size), ink);
        p.end();
        QPixmapCache::insert(key, pixmap);
    }
    return pixmap;
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
