#!/usr/bin/env python3
"""The analysis half of scripts/neon-mca.sh (see its --help): cuts each kernel's dynamic
instruction trace out of a `qemu-aarch64 -singlestep -d exec,nochain` log of the driver
(scripts/neon-mca/), turns it back into assembly from the driver binary's disassembly, and runs
llvm-mca on that straight-line sequence for each CPU model. Prints a Markdown table.

    neon-mca.py --bin DRIVER --trace LOG --objdump LLVM-OBJDUMP --mca LLVM-MCA
                --nm NM --models neoverse-n1,cortex-a76,neoverse-v1,neoverse-n2+sha3
                [--keep DIR]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# (row label, Neon wrapper, portable wrapper, note)
ROWS = [
    ("ntt", "mca_ntt_neon", "mca_ntt_portable"),
    ("invntt_tomont", "mca_invntt_neon", "mca_invntt_portable"),
    ("keccak_f1600_x4 (plain Neon)", "mca_keccakx4_neonplain", "mca_keccakx4_portable"),
    ("keccak_f1600_x4 (SHA3)", "mca_keccakx4_neonsha3", "mca_keccakx4_portable"),
    ("rej_uniform (840 B)", "mca_rejuniform_neon", "mca_rejuniform_portable"),
    ("rej_eta, eta = 2 (136 B)", "mca_rejeta2_neon", "mca_rejeta2_portable"),
    ("rej_eta, eta = 4 (272 B)", "mca_rejeta4_neon", "mca_rejeta4_portable"),
]

TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
# Operands that are code or data addresses in the disassembly: replaced by a local label,
# which llvm-mca does not follow anyway (it models branches as taken in the traced order).
ADDR_OPERAND = re.compile(r"(^|[ ,])(0x[0-9a-f]+)$")
VECTOR = re.compile(r"\bv\d+\.|\bq\d+\b|\{v\d+")


def demangle(name):
    """A legacy Rust symbol's path without its hash (enough for the report)."""
    m = re.match(r"^_ZN(.*)E(\.llvm\.\d+)?$", name)
    if not m:
        return name
    parts, rest = [], m.group(1)
    while rest and rest[0].isdigit():
        n = re.match(r"^\d+", rest).group(0)
        parts.append(rest[len(n) : len(n) + int(n)])
        rest = rest[len(n) + int(n) :]
    if parts and re.match(r"^h[0-9a-f]{16}$", parts[-1]):
        parts.pop()
    path = "::".join(parts)
    for a, b in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("..", "::")):
        path = path.replace(a, b)
    return path


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def symbols(nm, binary):
    """name -> (address, size) of the defined text symbols."""
    out = {}
    for line in run([nm, "-S", "--defined-only", binary]).splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            out[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return out


def disassembly(objdump, binary):
    """address -> instruction text (LLVM syntax, address operands made labels)."""
    text = run([objdump, "-d", "--no-show-raw-insn", "--mattr=+sha3,+v8.2a", binary])
    insns = {}
    for line in text.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S.*)$", line)
        if not m:
            continue
        ins = m.group(2).split("//")[0]
        ins = re.sub(r"\s*<[^>]*>", "", ins).strip()
        ins = ADDR_OPERAND.sub(lambda g: g.group(1) + ".Lanywhere", ins)
        # llvm-mca gives a call a 100-cycle latency (its note: calls are not modelled); in a
        # trace the callee's instructions follow, so a call is only its link-register write.
        if re.match(r"^blr?\s", ins):
            ins = "adr\tx30, .Lanywhere"
        insns[int(m.group(1), 16)] = ins
    return insns


def segments(trace, syms, wrappers):
    """Yields (wrapper, [pc]) for each call of a wrapper: every instruction executed from the
    wrapper's entry until control is back in the driver's main."""
    main = [v for k, v in syms.items() if re.match(r"_ZN\d+neon_mca_driver4main17h", k)]
    if len(main) != 1:
        sys.exit("neon-mca.py: cannot find the driver's main in the symbol table")
    main_lo, main_size = main[0]
    entries = {syms[w][0]: w for w in wrappers}
    bias = None
    current, pcs = None, []
    with open(trace, encoding="latin-1") as f:
        for line in f:
            m = TRACE.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if bias is None:
                name = line.rstrip().rsplit(" ", 1)[-1]
                if name in entries.values():
                    bias = pc - syms[name][0]
                else:
                    continue
            pc -= bias
            if current is None:
                if pc in entries:
                    current, pcs = entries[pc], [pc]
            elif main_lo <= pc < main_lo + main_size:
                yield current, pcs
                current = None
                if pc in entries:  # never: main is between two wrapper calls
                    current, pcs = entries[pc], [pc]
            else:
                pcs.append(pc)
    if bias is None:
        sys.exit("neon-mca.py: no wrapper was executed in the trace")


def mca(llvm_mca, model, asm_path):
    """Total cycles of one pass over the trace, or None if the model lacks an instruction
    (the SHA3 path on a CPU without FEAT_SHA3). MODEL may carry features: neoverse-n2+sha3."""
    cpu, *attrs = model.split("+")
    cmd = [llvm_mca, "-mtriple=aarch64", f"-mcpu={cpu}", "-iterations=1"]
    if attrs:
        cmd.append("-mattr=" + ",".join("+" + x for x in attrs))
    r = subprocess.run([*cmd, asm_path], capture_output=True, text=True)
    if r.returncode != 0:
        if "instruction requires" in r.stderr:
            return None
        sys.exit(f"neon-mca.py: llvm-mca failed on {asm_path}:\n{r.stderr[:2000]}")
    return int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--bin", "--trace", "--objdump", "--mca", "--nm", "--models"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--keep")
    a = ap.parse_args()
    models = a.models.split(",")

    syms = symbols(a.nm, a.bin)
    insns = disassembly(a.objdump, a.bin)
    by_addr = sorted((lo, lo + max(size, 4), name) for name, (lo, size) in syms.items())

    def owner(pc):
        for lo, hi, name in by_addr:  # few distinct pcs per segment: linear is fine
            if lo <= pc < hi:
                return name
        return "?"

    wrappers = {w for row in ROWS for w in row[1:]}
    cycles = collections.defaultdict(lambda: collections.defaultdict(list))
    count = collections.defaultdict(list)
    vector = collections.defaultdict(list)
    callees = collections.defaultdict(set)
    tmp = a.keep or tempfile.mkdtemp(prefix="neon-mca.")
    os.makedirs(tmp, exist_ok=True)
    seen = collections.Counter()
    for wrapper, pcs in segments(a.trace, syms, wrappers):
        body = [insns[pc] for pc in pcs]
        n = seen[wrapper]
        seen[wrapper] += 1
        path = os.path.join(tmp, f"{wrapper}.{n}.s")
        with open(path, "w") as f:
            f.write(".Lanywhere:\n" + "\n".join(body) + "\n")
        count[wrapper].append(len(body))
        vector[wrapper].append(sum(1 for i in body if VECTOR.search(i)))
        if n == 0:
            callees[wrapper] = {demangle(owner(pc)) for pc in set(pcs)}
        for model in models:
            c = mca(a.mca, model, path)
            if c is not None:
                cycles[wrapper][model].append(c)

    def mean(xs):
        return sum(xs) / len(xs) if xs else None

    def fmt(x):
        return "–" if x is None else (f"{x:,.0f}" if x >= 100 else f"{x:.1f}")

    print("| kernel | CPU model | Neon (cycles) | portable (cycles) | portable / Neon |")
    print("|---|---|---|---|---|")
    for label, neon, port in ROWS:
        if neon not in seen:
            print(f"| {label} | – | not traced (no SHA3 on the emulated CPU?) | – | – |")
            continue
        for m in models:
            nc, pc_ = mean(cycles[neon][m]), mean(cycles[port][m])
            if nc is None:
                continue  # the SHA3 path on a model without SHA3
            print(f"| {label} | {m} | {fmt(nc)} | {fmt(pc_)} | {pc_ / nc:.2f}x |")
    print()
    print("| wrapper | calls | instructions per call | vector instructions | code executed |")
    print("|---|---|---|---|---|")
    for label, neon, port in ROWS:
        for w in (neon, port):
            if w not in seen or w in [r[2] for r in ROWS[: ROWS.index((label, neon, port))]]:
                continue
            ins = mean(count[w])
            share = mean(vector[w]) / ins
            who = ", ".join(sorted(c for c in callees[w] if c != w)) or "inlined into the wrapper"
            print(f"| {w} | {seen[w]} | {ins:,.0f} | {share:.0%} | {who} |")
    if not a.keep:
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    main()
