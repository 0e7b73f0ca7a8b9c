#!/usr/bin/env bash
# Runs `mldsa-diff check` once under AddressSanitizer, with reduced case counts.
#
#   scripts/asan-check.sh [--cases N] [--e2e-cases N] [--toolchain T]
#
# Builds mldsa-diff (release) with the nightly toolchain and -Zsanitizer=address for the
# host target (sanitizers need an explicit --target; the Rust code and, through the cc
# crate, PQClean's C code are instrumented) into target/asan, then runs
# `check --cases N --e2e-cases N` (default 300 and 10). Fails on any mismatch and on any
# AddressSanitizer or LeakSanitizer report. The guard bytes mldsa-diff puts around every
# output buffer catch out-of-bounds writes in release builds too; this run also catches
# reads, and writes that land inside a guard's blind spot.
#
# Environment: ASAN_TOOLCHAIN (default nightly) is the toolchain; ASAN_OPTIONS is passed on
# (default: halt and exit non-zero on the first report).
# Exit status 1 on a finding or a mismatch, 2 on a usage error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "asan-check.sh: $*" >&2; echo "(scripts/asan-check.sh --help for usage)" >&2; exit 2; }
# need OPTION "$@": the option's value, or a clear error when it is missing.
need() { if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then die "option $1 needs a value"; fi; }
is_uint() { case "$1" in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }

cases=300
e2e_cases=10
toolchain=${ASAN_TOOLCHAIN:-nightly}
while [ $# -gt 0 ]; do
    case "$1" in
        --cases) need "$@"; is_uint "$2" || die "--cases: not a number: $2"; cases=$2; shift 2 ;;
        --e2e-cases) need "$@"; is_uint "$2" || die "--e2e-cases: not a number: $2"; e2e_cases=$2; shift 2 ;;
        --toolchain) need "$@"; toolchain=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument $1" ;;
    esac
done

if ! cargo_version=$(cargo "+$toolchain" --version 2>&1); then
    echo "$cargo_version" >&2
    echo "asan-check.sh: the $toolchain toolchain is missing: rustup toolchain install $toolchain" >&2
    exit 2
fi
host=$(rustc "+$toolchain" -vV | sed -n 's/^host: //p')
# RUSTFLAGS replaces .cargo/config.toml's flags: keep the getrandom cfg the harness needs.
export RUSTFLAGS="-Zsanitizer=address --cfg getrandom_backend=\"custom\""
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:exitcode=86:detect_leaks=1}

start=$SECONDS
echo "== building mldsa-diff under AddressSanitizer ($toolchain, $host)"
# libcrux-ml-dsa at opt-level 1: the largest crate of the build (about 100 s at 3, 25 s at 1
# here); the check runs it on a few cases, and AddressSanitizer is what this is for.
cargo "+$toolchain" build --release -p mldsa-diff --target "$host" --target-dir target/asan \
    --config 'profile.release.package.libcrux-ml-dsa.opt-level=1'
built=$SECONDS
bin="target/asan/$host/release/mldsa-diff"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== $bin check --cases $cases --e2e-cases $e2e_cases"
rc=0
# --no-published: the published verify vectors are the full check's (the nightly job that
# fetches them); this job is for memory errors and has no vectors.
"$bin" check --no-progress --no-published --cases "$cases" --e2e-cases "$e2e_cases" \
    --report-dir target/asan-reports 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
echo "== build $((built - start))s, check $((SECONDS - built))s"
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)' "$log"; then
    echo "asan-check.sh: FAILED: AddressSanitizer report (above)" >&2
    exit 1
fi
if [ "$rc" != 0 ]; then
    echo "asan-check.sh: FAILED: mldsa-diff check exited $rc" >&2
    exit 1
fi
echo "asan-check.sh: no AddressSanitizer report, no mismatch"
