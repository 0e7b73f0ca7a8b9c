#!/usr/bin/env bash
# Miri (undefined behaviour: out-of-bounds and misaligned accesses, use of uninitialised
# memory, aliasing violations, unsupported intrinsics) over the library's unit tests and the
# SIMD kernel tests (`cargo miri test -p mldsa`: mldsa's dev-dependencies are few and plain
# Rust; the benchmarks and their peers are mldsa-diff's).
#   scripts/miri.sh [--toolchain T] [--only portable|avx2] [--all] [--list]
#   --toolchain   the nightly to run Miri with (default: $MIRI_TOOLCHAIN, else the one
#                 .github/workflows/nightly.yml pins as MIRI_TOOLCHAIN: not every nightly
#                 ships Miri); the miri and rust-src components are added when missing
#   --only        run one of the two sets (default: both on x86_64, portable elsewhere)
#   --all         also the tests that take a minute or more each under Miri (the nightly job)
#   --list        print the tests of each set and exit
# The sets:
#   portable  the lib's unit tests below, built for the plain x86_64 (or host) target: Miri
#             has no CPUID, so run-time detection finds no SIMD backend and every kernel is
#             the portable one
#   avx2      (x86_64) built with -C target-feature=+avx2,+popcnt,+bmi1,+bmi2, so the AVX2 backend is
#             known at compile time: the lib's AVX2 tests and the kernel tests of
#             mldsa/tests/simd_kernels.rs (edge inputs and 3 random ones under Miri), with
#             MLDSA_REQUIRE_BACKENDS=avx2 so a build without it fails rather than pass empty
# Miri is about a thousand times slower than native code: without --all only the tests that
# take seconds run; --list names every set. Builds in target/miri and target/miri-avx2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "miri.sh: $*" >&2; exit 2; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        die "option $1 needs a value"
    fi
}
toolchain=${MIRI_TOOLCHAIN:-$(sed -n 's/^ *MIRI_TOOLCHAIN: *//p' .github/workflows/nightly.yml | head -n1)}
only=
all=0
list=0
while [ $# -gt 0 ]; do
    case "$1" in
        --toolchain) need "$@"; toolchain=$2; shift 2 ;;
        --only) need "$@"; only=$2; shift 2 ;;
        --all) all=1; shift ;;
        --list) list=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
case "$only" in '' | portable | avx2) ;; *) die "--only: portable or avx2, not $only" ;; esac
[ "$only" = avx2 ] && [ "$(uname -m)" != x86_64 ] && die "--only avx2 needs x86_64"

# The lib's unit tests that run under Miri in seconds (each is a test name, matched exactly).
portable_lib=(
    backend::contract::tests::bound_checks_match_the_definition
    backend::field::tests::keccak_round_constants
    backend::field::tests::montgomery_reduce_is_division_by_r
    backend::field::tests::reduce32_bounds_and_congruence
    backend::field::tests::zetas_match_definition
    params::tests::beta_is_tau_times_eta
    params::tests::lookup_by_name
    prehash::tests::names_round_trip_and_oids_distinct
    prehash::tests::sha256_of_abc
)
# The lib's unit tests of the AVX2 code (the avx2 set).
avx2_lib=(
    backend::avx2::keccak::tests::constants_match_portable
    backend::avx2::ntt::tests::transpose_is_a_transpose
)
# mldsa/tests/simd_kernels.rs: the tests that take under half a minute each under Miri.
avx2_kernels=(
    bounded_rejection_sampling
    elementwise_kernels
    keccak_four_way
    ntt_is_bit_identical_and_inverse_agrees
    ntt_order_conversion_round_trips
    rejection_sampling
    rounding_kernels
    unpacking
)
# With --all (the nightly job) also these, a minute or more each under Miri.
all_portable_lib=(
    backend::field::tests::make_hint_matches_fips_makehint
    backend::field::tests::power2round_reconstructs
    keccak::tests::matches_sha3_crate_across_block_boundaries
    keccak::tests::x4_matches_single_way
    sample::tests::div_rem_small_is_division
    sample::tests::mask_stream_is_expand_mask_attempt_after_attempt
    sample::tests::sample_in_ball_has_tau_signs
)
all_avx2_lib=(
    keccak::tests::x8_matches_single_way_on_every_backend
    sample::tests::expand_a_x4_matches_single_way
    sample::tests::matrix_rows_are_the_rows_of_expand_a
)
all_avx2_kernels=(
    hints_and_norm
    packing
    pointwise_products
)
# Never under Miri: too slow even for the nightly job (2^23 inputs), or not built here.
never=(
    "backend::field::tests::decompose_matches_fips_literal_for_every_input (every input)"
    "backend::planted::tests::* (feature planted-bugs; test-only fault injection)"
    "backend::neon::* and tests/neon_kernels.rs (aarch64; not tried: --target aarch64-unknown-linux-gnu)"
)

if [ "$all" = 1 ]; then
    portable_lib+=("${all_portable_lib[@]}")
    avx2_lib+=("${all_avx2_lib[@]}")
    avx2_kernels+=("${all_avx2_kernels[@]}")
fi
if [ "$list" = 1 ]; then
    echo "portable (lib):"; printf '  %s\n' "${portable_lib[@]}"
    echo "avx2 (lib, -C target-feature=+avx2,+popcnt,+bmi1,+bmi2):"; printf '  %s\n' "${avx2_lib[@]}"
    echo "avx2 (tests/simd_kernels.rs):"; printf '  %s\n' "${avx2_kernels[@]}"
    if [ "$all" = 0 ]; then
        echo "only with --all:"
        printf '  %s\n' "${all_portable_lib[@]}" "${all_avx2_lib[@]}" "${all_avx2_kernels[@]}"
    fi
    echo "never:"; printf '  %s\n' "${never[@]}"
    exit 0
fi
sets=()
case "$only" in
    portable) sets=(portable) ;;
    avx2) sets=(avx2) ;;
    *) sets=(portable); [ "$(uname -m)" = x86_64 ] && sets+=(avx2) ;;
esac

if ! rustup run "$toolchain" cargo miri --version >/dev/null 2>&1; then
    echo "== rustup component add --toolchain $toolchain miri rust-src"
    rustup toolchain install "$toolchain" --profile minimal
    rustup component add --toolchain "$toolchain" miri rust-src
fi
miri=(cargo "+$toolchain" miri test --locked -p mldsa)
cargo "+$toolchain" miri --version

failed=()
times=()
run() {
    local name=$1
    shift
    echo "== $name: ${*}"
    local t0=$SECONDS rc=0
    "$@" || rc=$?
    times+=("$name: $((SECONDS - t0))s")
    [ "$rc" = 0 ] || failed+=("$name")
}
for s in "${sets[@]}"; do
    case "$s" in
        portable)
            run "portable lib" env MIRIFLAGS="${MIRIFLAGS:-}" \
                "${miri[@]}" --target-dir target/miri --lib -- --exact "${portable_lib[@]}"
            ;;
        avx2)
            flags="${RUSTFLAGS:-} -C target-feature=+avx2,+popcnt,+bmi1,+bmi2"
            run "avx2 lib" env RUSTFLAGS="$flags" MIRIFLAGS="${MIRIFLAGS:-}" \
                "${miri[@]}" --target-dir target/miri-avx2 --lib -- --exact "${avx2_lib[@]}"
            run "avx2 kernels" env RUSTFLAGS="$flags" MLDSA_REQUIRE_BACKENDS=avx2 \
                MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-env-forward=MLDSA_REQUIRE_BACKENDS" \
                "${miri[@]}" --target-dir target/miri-avx2 --test simd_kernels -- --exact \
                --nocapture "${avx2_kernels[@]}"
            ;;
    esac
done
echo "== times: ${times[*]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "miri: FAILED: ${failed[*]}"
    exit 1
fi
echo "miri: no undefined behaviour in ${sets[*]}"
