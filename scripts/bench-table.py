#!/usr/bin/env python3
"""Summarise criterion results (target/criterion) as a Markdown table: median time per
implementation for each benchmark group, and the speed of each relative to mldsa's portable
backend (portable time / its time: above 1x means faster than portable). Usage: scripts/bench-table.py [target/criterion]"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
rows = {}
for est in sorted(root.glob("*/*/new/estimates.json")):
    group = est.parents[2].name.replace("_", "/", 1)
    impl = est.parents[1].name
    median_ns = json.loads(est.read_text())["median"]["point_estimate"]
    rows.setdefault(group, {})[impl] = median_ns
impls = sorted({i for g in rows.values() for i in g}, key=lambda s: (s != "mldsa-portable", not s.startswith("mldsa"), s))
others = impls[1:]
print("| operation | " + " | ".join(f"{i} (µs)" for i in impls) + " | " + " | ".join(f"portable / {i}" for i in others) + " |")
print("|---" * (1 + len(impls) + len(others)) + "|")
order = {"keygen": 0, "sign": 1, "verify": 2}
for group in sorted(rows, key=lambda g: (g.split("/")[1], order.get(g.split("/")[0], 9))):
    r = rows[group]
    base = r.get("mldsa-portable")
    times = " | ".join(f"{r[i] / 1000:.1f}" if i in r else "–" for i in impls)
    ratios = " | ".join(f"{base / r[i]:.2f}x" if i in r and base else "–" for i in others)
    print(f"| {group} | {times} | {ratios} |")
