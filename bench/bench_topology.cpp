// SPDX-License-Identifier: MIT
// bench_topology [--engines N] [--runs R] [--mode auto|boxes|heatmap] [--size WxH]
// Renders the TopologyView of a synthetic N-engine cluster (default 5,000) offscreen into a QImage:
// a full redraw at fit zoom, and one state update (setState of one engine + the repaint of its dirty
// region, as the widget would get it). Prints wall and GUI-thread CPU medians over R runs; the last line
// (CPU medians) reads
// "topology: redraw <ms> ms, update <ms> ms, <N> engines". Targets: redraw <= 16 ms, update <= 1 ms.
#include "benchgui.h"
#include "topology/syntheticprofile.h"
#include "topologyview/topologyview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTextStream>
#include <QThread>

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

// CPU time of this thread: what a frame costs the GUI thread, apart from waiting for a busy core.
double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[std::min(values.size() - 1, std::size_t(p * double(values.size())))];
}

} // namespace

int main(int argc, char *argv[])
{
    pd::bench::drawOffscreenUnlessAsked();
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption enginesOption(QStringLiteral("engines"), QStringLiteral("Engines (default 5000)."),
        QStringLiteral("N"), QStringLiteral("5000"));
    const QCommandLineOption runsOption(
        QStringLiteral("runs"), QStringLiteral("Repetitions (default 41)."), QStringLiteral("R"), QStringLiteral("41"));
    const QCommandLineOption modeOption(QStringLiteral("mode"), QStringLiteral("auto, boxes or heatmap."),
        QStringLiteral("MODE"), QStringLiteral("auto"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Widget size (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption saveOption(
        QStringLiteral("save"), QStringLiteral("Write the last frame to FILE."), QStringLiteral("FILE"));
    parser.addOptions({ enginesOption, runsOption, modeOption, sizeOption, saveOption });
    parser.process(app);
    const int engines = std::max(1, parser.value(enginesOption).toInt());
    const int runs = std::max(1, parser.value(runsOption).toInt());
    const QStringList size = parser.value(sizeOption).split(QLatin1Char('x'));
    const QSize widgetSize(size.value(0).toInt(), size.value(1).toInt());
    const QString modeName = parser.value(modeOption);
    const pd::TopologyMode mode = modeName == QLatin1String("boxes") ? pd::TopologyMode::Boxes
        : modeName == QLatin1String("heatmap")                       ? pd::TopologyMode::Heatmap
                                                                     : pd::TopologyMode::Auto;

    QTextStream out(stdout);
    QElapsedTimer timer;
    timer.start();
    const pd::Profile profile = pd::syntheticProfile(engines, 16);
    pd::TopologyView view;
    view.setLayoutMode(mode);
    view.resize(widgetSize.isValid() ? widgetSize : QSize(1600, 1000));
    view.setProfile(profile);
    view.fitToView();
    // A fleet as an operator sees it: mostly serving, a few of every other state.
    std::mt19937 random(42);
    QVector<pd::EngineState> states(engines, pd::EngineState::Serving);
    for (int e = 0; e < engines; ++e) {
        if (random() % 20 == 0)
            states[e] = pd::EngineState(random() % pd::kEngineStateCount);
    }
    view.setStates(states);
    const double setupMs = double(timer.nsecsElapsed()) / 1e6;
    out << "setup (profile, layout, states): " << QString::number(setupMs, 'f', 1) << " ms, "
        << (view.layout().mode() == pd::TopologyMode::Heatmap ? "heatmap" : "boxes") << " layout, zoom "
        << QString::number(view.zoom(), 'f', 3) << ", cell " << view.engineViewRect(0).width() << "x"
        << view.engineViewRect(0).height() << " px\n";

    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    // Warm up: glyph pixmaps, fonts.
    view.render(&image);
    view.render(&image);

    std::vector<double> redraw;
    std::vector<double> redrawCpu;
    for (int r = 0; r < runs; ++r) {
        const double cpu = threadCpuMs();
        timer.restart();
        view.render(&image);
        redraw.push_back(double(timer.nsecsElapsed()) / 1e6);
        redrawCpu.push_back(threadCpuMs() - cpu);
    }

    std::vector<double> update;
    std::vector<double> updateCpu;
    for (int r = 0; r < runs * 10; ++r) {
        const int engine = int(random() % unsigned(engines));
        const pd::EngineState next
            = view.state(engine) == pd::EngineState::Stalled ? pd::EngineState::Serving : pd::EngineState::Stalled;
        const double cpu = threadCpuMs();
        timer.restart();
        view.setState(engine, next);
        // Exactly what the widget asked to repaint (cell, pool title, the two legend entries).
        const QRegion dirty = view.lastUpdateRegion();
        view.render(&image, dirty.boundingRect().topLeft(), dirty);
        update.push_back(double(timer.nsecsElapsed()) / 1e6);
        updateCpu.push_back(threadCpuMs() - cpu);
    }
    if (parser.isSet(saveOption)) {
        view.render(&image);
        image.save(parser.value(saveOption));
    }
    // The last line carries the GUI thread's CPU time per frame (median): on a shared machine the wall
    // time also measures how long the thread waited for a core. Both are printed above it.
    const double redrawMs = median(redrawCpu);
    const double updateMs = median(updateCpu);
    const auto f = [](double v, int digits) { return QString::number(v, 'f', digits); };
    out << "redraw wall: median " << f(median(redraw), 2) << " ms, min " << f(percentile(redraw, 0), 2) << " ms, p90 "
        << f(percentile(redraw, 0.9), 2) << " ms over " << runs << " runs (" << widgetSize.width() << "x"
        << widgetSize.height() << ")\n";
    out << "redraw cpu:  median " << f(redrawMs, 2) << " ms, p90 " << f(percentile(redrawCpu, 0.9), 2) << " ms\n";
    out << "update wall: median " << f(median(update), 3) << " ms, min " << f(percentile(update, 0), 3) << " ms, p90 "
        << f(percentile(update, 0.9), 3) << " ms over " << update.size() << " updates\n";
    out << "update cpu:  median " << f(updateMs, 3) << " ms, p90 " << f(percentile(updateCpu, 0.9), 3) << " ms\n";
    double load[3] = {};
    if (getloadavg(load, 3) > 0)
        out << "machine load average " << f(load[0], 2) << " on " << QThread::idealThreadCount() << " cores\n";
    out << "topology: redraw " << QString::number(redrawMs, 'f', 2) << " ms, update "
        << QString::number(updateMs, 'f', 3) << " ms, " << engines << " engines\n";
    return 0;
}
