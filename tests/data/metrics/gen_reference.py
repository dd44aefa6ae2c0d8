#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Writes <file>.reference.jsonl for each exposition given: every sample as Debian's
# python3-prometheus-client 0.16 (text_string_to_metric_families) reads it, one JSON array
# [name, {label: value, ...}, repr(value)] per line, in body order. tst_promparser compares the
# C++ parser against these files. Run with /usr/bin/python3 (Debian's interpreter):
#   /usr/bin/python3 tests/data/metrics/gen_reference.py tests/data/metrics/sample-vllm-metrics*.txt
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = path[:-len(".txt")] + ".reference.jsonl" if path.endswith(".txt") else path + ".reference.jsonl"
    with open(out, "w", encoding="utf-8") as f:
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                f.write(json.dumps([s.name, s.labels, repr(s.value)], ensure_ascii=False) + "\n")
    print(out)
