// SPDX-License-Identifier: MIT
#include "promroundassembler.h"

#include "metricsextractor.h"
#include "promparser.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace pd {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// Host part and whether a port follows: "h:9000" -> "h"; "[::1]:9000" -> "[::1]"; "h" -> "h".
std::string_view hostOf(std::string_view value, bool *hasPort)
{
    const std::size_t colon = value.rfind(':');
    const bool bracketed = !value.empty() && value.front() == '[';
    if (colon == std::string_view::npos || (bracketed && value.find(']') > colon)) {
        *hasPort = false;
        return value;
    }
    if (!bracketed && value.find(':') != colon) { // a bare IPv6 address, no port
        *hasPort = false;
        return value;
    }
    *hasPort = true;
    return value.substr(0, colon);
}

// A label block as an exposition writes it (`a="b",c="d"`), the input MetricsAccumulator reads.
std::string labelBlock(const PromSeries &s, std::uint32_t *count)
{
    std::string out;
    std::uint32_t n = 0;
    for (const auto &[name, value] : s.labels) {
        if (name == "__name__")
            continue;
        if (n++)
            out += ',';
        out += name;
        out += "=\"";
        for (const char c : value) {
            if (c == '\\' || c == '"')
                out += '\\';
            if (c == '\n') {
                out += "\\n";
                continue;
            }
            out += c;
        }
        out += '"';
    }
    *count = n;
    return out;
}

struct SeriesRef {
    const PromSeries *series;
    std::string_view name;
    std::string block;
    std::uint32_t labelCount = 0;
    std::size_t cursor = 0;
    bool isUp = false;
};

// The context the rest of the Prometheus source uses (promvllmqueries.cpp); a free tr() would be
// filed by lupdate under another context than the one looked up.
struct RoundAssemblerTr {
    Q_DECLARE_TR_FUNCTIONS(pd::PrometheusSource)
};

} // namespace

QString unknownGenerationMessage()
{
    return RoundAssemblerTr::tr("unknown metric generation: Prometheus has samples of the target, but neither "
                  "vllm:gpu_cache_usage_perc (vLLM 0.9.1) nor vllm:kv_cache_usage_perc (current vLLM)");
}

PromEngineMap::PromEngineMap(const std::vector<std::string> &hostPorts)
{
    m_keys.reserve(hostPorts.size());
    for (std::size_t i = 0; i < hostPorts.size(); ++i) {
        const std::string k = lower(hostPorts[i]);
        m_keys.push_back(k);
        m_byKey.emplace(k, int(i));
        bool hasPort = false;
        const std::string host(hostOf(k, &hasPort));
        auto [it, inserted] = m_byHost.emplace(host, int(i));
        if (!inserted)
            it->second = -2;
    }
}

std::string PromEngineMap::key(std::string_view host, int port)
{
    std::string h = lower(host);
    if (h.find(':') != std::string::npos && h.front() != '[')
        h = '[' + h + ']';
    return h + ':' + std::to_string(port);
}

int PromEngineMap::engineOf(std::string_view labelValue) const
{
    const std::string k = lower(labelValue);
    if (const auto it = m_byKey.find(k); it != m_byKey.end())
        return it->second;
    bool hasPort = false;
    const std::string host(hostOf(k, &hasPort));
    if (hasPort)
        return -1;
    const std::string bracketed = host.find(':') != std::string::npos && host.front() != '[' ? '[' + host + ']' : host;
    if (const auto it = m_byHost.find(bracketed); it != m_byHost.end() && it->second >= 0)
        return it->second;
    return -1;
}

PromRoundAssembler::PromRoundAssembler(PromEngineMap map, std::string engineLabel, int slotMs)
    : m_map(std::move(map))
    , m_label(std::move(engineLabel))
    , m_slotMs(std::max(1, slotMs))
    , m_last(std::size_t(m_map.engineCount()), 0)
    , m_downReasons(std::size_t(m_map.engineCount()))
{
}

void PromRoundAssembler::setDownReason(int engine, const QString &reason)
{
    if (engine >= 0 && engine < int(m_downReasons.size()))
        m_downReasons[std::size_t(engine)] = reason;
}

void PromRoundAssembler::reset()
{
    std::fill(m_last.begin(), m_last.end(), 0);
}

PromRoundAssembler::Result PromRoundAssembler::assemble(const PromApiAnswer &answer, std::int64_t horizonMs)
{
    Result r;
    const int engines = m_map.engineCount();
    std::vector<std::vector<SeriesRef>> byEngine(static_cast<std::size_t>(engines));
    for (const PromSeries &s : answer.series) {
        const std::string_view value = s.label(m_label);
        if (value.empty()) {
            ++r.unlabelledSeries;
            continue;
        }
        const int e = m_map.engineOf(value);
        if (e < 0) {
            if (std::find(r.unmapped.begin(), r.unmapped.end(), value) == r.unmapped.end())
                r.unmapped.emplace_back(value);
            continue;
        }
        SeriesRef ref;
        ref.series = &s;
        ref.name = s.label("__name__");
        ref.isUp = ref.name == "up";
        if (!ref.isUp && !MetricsAccumulator::reads(ref.name))
            continue;
        ref.block = labelBlock(s, &ref.labelCount);
        const std::int64_t after = m_last[std::size_t(e)];
        while (ref.cursor < s.points.size() && s.points[ref.cursor].timeMs <= after)
            ++ref.cursor;
        byEngine[std::size_t(e)].push_back(std::move(ref));
    }

    std::vector<PromScrape> scrapes;
    std::vector<std::int64_t> times;
    for (int e = 0; e < engines; ++e) {
        std::vector<SeriesRef> &refs = byEngine[std::size_t(e)];
        times.clear();
        for (const SeriesRef &ref : refs) {
            for (std::size_t i = ref.cursor; i < ref.series->points.size(); ++i) {
                const std::int64_t t = ref.series->points[i].timeMs;
                if (t > horizonMs)
                    break;
                times.push_back(t);
            }
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        for (const std::int64_t t : times) {
            PromScrape scrape;
            scrape.engine = e;
            scrape.timeMs = t;
            scrape.poll.scrapedAtMs = t;
            EngineMetrics m;
            double up = kAbsent;
            std::size_t used = 0;
            {
                MetricsAccumulator acc(m);
                for (SeriesRef &ref : refs) {
                    const std::vector<PromPoint> &pts = ref.series->points;
                    if (ref.cursor >= pts.size() || pts[ref.cursor].timeMs != t)
                        continue;
                    const double v = pts[ref.cursor].value;
                    ++ref.cursor;
                    ++r.samples;
                    if (ref.isUp) {
                        up = v;
                        continue;
                    }
                    acc.add(ref.name, PromLabels(ref.block, ref.labelCount), v);
                }
                acc.finish();
                used = acc.samplesUsed();
            }
            if (up == 0) {
                PollError error;
                const QString &reason = m_downReasons[std::size_t(e)];
                error.kind = reason.isEmpty() ? PollError::Kind::Other : pollErrorKindOf(reason);
                error.message = reason.isEmpty() ? RoundAssemblerTr::tr("Prometheus reports the target down (up == 0)")
                                                 : RoundAssemblerTr::tr("Prometheus reports the target down: %1").arg(reason);
                scrape.poll.error = error;
            } else if (used == 0 || std::isnan(m.kvUsage)) {
                // Every vLLM generation the console knows exposes a KV cache gauge.
                scrape.poll.error = PollError { PollError::Kind::Parse, unknownGenerationMessage() };
            } else {
                scrape.poll.metrics = m;
            }
            scrapes.push_back(std::move(scrape));
        }
        if (!times.empty())
            m_last[std::size_t(e)] = times.back();
    }
    r.scrapes = scrapes.size();

    std::stable_sort(
        scrapes.begin(), scrapes.end(), [](const PromScrape &a, const PromScrape &b) { return a.timeMs < b.timeMs; });
    std::vector<int> latestIndex(std::size_t(engines), -1);
    PollRound round;
    std::vector<char> inRound(std::size_t(engines), 0);
    std::int64_t slot = -1;
    bool open = false;
    const auto flush = [&] {
        if (!open)
            return;
        r.rounds.push_back(std::move(round));
        round = PollRound {};
        std::fill(inRound.begin(), inRound.end(), 0);
        open = false;
    };
    for (std::size_t i = 0; i < scrapes.size(); ++i) {
        const PromScrape &s = scrapes[i];
        const std::int64_t sSlot = s.timeMs >= 0 ? s.timeMs / m_slotMs : -1;
        if (open && (sSlot != slot || inRound[std::size_t(s.engine)]))
            flush();
        if (!open) {
            round.engines.resize(std::size_t(engines));
            slot = sSlot;
            open = true;
        }
        round.engines[std::size_t(s.engine)] = s.poll;
        round.timeMs = std::max(round.timeMs, s.timeMs);
        inRound[std::size_t(s.engine)] = 1;
        latestIndex[std::size_t(s.engine)] = int(i);
    }
    flush();
    for (int e = 0; e < engines; ++e) {
        if (latestIndex[std::size_t(e)] >= 0)
            r.latest.push_back(scrapes[std::size_t(latestIndex[std::size_t(e)])]);
    }
    return r;
}

PollError::Kind pollErrorKindOf(const QString &text)
{
    if (text.contains(QLatin1String("connection refused"), Qt::CaseInsensitive))
        return PollError::Kind::Refused;
    if (text.contains(QLatin1String("deadline exceeded"), Qt::CaseInsensitive)
        || text.contains(QLatin1String("timeout"), Qt::CaseInsensitive))
        return PollError::Kind::Timeout;
    if (text.contains(QLatin1String("HTTP status"), Qt::CaseInsensitive))
        return PollError::Kind::Http;
    if (text.contains(QLatin1String("parse"), Qt::CaseInsensitive)
        || text.contains(QLatin1String("expected"), Qt::CaseInsensitive))
        return PollError::Kind::Parse;
    return PollError::Kind::Other;
}

} // namespace pd
