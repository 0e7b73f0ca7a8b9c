#!/usr/bin/env python3
"""The stack-alignment check: no function of this crate writes or reads a `ymm` or `zmm`
register at a stack address it has not aligned.

An unaligned 32- or 64-byte access to the stack straddles two cache lines, and where one
also straddles a 4 KiB page it runs tens of percent slower: the AVX2 backend's time moved by
11-34% with where the stack lay until its kernels got aligned frames (BENCHMARKS.md,
2026-12-07). Each kernel that keeps vectors on its stack starts with
`frame::align_frame!()` (a 64-byte aligned frame); this check keeps a new one from
forgetting it.

Usage: scripts/vector-spills.py BINARY
    Disassembles BINARY (objdump -d -C, Intel syntax) and fails, listing each function and
    instruction, if a function whose demangled name contains `mldsa::` moves a `ymm` or
    `zmm` register to or from an address based on rsp or rbp without an
    `and rsp, -64` (or -32 for `ymm` only) in its body. Build BINARY in release (opt-level
    3): the check is about the code that is measured and shipped.
Exit status: 0 clean, 1 a finding, 2 bad usage or a binary with none of this crate's
vector code (so a wrong path cannot pass).
"""

import argparse
import re
import subprocess
import sys

FUNC = re.compile(r"^[0-9a-f]+ <(.*)>:$")
# An instruction line: address, tab, mnemonic and operands (no raw bytes).
INSN = re.compile(r"^\s*[0-9a-f]+:\s+(\S+)\s*(.*)$")
VEC = re.compile(r"\b([yz])mm\d+\b")
STACK_MEM = re.compile(r"\[(rsp|rbp)[^\]]*\]")
ALIGN = re.compile(r"^and\s+rsp,\s*(\S+)$")


def align_of(operand: str) -> int:
    """The alignment an `and rsp, imm` gives (objdump prints the immediate sign-extended)."""
    value = int(operand, 0)
    if value >= 1 << 63:
        value -= 1 << 64
    return -value if value < 0 else 0


def scan(lines):
    """The (function, instruction) pairs of unaligned stack accesses, and how many functions
    of this crate touch a vector register at all."""
    findings = []
    vector_functions = 0
    name, body = None, []

    def finish():
        nonlocal vector_functions
        if name is None or "mldsa::" not in name:
            return
        if not any(VEC.search(i) for i in body):
            return
        vector_functions += 1
        aligned = 0
        for insn in body:
            m = ALIGN.match(insn)
            if m:
                aligned = max(aligned, align_of(m.group(1)))
        for insn in body:
            if not STACK_MEM.search(insn):
                continue
            v = VEC.search(insn)
            if not v:
                continue
            need = 64 if v.group(1) == "z" else 32
            if aligned < need:
                findings.append((name, insn))

    for line in lines:
        m = FUNC.match(line)
        if m:
            finish()
            name, body = m.group(1), []
            continue
        m = INSN.match(line)
        if m and name is not None:
            body.append(f"{m.group(1)} {m.group(2)}".strip())
    finish()
    return findings, vector_functions


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="See the module docstring (scripts/vector-spills.py) for what is checked and why.",
    )
    parser.add_argument("binary", help="a release build holding the crate's kernels "
                        "(e.g. target/release/mldsa-diff)")
    binary = parser.parse_args(argv[1:]).binary
    try:
        out = subprocess.run(
            ["objdump", "-d", "-C", "--no-show-raw-insn", "-M", "intel", binary],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except FileNotFoundError:
        print("vector-spills.py: objdump not found (Debian: binutils)", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print(f"vector-spills.py: objdump failed on {binary}: {e.stderr.strip()}", file=sys.stderr)
        return 2
    findings, vector_functions = scan(out.splitlines())
    if vector_functions == 0:
        print(f"vector-spills.py: {binary} holds no vector code of this crate", file=sys.stderr)
        return 2
    if findings:
        print(f"{len(findings)} unaligned vector stack accesses (add frame::align_frame!()):")
        for name, insn in findings:
            print(f"  {name}: {insn}")
        return 1
    print(f"{vector_functions} functions of this crate use ymm/zmm registers; none touches the "
          "stack unaligned")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
