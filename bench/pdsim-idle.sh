#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pdsim's idle cost: CPU (% of one core) and resident memory of `pdsim cluster` with N engines and no
# load, measured from /proc over a window after it is ready. Prints one line per size.
# Usage: bench/pdsim-idle.sh [BUILD_DIR] [SIZES...]   (default: build/dev 72 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
shift || true
sizes=("${@:-72 1024}")
[ ${#sizes[@]} -eq 1 ] && read -r -a sizes <<<"${sizes[0]}"
pdsim=$build/sim/pdsim
pdctl=$build/app/pdctl/pdctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
window=${PD_IDLE_WINDOW:-10}
hz=$(getconf CLK_TCK)

profile_for() { # N engines: the demo cluster, or N/16 decode nodes of 16 engines plus 4 prefill nodes
  local n=$1
  if [ "$n" -eq 72 ]; then cp resources/profiles/demo-loopback.json "$work/p$n.json"; return; fi
  local d=$(( (n - 8 + 15) / 16 )) ph=() pp=() dh=() dp=()
  for i in 1 2 3 4; do ph+=(10.0.0.$i 10.0.0.$i); pp+=(9000 9001); done
  for ((i = 0; i < d; i++)); do for ((k = 0; k < 16; k++)); do dh+=(10.1.$((i / 250)).$((i % 250 + 1))); dp+=($((9000 + k))); done; done
  "$pdctl" profile import --name "bench-$n" --proxy-args "--host 127.0.0.1 --port 8000 --prefiller-hosts ${ph[*]} --prefiller-ports ${pp[*]} --decoder-hosts ${dh[*]} --decoder-ports ${dp[*]}" -o "$work/p$n.json" 2>/dev/null || true
}

for n in "${sizes[@]}"; do
  profile_for "$n"
  "$pdsim" cluster --profile "$work/p$n.json" --loopback > "$work/out$n" 2> "$work/err$n" &
  pid=$!
  for _ in $(seq 1 300); do grep -q '^ready' "$work/out$n" && break; sleep 0.1; done
  if ! grep -q '^ready' "$work/out$n"; then echo "pdsim-idle: $n engines never became ready"; cat "$work/err$n"; kill "$pid"; exit 1; fi
  sleep 1
  t0=$(awk '{print $14 + $15}' /proc/$pid/stat); s0=$(date +%s.%N)
  sleep "$window"
  t1=$(awk '{print $14 + $15}' /proc/$pid/stat); s1=$(date +%s.%N)
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
  threads=$(awk '/Threads/ {print $2}' /proc/$pid/status)
  kill -TERM "$pid"; wait "$pid" || true
  engines=$(grep -o 'engines=[0-9]*' "$work/out$n" | cut -d= -f2)
  awk -v n="$engines" -v dt="$((t1 - t0))" -v hz="$hz" -v w="$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')" -v rss="$rss" -v th="$threads" \
    'BEGIN { printf "pdsim-idle: %d engines, %.2f %% of a core idle, %.1f MB RSS, %d threads\n", n, 100 * dt / hz / w, rss / 1024, th }'
done
