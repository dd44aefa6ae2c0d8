// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

// The soak's verdict (bench_soak), from what a run left in its folder (soakrun.h): samples.csv and
// events.csv from the console's probe, faults.csv from the driver. Writes soak.csv (one row per
// 10 s sample: minutes, RSS and series store MiB, stall max, polls answered and failed, engines serving)
// and soak.png (those against time, the faults marked), and prints one line per criterion:
//   RSS growth after the first 10 minutes (a sixth of a shorter run), net of the series store's own
//   growth, ≤ 5 % of the RSS then; no GUI stall over 50 ms; every fault seen and cleared within 3 polls
//   of the faulted engine (the proxy for a restart; a crashed engine's start-up not counted); 0 polls
//   failed on engines (or at times) no fault explains.
namespace soak {

struct ReportOptions {
    QString dir;
    int pollIntervalMs = 1000;
    int startupSeconds = 2;
};

// 0 when every criterion holds, 1 when one does not, 2 when the files cannot be read.
int report(const ReportOptions &options);

} // namespace soak
