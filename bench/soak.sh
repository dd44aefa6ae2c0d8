#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/soak.sh [--minutes M] [--engines N] [--load RPS] [--out DIR] ...
# The console's hour-long soak: 1,024 pdsim engines polled at 1 Hz, the Pools view open offscreen, a fault
# injected and cleared every minute (crash, hang, stall, http500, slow, big-metrics, proxy restart in turn),
# client load on. Samples RSS, GUI stalls and polls every 10 s, prints the verdict, writes soak.csv and
# soak.png in the run's folder. Every option goes to bench_soak (--help lists them); the default is
# one hour. BUILD names the build tree (default build/dev); it is built first when bench_soak is missing.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build/dev}
case "${1:-}" in
-h | --help)
    sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//'
    echo
    [ -x "$build/bench/bench_soak" ] && exec "$build/bench/bench_soak" --help
    exit 0
    ;;
esac
if [ ! -x "$build/bench/bench_soak" ]; then
    cmake --build "$build" --target bench_soak
fi
exec "$build/bench/bench_soak" "$@"
