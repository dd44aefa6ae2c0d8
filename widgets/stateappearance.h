// SPDX-License-Identifier: MIT
#pragma once

#include "cluster/profile.h"
#include "state/enginestate.h"
#include "triage/problem.h"

#include <QColor>
#include <QPainterPath>
#include <QPixmap>
#include <QString>

class QPainter;
class QWidget;

// The one look of each engine state and problem severity, for every view: the topology's cells and
// legend, the tables' status delegate, the timeline, the engine detail and the Problems panel.
//
// Each state has a fill (cells, swatches), a mark colour (text and glyphs on the window's base), both
// for a light and a dark palette, and a glyph painted from QPainterPath shapes: no font character, so
// nothing turns into a tofu box, and the glyph alone tells every state apart (colour-vision safe).
// What the operator did on purpose reads calm (Stopped: a grey square, no heavy border); what needs
// the operator reads as failure (Unreachable: a red cross, heavy border on the topology).
namespace pd {

struct StateAppearance {
    QColor fillLight, fillDark; // cell and swatch fill (Okabe-Ito based)
    QColor markLight, markDark; // text and glyphs on the window's base colour, 3:1 at least
    bool failure = false; // needs the operator: heavy border, counted in red
    bool glyphOnCell = true; // Serving, the normal state, keeps its topology cell plain
};

const StateAppearance &stateAppearance(EngineState state);
QColor stateFill(EngineState state, bool dark);
QColor stateMark(EngineState state, bool dark);
QColor stateMark(EngineState state); // for the application's current palette (apptheme.h)

// The glyph's filled outline inside `box` (centred, square). Never empty.
QPainterPath stateGlyphPath(EngineState state, const QRectF &box);
void drawStateGlyph(QPainter &painter, EngineState state, const QRectF &box, const QColor &color);
// A cached pixmap of size x size logical pixels at the given device pixel ratio.
QPixmap stateGlyphPixmap(EngineState state, int size, const QColor &color, qreal dpr = 1.0);
// For rich text (QLabel, tooltips): an <img> of the painted glyph as a data: URI, px logical pixels.
QString stateGlyphHtml(EngineState state, int px, const QColor &color);

// Black or white, whichever reads on a fill (glyphs and labels on cells, badges).
QColor inkOn(const QColor &fill);

// A severity's badge: a solid colour under white ink (4.5:1 at least), the same on light and dark.
QColor severityBadge(ProblemSeverity severity);
QPainterPath severityGlyphPath(ProblemSeverity severity, const QRectF &box);
void drawSeverityGlyph(QPainter &painter, ProblemSeverity severity, const QRectF &box, const QColor &color);
QString severityGlyphHtml(ProblemSeverity severity, int px, const QColor &color); // as stateGlyphHtml
// Rich text (`html`, inserted as it is) in a severity's colour, readable on the application's current
// palette (lighter on a dark one), and in the colour of health (Serving's mark): the one place status
// texts and labels take their alarm and all-clear colours from, so no colour is written into a tr() string.
QString severityHtml(ProblemSeverity severity, const QString &html);
QString healthyHtml(const QString &html);
// A severity's colour for text and glyphs on the window's base (its badge, lighter on a dark palette).
QColor severityInk(ProblemSeverity severity, bool dark);

// The tones of every status that is not an engine state: a poll's outcome, a check's verdict, a scaling
// step, a log line, the bars over a page. Their inks read on the window's base colour (3:1 at least),
// light and dark; a wash is the tone faintly over the base (a passed check's cell); a bar is the
// background and text of a banner (a restore to confirm, a failed audit write, an error).
enum class Tone {
    Good, // healthy, passed, done (Serving's mark)
    Info, // running, in progress
    Caution, // slow, timed out, a warning
    Bad, // failed, refused a request, critical
    Muted, // refused connection (nothing there), cancelled, unknown
    Absent, // never polled, no verdict yet
};
QColor toneInk(Tone tone, bool dark);
QColor toneInk(Tone tone); // for the application's current palette
QColor toneWash(Tone tone, bool dark);
struct BarColors {
    QColor background;
    QColor text;
};
BarColors toneBar(Tone tone, bool dark); // Caution and Bad; the others read as Info
// Gives a widget a banner's look: its background and text in the tone's bar colours, for the current palette.
void paintAsBar(QWidget *bar, Tone tone);
QString toneHtml(Tone tone, const QString &html); // as severityHtml, for the current palette

// A pool's colour (tags, chart series): blue for prefill (KV producers), orange for decode (KV
// consumers), told apart with the common colour-vision deficiencies; the word always goes with it.
QColor poolColor(Role role, bool dark);

} // namespace pd
