// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

// One soak run (bench_soak): a pdsim cluster of N engines on 127.0.1.x with client load, the console
// polling it offscreen with the Pools view open and its soak probe on (app/console/soakprobe.h), and a
// fault injected on one engine (or the proxy) every interval and cleared part-way through it, each
// kind in turn. Everything it writes goes under `outDir`: profile.json, faults.csv (wall ms of each
// injection and clearing), the probe's samples.csv and events.csv, pdsim's and the console's stderr.
namespace soak {

struct RunOptions {
    QString console;
    QString outDir;
    int engines = 1024;
    double minutes = 60;
    double loadRps = 40;
    int faultEverySeconds = 60;
    int faultForSeconds = 20;
    int warmupSeconds = 60; // after every engine serves, before the first fault
    int startupSeconds = 2; // simulated weight loading of a (re)started engine
    int slowMs = 3000; // the slow fault's delay: beyond the console's 2 s poll timeout
};

// The fault kinds injected in turn: crash, hang, stall, http500, slow, big-metrics, proxy-restart.
QStringList faultKinds();

// Runs the soak; false with *error when it could not (pdsim or the console did not start). Prints
// progress on stdout.
bool run(const RunOptions &options, QString *error);

} // namespace soak
