#!/usr/bin/env bash
# Coverage-guided differential fuzzing: what the nightly job runs.
#
#   scripts/fuzz.sh [--minutes-per-target M | --seconds-per-target S] [--jobs N]
#                   [--shard I/N] [--trace-compares] [TARGET...]
#   scripts/fuzz.sh --planted [--seconds-per-target S] [--shard I/N] [TARGET...]
#   scripts/fuzz.sh --cmin [--shard I/N] [TARGET...]
#
# Builds every target (or those named) with the nightly toolchain under AddressSanitizer
# with debug assertions, seeds missing corpora with `mldsa-diff corpus`, runs each target for
# its budget on all cores (libFuzzer fork mode, new coverage merged into fuzz/corpus/<t>),
# and on a failure minimises the input, writes the mldsa-diff mismatch report next to it and
# prints (and writes to <input>.replay.txt and fuzz/artifacts/<t>/FAILED.md) the commands that
# reproduce it. The last lines summarise each target: execs, exec/s, corpus size, coverage,
# crashes. A target that fails in any way (a crash, a timeout, a crash while loading the
# corpus, a log without a libFuzzer status line) is reported and the next target still runs.
# Exit status 1 if any target failed, 2 on a usage error.
#
# --shard I/N  run only shard I of N (I in 1..N): the targets, in `mldsa-diff list --names`
#              order (or the order given), dealt round-robin, so shard I takes the targets at
#              positions I, I+N, I+2N, ... (1-based). Round-robin spreads the slow end-to-end
#              targets (keygen/sign/verify) over the shards; the N shards together run every
#              target exactly once.
# --planted    builds with the never-default feature planted-bugs and runs each target with
#              MLDSA_PLANTED_BUG set to the kernel its check covers (`mldsa-diff planted-bug
#              <t>`): each target must then find a mismatch; the summary gives the time to
#              detect.
# --trace-compares  build with libFuzzer's comparison tracing (cargo fuzz's default; off here):
#              it feeds the operands of every compare to the mutator, which cannot solve the
#              compares that matter here (against hashes, or against values the generators
#              already draw from each kernel's contract), and it was half of an end-to-end
#              target's time (verify_44: 867 exec/s with it, 1,865 without). BENCHMARKS.md
#              has the tables: the same coverage either way, and every planted bug tried was
#              found in 0.6 to 1.4 s either way.
# --list       print the targets this invocation would run (after --shard) and exit.
# --cmin       minimise each target's corpus (cargo fuzz cmin) instead of fuzzing (by hand:
#              the shared corpus is minimised by ClusterFuzzLite's daily prune).
#
# Environment: FUZZ_TOOLCHAIN (default nightly) is the toolchain cargo fuzz runs with (CI pins a
# dated nightly); CUSTOM_LIBFUZZER_PATH, if set, is the libFuzzer to link; FUZZ_FEATURES adds
# features to the fuzz build (see below).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "fuzz.sh: $*" >&2; echo "(scripts/fuzz.sh --help for usage)" >&2; exit 2; }
# need OPTION "$@": the option's value, or a clear error when it is missing.
need() { if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then die "option $1 needs a value"; fi; }
is_uint() { case "$1" in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }

seconds=60
jobs=$(nproc)
planted=0
trace_compares=0
list_only=0
cmin=0
shard_i=1
shard_n=1
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes-per-target) need "$@"; is_uint "$2" || die "--minutes-per-target: not a number: $2"; seconds=$(( $2 * 60 )); shift 2 ;;
        --seconds-per-target) need "$@"; is_uint "$2" || die "--seconds-per-target: not a number: $2"; seconds=$2; shift 2 ;;
        --jobs) need "$@"; if ! is_uint "$2" || [ "$2" -lt 1 ]; then die "--jobs: not a positive number: $2"; fi; jobs=$2; shift 2 ;;
        --shard)
            need "$@"
            case "$2" in
                */*) shard_i=${2%/*}; shard_n=${2#*/} ;;
                *) die "--shard wants I/N (e.g. 2/4), got: $2" ;;
            esac
            if ! is_uint "$shard_i" || ! is_uint "$shard_n" || [ "$shard_i" -lt 1 ] || [ "$shard_i" -gt "$shard_n" ]; then
                die "--shard wants I/N with 1 <= I <= N, got: $2"
            fi
            shift 2 ;;
        --planted) planted=1; shift ;;
        --trace-compares) trace_compares=1; shift ;;
        --list) list_only=1; shift ;;
        --cmin) cmin=1; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) targets+=("$1"); shift ;;
    esac
done
toolchain=${FUZZ_TOOLCHAIN:-nightly}

# Built before RUSTFLAGS is set below, so it shares target/release with `cargo run --release`.
cargo build -q --release -p mldsa-diff
diff_bin="$root/target/release/mldsa-diff"
mapfile -t all_targets < <("$diff_bin" list --names)
# Membership tests read a here-string, not a pipe: `grep -q` exits at the first match, and
# under pipefail the writer's SIGPIPE would turn a match into a failure (seen in CI).
in_list() { local x=$1; shift; grep -qxF -- "$x" <<<"$(printf '%s\n' "$@")"; }
if [ ${#targets[@]} -eq 0 ]; then
    targets=("${all_targets[@]}")
fi
for t in "${targets[@]}"; do
    in_list "$t" "${all_targets[@]}" || die "no fuzz target $t (mldsa-diff list --names)"
done
if [ "$shard_n" -gt 1 ]; then
    mine=()
    for k in "${!targets[@]}"; do
        [ $(( k % shard_n + 1 )) -eq "$shard_i" ] && mine+=("${targets[$k]}")
    done
    targets=("${mine[@]}")
fi
if [ "$list_only" = 1 ]; then
    [ ${#targets[@]} -eq 0 ] || printf '%s\n' "${targets[@]}"
    exit 0
fi
if [ ${#targets[@]} -eq 0 ]; then
    echo "shard $shard_i/$shard_n has no targets"
    exit 0
fi
# cargo fuzz sets RUSTFLAGS, which replaces .cargo/config.toml's: pass the getrandom cfg here.
export RUSTFLAGS="${RUSTFLAGS:-} --cfg getrandom_backend=\"custom\""
if ! fuzz_version=$(cargo "+$toolchain" fuzz --version 2>&1); then
    echo "$fuzz_version" >&2
    echo "cargo-fuzz or the $toolchain toolchain is missing: cargo install cargo-fuzz; rustup toolchain install $toolchain" >&2
    exit 2
fi

# libFuzzer itself without AddressSanitizer. libfuzzer-sys compiles libFuzzer with the cc
# crate, which copies -Zsanitizer=address from RUSTFLAGS into the C++ flags: the engine's own
# bookkeeping (feature collection, entropic frequencies) then runs instrumented, about a third
# of each kernel target's time. Our Rust and the PQClean C code stay instrumented; an ASan
# binary does not need the fuzzing engine instrumented. CUSTOM_LIBFUZZER_PATH set by the
# caller wins.
if [ -z "${CUSTOM_LIBFUZZER_PATH:-}" ]; then
    lf_manifest=$(cargo metadata --manifest-path fuzz/Cargo.toml --format-version 1 2>/dev/null \
        | grep -o '"manifest_path":"[^"]*/libfuzzer-sys-[^"/]*/Cargo.toml"' | head -n1 \
        | sed 's/"manifest_path":"//; s/"$//' || true)
    [ -n "$lf_manifest" ] || { echo "cannot locate libfuzzer-sys sources (cargo metadata)" >&2; exit 2; }
    lf_src=$(dirname "$lf_manifest")/libfuzzer
    lf_out="$root/fuzz/target/libfuzzer-plain/$(basename "$(dirname "$lf_manifest")")"
    if [ ! -f "$lf_out/libfuzzer.a" ]; then
        echo "== building libFuzzer without sanitizers ($lf_src)"
        mkdir -p "$lf_out/obj"
        export lf_out
        # shellcheck disable=SC2016 # $1 and $lf_out are expanded by the inner sh, per file
        printf '%s\0' "$lf_src"/*.cpp | xargs -0 -P "$(nproc)" -I{} sh -c \
            '"${CXX:-c++}" -O2 -g -std=c++17 -fno-omit-frame-pointer -w -c "$1" -o "$lf_out/obj/$(basename "$1" .cpp).o"' _ {}
        rm -f "$lf_out/libfuzzer.a.tmp"
        ar rcs "$lf_out/libfuzzer.a.tmp" "$lf_out"/obj/*.o
        mv "$lf_out/libfuzzer.a.tmp" "$lf_out/libfuzzer.a"
    fi
    export CUSTOM_LIBFUZZER_PATH="$lf_out/libfuzzer.a"
fi

features=()
[ "$planted" = 1 ] && features=(--features planted-bugs)
# FUZZ_FEATURES (extra features of the fuzz crate) exercises the failure path on purpose:
# FUZZ_FEATURES=planted-bugs MLDSA_PLANTED_BUG=<bug> scripts/fuzz.sh <target> must fail.
[ -n "${FUZZ_FEATURES:-}" ] && features+=(--features "$FUZZ_FEATURES")
fuzz_flags=(-O --debug-assertions "${features[@]}")
[ "$trace_compares" = 1 ] || fuzz_flags+=(--no-trace-compares)

echo "== building ${#targets[@]} fuzz targets (shard $shard_i/$shard_n, toolchain $toolchain)"
# Every target at once when all run; else only those this run (or shard) needs.
if [ ${#targets[@]} -eq ${#all_targets[@]} ]; then
    (cd fuzz && cargo "+$toolchain" fuzz build "${fuzz_flags[@]}")
else
    for t in "${targets[@]}"; do
        (cd fuzz && cargo "+$toolchain" fuzz build "${fuzz_flags[@]}" "$t")
    done
fi

# The commands that reproduce what the fuzzer saw on INPUT (relative to the project root):
# mldsa-diff built with the test profile (debug assertions and overflow checks, as the fuzz
# build has; a --release replay has neither), and the fuzz binary itself (AddressSanitizer too).
replay_commands() {
    local t=$1 input=$2
    echo "cargo run -p mldsa-diff --profile test -- replay --check $t $input"
    echo "(cd fuzz && RUSTFLAGS='--cfg getrandom_backend=\"custom\"' cargo +$toolchain fuzz run ${fuzz_flags[*]} $t ../$input)"
}

# newest DIR PATTERN...: the most recently modified file in DIR matching one of the patterns.
newest() {
    local dir=$1 expr=() p
    shift
    for p in "$@"; do expr+=(${expr[0]+-o} -name "$p"); done
    find "$dir" -maxdepth 1 -type f \( "${expr[@]}" \) -printf '%T@ %p\n' 2>/dev/null \
        | sort -rn | head -1 | cut -d' ' -f2-
}

# Every input of target T's corpus through every implementation here: libFuzzer compares the
# end-to-end checks with a fast subset (MLDSA_FUZZ_ORACLES, default `fast`: no RustCrypto, no
# fips204, no foreign portable build beside its SIMD build), so that it explores at several
# times the speed; this replay compares each input with all of them once.
replay_corpus() {
    local t=$1 out n
    out="$sum_dir/$t.replay"
    n=$( (find "fuzz/corpus/$t" -maxdepth 1 -type f 2>/dev/null || true) | wc -l)
    if find "fuzz/corpus/$t" -maxdepth 1 -type f -print0 \
        | xargs -0 -r -n 256 "$diff_bin" replay --check "$t" >"$out" 2>&1; then
        echo "   $t: $n corpus inputs replayed through every implementation, no difference"
        return 0
    fi
    echo "== $t FAILED: replaying its corpus through every implementation found a difference:"
    grep -B4 -A2 -e DIFFERS -e 'mldsa-diff:' "$out" | head -40
    return 1
}

sum_dir=$(mktemp -d)
trap 'rm -rf "$sum_dir"' EXIT

# Fuzzes one target; writes its summary line to $sum_dir/<t>.line and returns non-zero if the
# target failed. Runs in a subshell of its own under `set -e`: an unexpected error inside ends
# this target only (it is then reported as an error), never the whole run.
fuzz_one() {
    local t=$1 corpus="fuzz/corpus/$1" log start rc secs found bug last execs execs_per_sec cov size crashes
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
        "$diff_bin" corpus --out fuzz/corpus --only "$t" --count 300 >/dev/null
    fi
    mkdir -p "$corpus"
    log="$sum_dir/$t.log"
    start=$(date +%s.%N)
    if [ "$planted" = 1 ]; then
        bug=$("$diff_bin" planted-bug "$t")
        mkdir -p target/planted-artifacts
        rc=0
        (cd fuzz && MLDSA_PLANTED_BUG=$bug cargo "+$toolchain" fuzz run "${fuzz_flags[@]}" "$t" \
            -- -max_total_time="$seconds" -max_len=65536 -timeout=20 -print_final_stats=1 \
               -artifact_prefix="$root/target/planted-artifacts/$t-" >"$log" 2>&1) || rc=$?
        secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
        found=$(grep -c -e "disagrees at" -e "contract violated" "$log" || true)
        if [ "$rc" != 0 ] && [ "$found" != 0 ]; then
            printf '%-26s %-26s detected in %6ss\n' "$t" "$bug" "$secs" >"$sum_dir/$t.line"
            return 0
        fi
        printf '%-26s %-26s NOT DETECTED in %ss\n' "$t" "$bug" "$secs" >"$sum_dir/$t.line"
        echo "== $t: planted bug $bug NOT DETECTED (exit $rc); last lines of its log:"
        tail -15 "$log"
        return 1
    fi
    rc=0
    (cd fuzz && cargo "+$toolchain" fuzz run "${fuzz_flags[@]}" "$t" "corpus/$t" \
        -- -max_total_time="$seconds" -fork="$jobs" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
           -print_final_stats=1 >"$log" 2>&1) || rc=$?
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(echo "$last" | sed -nE 's/^#([0-9]+).*/\1/p')
    execs_per_sec=$(echo "$last" | grep -oE 'exec/s:? [0-9]+' | grep -oE '[0-9]+' || true)
    cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || true)
    # (pipefail: a missing directory is no crash, not a failed pipeline)
    size=$( (find "$corpus" -maxdepth 1 -type f 2>/dev/null || true) | wc -l)
    crashes=$( (find "fuzz/artifacts/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null || true) | wc -l)
    printf '%-26s %12s %9s %8s %8s %8s\n' "$t" "${execs:--}" "${execs_per_sec:--}" "$size" "${cov:--}" "$crashes" >"$sum_dir/$t.line"
    if [ "$rc" = 0 ] && [ -n "$last" ]; then
        replay_corpus "$t"
        return
    fi
    if [ "$rc" = 0 ]; then
        echo "== $t FAILED: libFuzzer printed no status line; last lines of its log:"
    else
        echo "== $t FAILED (exit $rc); last lines of its log:"
    fi
    tail -25 "$log"
    local artifact min input
    artifact=$(newest "fuzz/artifacts/$t" 'crash-*' 'timeout-*' 'oom-*' || true)
    mkdir -p "fuzz/artifacts/$t"
    cp "$log" "fuzz/artifacts/$t/fuzz.log"
    if [ -z "$artifact" ]; then
        {
            echo "# fuzz target \`$t\` failed without a failing input (exit $rc)"
            echo
            echo "The log (fuzz/artifacts/$t/fuzz.log) ends with:"
            echo '```'
            tail -40 "$log"
            echo '```'
            echo "Rerun it: \`scripts/fuzz.sh --seconds-per-target $seconds $t\`"
        } >"fuzz/artifacts/$t/FAILED.md"
        return 1
    fi
    (cd fuzz && cargo "+$toolchain" fuzz tmin "${fuzz_flags[@]}" "$t" "../$artifact" -- -runs=2000 >/dev/null 2>&1) || true
    min=$(find "fuzz/artifacts/$t" -maxdepth 1 -type f -name 'minimized-from-*' ! -name '*.report.json' ! -name '*.replay.txt' \
        -printf '%T@ %p\n' | sort -rn | head -1 | cut -d' ' -f2- || true)
    input=${min:-$artifact}
    "$diff_bin" replay --check "$t" "$input" --report-out "$input.report.json" || true
    replay_commands "$t" "$input" >"$input.replay.txt"
    echo "== reproduce (debug assertions, as the fuzzer built it):"
    sed -n 1p "$input.replay.txt" | sed 's/^/     /'
    echo "== reproduce with the fuzz binary itself (AddressSanitizer and debug assertions):"
    sed -n 2p "$input.replay.txt" | sed 's/^/     /'
    echo "== keep it as a regression:  scripts/promote-crash.sh $input"
    {
        echo "# fuzz target \`$t\` failed (exit $rc)"
        echo
        echo "Minimised input \`$input\` ($(wc -c <"$input") bytes), hex:"
        echo '```'
        od -An -v -tx1 "$input" | tr -d ' \n' | fold -w 96 | head -40
        echo
        echo '```'
        echo "Reproduce (fetch the input from the run's artifacts into the same path):"
        echo '```sh'
        cat "$input.replay.txt"
        echo '```'
        if [ -s "$input.report.json" ]; then
            echo "Mismatch report (\`$input.report.json\`):"
            echo '```json'
            head -c 6000 "$input.report.json"
            echo
            echo '```'
        fi
        echo "The fuzzer's log ends with:"
        echo '```'
        tail -25 "$log"
        echo '```'
        echo "Keep it as a regression: \`scripts/promote-crash.sh $input\`"
    } >"fuzz/artifacts/$t/FAILED.md"
    return 1
}

if [ "$cmin" = 1 ]; then
    failed=0
    for t in "${targets[@]}"; do
        [ -d "fuzz/corpus/$t" ] || continue
        before=$(find "fuzz/corpus/$t" -type f | wc -l)
        if (cd fuzz && cargo "+$toolchain" fuzz cmin "${fuzz_flags[@]}" "$t" "corpus/$t" -- -rss_limit_mb=4096 -timeout=20 >"$sum_dir/$t.log" 2>&1); then
            echo "cmin $t: $before -> $(find "fuzz/corpus/$t" -type f | wc -l) inputs"
        else
            echo "cmin $t FAILED; last lines of its log:"
            tail -15 "$sum_dir/$t.log"
            failed=1
        fi
    done
    exit "$failed"
fi

failed=0
for t in "${targets[@]}"; do
    set +e
    (set -e; fuzz_one "$t")
    rc=$?
    set -e
    if [ "$rc" != 0 ]; then
        failed=1
        if [ ! -s "$sum_dir/$t.line" ]; then
            printf '%-26s ERROR (exit %s), see the log above\n' "$t" "$rc" >"$sum_dir/$t.line"
            echo "== $t: the script failed (exit $rc) before summarising it; last lines of its log:"
            tail -15 "$sum_dir/$t.log" 2>/dev/null || echo "   (no log)"
        fi
        [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "fuzz/artifacts/$t/FAILED.md" ] \
            && cat "fuzz/artifacts/$t/FAILED.md" >>"$GITHUB_STEP_SUMMARY"
    fi
    echo "done: $(cat "$sum_dir/$t.line")"
done

echo
if [ "$planted" = 1 ]; then
    printf '%-26s %-26s %s\n' target planted-bug time-to-detect
else
    printf '%-26s %12s %9s %8s %8s %8s\n' target execs exec/s corpus cov crashes
fi
for t in "${targets[@]}"; do cat "$sum_dir/$t.line"; done
exit "$failed"
