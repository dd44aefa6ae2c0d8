// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

#include <memory>
#include <vector>

// The fixed part of one engine's /metrics text: every HELP/TYPE line and series name with its labels,
// and the offsets at which the values go. Engines whose fixed text is the same (flavour, dp rank, model,
// cache configuration) share one copy, so a thread rendering for many engines reads a few tens of KB that
// stay in the cache instead of ~40 KB of its own for each engine.
// Thread contract: immutable once made; shared() may be called from any thread.
namespace pd::sim {

struct ExpositionLayout {
    QByteArray text;
    std::vector<qsizetype> valueAt; // ascending offsets into text

    // The layout with this text and these offsets: one already held by another engine, or a new one.
    static std::shared_ptr<const ExpositionLayout> shared(QByteArray text, std::vector<qsizetype> valueAt);
};

} // namespace pd::sim
