// SPDX-License-Identifier: MIT
#pragma once

#include "engineoptions.h"
#include "expositionlayout.h"

#include <QByteArray>

#include <memory>
#include <vector>

// Renders one engine's /metrics text (format 0.0.4) the way vLLM's single-process API server does:
// family order, HELP texts, sorted labels, `_created` families, prometheus_client number format.
// Built once per engine: every fixed byte (HELP/TYPE lines, series names with their label sets) is
// precomputed into one text shared with the engines whose text is the same (ExpositionLayout), so a
// render is a walk that copies stretches of it and formats numbers read by address.
namespace pd::sim {

class ByteWriter;
struct EngineStats;
class Histogram;

class MetricsExposition final {
public:
    MetricsExposition(const EngineOptions &options, const EngineStats &stats);

    QByteArray render() const;
    // Appends the text to `out`; a buffer reused from render to render is not reallocated.
    void renderInto(QByteArray &out) const;

    static QByteArray contentType();

private:
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
    void renderHttp(ByteWriter &w) const;

    const EngineStats &m_stats;
    QByteArray m_engine;     // escaped label values
    QByteArray m_model;
    QByteArray m_text; // while building: the fixed text, then moved to m_layout
    std::vector<qsizetype> m_valueAt; // while building: where the values go
    std::shared_ptr<const ExpositionLayout> m_layout;
    std::vector<const double *> m_values; // the value at each of m_layout->valueAt
    qsizetype m_expectedSize = 0;
    const EngineOptions m_options;
};

// What a label-cardinality runaway adds to an exposition (FaultKind::BigMetrics): ~6 MiB of valid samples.
QByteArray cardinalityRunaway(int dpRank);

} // namespace pd::sim
