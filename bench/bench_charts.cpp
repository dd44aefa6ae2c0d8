// SPDX-License-Identifier: MIT
// bench_charts [--engines N] [--frames F] [--range 5m|1h|24h] [--width W] [--height H] [--png FILE]
// Frame time of the Pools view (16 charts: prefill and decode side by side) holding 1 h of history for
// 64 engines (default), rendered offscreen: each frame ingests one more round into the series store
// (not timed), then times the view's update (decimate in core + one replace() per line) and its paint
// (the whole view rendered into an image, as the screen would). Prints median and p99 of each over F
// frames. Last line:
//   charts: frame <ms> ms (update <ms> + paint <ms>), p99 <ms> ms, <N> engines, <range>
#include "metrics/seriesstore.h"
#include "poolsview.h"
#include "synthmetrics.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace pd;
using namespace pd::bench;

namespace {

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    int engines = 64, frames = 60, width = 1600, height = 1000;
    qint64 rangeMs = 3600 * 1000;
    QString rangeName = QStringLiteral("1 h");
    const char *png = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--engines") && i + 1 < argc)
            engines = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--width") && i + 1 < argc)
            width = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--height") && i + 1 < argc)
            height = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--png") && i + 1 < argc)
            png = argv[++i];
        else if (!std::strcmp(argv[i], "--range") && i + 1 < argc) {
            const QByteArray r = argv[++i];
            rangeMs = r == "5m" ? 300'000 : r == "24h" ? 86'400'000 : 3'600'000;
            rangeName = r == "5m" ? QStringLiteral("5 min") : r == "24h" ? QStringLiteral("24 h") : QStringLiteral("1 h");
        } else {
            std::fprintf(stderr, "usage: bench_charts [--engines N] [--frames F] [--range 5m|1h|24h] [--width W] [--height H] [--png FILE]\n");
            return 2;
        }
    }

    std::vector<Role> roles(static_cast<std::size_t>(engines), Role::Decode);
    for (int e = 0; e < engines / 8; ++e) // one prefill engine per eight, as in the 8-node guide
        roles[std::size_t(e)] = Role::Prefill;
    SeriesStore store(roles);
    Synth synth;
    std::vector<EngineMetrics> state(static_cast<std::size_t>(engines));
    for (EngineMetrics &m : state)
        synth.init(m);
    PollRound round;
    round.engines.resize(std::size_t(engines));
    std::int64_t t = 1'700'000'000'000;
    auto ingestRound = [&](double seconds) {
        for (int e = 0; e < engines; ++e) {
            EngineMetrics &m = state[std::size_t(e)];
            synth.step(m, roles[std::size_t(e)] == Role::Prefill, seconds);
            EnginePoll &p = round.engines[std::size_t(e)];
            p.error.reset();
            p.metrics = m;
            p.scrapedAtMs = t;
        }
        round.timeMs = t;
        store.ingest(round);
        t += std::int64_t(seconds * 1000);
    };
    // History: the range (at most 24 h: 23 h at 10 s, the last hour at 1 s).
    const qint64 coarseRounds = rangeMs > 3'600'000 ? (rangeMs - 3'600'000) / 10'000 : 0;
    for (qint64 i = 0; i < coarseRounds; ++i)
        ingestRound(10.0);
    for (qint64 i = 0; i < std::min<qint64>(rangeMs, 3'600'000) / 1000; ++i)
        ingestRound(1.0);

    PoolsView view;
    view.resize(width, height);
    view.setRangeMs(rangeMs);
    view.show();
    view.setSeriesStore(&store);
    QImage image(view.size() * view.devicePixelRatio(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(view.devicePixelRatio());
    // Warm-up: layouts settle, glyph caches fill.
    for (int i = 0; i < 3; ++i) {
        QApplication::processEvents();
        view.refresh();
        QPainter painter(&image);
        view.render(&painter);
    }

    std::vector<double> update, paint, frame;
    for (int f = 0; f < frames; ++f) {
        ingestRound(1.0); // emits roundIngested: the view refreshes itself only while visible; time it here
        QApplication::processEvents();
        const auto a = std::chrono::steady_clock::now();
        view.refresh();
        const double u = msSince(a);
        const auto b = std::chrono::steady_clock::now();
        {
            QPainter painter(&image);
            view.render(&painter);
        }
        const double p = msSince(b);
        update.push_back(u);
        paint.push_back(p);
        frame.push_back(u + p);
    }
    if (png)
        image.save(QString::fromLocal8Bit(png));

    std::printf("pools view %dx%d, %d engines, %s of history, %d frames\n", width, height, engines,
                qPrintable(rangeName), frames);
    std::printf("update (decimate + replace): median %.2f ms, p99 %.2f ms\n", percentile(update, 0.5), percentile(update, 0.99));
    std::printf("paint (render the view):     median %.2f ms, p99 %.2f ms\n", percentile(paint, 0.5), percentile(paint, 0.99));
    std::printf("charts: frame %.2f ms (update %.2f + paint %.2f), p99 %.2f ms, %d engines, %s\n",
                percentile(frame, 0.5), percentile(update, 0.5), percentile(paint, 0.5), percentile(frame, 0.99),
                engines, qPrintable(rangeName));
    return 0;
}
