// SPDX-License-Identifier: MIT
#include "soakreport.h"

#include "soakplot.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QSet>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace soak {

namespace {

QList<QByteArrayList> readCsv(const QString &path, int fields, bool *ok)
{
    QFile f(path);
    *ok = f.open(QIODevice::ReadOnly);
    QList<QByteArrayList> rows;
    if (!*ok)
        return rows;
    f.readLine(); // header
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (line.isEmpty())
            continue;
        QByteArrayList row;
        qsizetype from = 0;
        for (int i = 0; i < fields - 1; ++i) { // the last field keeps its commas (a quoted error text)
            const qsizetype comma = line.indexOf(',', from);
            row.append(line.mid(from, comma < 0 ? -1 : comma - from));
            if (comma < 0)
                break;
            from = comma + 1;
        }
        if (row.size() == fields - 1)
            row.append(line.mid(from));
        if (row.size() == fields)
            rows.append(row);
    }
    return rows;
}

struct Fault {
    QString kind;
    QString target; // empty: the proxy
    qint64 injectMs = 0;
    qint64 clearMs = 0;
    bool observable = true; // false: a stall on an engine with nothing running (the driver wrote -1)
    qint64 seenMs = -1; // latency, -1 never
    qint64 clearedMs = -1;
    int seenPolls = 0; // polls of the faulted engine (or the proxy) until the console showed it
    int clearedPolls = 0; // and until it showed it Serving (reachable) again
};

bool isFailureState(const QByteArray &state)
{
    return state == "stalled" || state == "unhealthy" || state == "unreachable" || state == "group-broken"
        || state == "stopped";
}

struct Events {
    struct State {
        qint64 atMs;
        QString engine;
        QByteArray state;
    };
    QList<State> states;
    QList<QPair<qint64, bool>> proxy;
    QList<QPair<qint64, QString>> pollFailures;
    qint64 firstPaintMs = -1; // from the probe's installation; stalls count from then on
};

Events readEvents(const QList<QByteArrayList> &rows)
{
    Events e;
    for (const QByteArrayList &r : rows) {
        const qint64 at = r.at(0).toLongLong();
        if (r.at(1) == "state")
            e.states.append({ at, QString::fromUtf8(r.at(2)), r.at(3) });
        else if (r.at(1) == "proxy")
            e.proxy.append({ at, r.at(2) == "reachable" });
        else if (r.at(1) == "poll-failed")
            e.pollFailures.append({ at, QString::fromUtf8(r.at(2)) });
        else if (r.at(1) == "startup" && r.at(2) == "first-paint")
            e.firstPaintMs = r.at(3).toLongLong();
    }
    return e;
}

// The first event at or after `fromMs` that the predicate accepts: its latency, or -1.
template<typename List, typename Pred> qint64 firstAfter(const List &list, qint64 fromMs, Pred accept)
{
    for (const auto &item : list)
        if (item.first >= fromMs && accept(item))
            return item.first - fromMs;
    return -1;
}

qint64 firstStateAfter(const QList<Events::State> &states, const QString &engine, qint64 fromMs, bool failure)
{
    for (const Events::State &s : states)
        if (s.atMs >= fromMs && s.engine == engine && (failure ? isFailureState(s.state) : s.state == "serving"))
            return s.atMs - fromMs;
    return -1;
}

QString seconds(qint64 ms)
{
    return ms < 0 ? QStringLiteral("never") : QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
}

// How soon the console showed one fault and its end. Counted in the polls the console made of the faulted
// engine (its failed polls are in the events; a healthy engine is polled every interval, a failing one
// with a doubling back-off): seen by the 3rd poll after the injection, Serving again by the 3rd after the
// clearing. The proxy is polled every interval; a crashed engine's start-up (refused polls) is not counted.
void judge(Fault &f, const Events &events, const ReportOptions &options)
{
    // A batch's state changes are written just before its failed polls: up to toMs + 100 ms is that batch.
    const auto failedPolls = [&](const QString &engine, qint64 fromMs, qint64 toMs) {
        return int(std::count_if(events.pollFailures.begin(), events.pollFailures.end(),
            [&](const auto &p) { return p.second == engine && p.first >= fromMs && p.first <= toMs + 100; }));
    };
    const auto intervals = [&](qint64 ms) { return int((ms + options.pollIntervalMs / 2) / options.pollIntervalMs); };
    if (f.target.isEmpty()) {
        f.seenMs = firstAfter(events.proxy, f.injectMs, [](const auto &p) { return !p.second; });
        f.clearedMs = firstAfter(events.proxy, f.clearMs, [](const auto &p) { return p.second; });
        f.seenPolls = intervals(f.seenMs);
        f.clearedPolls = intervals(f.clearedMs);
    } else {
        f.seenMs = firstStateAfter(events.states, f.target, f.injectMs, true);
        f.clearedMs = firstStateAfter(events.states, f.target, f.clearMs, false);
        // A stall is counted from the first poll whose whole interval is frozen: the poll straddling the
        // injection still sees its counters move.
        f.seenPolls = f.kind == QLatin1String("stall")
            ? std::max(0, intervals(f.seenMs) - 1)
            : std::max(1, failedPolls(f.target, f.injectMs, f.injectMs + f.seenMs));
        const qint64 counted = f.clearMs + (f.kind == QLatin1String("crash") ? options.startupSeconds * 1000LL : 0);
        f.clearedPolls = failedPolls(f.target, counted, f.clearMs + f.clearedMs) + 1;
    }
}

// soak.csv (a row per probe sample, minutes from the first fault) and soak.png beside the run's files.
void writeCsvAndPlot(
    const QDir &dir, const QList<QByteArrayList> &sampleRows, const QList<Fault> &faults, qint64 startMs)
{
    QList<FaultMark> marks;
    for (const Fault &f : faults)
        marks.append({ double(f.injectMs - startMs) / 60000.0, f.kind });
    QList<SamplePoint> points;
    QFile csv(dir.filePath(QStringLiteral("soak.csv")));
    if (csv.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        QTextStream s(&csv);
        s << "minute,rss_mib,series_mib,stall_max_ms,polls_ok,polls_failed,serving\n";
        for (const QByteArrayList &r : sampleRows) {
            const SamplePoint p { double(r.at(0).toLongLong() - startMs) / 60000.0, r.at(1).toDouble() / 1024.0,
                r.at(2).toDouble() / 1048576.0, r.at(3).toDouble(), r.at(4).toDouble(), r.at(5).toDouble(),
                r.at(6).toDouble() };
            points.append(p);
            s << QString::number(p.minute, 'f', 3) << ',' << QString::number(p.rssMiB, 'f', 1) << ','
              << QString::number(p.seriesMiB, 'f', 1) << ',' << p.stallMs << ',' << p.pollsOk << ',' << p.pollsFailed
              << ',' << p.serving << '\n';
        }
    }
    const QString png = dir.filePath(QStringLiteral("soak.png"));
    if (plotSoak(points, marks, png))
        std::printf("  wrote %s and %s\n", qPrintable(csv.fileName()), qPrintable(png));
}

} // namespace

int report(const ReportOptions &options)
{
    const QDir dir(options.dir);
    bool okSamples = false, okEvents = false, okFaults = false;
    const QList<QByteArrayList> sampleRows = readCsv(dir.filePath(QStringLiteral("samples.csv")), 7, &okSamples);
    const Events events = readEvents(readCsv(dir.filePath(QStringLiteral("events.csv")), 4, &okEvents));
    const QList<QByteArrayList> faultRows = readCsv(dir.filePath(QStringLiteral("faults.csv")), 5, &okFaults);
    if (!okSamples || !okEvents || !okFaults || sampleRows.isEmpty()) {
        std::fprintf(stderr, "soak: %s lacks samples.csv, events.csv or faults.csv (or they are empty)\n",
            qPrintable(options.dir));
        return 2;
    }
    qint64 startMs = 0, endMs = 0;
    QList<Fault> faults;
    for (const QByteArrayList &r : faultRows) {
        const qint64 at = r.at(0).toLongLong();
        if (r.at(1) == "start")
            startMs = at;
        else if (r.at(1) == "end")
            endMs = at;
        else if (r.at(1) == "inject")
            faults.append({ QString::fromUtf8(r.at(2)), QString::fromUtf8(r.at(3)), at, 0, r.at(4) != "-1" });
        else if (r.at(1) == "clear" && !faults.isEmpty())
            faults.last().clearMs = at;
    }
    if (endMs == 0)
        endMs = sampleRows.last().at(0).toLongLong();

    int faultsOk = 0, unobservable = 0;
    QMap<QString, QList<Fault>> byKind;
    for (Fault &f : faults) {
        if (!f.observable) {
            ++unobservable;
            continue;
        }
        judge(f, events, options);
        const bool ok = f.seenMs >= 0 && f.clearedMs >= 0 && f.seenPolls <= 3 && f.clearedPolls <= 3;
        faultsOk += ok ? 1 : 0;
        byKind[f.kind].append(f);
        if (!ok)
            std::printf("  fault %s on %s at +%.0f s: seen %s (%d polls), cleared %s (%d polls)\n", qPrintable(f.kind),
                qPrintable(f.target.isEmpty() ? QStringLiteral("proxy") : f.target),
                double(f.injectMs - startMs) / 1000.0, qPrintable(seconds(f.seenMs)), f.seenPolls,
                qPrintable(seconds(f.clearedMs)), f.clearedPolls);
    }

    // Polls failed that no fault explains: on another engine than the one faulted, or outside its window.
    int lost = 0;
    for (const auto &[at, engine] : events.pollFailures) {
        if (at < startMs || at > endMs)
            continue;
        const bool explained = std::any_of(faults.begin(), faults.end(), [&](const Fault &f) {
            return f.target == engine && at >= f.injectMs && (f.clearedMs < 0 || at <= f.clearMs + f.clearedMs);
        });
        if (!explained && ++lost <= 5)
            std::printf(
                "  poll failed on %s at +%.0f s, no fault there\n", qPrintable(engine), double(at - startMs) / 1000.0);
    }

    // Memory, stalls, polls.
    const qint64 refAtMs = startMs + std::min<qint64>(600000, (endMs - startMs) / 6);
    const QByteArrayList *ref = nullptr;
    double stallMax = 0, stallMaxSoak = 0;
    qint64 polls = 0, pollsFailed = 0;
    for (const QByteArrayList &r : sampleRows) {
        const qint64 at = r.at(0).toLongLong();
        stallMax = std::max(stallMax, r.at(3).toDouble());
        if (at >= startMs && at <= endMs + 11000) {
            stallMaxSoak = std::max(stallMaxSoak, r.at(3).toDouble());
            polls += r.at(4).toLongLong() + r.at(5).toLongLong();
            pollsFailed += r.at(5).toLongLong();
        }
        if (!ref && at >= refAtMs)
            ref = &r;
    }
    const QByteArrayList &last = sampleRows.last();
    const double rssRef = ref ? ref->at(1).toDouble() : 0, rssEnd = last.at(1).toDouble();
    const double seriesGrowthKiB = ref ? (last.at(2).toDouble() - ref->at(2).toDouble()) / 1024.0 : 0;
    const double netGrowthPct = rssRef > 0 ? 100.0 * (rssEnd - rssRef - seriesGrowthKiB) / rssRef : 0;

    const double minutes = double(endMs - startMs) / 60000.0;
    const bool rssOk = ref && netGrowthPct <= 5.0;
    const bool stallOk = stallMax <= 50.0;
    const bool faultsAllOk = faultsOk == faults.size() - unobservable && faultsOk > 0;
    const bool lostOk = lost == 0;
    std::printf("soak over %.1f min, %d faults (%s)\n", minutes, int(faults.size()), qPrintable(options.dir));
    std::printf("  RSS %.0f MiB at +%.0f min, %.0f MiB at the end; series store grew %.1f MiB; net growth %+.2f %%  "
                "(≤ 5 %%)  %s\n",
        rssRef / 1024.0, double(refAtMs - startMs) / 60000.0, rssEnd / 1024.0, seriesGrowthKiB / 1024.0, netGrowthPct,
        rssOk ? "ok" : "FAIL");
    std::printf("  GUI stall max %.1f ms over the whole run (%.1f ms during the faults)  (≤ 50 ms)  %s\n", stallMax,
        stallMaxSoak, stallOk ? "ok" : "FAIL");
    if (events.firstPaintMs >= 0)
        std::printf("    (counted from the console's first frame, %lld ms after its probe started: start-up is "
                    "bench_startup's)\n",
            static_cast<long long>(events.firstPaintMs));
    std::printf("  faults seen and cleared within 3 polls: %d of %d  %s\n", faultsOk, int(faults.size()) - unobservable,
        faultsAllOk ? "ok" : "FAIL");
    if (unobservable > 0)
        std::printf("    (and %d stalls on engines with nothing running: not observable, not counted)\n", unobservable);
    for (auto k = byKind.cbegin(); k != byKind.cend(); ++k) {
        qint64 seenMs = 0, clearedMs = 0;
        int seenPolls = 0, clearedPolls = 0;
        for (const Fault &f : k.value()) {
            seenMs = f.seenMs < 0 || seenMs < 0 ? -1 : std::max(seenMs, f.seenMs);
            clearedMs = f.clearedMs < 0 || clearedMs < 0 ? -1 : std::max(clearedMs, f.clearedMs);
            seenPolls = std::max(seenPolls, f.seenPolls);
            clearedPolls = std::max(clearedPolls, f.clearedPolls);
        }
        std::printf("    %-13s ×%-3d worst: seen after %d polls (%s), cleared after %d polls (%s)\n",
            qPrintable(k.key()), int(k.value().size()), seenPolls, qPrintable(seconds(seenMs)), clearedPolls,
            qPrintable(seconds(clearedMs)));
    }
    std::printf("  polls: %lld answered or failed during the soak, %lld failed, %d no fault explains  (0)  %s\n", polls,
        pollsFailed, lost, lostOk ? "ok" : "FAIL");

    writeCsvAndPlot(dir, sampleRows, faults, startMs);
    return rssOk && stallOk && faultsAllOk && lostOk ? 0 : 1;
}

} // namespace soak
