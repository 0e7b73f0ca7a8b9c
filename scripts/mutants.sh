#!/usr/bin/env bash
# Mutation testing of the library against the default differential check: cargo-mutants
# (27.1.0) mutates mldsa/src one change at a time and, for each mutant, builds the release
# harness and runs `mldsa-diff check --fail-fast` (diff/tests/default_check.rs, feature
# `mutants`): every kernel, end-to-end, crafted and rare-path check through every
# implementation here, then the published verify vectors. A mutant the check does not fail
# is a survivor. .cargo/mutants.toml lists the mutants excluded as equivalent or as caught by
# another test, each with its reason.
#
#   scripts/mutants.sh [--shard K/N] [--file GLOB]... [--jobs N] [--out DIR] [--install]
#                      [--re REGEX] [--list] [--check-args "ARGS"]
#   scripts/mutants.sh --summarize DIR
#
# --file GLOB: the files to mutate (repeatable; default the six the README scores:
#   scheme.rs, raw.rs, api.rs, sample/, keccak.rs, backend/portable.rs).
# --shard K/N: only the K-th of N shards (round-robin over the mutants, K from 0: the nightly
#   takes one a night).
# --re REGEX: only the mutants whose name matches (cargo-mutants' --re; repeatable).
# --jobs N: mutants built and checked at once (default 1; each takes a build directory).
# --out DIR: where mutants.out goes (default target/mutants-run).
# --install: install cargo-mutants 27.1.0 with cargo if it is missing (else that is an error).
# --list: print the mutants (after the exclusions) and exit.
# --check-args "ARGS": more arguments to `mldsa-diff check` (e.g. "--impl c-clean").
# --summarize DIR: print the per-file table (mutants, caught, unviable, survivors, timeouts)
#   and every survivor of DIR/mutants.out; exit 1 if there is a survivor or a timeout.
# Exits 0 when every mutant was caught or unviable, 1 on a survivor or timeout, 2 on bad input.
# Builds are incremental (CARGO_INCREMENTAL=1 unless set): a mutant's release build takes 2-7 s
# here instead of about 20 s; a caught mutant fails within seconds, a survivor runs the whole
# check (35-90 s). The first build of a run is a cold release build in cargo-mutants' copy of
# the tree (3-4 min). The check runs on one core: two runs at once (different --file or
# --shard, different --out) use both of a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

version=27.1.0
shard=""
files=()
res=()
jobs=1
out=target/mutants-run
install=0
list=0
check_args=""
summarize=""
need() { [ $# -ge 2 ] || { echo "mutants.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --shard) need "$@"; shard=$2; shift 2 ;;
    --file) need "$@"; files+=("$2"); shift 2 ;;
    --re) need "$@"; res+=("$2"); shift 2 ;;
    --jobs) need "$@"; jobs=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --check-args) need "$@"; check_args=$2; shift 2 ;;
    --summarize) need "$@"; summarize=$2; shift 2 ;;
    --install) install=1; shift ;;
    --list) list=1; shift ;;
    *) echo "mutants.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

summary() {
    local json=$1/mutants.out/outcomes.json
    [ -f "$json" ] || { echo "mutants.sh: no $json (run the mutants first)" >&2; exit 2; }
    python3 - "$json" <<'EOF'
import collections, json, os, re, sys, tomllib
outcomes = json.load(open(sys.argv[1]))["outcomes"]
# A run made before a mutant was listed in .cargo/mutants.toml: its survivor counts as listed.
listed = [re.compile(r) for r in
          tomllib.load(open(".cargo/mutants.toml", "rb")).get("exclude_re", [])]
per = collections.defaultdict(collections.Counter)
survivors, timeouts, otherwise = [], [], []
for o in outcomes:
    sc = o["scenario"]
    if not isinstance(sc, dict) or "Mutant" not in sc:
        continue  # the baseline
    m = sc["Mutant"]
    f = m["file"]
    s = o["summary"]
    per[f][s] += 1
    per[f]["all"] += 1
    name = m["name"]
    if s == "CaughtMutant":
        # Caught by a mismatch or a wrong verdict, or by the check stopping otherwise (an
        # error or a panic of the reference): the latter are named for a look.
        log = open(os.path.join(os.path.dirname(sys.argv[1]), o["log_path"]),
                   errors="replace").read()
        if "--fail-fast: stopped after the first failing check" not in log and \
                "FAILED: wrong verdicts" not in log:
            per[f]["other"] += 1
            otherwise.append(name)
    if s == "MissedMutant" and any(r.search(name) for r in listed):
        per[f]["listed"] += 1
    elif s == "MissedMutant":
        survivors.append(name)
    elif s == "Timeout":
        timeouts.append(name)
print("| file | mutants | unviable | caught | of them not by a mismatch | survivors listed in .cargo/mutants.toml | survivors | timeouts | score |")
print("|---|---|---|---|---|---|---|---|---|")
for f in sorted(per):
    c = per[f]
    # The score: caught of the viable mutants not listed as equivalent or caught elsewhere.
    judged = c["all"] - c["Unviable"] - c["listed"]
    score = f"{100 * c['CaughtMutant'] / judged:.1f}%" if judged else "-"
    print(f"| {f} | {c['all']} | {c['Unviable']} | {c['CaughtMutant']} | {c['other']} | "
          f"{c['listed']} | {c['MissedMutant'] - c['listed']} | {c['Timeout']} | {score} |")
for n in survivors:
    print(f"SURVIVOR {n}")
for n in timeouts:
    print(f"TIMEOUT {n}")
for n in otherwise:
    print(f"CAUGHT NOT BY A MISMATCH (an error or a panic: look at its log) {n}")
sys.exit(1 if survivors or timeouts else 0)
EOF
}
if [ -n "$summarize" ]; then
    summary "$summarize"
    exit
fi

case "$jobs" in '' | *[!0-9]* | 0) echo "mutants.sh: --jobs must be a positive number" >&2; exit 2 ;; esac
if [ -n "$shard" ] && ! [[ "$shard" =~ ^[0-9]+/[1-9][0-9]*$ && ${shard%/*} -lt ${shard#*/} ]]; then
    echo "mutants.sh: --shard must be K/N with 0 <= K < N" >&2
    exit 2
fi
[ ${#files[@]} -gt 0 ] || files=(mldsa/src/scheme.rs mldsa/src/raw.rs mldsa/src/api.rs
    'mldsa/src/sample/*.rs' mldsa/src/keccak.rs mldsa/src/backend/portable.rs)

if ! cargo mutants --version 2>/dev/null | grep -qx "cargo-mutants $version"; then
    if [ "$install" = 1 ]; then
        cargo install --locked "cargo-mutants@$version"
    else
        echo "mutants.sh: cargo-mutants $version is not installed (cargo install --locked cargo-mutants@$version, or --install)" >&2
        exit 2
    fi
fi

args=(--package mldsa --test-package mldsa-diff --features mutants
    --cargo-arg=--test=default_check --profile=release --baseline=skip
    --timeout 300 --build-timeout 900 --jobs "$jobs" --output "$out" --no-shuffle)
for f in "${files[@]}"; do args+=(--file "$f"); done
for r in "${res[@]}"; do args+=(--re "$r"); done
[ -z "$shard" ] || args+=(--shard "$shard" --sharding round-robin)
if [ "$list" = 1 ]; then
    exec cargo mutants "${args[@]}" --list
fi

# The check reads the vectors from a copy of the tree elsewhere: name them absolutely.
vectors=${MLDSA_VECTORS:-$root/../shared/vectors}
[ -d "$vectors/acvp" ] || { echo "mutants.sh: no vectors at $vectors (MLDSA_VECTORS; scripts/fetch-vectors.sh)" >&2; exit 2; }
export MLDSA_VECTORS
MLDSA_VECTORS=$(cd "$vectors" && pwd)
export MLDSA_MUTANTS_CHECK_ARGS="--fail-fast $check_args"
# Incremental release builds: a mutant changes one function, and rebuilding the library and
# the harness from their incremental caches takes a tenth of a clean build.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-1}
# cargo-mutants' own baseline runs the tests of the mutated package (mldsa), not those of
# --test-package, so it is skipped and the unmutated tree's check runs here first: a check
# that fails without a mutant would count every mutant as caught.
echo "mutants.sh: the baseline: the default check on the unmutated tree" >&2
cargo test --locked --release -p mldsa-diff --features mutants --test default_check
mkdir -p "$out"
status=0
cargo mutants "${args[@]}" || status=$?
# cargo-mutants: 0 all caught, 2 survivors, 3 timeouts, 4 the baseline failed; other: error.
case "$status" in
0 | 2 | 3) summary "$out" ;;
*) echo "mutants.sh: cargo mutants failed (exit $status)" >&2; exit 2 ;;
esac
