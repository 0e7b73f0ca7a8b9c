#!/usr/bin/env bash
# Instruction counts of keygen, sign and verify (diff/benches/instructions.rs: callgrind
# through gungraun; this crate's portable and best backends and PQClean side by side) for a
# base commit and for the checkout, as one table with the ratio head/base per benchmark.
# Counts, unlike times, hold on a shared runner; a ratio above the threshold is marked ALERT.
#   scripts/bench-compare.sh [--base REF] [--threshold PCT] [--out FILE] [--fail]
#   --base       the commit to compare against (default: HEAD~1; in a pull request, its base)
#   --threshold  mark ratios above PCT percent (default 103)
#   --out        also append the table (Markdown) to FILE (e.g. "$GITHUB_STEP_SUMMARY"); it is
#                always written to target/bench-compare/table.md (scripts/bench-comment.sh)
#   --fail       exit 1 when a ratio is above the threshold (default: mark it and exit 0)
# Needs valgrind and gungraun-runner of the dev-dependency's version (installs them: apt-get
# as root, cargo install). The base is built in a git worktree under target/bench-base; if
# the base has no instructions bench, the table shows the head's counts alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "bench-compare.sh: option $1 needs a value" >&2
        exit 2
    fi
}
base=HEAD~1
threshold=103
out=""
fail=0
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --base) need "$@"; base=$2; shift 2 ;;
        --threshold) need "$@"; threshold=$2; shift 2 ;;
        --out) need "$@"; out=$2; shift 2 ;;
        --fail) fail=1; shift ;;
        *) echo "bench-compare.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$threshold" in
    '' | *[!0-9]*) echo "bench-compare.sh: --threshold: not a whole percentage: $threshold" >&2; exit 2 ;;
esac
base_commit=$(git rev-parse --verify --quiet "$base^{commit}") ||
    { echo "bench-compare.sh: --base $base: not a commit" >&2; exit 2; }

if ! command -v valgrind >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "bench-compare.sh: valgrind is missing (e.g. sudo apt-get install valgrind)" >&2
        exit 1
    fi
fi
version=$(sed -n 's/^gungraun = "=\(.*\)"/\1/p' diff/Cargo.toml)
[ -n "$version" ] || { echo "bench-compare.sh: diff/Cargo.toml pins no gungraun version" >&2; exit 1; }
if [ "$(gungraun-runner --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
    cargo install gungraun-runner --version "$version" --locked
fi

results=$root/target/bench-compare
rm -rf "$results"
mkdir -p "$results"
# The package holding the instructions bench in checkout DIR: mldsa-diff's since the
# benchmarks moved to diff/benches/, mldsa's before; none if neither has it.
bench_package() {
    if [ -f "$1/diff/benches/instructions.rs" ]; then echo mldsa-diff
    elif [ -f "$1/mldsa/benches/instructions.rs" ]; then echo mldsa
    fi
}
bench() { # DIR LABEL
    echo "== instructions bench: $2 ($(git -C "$1" rev-parse --short HEAD))"
    (cd "$1" && CARGO_TARGET_DIR=$root/target/bench-build-$2 GUNGRAUN_HOME=$results/$2 \
        cargo bench --locked -p "$(bench_package "$1")" --bench instructions) >"$results/$2.txt" 2>"$results/$2.err" || {
        tail -20 "$results/$2.err" >&2
        echo "bench-compare.sh: the $2 bench failed (log: $results/$2.err)" >&2
        exit 1
    }
}
bench "$root" head
wt=$root/target/bench-base
git worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git worktree add --detach --quiet "$wt" "$base_commit"
trap 'git -C "$root" worktree remove --force "$wt" 2>/dev/null || true' EXIT
if [ -n "$(bench_package "$wt")" ]; then
    bench "$wt" base
else
    echo "== the base ($base) has no instructions bench: the head's counts alone"
    : >"$results/base.txt"
fi

python3 - "$results/base.txt" "$results/head.txt" "$threshold" "$fail" "${out:-/dev/null}" \
    "$(git rev-parse --short "$base_commit")" "$(git rev-parse --short HEAD)" "$results/table.md" <<'PY'
import re, sys
base_f, head_f, threshold, fail, out, base_id, head_id, table_f = sys.argv[1:]
def counts(path):
    got, name = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^instructions::scheme::(\w+) each_\d+:\((?:inputs\()?(\d+), \"([\w-]+)\"", line)
        if m:
            name = (m.group(1), m.group(2), m.group(3))
            continue
        m = re.match(r"^\s+Instructions:\s+(\d+)", line)
        if m and name:
            got[name] = int(m.group(1))
            name = None
    return got
base, head = counts(base_f), counts(head_f)
if not head:
    sys.exit("bench-compare.sh: no instruction counts in the head's output")
rows, alerts = [], 0
rows.append(f"| benchmark | {base_id} (base) | {head_id} (head) | head/base |")
rows.append("|---|---:|---:|---:|")
for k in sorted(head, key=lambda k: (k[0], int(k[1]), k[2])):
    op, s, who = k
    b, h = base.get(k), head[k]
    if b:
        r = 100.0 * h / b
        mark = " ALERT" if r > int(threshold) else ""
        alerts += bool(mark)
        rows.append(f"| {op} ML-DSA-{s} {who} | {b:,} | {h:,} | {r:.1f}%{mark} |")
    else:
        rows.append(f"| {op} ML-DSA-{s} {who} | n/a | {h:,} | |")
table = "\n".join(rows) + "\n"
print(table)
summary = f"{alerts} above {threshold}%" if base else "no base counts"
print(f"bench-compare: {len(head)} benchmarks, {summary}")
block = f"### Instruction counts (callgrind), {head_id} against {base_id}\n\n{table}\n"
with open(out, "a") as f:
    f.write(block)
# The same table for the pull-request comment (scripts/bench-comment.sh) and the artifact.
with open(table_f, "w") as f:
    f.write(block)
sys.exit(1 if alerts and fail == "1" else 0)
PY
