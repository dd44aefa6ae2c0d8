// SPDX-License-Identifier: MIT
// Light and dark looks: the theme switch changes the application's palette, and in both every engine
// state stays apart from every other and from the background, with a painted glyph besides the colour.
// Writes the topology in both themes to build/dev/screenshots/topology-{light,dark}.png.
#include "apptheme.h"
#include "charts/chartcolors.h"
#include "cluster/clusterstore.h"
#include "mainwindow.h"
#include "settings/consolesettings.h"
#include "state/statetracker.h"
#include "stateappearance.h"
#include "topologyview/statestyle.h"
#include "topologyview/topologypanel.h"
#include "topologyview/topologyview.h"
#include "triage/triage.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QTabWidget>
#include <QImage>
#include <QPainter>
#include <QStandardPaths>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace pd;

namespace {

double relativeLuminance(const QColor &c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

// WCAG contrast ratio, 1..21.
double contrast(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// CIE76 distance in L*a*b*: about 2.3 is just noticeable; 20 and more reads as another colour.
double labDistance(const QColor &a, const QColor &b)
{
    auto lab = [](const QColor &c) {
        auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
        const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
        const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
        auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
        return std::array<double, 3> { 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)) };
    };
    const auto p = lab(a), q = lab(b);
    return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

// The glyph painted at size x size, with the painter's font set to `font` (the glyph must not care).
QImage glyphImage(EngineState state, int size = 32, const QFont &font = QFont())
{
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setFont(font);
    StateStyle::drawGlyph(p, state, QRectF(0, 0, size, size), Qt::black);
    return image;
}

QImage severityImage(ProblemSeverity severity, int size)
{
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    drawSeverityGlyph(p, severity, QRectF(0, 0, size, size), Qt::black);
    return image;
}

// Pixels at least half covered.
int inked(const QImage &image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += qAlpha(image.pixel(x, y)) >= 128 ? 1 : 0;
    return n;
}

} // namespace

class TestLooks : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void theThemeSwitchChangesThePalette()
    {
        QWidget widget;
        widget.show();
        applyTheme(Theme::Dark);
        QCoreApplication::processEvents();
        QVERIFY(isDarkTheme());
        QCOMPARE(QApplication::palette().color(QPalette::Window), darkPalette().color(QPalette::Window));
        QVERIFY(isDark(widget.palette())); // a widget that exists follows
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        applyTheme(Theme::Light);
        QCoreApplication::processEvents();
        QVERIFY(!isDarkTheme());
        QCOMPARE(widget.palette().color(QPalette::Base), lightPalette().color(QPalette::Base));
        applyTheme(Theme::System);
        QCOMPARE(QApplication::palette().color(QPalette::Window),
            QApplication::style()->standardPalette().color(QPalette::Window));
    }

    void everyStateStaysDistinguishableInBothThemes_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void everyStateStaysDistinguishableInBothThemes()
    {
        QFETCH(bool, dark);
        const QColor canvas = StateStyle::canvasColors(dark).background;
        const QColor base = (dark ? darkPalette() : lightPalette()).color(QPalette::Base);
        for (int s = 0; s < StateStyle::kStateCount; ++s) {
            const EngineState a = EngineState(s);
            const QString name = engineStateLabel(a);
            // Topology cells: apart from the canvas, and their ink (glyph, labels) reads on them.
            QVERIFY2(labDistance(StateStyle::fill(a, dark), canvas) >= 12, qPrintable(name));
            QVERIFY2(contrast(StateStyle::ink(StateStyle::fill(a, dark)), StateStyle::fill(a, dark)) >= 3.0,
                qPrintable(name));
            // Tables and the detail: the state's colour as a mark on the base (3:1, WCAG for graphics).
            QVERIFY2(contrast(stateMark(a, dark), base) >= 3.0,
                qPrintable(QStringLiteral("%1: %2 on %3").arg(name, stateMark(a, dark).name(), base.name())));
            for (int t = s + 1; t < StateStyle::kStateCount; ++t) {
                const EngineState b = EngineState(t);
                const QString pair = name + QStringLiteral(" / ") + engineStateLabel(b);
                QVERIFY2(labDistance(StateStyle::fill(a, dark), StateStyle::fill(b, dark)) >= 15, qPrintable(pair));
                QVERIFY2(labDistance(stateMark(a, dark), stateMark(b, dark)) >= 15, qPrintable(pair));
            }
        }
    }

    void everyToneReadsAndStaysApartInBothThemes_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    // The tones of everything that is not an engine state (poll outcomes, verdicts, scaling steps, log
    // lines, bars): each reads on the base (3:1; Absent, "nothing yet", may be fainter), no two alike, a
    // bar's text reads on its background (4.5:1), and the pool tags carry white ink (4.5:1).
    void everyToneReadsAndStaysApartInBothThemes()
    {
        QFETCH(bool, dark);
        const QColor base = (dark ? darkPalette() : lightPalette()).color(QPalette::Base);
        const QList<Tone> tones { Tone::Good, Tone::Info, Tone::Caution, Tone::Bad, Tone::Muted, Tone::Absent };
        for (qsizetype i = 0; i < tones.size(); ++i) {
            const QColor ink = toneInk(tones.at(i), dark);
            QVERIFY2(contrast(ink, base) >= (tones.at(i) == Tone::Absent ? 2.0 : 3.0),
                qPrintable(QStringLiteral("tone %1: %2 on %3").arg(i).arg(ink.name(), base.name())));
            for (qsizetype j = i + 1; j < tones.size(); ++j)
                QVERIFY2(labDistance(ink, toneInk(tones.at(j), dark)) >= 15,
                    qPrintable(QStringLiteral("tones %1 / %2").arg(i).arg(j)));
            const BarColors bar = toneBar(tones.at(i), dark);
            QVERIFY2(contrast(bar.text, bar.background) >= 4.5, qPrintable(QStringLiteral("bar %1").arg(i)));
        }
        for (const Role role : { Role::Prefill, Role::Decode })
            QVERIFY(contrast(Qt::white, poolColor(role, false)) >= 4.5);
        QVERIFY(labDistance(poolColor(Role::Prefill, dark), poolColor(Role::Decode, dark)) >= 15);
    }

    void chartsReadInBothThemes_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void chartsReadInBothThemes()
    {
        QFETCH(bool, dark);
        const ChartColors c = ChartColors::fromPalette(dark ? darkPalette() : lightPalette());
        QCOMPARE(c.dark, dark);
        QCOMPARE(c.background, (dark ? darkPalette() : lightPalette()).color(QPalette::Base));
        // Titles and tick labels as body text, "no data" as secondary text, the grid there but quiet.
        QVERIFY2(contrast(c.text, c.background) >= 7.0, qPrintable(c.text.name()));
        QVERIFY2(contrast(c.placeholder, c.background) >= 3.0, qPrintable(c.placeholder.name()));
        QVERIFY2(labDistance(c.grid, c.background) >= 5 && contrast(c.grid, c.background) < 1.6, qPrintable(c.grid.name()));
        const QList<QColor> lines{seriescolor::first(), seriescolor::second(), seriescolor::alarm()};
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QColor shown = c.lineOn(lines.at(i));
            QVERIFY2(contrast(shown, c.background) >= (dark ? 4.5 : 3.0), qPrintable(shown.name()));
            QCOMPARE(contrastRatio(shown, c.background), contrast(shown, c.background));
            for (qsizetype j = i + 1; j < lines.size(); ++j)
                QVERIFY2(labDistance(shown, c.lineOn(lines.at(j))) >= 20,
                    qPrintable(shown.name() + QLatin1Char('/') + c.lineOn(lines.at(j)).name()));
        }
    }

    void everyStateHasItsOwnPaintedGlyph()
    {
        QFont odd(QStringLiteral("NoSuchFontFamily"));
        odd.setPixelSize(3);
        for (int s = 0; s < StateStyle::kStateCount; ++s) {
            const EngineState a = EngineState(s);
            const QString name = engineStateLabel(a);
            QVERIFY2(!stateGlyphPath(a, QRectF(0, 0, 16, 16)).isEmpty(), qPrintable(name));
            // Painted shapes, not a font's character: the painter's font changes nothing.
            QCOMPARE(glyphImage(a, 16, odd), glyphImage(a, 16));
            // Legible where it is smallest (a topology cell's 8 px, a table row's 10 px): a shape with some
            // ink, and not a filled box.
            const int ink = inked(glyphImage(a, 8));
            QVERIFY2(ink >= 10 && ink <= 56, qPrintable(QStringLiteral("%1: %2 px inked at 8 px").arg(name).arg(ink)));
            for (int t = s + 1; t < StateStyle::kStateCount; ++t) {
                const EngineState b = EngineState(t);
                const QString pair = name + QStringLiteral(" / ") + engineStateLabel(b);
                QVERIFY2(stateGlyphPath(a, QRectF(0, 0, 16, 16)) != stateGlyphPath(b, QRectF(0, 0, 16, 16)), qPrintable(pair));
                for (const int size : { 10, 32 })
                    QVERIFY2(glyphImage(a, size) != glyphImage(b, size), qPrintable(pair));
            }
        }
        // Only the normal state keeps its cell plain.
        for (int s = 0; s < StateStyle::kStateCount; ++s)
            QCOMPARE(stateAppearance(EngineState(s)).glyphOnCell, EngineState(s) != EngineState::Serving);
    }

    void theOperatorsIntentReadsCalmAFailureDoesNot()
    {
        // Stopped (on purpose, or never started) is neutral grey and no problem; a crash is red and one.
        for (const bool dark : { false, true }) {
            QVERIFY(stateFill(EngineState::Stopped, dark).hsvSaturationF() < 0.15);
            QVERIFY(stateMark(EngineState::Stopped, dark).hsvSaturationF() < 0.15);
            const int hue = stateFill(EngineState::Unreachable, dark).hsvHue();
            QVERIFY2(hue >= 340 || hue <= 10, qPrintable(QString::number(hue)));
        }
        QVERIFY(!StateStyle::isProblem(EngineState::Stopped));
        QVERIFY(!StateStyle::isProblem(EngineState::Draining));
        for (const EngineState s : { EngineState::Stalled, EngineState::Unhealthy, EngineState::Unreachable, EngineState::GroupBroken })
            QVERIFY(StateStyle::isProblem(s));
    }

    void everySeverityHasItsOwnPaintedGlyph()
    {
        const QList<ProblemSeverity> all { ProblemSeverity::Critical, ProblemSeverity::Error, ProblemSeverity::Warning };
        for (qsizetype i = 0; i < all.size(); ++i) {
            QVERIFY(inked(severityImage(all.at(i), 12)) >= 15);
            // White ink on the badge, on either theme.
            QVERIFY(contrast(Qt::white, severityBadge(all.at(i))) >= 4.5);
            for (qsizetype j = i + 1; j < all.size(); ++j)
                QVERIFY(severityImage(all.at(i), 12) != severityImage(all.at(j), 12));
        }
    }

    void theDetailDockHasRoomAt1400x900()
    {
        // At the default 1400x900 every page of the centre leaves the engine detail dock a readable
        // width, and the operator can widen it further by dragging (the centre can give way).
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("dock.ini")));
        test::WindowFixture f(&settings);
        MainWindow &window = f.window;
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.detailDock()->show();
        // What each page of the centre needs, to name the one that squeezes the dock.
        QString needs;
        if (auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mainTabs")))
            for (int i = 0; i < tabs->count(); ++i)
                needs += QStringLiteral("%1: %2 px; ").arg(tabs->tabText(i)).arg(tabs->widget(i)->minimumSizeHint().width());
        for (QWidget *w : window.topologyPanel()->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
            needs += QStringLiteral("%1 %2: %3; ").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName()).arg(w->minimumSizeHint().width());
        QTRY_VERIFY2(window.detailDock()->width() >= 400,
            qPrintable(QStringLiteral("dock %1 px; %2").arg(window.detailDock()->width()).arg(needs)));
        const int centre = window.centralWidget()->minimumSizeHint().width();
        QVERIFY2(centre <= 1400 - 560, qPrintable(QStringLiteral("the centre needs %1 px").arg(centre)));
        QDir().mkpath(QStringLiteral(PD_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(PD_BINARY_DIR "/screenshots/detail-dock-1400x900.png")));
        // Problems with nothing to say takes one line, not a fifth of the height.
        QTRY_VERIFY2(window.problemsDock()->height() <= 90, qPrintable(QString::number(window.problemsDock()->height())));
    }

    void theTopologyPaintsItsCanvasAfterTheTheme()
    {
        ConsoleSettings settings(m_dir.filePath(QStringLiteral("looks.ini")));
        test::WindowFixture f(&settings);
        MainWindow &window = f.window;
        QVERIFY(window.openProfile(QStringLiteral(PD_SOURCE_DIR "/resources/profiles/deepseek-r1-8node.json")));
        window.show();
        window.showTopology();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TopologyView *view = window.topologyPanel()->view();
        // Every state on the canvas: a few engines of each, the rest serving.
        QVector<EngineState> states(f.store.engines().size(), EngineState::Serving);
        for (int e = 0; e < states.size(); e += 3)
            states[e] = EngineState((e / 3) % StateStyle::kStateCount);
        view->setStates(states);
        QDir().mkpath(QStringLiteral(PD_BINARY_DIR "/screenshots"));
        for (const bool dark : { false, true }) {
            applyTheme(dark ? Theme::Dark : Theme::Light);
            QCoreApplication::processEvents();
            const QImage shot = view->grab().toImage();
            // The canvas follows the theme: mostly dark in dark, mostly light in light.
            double lightness = 0;
            int samples = 0;
            for (int y = 0; y < shot.height(); y += 7)
                for (int x = 0; x < shot.width(); x += 7, ++samples)
                    lightness += QColor(shot.pixel(x, y)).lightnessF();
            QVERIFY(samples > 100);
            QVERIFY2(dark ? lightness / samples < 0.4 : lightness / samples > 0.6,
                qPrintable(QString::number(lightness / samples)));
            QVERIFY(window.grab().save(QStringLiteral(PD_BINARY_DIR "/screenshots/topology-%1.png")
                                           .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"))));
        }
        applyTheme(Theme::System);
    }
};

QTEST_MAIN(TestLooks)
#include "tst_looks.moc"
