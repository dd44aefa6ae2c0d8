#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs bench_promparse and Debian's prometheus_client (text_string_to_metric_families, every sample
# consumed) on the same files in the same run, and prints the ratio of their throughputs.
#   bench/promparse-vs-python.sh [BENCH_BINARY] [FILE...]
# Defaults: build-parser/bench/bench_promparse (else build/dev/...) and the two vLLM samples.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${1:-}
if [ -z "$bench" ]; then
    for b in "$here/build-parser/bench/bench_promparse" "$here/build/dev/bench/bench_promparse"; do
        [ -x "$b" ] && bench=$b && break
    done
fi
[ -n "$bench" ] && [ -x "$bench" ] || { echo "bench_promparse not found; build it or pass its path" >&2; exit 2; }
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$here/tests/data/metrics/sample-vllm-metrics.txt" "$here/tests/data/metrics/sample-vllm-metrics-main.txt"
/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || { echo "needs Debian python3-prometheus-client for /usr/bin/python3" >&2; exit 2; }

for f in "$@"; do
    cpp=$("$bench" "$f" | tail -n 1)   # promparse: <MB/s> MB/s, <ns> ns/sample, <N> samples
    cpp_mbs=$(echo "$cpp" | sed -n 's/^promparse: \([0-9.]*\) MB\/s.*/\1/p')
    py=$(/usr/bin/python3 -c '
import sys, time
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1], encoding="utf-8").read()
def run():
    n = 0
    for fam in text_string_to_metric_families(text):
        n += len(fam.samples)
    return n
n = run()
times = []
for _ in range(21):
    t0 = time.process_time()
    for _ in range(5):
        run()
    times.append((time.process_time() - t0) / 5)
times.sort()
t = times[len(times) // 2]
print("%.2f %.0f %d" % (len(text.encode()) / t / 1e6, t / n * 1e9, n))
' "$f")
    py_mbs=${py%% *}
    ratio=$(awk -v a="$cpp_mbs" -v b="$py_mbs" 'BEGIN { printf "%.0f", a / b }')
    echo "$(basename "$f"): C++ $cpp_mbs MB/s | prometheus_client $py_mbs MB/s ($(echo "$py" | cut -d' ' -f2) ns/sample) | ratio ${ratio}x"
done
