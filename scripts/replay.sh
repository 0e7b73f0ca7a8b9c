#!/usr/bin/env bash
# Reproduces a mismatch report with one command, on the architecture and CPU it was found on:
# natively when the report's target is this machine's, else under QEMU (scripts/cross-test.sh
# --replay: Debian's cross gcc and qemu-user, or cross in a container). The report names its
# build (target triple, CPU features, commit); on aarch64 a report found with the SHA3
# instructions replays on QEMU's `max` CPU, one without them on a Cortex-A72. The replay is
# built with the test profile (optimised, debug assertions on: the kernel contracts are
# checked, as in the fuzzers' builds), and names the implementations the report's machine
# ran that cannot run here.
#   scripts/replay.sh REPORT [--target T] [--qemu-cpu CPU] [--runner cross|cargo]
#   --target      replay on this target instead of the report's
#   --qemu-cpu    emulate this CPU instead of the one the report's features imply
#   --runner      passed to scripts/cross-test.sh (default: its own choice)
# Exit status: mldsa-diff replay's (0: every implementation agrees now; 1: the mismatch is
# still there); 2 for bad arguments or a file that is not a report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "replay.sh: option $1 needs a value" >&2
        exit 2
    fi
}
report=""
target=""
qemu_cpu=""
runner=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --target) need "$@"; target=$2; shift 2 ;;
        --qemu-cpu) need "$@"; qemu_cpu=$2; shift 2 ;;
        --runner) need "$@"; runner=(--runner "$2"); shift 2 ;;
        -*) echo "replay.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$report" ] || { echo "replay.sh: one report only" >&2; exit 2; }; report=$1; shift ;;
    esac
done
[ -n "$report" ] || { echo "replay.sh: the REPORT argument is missing (see --help)" >&2; exit 2; }
[ -f "$report" ] || { echo "replay.sh: $report: no such file" >&2; exit 2; }
report=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")

# target, whether the CPU had SHA3, the commit: from the report's build section.
if ! fields=$(python3 - "$report" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
    b = r.get("build") or {}
    arch = r["arch"]
except (ValueError, KeyError, TypeError) as e:
    sys.exit(f"not a mismatch report: {e!r}")
target = b.get("target") or {"x86_64": "x86_64-unknown-linux-gnu",
                             "aarch64": "aarch64-unknown-linux-gnu",
                             "s390x": "s390x-unknown-linux-gnu"}.get(arch, "")
print(target, "sha3" if "sha3" in b.get("cpu_features", []) else "-", b.get("git_commit") or "-")
PY
); then
    echo "replay.sh: $report: not a mismatch report written by mldsa-diff" >&2
    exit 2
fi
read -r found_target sha3 commit <<<"$fields"
target=${target:-$found_target}
[ -n "$target" ] || { echo "replay.sh: $report names no target; pass --target" >&2; exit 2; }
head=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
if [ "$commit" != "-" ] && [ "${commit%-dirty}" != "$head" ]; then
    echo "replay.sh: note: the report was written at commit $commit; this checkout is $head"
fi

host=$(rustc -vV | sed -n 's/^host: //p')
cd "$root"
if [ "$target" = "$host" ]; then
    [ -z "$qemu_cpu" ] || { echo "replay.sh: --qemu-cpu needs a foreign --target" >&2; exit 2; }
    echo "== mldsa-diff replay $report on $host (natively)"
    exec cargo run --profile test -p mldsa-diff -- replay "$report"
fi
case "$target" in
    aarch64-unknown-linux-gnu)
        if [ -z "$qemu_cpu" ]; then
            if [ "$sha3" = sha3 ]; then qemu_cpu=max; else qemu_cpu=cortex-a72; fi
        fi
        ;;
    s390x-unknown-linux-gnu) ;;
    *) echo "replay.sh: cannot replay on $target here (x86_64 natively; aarch64 and s390x under QEMU)" >&2; exit 2 ;;
esac
exec bash "$root/scripts/cross-test.sh" "$target" ${qemu_cpu:+--qemu-cpu "$qemu_cpu"} \
    "${runner[@]}" --replay "$report"
