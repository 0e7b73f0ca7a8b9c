#!/usr/bin/env bash
# The constant-time test: keygen and signing under valgrind memcheck with every secret input
# marked undefined (xi; K, s1, s2, t0, rnd), declassified only where FIPS 204 lets
# information go (src/ct.rs). Any other secret-dependent branch or memory index is a
# valgrind report, and fails the run. Then it shows the test can fail: the harness's
# deliberately branchy decompose (--branchy) must be reported.
#   scripts/ct-valgrind.sh [--backend B]... [--keys N] [--sigs N] [--no-branchy]
#                          [--target-dir DIR]
#   --backend     a backend to test (repeatable; default: MLDSA_BACKEND if set, else portable
#                 plus avx2 on x86_64, neon on aarch64); a missing one fails the run
#   --keys N      keys per parameter set (default 4)
#   --sigs N      signatures per key (default 8)
#   --no-branchy  skip the run that must fail
#   --target-dir  where to build (default target/ct-valgrind); DIR/summary.tsv gets one line
#                 per step (build, each backend, branchy): name, pass or FAIL, seconds
# Builds mldsa/examples/ct_valgrind.rs (as the package ct-valgrind/, so that mldsa's
# dev-dependencies are not built) in release (no debug assertions or overflow checks: neither
# is constant time) with feature ct-valgrind and line tables for readable reports. The build
# takes the usual settings from the environment (CARGO_PROFILE_RELEASE_*, RUSTFLAGS,
# RUSTUP_TOOLCHAIN, CARGO_BUILD_JOBS): scripts/ct-matrix.sh runs it over a matrix of them.
# Needs valgrind with its headers (Debian: valgrind; installed with apt-get when run as root)
# on the machine itself: valgrind does not run under qemu-user.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "ct-valgrind.sh: option $1 needs a value" >&2
        exit 2
    fi
}
number() {
    case "$2" in
        '' | *[!0-9]* | 0) echo "ct-valgrind.sh: $1: not a positive number: $2" >&2; exit 2 ;;
    esac
}
backends=()
keys=4
sigs=8
branchy=1
target_dir=target/ct-valgrind
while [ $# -gt 0 ]; do
    case "$1" in
        --backend) need "$@"; backends+=("$2"); shift 2 ;;
        --keys) need "$@"; number "$1" "$2"; keys=$2; shift 2 ;;
        --sigs) need "$@"; number "$1" "$2"; sigs=$2; shift 2 ;;
        --no-branchy) branchy=0; shift ;;
        --target-dir) need "$@"; target_dir=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "ct-valgrind.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ ${#backends[@]} = 0 ]; then
    if [ -n "${MLDSA_BACKEND:-}" ]; then
        backends=("$MLDSA_BACKEND")
    else
        case "$(uname -m)" in
            x86_64) backends=(portable avx2) ;;
            aarch64 | arm64) backends=(portable neon) ;;
            *) backends=(portable) ;;
        esac
    fi
fi

if ! command -v valgrind >/dev/null || { [ ! -f /usr/include/valgrind/memcheck.h ] && [ -z "${VALGRIND_INCLUDE:-}" ]; }; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== apt-get install valgrind"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "valgrind is missing: sudo apt-get install valgrind (or set VALGRIND_INCLUDE to the directory holding valgrind/memcheck.h)" >&2
        exit 1
    fi
fi
valgrind --version

mkdir -p "$target_dir"
summary=$target_dir/summary.tsv
: >"$summary"
echo "== build (release, feature ct-valgrind): $(cargo --version)"
t0=$SECONDS
rc=0
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    cargo build --release --locked --manifest-path ct-valgrind/Cargo.toml \
    --target-dir "$target_dir" || rc=$?
if [ "$rc" != 0 ]; then
    printf 'build\tFAIL\t%s\n' "$((SECONDS - t0))" >>"$summary"
    echo "ct-valgrind: FAILED: the build (exit $rc)"
    exit 1
fi
printf 'build\tpass\t%s\n' "$((SECONDS - t0))" >>"$summary"
bin=$target_dir/release/ct_valgrind

# 99 when valgrind reported (to tell it from a failure of the harness itself). VEX's
# translation of the AVX2 Keccak overflows its temporary storage in valgrind 3.19 with the
# default superblock size; 25 guest instructions per superblock avoids it.
vg=(valgrind --error-exitcode=99 --track-origins=yes --vex-guest-max-insns=25)
failed=()
times=()
for b in "${backends[@]}"; do
    log=$target_dir/memcheck-$b.log
    echo "== $b: ${vg[*]} $bin --keys $keys --sigs $sigs (log: $log)"
    t0=$SECONDS
    rc=0
    MLDSA_BACKEND=$b "${vg[@]}" --log-file="$log" "$bin" --keys "$keys" --sigs "$sigs" || rc=$?
    times+=("$b: $((SECONDS - t0))s")
    printf '%s\t%s\t%s\n' "$b" "$([ "$rc" = 0 ] && echo pass || echo FAIL)" "$((SECONDS - t0))" >>"$summary"
    if [ "$rc" != 0 ]; then
        failed+=("$b")
        echo "   FAILED ($b): exit $rc$([ "$rc" = 99 ] && echo ", valgrind reported a secret-dependent branch or index"). The report:"
        head -n 200 "$log"
    fi
done

if [ "$branchy" = 1 ]; then
    log=$target_dir/memcheck-branchy.log
    echo "== the test can fail: --branchy (a decompose that branches on a coefficient) must be reported"
    t0=$SECONDS
    rc=0
    "${vg[@]}" --log-file="$log" "$bin" --branchy --keys 1 --sigs 1 >/dev/null || rc=$?
    times+=("branchy: $((SECONDS - t0))s")
    if [ "$rc" = 99 ] && grep -q "branchy_decompose" "$log"; then
        printf 'branchy\tpass\t%s\n' "$((SECONDS - t0))" >>"$summary"
        echo "   caught: $(grep -c "Conditional jump or move depends on uninitialised" "$log") distinct report(s), in branchy_decompose, e.g.:"
        grep -m1 -A3 "Conditional jump or move depends on uninitialised" "$log"
    else
        failed+=(branchy)
        printf 'branchy\tFAIL\t%s\n' "$((SECONDS - t0))" >>"$summary"
        echo "   FAILED: the branchy decompose was not reported (exit $rc, want 99 and a report in branchy_decompose):"
        head -n 100 "$log"
    fi
fi

echo "== times: ${times[*]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "ct-valgrind: FAILED: ${failed[*]}"
    exit 1
fi
echo "ct-valgrind: no secret-dependent branch or index on ${backends[*]}; the branchy kernel is caught"
