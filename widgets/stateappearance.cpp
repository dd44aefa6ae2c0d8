// SPDX-License-Identifier: MIT
#include "stateappearance.h"

#include "apptheme.h"

#include <QBuffer>
#include <QPainter>
#include <QPainterPathStroker>
#include <QPixmapCache>
#include <QTransform>
#include <QWidget>

#include <array>
#include <cmath>

namespace pd {

namespace {

// Fills keep the topology's Okabe-Ito hues; marks are the same hues darkened (light base) or lightened
// (dark base) to 3:1 or more, and at least 18 CIE76 units apart from each other (tst_looks).
const std::array<StateAppearance, kEngineStateCount> &table()
{
    static const std::array<StateAppearance, kEngineStateCount> states { {
        // Unknown: faint grey, nothing observed
        { QColor(0xc9, 0xcd, 0xd3), QColor(0x5a, 0x60, 0x68), QColor(0x8a, 0x8a, 0x8a), QColor(0x80, 0x86, 0x8e), false, true },
        // Stopped: neutral grey, calm: what the operator did on purpose, or never started
        { QColor(0x5f, 0x63, 0x68), QColor(0x9a, 0xa0, 0xa8), QColor(0x5f, 0x63, 0x68), QColor(0xb0, 0xb6, 0xbd), false, true },
        // Starting: yellow
        { QColor(0xf0, 0xe4, 0x42), QColor(0xf0, 0xe4, 0x42), QColor(0x8c, 0x7a, 0x00), QColor(0xf0, 0xe4, 0x42), false, true },
        // Ready, not in proxy: sky blue
        { QColor(0x56, 0xb4, 0xe9), QColor(0x56, 0xb4, 0xe9), QColor(0x02, 0x77, 0xbd), QColor(0x56, 0xb4, 0xe9), false, true },
        // Waiting in proxy: blue
        { QColor(0x00, 0x72, 0xb2), QColor(0x00, 0x72, 0xb2), QColor(0x00, 0x4c, 0x80), QColor(0x3f, 0x7f, 0xd8), false, true },
        // Serving: bluish green, no glyph on its cell
        { QColor(0x00, 0x9e, 0x73), QColor(0x00, 0x9e, 0x73), QColor(0x00, 0x7a, 0x55), QColor(0x3c, 0xc1, 0x94), false, false },
        // Draining: reddish purple
        { QColor(0xcc, 0x79, 0xa7), QColor(0xcc, 0x79, 0xa7), QColor(0xa8, 0x45, 0x7f), QColor(0xe0, 0x8c, 0xbf), false, true },
        // Stalled: orange
        { QColor(0xe6, 0x9f, 0x00), QColor(0xe6, 0x9f, 0x00), QColor(0xb0, 0x6a, 0x00), QColor(0xf0, 0xa8, 0x30), true, true },
        // Unhealthy: vermilion
        { QColor(0xd5, 0x5e, 0x00), QColor(0xd5, 0x5e, 0x00), QColor(0xc2, 0x4a, 0x00), QColor(0xff, 0x7a, 0x33), true, true },
        // Unreachable: red, a failure
        { QColor(0x9b, 0x11, 0x1e), QColor(0xe0, 0x40, 0x5a), QColor(0xb3, 0x14, 0x1f), QColor(0xff, 0x5a, 0x5f), true, true },
        // Group broken: deep violet, alive but held by a dead rank of its group
        { QColor(0x5e, 0x2b, 0x97), QColor(0xa7, 0x7b, 0xe0), QColor(0x5e, 0x2b, 0x97), QColor(0xb4, 0x8c, 0xf0), true, true },
    } };
    return states;
}

// Shapes are designed in a 2 x 2 box centred on the origin, y down.
QPainterPath stroke(const QPainterPath &centreLine, double width, Qt::PenCapStyle cap = Qt::RoundCap)
{
    QPainterPathStroker s;
    s.setWidth(width);
    s.setCapStyle(cap);
    s.setJoinStyle(Qt::RoundJoin);
    return s.createStroke(centreLine).simplified();
}

QPainterPath polygon(std::initializer_list<QPointF> points)
{
    QPainterPath p;
    p.addPolygon(QPolygonF(QList<QPointF>(points)));
    p.closeSubpath();
    return p;
}

QPainterPath disc(QPointF centre, double r)
{
    QPainterPath p;
    p.addEllipse(centre, r, r);
    return p;
}

QPainterPath rect(double x0, double y0, double x1, double y1)
{
    QPainterPath p;
    p.addRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)));
    return p;
}

QPainterPath ring(double r, double width)
{
    return disc({}, r + width / 2).subtracted(disc({}, r - width / 2));
}

// An exclamation mark's bar and dot, for cutting out of a severity's shape.
QPainterPath exclamation(double top, double barBottom, double dotY, double half)
{
    return rect(-half, top, half, barBottom).united(disc({ 0, dotY }, half * 1.15));
}

QPainterPath unitStateGlyph(EngineState state)
{
    switch (state) {
    case EngineState::Unknown: { // a dotted circle: nothing known
        QPainterPath p;
        for (int i = 0; i < 6; ++i) {
            const double a = i * M_PI / 3 + M_PI / 6;
            p = p.united(disc({ 0.68 * std::cos(a), 0.68 * std::sin(a) }, 0.27)); // big enough to show at 8 px
        }
        return p;
    }
    case EngineState::Stopped: // a square: stopped, still
        return rect(-0.72, -0.72, 0.72, 0.72);
    case EngineState::Starting: { // a hollow up-triangle: on its way up
        QPainterPath line = polygon({ { 0, -0.78 }, { 0.82, 0.68 }, { -0.82, 0.68 } });
        return stroke(line, 0.3);
    }
    case EngineState::ReadyNotInProxy: // a hollow circle: would serve, not routed to
        return ring(0.7, 0.3);
    case EngineState::WaitingInProxy: // an hourglass: the proxy has yet to activate it
        return polygon({ { -0.75, -0.9 }, { 0.75, -0.9 }, { 0.1, 0 }, { 0.75, 0.9 }, { -0.75, 0.9 }, { -0.1, 0 } });
    case EngineState::Serving: // a filled circle
        return disc({}, 0.82);
    case EngineState::Draining: // an arrow down into a bar: requests running out
        return rect(-0.16, -0.95, 0.16, 0.0)
            .united(polygon({ { -0.62, -0.1 }, { 0.62, -0.1 }, { 0, 0.5 } }))
            .united(rect(-0.9, 0.66, 0.9, 0.95));
    case EngineState::Stalled: // two vertical bars: paused, no progress
        return rect(-0.7, -0.82, -0.2, 0.82).united(rect(0.2, -0.82, 0.7, 0.82));
    case EngineState::Unhealthy: // a plus in a circle: answers, but sick
        return ring(0.8, 0.22)
            .united(rect(-0.14, -0.5, 0.14, 0.5))
            .united(rect(-0.5, -0.14, 0.5, 0.14));
    case EngineState::Unreachable: { // a heavy cross: gone
        QPainterPath line;
        line.moveTo(-0.68, -0.68);
        line.lineTo(0.68, 0.68);
        line.moveTo(0.68, -0.68);
        line.lineTo(-0.68, 0.68);
        return stroke(line, 0.44);
    }
    case EngineState::GroupBroken: { // a disc split apart: its group is broken
        const QPainterPath whole = disc({}, 0.72);
        QTransform turn;
        turn.rotate(-45);
        const QPainterPath gap = turn.map(rect(-1.5, -0.14, 1.5, 0.14));
        const QPainterPath upperLeft = turn.map(rect(-1.5, -1.5, 1.5, 0));
        const QPainterPath cut = whole.subtracted(gap);
        const QPainterPath a = cut.intersected(upperLeft).translated(-0.14, -0.14);
        const QPainterPath b = cut.subtracted(upperLeft).translated(0.14, 0.14);
        return a.united(b);
    }
    }
    return disc({}, 0.5);
}

QPainterPath unitSeverityGlyph(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Critical: { // an octagon with an exclamation mark cut out
        QPolygonF octagon;
        for (int i = 0; i < 8; ++i) {
            const double a = M_PI / 8 + i * M_PI / 4;
            octagon << QPointF(0.98 * std::cos(a), 0.98 * std::sin(a));
        }
        QPainterPath p;
        p.addPolygon(octagon);
        p.closeSubpath();
        return p.subtracted(exclamation(-0.62, 0.18, 0.48, 0.14));
    }
    case ProblemSeverity::Error: { // a disc with a cross cut out
        QPainterPath line;
        line.moveTo(-0.38, -0.38);
        line.lineTo(0.38, 0.38);
        line.moveTo(0.38, -0.38);
        line.lineTo(-0.38, 0.38);
        return disc({}, 0.92).subtracted(stroke(line, 0.26));
    }
    case ProblemSeverity::Warning: // a triangle with an exclamation mark cut out
        return polygon({ { 0, -0.95 }, { 1.0, 0.85 }, { -1.0, 0.85 } }).subtracted(exclamation(-0.36, 0.28, 0.57, 0.12));
    }
    return disc({}, 0.5);
}

// A path drawn at twice `px` (sharp on a high-density screen, scaled down on a normal one) as an <img>
// with a data: URI, for rich text.
QString imageHtml(const QPainterPath &path, int px, const QColor &color)
{
    QImage image(px * 2, px * 2, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillPath(path, color);
    p.end();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("<img src='data:image/png;base64,%1' width='%2' height='%2' style='vertical-align:middle'>")
        .arg(QString::fromLatin1(png.toBase64()))
        .arg(px);
}

QPainterPath placed(const QPainterPath &unit, const QRectF &box)
{
    const double s = std::min(box.width(), box.height());
    QTransform t;
    t.translate(box.center().x(), box.center().y());
    t.scale(s / 2, s / 2);
    return t.map(unit);
}

} // namespace

const StateAppearance &stateAppearance(EngineState state)
{
    const int i = int(state);
    return table()[std::size_t(i >= 0 && i < kEngineStateCount ? i : 0)];
}

QColor stateFill(EngineState state, bool dark)
{
    const StateAppearance &a = stateAppearance(state);
    return dark ? a.fillDark : a.fillLight;
}

QColor stateMark(EngineState state, bool dark)
{
    const StateAppearance &a = stateAppearance(state);
    return dark ? a.markDark : a.markLight;
}

QColor stateMark(EngineState state)
{
    return stateMark(state, isDarkTheme());
}

QPainterPath stateGlyphPath(EngineState state, const QRectF &box)
{
    // The unit shapes are built once: boolean path operations are not cheap.
    static const std::array<QPainterPath, kEngineStateCount> unit = [] {
        std::array<QPainterPath, kEngineStateCount> shapes;
        for (int s = 0; s < kEngineStateCount; ++s)
            shapes[std::size_t(s)] = unitStateGlyph(EngineState(s));
        return shapes;
    }();
    const int i = int(state);
    return placed(unit[std::size_t(i >= 0 && i < kEngineStateCount ? i : 0)], box);
}

void drawStateGlyph(QPainter &painter, EngineState state, const QRectF &box, const QColor &color)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillPath(stateGlyphPath(state, box), color);
    painter.restore();
}

QPixmap stateGlyphPixmap(EngineState state, int size, const QColor &color, qreal dpr)
{
    // QPixmapCache: owned by the application, so no pixmap outlives it.
    const QString key = QStringLiteral("pd-state-glyph-%1-%2-%3-%4").arg(int(state)).arg(size).arg(color.rgba(), 0, 16).arg(dpr);
    QPixmap pixmap;
    if (!QPixmapCache::find(key, &pixmap)) {
        const int device = std::max(1, int(std::ceil(size * dpr)));
        pixmap = QPixmap(device, device);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        drawStateGlyph(p, state, QRectF(0, 0, device, device), color);
        p.end();
        pixmap.setDevicePixelRatio(dpr);
        QPixmapCache::insert(key, pixmap);
    }
    return pixmap;
}

QString stateGlyphHtml(EngineState state, int px, const QColor &color)
{
    return imageHtml(stateGlyphPath(state, QRectF(0, 0, px * 2, px * 2)), px, color);
}

QColor inkOn(const QColor &fill)
{
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return luminance > 0.5 ? QColor(0x1b, 0x1f, 0x24) : QColor(Qt::white);
}

QColor severityBadge(ProblemSeverity severity)
{
    switch (severity) {
    case ProblemSeverity::Critical:
        return QColor(0xb3, 0x26, 0x1e);
    case ProblemSeverity::Error:
        return QColor(0xc4, 0x3e, 0x00);
    case ProblemSeverity::Warning:
        return QColor(0x8a, 0x6d, 0x00);
    }
    return QColor(0x8a, 0x6d, 0x00);
}

QPainterPath severityGlyphPath(ProblemSeverity severity, const QRectF &box)
{
    return placed(unitSeverityGlyph(severity), box);
}

QString severityGlyphHtml(ProblemSeverity severity, int px, const QColor &color)
{
    return imageHtml(severityGlyphPath(severity, QRectF(0, 0, px * 2, px * 2)), px, color);
}

void drawSeverityGlyph(QPainter &painter, ProblemSeverity severity, const QRectF &box, const QColor &color)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillPath(severityGlyphPath(severity, box), color);
    painter.restore();
}

QColor severityInk(ProblemSeverity severity, bool dark)
{
    const QColor badge = severityBadge(severity);
    return dark ? badge.lighter(170) : badge;
}

QString severityHtml(ProblemSeverity severity, const QString &html)
{
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(severityInk(severity, isDarkTheme()).name(), html);
}

QString healthyHtml(const QString &html)
{
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(stateMark(EngineState::Serving).name(), html);
}

namespace {

struct ToneColors {
    QColor inkLight, inkDark;
};

const ToneColors &toneColors(Tone tone)
{
    static const ToneColors good { QColor(0x1e, 0x7e, 0x34), QColor(0x5c, 0xc9, 0x7b) };
    static const ToneColors info { QColor(0x15, 0x65, 0xc0), QColor(0x8a, 0xb4, 0xf8) };
    static const ToneColors caution { QColor(0xc0, 0x64, 0x12), QColor(0xf0, 0xa0, 0x50) };
    static const ToneColors bad { QColor(0xb3, 0x26, 0x1e), QColor(0xff, 0x6b, 0x6b) };
    static const ToneColors muted { QColor(0x60, 0x60, 0x60), QColor(0xa0, 0xa7, 0xb0) };
    static const ToneColors absent { QColor(0x9e, 0x9e, 0x9e), QColor(0x6b, 0x72, 0x7b) };
    switch (tone) {
    case Tone::Good:
        return good;
    case Tone::Info:
        return info;
    case Tone::Caution:
        return caution;
    case Tone::Bad:
        return bad;
    case Tone::Muted:
        return muted;
    case Tone::Absent:
        return absent;
    }
    return muted;
}

} // namespace

QColor toneInk(Tone tone, bool dark)
{
    const ToneColors &c = toneColors(tone);
    return dark ? c.inkDark : c.inkLight;
}

QColor toneInk(Tone tone)
{
    return toneInk(tone, isDarkTheme());
}

QColor toneWash(Tone tone, bool dark)
{
    const QColor ink = toneInk(tone, dark);
    const QColor base = dark ? QColor(0x1b, 0x1e, 0x21) : QColor(Qt::white);
    const double a = dark ? 0.25 : 0.2;
    return QColor::fromRgbF(float(base.redF() + (ink.redF() - base.redF()) * a),
        float(base.greenF() + (ink.greenF() - base.greenF()) * a),
        float(base.blueF() + (ink.blueF() - base.blueF()) * a));
}

BarColors toneBar(Tone tone, bool dark)
{
    switch (tone) {
    case Tone::Caution:
        return dark ? BarColors { QColor(0x3a, 0x33, 0x14), QColor(0xf4, 0xe4, 0xa8) }
                    : BarColors { QColor(0xff, 0xf4, 0xce), QColor(0x3c, 0x2f, 0x00) };
    case Tone::Bad:
        return dark ? BarColors { QColor(0x4a, 0x1f, 0x1f), QColor(0xff, 0xd6, 0xd6) }
                    : BarColors { QColor(0xfd, 0xe2, 0xe1), QColor(0x5c, 0x0a, 0x0a) };
    default:
        return dark ? BarColors { QColor(0x1f, 0x2a, 0x38), QColor(0xd6, 0xe4, 0xff) }
                    : BarColors { QColor(0xe8, 0xf0, 0xfa), QColor(0x11, 0x3c, 0x8c) };
    }
}

void paintAsBar(QWidget *bar, Tone tone)
{
    const BarColors colors = toneBar(tone, isDarkTheme());
    QPalette palette = bar->palette();
    palette.setColor(QPalette::Window, colors.background);
    palette.setColor(QPalette::WindowText, colors.text);
    bar->setAutoFillBackground(true);
    bar->setPalette(palette);
}

QString toneHtml(Tone tone, const QString &html)
{
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(toneInk(tone).name(), html);
}

QColor poolColor(Role role, bool dark)
{
    // The light colours carry white ink on the tags (4.5:1 at least); the dark ones are for lines on a dark base.
    if (role == Role::Prefill)
        return dark ? QColor(0x6f, 0xa8, 0xf0) : QColor(0x2b, 0x6c, 0xb0);
    return dark ? QColor(0xf0, 0xa0, 0x50) : QColor(0xb3, 0x5a, 0x10);
}

} // namespace pd
