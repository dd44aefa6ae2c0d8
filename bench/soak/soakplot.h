// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

namespace soak {

struct SamplePoint {
    double minute = 0; // since the soak's first fault slot (negative: start-up and warm-up)
    double rssMiB = 0;
    double seriesMiB = 0;
    double stallMs = 0;
    double pollsOk = 0;
    double pollsFailed = 0;
    double serving = 0;
};

struct FaultMark {
    double minute = 0;
    QString kind;
};

// Three charts stacked, against minutes: the console's RSS and its series store (MiB); the longest GUI
// stall of each 10 s (ms, the 50 ms limit drawn); polls failed per 10 s with the faults marked. Rendered
// offscreen to a PNG; false when it cannot be written.
bool plotSoak(const QList<SamplePoint> &points, const QList<FaultMark> &faults, const QString &pngPath);

} // namespace soak
