// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QList>
#include <QString>

namespace pd {

// A moment on a chart's time axis worth reading the lines against: what an operator did to the cluster.
struct ChartMarker {
    double ms = 0; // ms since the epoch
    QString label; // "scale-out decode 127.0.0.8:9004: succeeded"
    QColor color;
};

} // namespace pd
