#!/usr/bin/env bash
# Runs the test suite (with every known-answer test), `mldsa-diff check` and the transcript for
# another architecture under emulation.
#
#   scripts/cross-test.sh TARGET [--cases N] [--e2e-cases N] [--qemu-cpu CPU]
#                         [--require LIST] [--no-check] [--skip-vectors] [--skip TEST]...
#                         [--native-test NAME]... [--only-test NAME]...
#                         [--runner cross|cargo] [--replay REPORT]
#
# TARGET: aarch64-unknown-linux-gnu or s390x-unknown-linux-gnu (big-endian).
# --qemu-cpu CPU   the emulated CPU (QEMU_CPU): on aarch64 `max` has the SHA3 instructions,
#                  `cortex-a72` has Neon without them; the Neon backend's Keccak path follows.
# --require LIST   implementations that must be available (MLDSA_REQUIRE_BACKENDS and
#                  `mldsa-diff check --require-backends`), e.g. neon,neon-plain,c-aarch64.
#                  Default on aarch64: neon,c-aarch64,mldsa-native-aarch64,libcrux-neon
#                  (plus neon-plain with --qemu-cpu max; without c-aarch64 with another
#                  --qemu-cpu: PQClean's aarch64 code needs SHA3); on s390x: mldsa-native.
# --no-check       only the tests (the KATs and the transcript among them; no
#                  `mldsa-diff check` at --cases/--e2e-cases).
# --skip-vectors   leave the run of every published vector through every implementation
#                  (diff/tests/vectors.rs, about 90 s under QEMU) to another leg; the KATs
#                  still run every vector through this crate's backends here.
# --skip TEST      also leave the tests whose names contain TEST to another leg (repeatable;
#                  libtest's --skip), e.g. the harness's tests of its own command line and
#                  models, which run natively on every CI run.
# --native-test NAME  do not build the test targets NAME (files NAME.rs under mldsa/tests,
#                  kat/tests or diff/tests) on this leg at all: its tests read source text or
#                  test the harness's own plain-Rust logic, and run natively (repeatable).
#                  The rest are built by name (with --lib and --bins; doc tests then run
#                  natively only). An unknown NAME is an error.
# --only-test NAME build and run only the test targets NAME (repeatable; no library or binary
#                  tests, no doc tests; `mldsa-diff check` still runs unless --no-check),
#                  e.g. the secret-residue and Neon kernel tests on a second emulated CPU
#                  after a whole leg on the first. An unknown NAME is an error; not with
#                  --native-test.
# --replay REPORT  only replay a mismatch report (`mldsa-diff replay REPORT`, test profile:
#                  debug assertions on) on TARGET and exit with its status
#                  (scripts/replay.sh picks TARGET and CPU from the report).
# --runner         `cross` (needs docker or podman; installs cross 0.2.5 from crates.io if
#                  missing, builds the target's image from Debian's packages with
#                  scripts/cross-images.sh if missing; Cross.toml configures it) or
#                  `cargo` (Debian's cross gcc as linker and C compiler, qemu-user as the
#                  runner; installed with apt-get when run as root). Default: cross when a
#                  container engine and cross are present, else cargo.
#
# The workspace tests include the transcript (diff/tests/transcript.rs: every Rust backend the
# target has must reproduce diff/transcript.expected), every check through every implementation
# at 300 kernel and 6 end-to-end cases (diff/tests/harness.rs), and MLDSA_REQUIRE_BACKENDS
# (--require) is asserted by the KATs and that check. `mldsa-diff transcript --backend B
# --write FILE` writes a platform's digest for scripts/compare-transcripts.sh (premerge.yml).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d'; }
need_value() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#--}" != "$2" ]; then
        echo "cross-test.sh: $1 needs a value" >&2
        exit 2
    fi
}

target=""
cases=2000
e2e=50
qemu_cpu=""
require=""
run_check=1
skip_vectors=0
skips=()
native_tests=()
only_tests=()
replay=""
runner_choice=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --cases) need_value "$@"; cases=$2; shift 2 ;;
        --e2e-cases) need_value "$@"; e2e=$2; shift 2 ;;
        --qemu-cpu) need_value "$@"; qemu_cpu=$2; shift 2 ;;
        --require) need_value "$@"; require=$2; shift 2 ;;
        --no-check) run_check=0; shift ;;
        --skip-vectors) skip_vectors=1; shift ;;
        --skip) need_value "$@"; skips+=("$2"); shift 2 ;;
        --native-test) need_value "$@"; native_tests+=("$2"); shift 2 ;;
        --only-test) need_value "$@"; only_tests+=("$2"); shift 2 ;;
        --replay) need_value "$@"; replay=$2; shift 2 ;;
        --runner) need_value "$@"; runner_choice=$2; shift 2 ;;
        -*) echo "cross-test.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$target" ] || { echo "cross-test.sh: one target only" >&2; exit 2; }; target=$1; shift ;;
    esac
done
[ -n "$target" ] || { echo "cross-test.sh: the TARGET argument is missing (see --help)" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The test targets to build: all of them, (--native-test) all but those named, or
# (--only-test) only those named.
if [ ${#native_tests[@]} -gt 0 ] && [ ${#only_tests[@]} -gt 0 ]; then
    echo "cross-test.sh: --native-test and --only-test exclude each other" >&2
    exit 2
fi
declare -A have=() leave=()
all_tests=()
for f in mldsa/tests/*.rs kat/tests/*.rs diff/tests/*.rs; do
    n=$(basename "$f" .rs)
    # scripts/mutants.sh's test (the whole default check; built only with the mutants
    # feature): not a test of the suite.
    [ "$n" != default_check ] || continue
    # The per-step wipe test holds in the release profile only (`test = false` in
    # mldsa/Cargo.toml; .ci/run runs it there, natively).
    [ "$n" != secret_wipes ] || continue
    [ -n "${have[$n]:-}" ] || all_tests+=("$n")
    have[$n]=1
done
for n in "${native_tests[@]}" "${only_tests[@]}"; do
    [ -n "${have[$n]:-}" ] || {
        echo "cross-test.sh: test target $n: none of that name (have: ${all_tests[*]})" >&2
        exit 2
    }
done
target_args=()
if [ ${#native_tests[@]} -gt 0 ]; then
    for n in "${native_tests[@]}"; do leave[$n]=1; done
    target_args=(--lib --bins)
    for n in "${all_tests[@]}"; do
        [ -n "${leave[$n]:-}" ] || target_args+=(--test "$n")
    done
fi
for n in "${only_tests[@]}"; do target_args+=(--test "$n"); done
export MLDSA_VECTORS=${MLDSA_VECTORS:-$(cd "$root/.." && pwd)/shared/vectors}

case "$target" in
    aarch64-unknown-linux-gnu)
        gnu=aarch64-linux-gnu
        qemu="qemu-aarch64"
        libc=libc6-dev-arm64-cross
        # PQClean's aarch64 code needs the SHA3 instructions (QEMU's default CPU and `max`
        # have them; a Cortex-A72 does not, and there only c-clean compares).
        # mldsa-native's AArch64 backend and libcrux's Neon code run on every AArch64 CPU.
        case "$qemu_cpu" in
            "") default_require=neon,c-aarch64,mldsa-native-aarch64,libcrux-neon ;;
            max) default_require=neon,neon-plain,c-aarch64,mldsa-native-aarch64,libcrux-neon ;;
            *) default_require=neon,mldsa-native-aarch64,libcrux-neon ;;
        esac
        ;;
    s390x-unknown-linux-gnu)
        gnu=s390x-linux-gnu
        qemu="qemu-s390x"
        libc=libc6-dev-s390x-cross
        # No native backend: mldsa-native compares through its portable C build only.
        default_require=mldsa-native
        ;;
    *) echo "cross-test.sh: unsupported target $target (aarch64-unknown-linux-gnu, s390x-unknown-linux-gnu)" >&2; exit 2 ;;
esac
require=${require:-$default_require}
export MLDSA_REQUIRE_BACKENDS=$require
if [ -n "$qemu_cpu" ]; then
    export QEMU_CPU=$qemu_cpu
fi
# The Neon kernel tests assert which Keccak path this CPU takes.
case "$qemu_cpu" in
    max) export MLDSA_NEON_EXPECT_SHA3=1 ;;
    cortex-a72|cortex-a53|cortex-a57) export MLDSA_NEON_EXPECT_SHA3=0 ;;
esac

# The cross release Cross.toml is written for (its volumes bug is worked around there).
cross_version=0.2.5

engine=""
for e in docker podman; do
    if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then engine=$e; break; fi
done
if [ -z "$runner_choice" ]; then
    if [ -n "$engine" ] && command -v cross >/dev/null; then runner_choice=cross; else runner_choice=cargo; fi
fi

case "$runner_choice" in
    cross)
        [ -n "$engine" ] || { echo "cross-test.sh: --runner cross needs docker or podman" >&2; exit 2; }
        if ! command -v cross >/dev/null; then
            # A debug build: a third of the release build's time, and cross only starts containers.
            echo "== cargo install cross --locked --debug --version $cross_version"
            cargo install cross --locked --debug --version "$cross_version"
        fi
        cross_installed=$(cross --version 2>/dev/null | sed -n 's/^cross \([0-9][^ ]*\).*/\1/p' | head -1)
        [ "$cross_installed" = "$cross_version" ] ||
            echo "cross-test.sh: cross ${cross_installed:-of unknown version} is installed; Cross.toml is written for $cross_version" >&2
        # The image Cross.toml names for the target (or CROSS_TARGET_<TARGET>_IMAGE), built from
        # Debian's packages if it is missing or stale (kept otherwise): FROM a debootstrap base,
        # or FROM $MLDSA_CROSS_BASE when set (the GitHub workflows: debian:bookworm).
        bash "$root/scripts/cross-images.sh" --engine "$engine" "$target"
        export CROSS_CONTAINER_ENGINE=$engine
        # cross 0.2.5 mounts the volume at its canonical path and passes MLDSA_VECTORS through
        # unchanged (Cross.toml): the two agree only for a canonical path.
        [ -d "$MLDSA_VECTORS" ] || { echo "cross-test.sh: MLDSA_VECTORS=$MLDSA_VECTORS is not a directory" >&2; exit 1; }
        MLDSA_VECTORS=$(cd "$MLDSA_VECTORS" && pwd -P)
        # The container's processes are the engine's children: this script's niceness reaches
        # them through the image's entry point.
        MLDSA_CROSS_NICE=$(nice)
        export MLDSA_CROSS_NICE
        # cross passes every CARGO_* variable of the host through: a runner or linker set here
        # for the host's qemu and cross gcc would replace the image's.
        triple_env=$(echo "$target" | tr 'a-z-' 'A-Z_')
        unset "CARGO_TARGET_${triple_env}_RUNNER" "CARGO_TARGET_${triple_env}_LINKER"
        # diff/build.rs finds mldsa-native's source (a package never compiled, so no build
        # downloads it) in the cargo home cross mounts: fetch every locked package first.
        cargo fetch --quiet
        echo "== cross $cross_version ($engine, the image Cross.toml names) for $target${qemu_cpu:+, QEMU_CPU=$qemu_cpu}"
        runner=(cross)
        ;;
    cargo)
        echo "== cargo + $gnu-gcc + $qemu for $target${qemu_cpu:+, QEMU_CPU=$qemu_cpu}"
        need=()
        command -v "$gnu-gcc" >/dev/null || need+=("gcc-$gnu" "$libc")
        command -v "$qemu" >/dev/null || need+=(qemu-user)
        if [ ${#need[@]} -gt 0 ]; then
            if [ "$(id -u)" = 0 ]; then
                apt-get update -qq
                DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
            else
                echo "cross-test.sh: missing ${need[*]} (e.g. sudo apt-get install ${need[*]})" >&2
                exit 1
            fi
        fi
        grep -qx "$target" <<<"$(rustup target list --installed)" || rustup target add "$target"
        triple_env=$(echo "$target" | tr 'a-z-' 'A-Z_')
        export "CARGO_TARGET_${triple_env}_LINKER=$gnu-gcc"
        export "CARGO_TARGET_${triple_env}_RUNNER=$qemu -L /usr/$gnu"
        export "CC_${target//-/_}=$gnu-gcc"
        export "AR_${target//-/_}=$gnu-ar"
        runner=(cargo)
        ;;
    *) echo "cross-test.sh: --runner is cross or cargo" >&2; exit 2 ;;
esac

if [ -n "$replay" ]; then
    [ -f "$replay" ] || { echo "cross-test.sh: --replay $replay: no such file" >&2; exit 2; }
    # Inside the project (cross mounts only the project and the cargo home).
    mkdir -p "$root/target/replay-input"
    input="target/replay-input/$(basename "$replay")"
    [ "$(cd "$(dirname "$replay")" && pwd)/$(basename "$replay")" = "$root/$input" ] || cp "$replay" "$root/$input"
    echo "== mldsa-diff replay $input on $target${qemu_cpu:+ (QEMU_CPU=$qemu_cpu)}"
    exec "${runner[@]}" run --profile test --target "$target" -p mldsa-diff -- replay "$input"
fi

# The workspace tests include every known-answer test (NIST KATs, ACVP, Wycheproof) on every
# backend the target has, and the kernel tests of every SIMD backend.
echo "== workspace tests on $target (required: ${require:-nothing beyond portable})"
skip_args=()
if [ "$skip_vectors" = 1 ]; then
    echo "   (--skip-vectors: every_published_vector_through_every_implementation runs on another leg)"
    skip_args+=(--skip every_published_vector_through_every_implementation)
fi
for t in "${skips[@]}"; do
    echo "   (--skip $t: runs on another leg)"
    skip_args+=(--skip "$t")
done
for n in "${native_tests[@]}"; do
    echo "   (--native-test $n: not built here; it runs natively)"
done
[ ${#only_tests[@]} -eq 0 ] || echo "   (--only-test: only ${only_tests[*]})"
test_args=()
[ ${#skip_args[@]} -eq 0 ] || test_args=(-- "${skip_args[@]}")
"${runner[@]}" test --workspace --target "$target" "${target_args[@]}" "${test_args[@]}"
# The check runs the test profile's mldsa-diff (optimised, with debug assertions: every
# kernel's contract is checked on the target too) rather than a second, release, build.
if [ "$run_check" = 1 ]; then
    echo "== mldsa-diff check on $target"
    "${runner[@]}" run --profile test --target "$target" -p mldsa-diff -- check --cases "$cases" --e2e-cases "$e2e" \
        --no-progress ${require:+--require-backends "$require"} \
        --report-dir "$root/target/mldsa-diff-reports-$target${qemu_cpu:+-$qemu_cpu}"
fi
