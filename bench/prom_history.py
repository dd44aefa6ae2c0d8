#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Writes an hour (or SECONDS) of vLLM 0.9.1 engine history as OpenMetrics with timestamps, for
# `promtool tsdb create-blocks-from openmetrics`: N engines at 127.0.0.1:BASE_PORT+i, one sample per
# second per series, the ~120 series per engine the Prometheus source fetches. Counters grow at a
# steady decode load (20 running, ~600 tokens/s), histograms fill their buckets, KV usage drifts.
#   bench/prom_history.py N SECONDS BASE_PORT END_UNIX_SECONDS > history.om
import sys

n, seconds, base_port, end = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
start = end - seconds
out = sys.stdout
ttft = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
        40.0, 80.0, 160.0, 640.0, 2560.0]
tpot = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0]
lat = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0,
       960.0, 1920.0, 7680.0]


def labels(i, extra=""):
    s = 'instance="127.0.0.1:%d",job="vllm",model_name="deepseek_r1"' % (base_port + i)
    return "{" + s + ("," + extra if extra else "") + "}"


def family(name, series):
    # series: list of (label block, f(t_index) -> value)
    out.write("# TYPE %s unknown\n" % name)
    for block, f in series:
        lines = []
        for k in range(seconds):
            lines.append("%s%s %s %d\n" % (name, block, repr(float(f(k))), start + k))
        out.write("".join(lines))


def per_engine(name, f):
    family(name, [(labels(i), (lambda k, i=i: f(i, k))) for i in range(n)])


per_engine("up", lambda i, k: 1)
per_engine("process_start_time_seconds", lambda i, k: start - 600 - i)
per_engine("vllm:num_requests_running", lambda i, k: 20)
per_engine("vllm:num_requests_waiting", lambda i, k: (k // 7) % 3)
per_engine("vllm:gpu_cache_usage_perc", lambda i, k: 0.3 + 0.1 * ((k % 600) / 600.0))
per_engine("vllm:prompt_tokens_total", lambda i, k: 1000 * i + 40 * k)
per_engine("vllm:generation_tokens_total", lambda i, k: 5000 * i + 600 * k + (k % 3))
family("vllm:request_success_total",
       [(labels(i, 'finished_reason="%s"' % r), (lambda k, i=i, w=w: (i + k) // w))
        for i in range(n) for r, w in (("stop", 5), ("length", 50), ("abort", 500))])
per_engine("vllm:num_preemptions_total", lambda i, k: k // 300)
per_engine("vllm:gpu_prefix_cache_queries_total", lambda i, k: 40 * k)
per_engine("vllm:gpu_prefix_cache_hits_total", lambda i, k: 12 * k)
per_engine("vllm:spec_decode_num_drafts_total", lambda i, k: 300 * k)
per_engine("vllm:spec_decode_num_draft_tokens_total", lambda i, k: 300 * k)
per_engine("vllm:spec_decode_num_accepted_tokens_total", lambda i, k: 240 * k)


def histogram(base, bounds, per_second, centre):
    # cumulative counts: observations spread around bucket `centre`
    series = []
    for i in range(n):
        for b, le in enumerate(bounds + [float("inf")]):
            share = 0.0 if b < centre - 2 else min(1.0, 0.25 * (b - centre + 3))
            series.append((labels(i, 'le="%s"' % ("+Inf" if le == float("inf") else repr(le))),
                           (lambda k, share=share: int(per_second * k * share))))
    family(base + "_bucket", series)
    family(base + "_count", [(labels(i), (lambda k: per_second * k)) for i in range(n)])
    family(base + "_sum", [(labels(i), (lambda k: per_second * k * bounds[centre])) for i in range(n)])


histogram("vllm:time_to_first_token_seconds", ttft, 1, 9)
histogram("vllm:time_per_output_token_seconds", tpot, 300, 4)
histogram("vllm:e2e_request_latency_seconds", lat, 1, 12)
histogram("vllm:request_queue_time_seconds", lat, 1, 1)
for base in ("vllm:request_prefill_time_seconds", "vllm:request_decode_time_seconds"):
    family(base + "_count", [(labels(i), (lambda k: k)) for i in range(n)])
    family(base + "_sum", [(labels(i), (lambda k: 0.5 * k)) for i in range(n)])
out.write("# EOF\n")
