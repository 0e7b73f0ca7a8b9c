#!/usr/bin/env python3
"""Compares qemu-user instruction traces for scripts/ct-trace.sh.

  python3 scripts/ct-trace.py [--min-steps N] LOG LOG...
  python3 scripts/ct-trace.py --ranges REGEX < DISASSEMBLY

--ranges reads `objdump -d -C` output and prints, as qemu's -dfilter wants them
(0xSTART+0xSIZE, comma-separated), the functions whose names match REGEX and every function
they reach by direct calls and branches, transitively: code the compiler moved out of a
kernel (the machine outliner's OUTLINED_FUNCTION_n at opt-level z, a helper it did not inline)
is traced with it. The closure stops at core::panicking (a panic ends the run) and at the
PLT: the C library's memcpy and memset run untraced, and what they leave in the registers is
compared when the kernel's code runs again. Exit 2 when nothing matches.

Each LOG is what `qemu-aarch64 -singlestep -d exec,cpu,nochain -dfilter RANGES -D LOG`
wrote for one run of the harness: before every instruction inside the traced functions, the
program counter, the general-purpose registers X0-X30, SP and PSTATE (the flags). The first
LOG is the reference; every other must hold the same number of steps and, step by step, the
same program counter, registers and flags. The first difference is printed (step, function,
program counter, the registers that differ and their two values) and the exit status is 1;
a LOG with fewer than --min-steps steps (default 1) or one that cannot be parsed is an error
(exit 2), so an empty trace never passes. Prints one line per LOG: its steps and whether it
matches.
"""

import re
import sys

TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] ?(\S*)")
REG = re.compile(r"\b(PC|X\d\d|SP|PSTATE)=([0-9a-f]+)")
WANT = ["PC"] + [f"X{i:02d}" for i in range(31)] + ["SP", "PSTATE"]


class TraceError(Exception):
    """A log that is not a trace of the expected shape."""


def parse(path):
    """The steps of one log: (function, [register values in WANT's order]) each."""
    steps = []
    current = None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        raise TraceError(f"{path}: {e.strerror}") from e

    def close():
        if current is None:
            return
        func, pc, regs = current
        missing = [r for r in WANT if r not in regs]
        if missing:
            raise TraceError(f"{path}: step {len(steps)} (pc {pc}) lacks {', '.join(missing)}")
        if int(regs["PC"], 16) != int(pc, 16):
            raise TraceError(f"{path}: step {len(steps)}: the trace line's pc {pc} is not PC={regs['PC']}")
        steps.append((func, [regs[r] for r in WANT]))

    for line in lines:
        m = TRACE.match(line)
        if m:
            close()
            current = (m.group(2) or "?", m.group(1), {})
            continue
        if current is not None:
            for name, value in REG.findall(line):
                current[2].setdefault(name, value)
    close()
    return steps


FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)(?:\s+([0-9a-f]+) <([^>]+)>)?")
BRANCH = re.compile(r"^(bl|b|b\.\w+|cbn?z|tbn?z)$")


def ranges(regex, lines):
    """The -dfilter ranges of the functions matching regex and of what they call."""
    funcs = []  # [start, end, name, targets]
    for line in lines:
        m = FUNC.match(line)
        if m:
            funcs.append([int(m.group(1), 16), None, m.group(2), set()])
            continue
        m = INSN.match(line)
        if m and funcs:
            addr = int(m.group(1), 16)
            funcs[-1][1] = addr + 4
            if m.group(3) and BRANCH.match(m.group(2)):
                funcs[-1][3].add(int(m.group(3), 16))
    funcs = [f for f in funcs if f[1] is not None]
    funcs.sort()

    def owner(addr):
        for f in funcs:
            if f[0] <= addr < f[1]:
                return f
        return None

    pattern = re.compile(regex)
    todo = [f for f in funcs if pattern.search(f[2])]
    if not todo:
        return None
    seen = {}
    while todo:
        f = todo.pop()
        # Not the PLT (a section, not a function: its stubs jump to the C library's memcpy
        # and memset, which other code calls too, with the registers it left).
        if f[0] in seen or f[2].startswith(("core::panicking::", ".")):
            continue
        seen[f[0]] = f
        todo.extend(g for g in map(owner, f[3]) if g is not None)
    return ",".join(f"0x{f[0]:x}+0x{f[1] - f[0]:x}" for f in sorted(seen.values()))


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == "--ranges":
        if len(argv) != 2:
            print("ct-trace.py: --ranges needs a value (a regular expression)", file=sys.stderr)
            return 2
        found = ranges(argv[1], sys.stdin)
        if found is None:
            print(f"ct-trace.py: no function matches {argv[1]}", file=sys.stderr)
            return 2
        print(found)
        return 0
    min_steps = 1
    if argv and argv[0] == "--min-steps":
        if len(argv) < 2 or not argv[1].isdigit():
            print("ct-trace.py: --min-steps needs a value (a whole number)", file=sys.stderr)
            return 2
        min_steps = int(argv[1])
        argv = argv[2:]
    if len(argv) < 2:
        print("ct-trace.py: missing logs: give a reference log and at least one other", file=sys.stderr)
        return 2
    try:
        traces = [(p, parse(p)) for p in argv]
    except TraceError as e:
        print(f"ct-trace.py: {e}", file=sys.stderr)
        return 2
    for path, steps in traces:
        if len(steps) < min_steps:
            print(f"ct-trace.py: {path}: {len(steps)} steps, fewer than {min_steps}: "
                  "the traced range was not reached", file=sys.stderr)
            return 2
    ref_path, ref = traces[0]
    print(f"  {ref_path}: {len(ref)} steps (reference)")
    differ = 0
    for path, steps in traces[1:]:
        first = next((i for i, (a, b) in enumerate(zip(ref, steps)) if a[1] != b[1]), None)
        if first is None and len(steps) == len(ref):
            print(f"  {path}: {len(steps)} steps, identical")
            continue
        differ += 1
        if first is None:
            first = min(len(ref), len(steps))
            print(f"  {path}: {len(steps)} steps against {len(ref)}: the same up to step {first}, "
                  "then one trace ends")
            continue
        (func, a), (_, b) = ref[first], steps[first]
        regs = [f"{n} {x} / {y}" for n, x, y in zip(WANT, a, b) if x != y]
        print(f"  {path}: DIFFERS at step {first} of {len(steps)}, in {func} at pc {a[0]}"
              f"{' / ' + b[0] if a[0] != b[0] else ''}: {'; '.join(regs)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
