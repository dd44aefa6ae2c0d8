// SPDX-License-Identifier: MIT
#pragma once

#include "engineoptions.h"

#include <QByteArray>

#include <vector>

// Renders one engine's /metrics text (format 0.0.4) the way vLLM's single-process API server does:
// family order, HELP texts, sorted labels, `_created` families, prometheus_client number format.
// Built once per engine: every fixed byte (HELP/TYPE lines, series names with their label sets) is
// precomputed into one buffer, so a render is a walk that appends numbers read by address.
namespace pd::sim {

struct EngineStats;
class Histogram;

class MetricsExposition final {
public:
    MetricsExposition(const EngineOptions &options, const EngineStats &stats);

    QByteArray render() const;
    void renderInto(QByteArray &out) const;

    static QByteArray contentType();

private:
    struct Segment {
        qsizetype textEnd;   // static text m_text[previous textEnd, textEnd) precedes the value
        const double *value; // nullptr: text only
    };
    void text(const QByteArray &t);
    void value(const double *v);
    QByteArray labels(std::initializer_list<std::pair<const char *, QByteArray>> extra) const;

    void buildDefaultCollectors();
    void buildVllm(bool main);
    void buildCacheConfigInfo(bool main);
    void counter(const char *name, const char *help,
                 const std::vector<std::pair<QByteArray, const double *>> &series);
    void gauge(const char *name, const char *help,
               const std::vector<std::pair<QByteArray, const double *>> &series);
    void histogram(const char *name, const char *help, const Histogram &h);
    void renderHttp(QByteArray &out) const;

    const EngineStats &m_stats;
    QByteArray m_engine;     // escaped label values
    QByteArray m_model;
    QByteArray m_text;
    std::vector<Segment> m_segments;
    qsizetype m_expectedSize = 0;
    const EngineOptions m_options;
};

// What a label-cardinality runaway adds to an exposition (FaultKind::BigMetrics): ~6 MiB of valid samples.
QByteArray cardinalityRunaway(int dpRank);

} // namespace pd::sim
