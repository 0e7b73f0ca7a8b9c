#!/usr/bin/env python3
"""Summarise criterion results (target/criterion) as a Markdown table: median time per
implementation for each benchmark group, and the speed of each relative to mldsa's portable
backend (portable time / its time: above 1x means faster than portable); then mldsa-avx2
against its AVX2 peers (peer time / mldsa-avx2 time: above 1x means mldsa-avx2 is faster);
then mldsa-avx2 and mldsa-avx512 as a fraction of pqclean-avx2 (below 1x: faster).
Usage: scripts/bench-table.py [target/criterion]"""
import json
import pathlib
import sys

if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0)
if len(sys.argv) > 2 or (len(sys.argv) > 1 and sys.argv[1].startswith("-")):
    sys.exit(f"bench-table.py: unexpected arguments {sys.argv[1:]}; usage: scripts/bench-table.py [target/criterion]")
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


def us(ns):
    """Microseconds, three significant digits at least (kernels take well under 1 µs)."""
    v = ns / 1000
    return f"{v:.1f}" if v >= 10 else f"{v:.3f}" if v < 1 else f"{v:.2f}"


for group in sorted(rows, key=lambda g: (g.split("/")[1], order.get(g.split("/")[0], 9))):
    r = rows[group]
    base = r.get("mldsa-portable")
    times = " | ".join(us(r[i]) if i in r else "–" for i in impls)
    ratios = " | ".join(f"{base / r[i]:.2f}x" if i in r and base else "–" for i in others)
    print(f"| {group} | {times} | {ratios} |")

# The bar of issue 3: mldsa-avx2 against its AVX2 peers, measured in the same run.
peers = [i for i in ("pqclean-avx2", "mldsa-native-avx2", "libcrux-avx2") if i in impls]
if "mldsa-avx2" in impls and peers:
    print()
    print("| operation | " + " | ".join(f"{p} / mldsa-avx2" for p in peers) + " | mldsa-portable / mldsa-avx2 |")
    print("|---" * (2 + len(peers)) + "|")
    for group in sorted(rows, key=lambda g: (g.split("/")[1], order.get(g.split("/")[0], 9))):
        r = rows[group]
        ours = r.get("mldsa-avx2")
        if not ours:
            continue
        cells = [f"{r[p] / ours:.2f}x" if p in r else "–" for p in peers]
        base = r.get("mldsa-portable")
        cells.append(f"{base / ours:.2f}x" if base else "–")
        print(f"| {group} | " + " | ".join(cells) + " |")

# Issue 41's bar: each SIMD backend's time as a fraction of PQClean AVX2's, in the same run
# (below 1x: faster than PQClean AVX2; the AVX-512 target is 0.65x or less).
ours_simd = [i for i in ("mldsa-avx2", "mldsa-avx512") if i in impls]
if "pqclean-avx2" in impls and ours_simd:
    print()
    print("| operation | " + " | ".join(f"{i} / pqclean-avx2" for i in ours_simd) + " |")
    print("|---" * (1 + len(ours_simd)) + "|")
    for group in sorted(rows, key=lambda g: (g.split("/")[1], order.get(g.split("/")[0], 9))):
        r = rows[group]
        peer = r.get("pqclean-avx2")
        if not peer or not any(i in r for i in ours_simd):
            continue
        print(f"| {group} | " + " | ".join(f"{r[i] / peer:.2f}x" if i in r else "–" for i in ours_simd) + " |")
