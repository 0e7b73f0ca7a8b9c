#!/usr/bin/env bash
# Coverage-guided differential fuzzing: what the nightly job runs.
#
#   scripts/fuzz.sh [--minutes-per-target M | --seconds-per-target S] [--jobs N] [TARGET...]
#   scripts/fuzz.sh --planted [--seconds-per-target S] [TARGET...]
#
# Builds every target (or those named) with the nightly toolchain under AddressSanitizer
# with debug assertions, seeds missing corpora with `mldsa-diff corpus`, runs each target for
# its budget on all cores (libFuzzer fork mode, new coverage merged into fuzz/corpus/<t>),
# and on a failure minimises the input, writes the mldsa-diff mismatch report next to it and
# prints the replay command. The last lines summarise each target: execs, exec/s, corpus
# size, coverage, crashes. Exit status 1 if any target failed.
#
# --planted builds with the never-default feature planted-bugs and runs each target with
# MLDSA_PLANTED_BUG set to the kernel its check covers (`mldsa-diff planted-bug <t>`): each
# target must then find a mismatch; the summary gives the time to detect.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=60
jobs=$(nproc)
planted=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes-per-target) seconds=$(( $2 * 60 )); shift 2 ;;
        --seconds-per-target) seconds=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --planted) planted=1; shift ;;
        -h|--help) sed -n 2,18p "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done

# cargo fuzz sets RUSTFLAGS, which replaces .cargo/config.toml's: pass the getrandom cfg here.
export RUSTFLAGS="${RUSTFLAGS:-} --cfg getrandom_backend=\"custom\""
cargo +nightly fuzz --version >/dev/null 2>&1 || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 2; }

cargo build -q --release -p mldsa-diff
diff_bin="$root/target/release/mldsa-diff"
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <("$diff_bin" list --names)
fi

# libFuzzer itself without AddressSanitizer. libfuzzer-sys compiles libFuzzer with the cc
# crate, which copies -Zsanitizer=address from RUSTFLAGS into the C++ flags: the engine's own
# bookkeeping (feature collection, entropic frequencies) then runs instrumented, about a third
# of each kernel target's time. Our Rust and the PQClean C code stay instrumented; an ASan
# binary does not need the fuzzing engine instrumented. CUSTOM_LIBFUZZER_PATH set by the
# caller wins.
if [ -z "${CUSTOM_LIBFUZZER_PATH:-}" ]; then
    lf_manifest=$(cd fuzz && cargo metadata --format-version 1 2>/dev/null \
        | grep -o '"manifest_path":"[^"]*/libfuzzer-sys-[^"/]*/Cargo.toml"' | head -n1 \
        | sed 's/"manifest_path":"//; s/"$//')
    [ -n "$lf_manifest" ] || { echo "cannot locate libfuzzer-sys sources (cargo metadata)" >&2; exit 2; }
    lf_src=$(dirname "$lf_manifest")/libfuzzer
    lf_out="$root/fuzz/target/libfuzzer-plain/$(basename "$(dirname "$lf_manifest")")"
    if [ ! -f "$lf_out/libfuzzer.a" ]; then
        echo "== building libFuzzer without sanitizers ($lf_src)"
        mkdir -p "$lf_out/obj"
        export lf_out
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
fuzz_flags=(-O --debug-assertions "${features[@]}")

echo "== building ${#targets[@]} fuzz targets"
if [ ${#targets[@]} -eq 1 ]; then
    (cd fuzz && cargo +nightly fuzz build "${fuzz_flags[@]}" "${targets[0]}")
else
    (cd fuzz && cargo +nightly fuzz build "${fuzz_flags[@]}")
fi

summary=()
failed=0
for t in "${targets[@]}"; do
    corpus="fuzz/corpus/$t"
    if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
        "$diff_bin" corpus --out fuzz/corpus --only "$t" --count 300 >/dev/null
    fi
    log=$(mktemp)
    start=$(date +%s.%N)
    if [ "$planted" = 1 ]; then
        bug=$("$diff_bin" planted-bug "$t")
        set +e
        (cd fuzz && MLDSA_PLANTED_BUG=$bug cargo +nightly fuzz run "${fuzz_flags[@]}" "$t" \
            -- -max_total_time="$seconds" -max_len=65536 -timeout=20 -print_final_stats=1 \
               -artifact_prefix="$root/target/planted-artifacts/$t-" >"$log" 2>&1)
        rc=$?
        set -e
        mkdir -p target/planted-artifacts
        secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
        found=$(grep -c -e "disagrees at" -e "contract violated" "$log" || true)
        if [ "$rc" != 0 ] && [ "$found" != 0 ]; then
            summary+=("$(printf '%-26s %-26s detected in %6ss' "$t" "$bug" "$secs")")
            echo "done: ${summary[-1]}"
        else
            summary+=("$(printf '%-26s %-26s NOT DETECTED in %ss' "$t" "$bug" "$secs")")
            failed=1
        fi
        rm -f "$log"
        continue
    fi
    set +e
    (cd fuzz && cargo +nightly fuzz run "${fuzz_flags[@]}" "$t" "corpus/$t" \
        -- -max_total_time="$seconds" -fork="$jobs" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
           -print_final_stats=1 >"$log" 2>&1)
    rc=$?
    set -e
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    execs=$(echo "$last" | sed -E 's/^#([0-9]+).*/\1/')
    execs_per_sec=$(echo "$last" | grep -oE 'exec/s:? [0-9]+' | grep -oE '[0-9]+' || echo 0)
    cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || echo 0)
    size=$(ls "$corpus" | wc -l)
    crashes=$(ls fuzz/artifacts/"$t" 2>/dev/null | grep -vc -e '^minimized' -e '\.report\.json$' || true)
    if [ "$rc" != 0 ]; then
        failed=1
        artifact=$(ls -t fuzz/artifacts/"$t"/crash-* fuzz/artifacts/"$t"/timeout-* fuzz/artifacts/"$t"/oom-* 2>/dev/null | head -1 || true)
        echo "== $t FAILED (exit $rc); last lines of its log:"
        tail -25 "$log"
        if [ -n "$artifact" ]; then
            (cd fuzz && cargo +nightly fuzz tmin "${fuzz_flags[@]}" "$t" "../$artifact" -- -runs=2000 >/dev/null 2>&1) || true
            min=$(ls -t fuzz/artifacts/"$t"/minimized-from-* 2>/dev/null | head -1 || true)
            input=${min:-$artifact}
            "$diff_bin" replay --check "$t" "$input" --report-out "$input.report.json" || true
            echo "== reproduce on any machine: cargo run --release -p mldsa-diff -- replay --check $t $input"
            echo "== keep it as a regression:  scripts/promote-crash.sh $input"
        fi
    fi
    rm -f "$log"
    summary+=("$(printf '%-26s %12s %9s %8s %8s %8s' "$t" "${execs:-0}" "${execs_per_sec:-0}" "$size" "$cov" "$crashes")")
    echo "done: ${summary[-1]}"
done

echo
if [ "$planted" = 1 ]; then
    printf '%-26s %-26s %s\n' target planted-bug time-to-detect
else
    printf '%-26s %12s %9s %8s %8s %8s\n' target execs exec/s corpus cov crashes
fi
printf '%s\n' "${summary[@]}"
exit "$failed"
