// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/seriesid.h"
#include "state/enginestate.h"

#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>

#include <cmath>

// What the topology asks about one engine beyond its state: for the hover tooltip and for colouring
// cells by a metric. TrackedEngineInfo implements it (the tracker's state, the observed figures).
namespace pd {

struct EngineSummary {
    EngineState state = EngineState::Unknown;
    QDateTime since; // when the engine entered that state (invalid: unknown)
    QString evidence; // why it is in that state, one line (may be empty)
    QString lastError; // the latest failure seen, even after recovery
    QList<QPair<QString, QString>> metrics; // label, formatted value: the key figures
};

class EngineInfoProvider {
public:
    virtual ~EngineInfoProvider() = default;
    virtual EngineSummary summary(int engine) const = 0;
    // The engine's latest value of a metric (Running, KvUsage as 0..1, GenerationTokensRate, ...);
    // NaN when not known.
    virtual double metricValue(int engine, Metric metric) const = 0;
};

} // namespace pd
