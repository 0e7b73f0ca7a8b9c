#!/usr/bin/env bash
# Tests .clusterfuzzlite/build.sh without a container engine: runs it directly with SRC, OUT,
# WORK and the compiler, sanitizer and fuzzing-engine variables set as the oss-fuzz
# base-builder image sets them for libFuzzer + AddressSanitizer (clang, -fsanitize=address
# -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link, libc++ for C++), then checks
# that each built target and (except for the public-API targets, which have none) its
# <target>_seed_corpus.zip are in OUT and runs one target for a few seconds on its unpacked
# seed corpus.
#   scripts/cflite-build-test.sh [--targets "T1 T2"] [--seconds S] [--keep] [--diff-bin PATH]
#   --targets  targets to build (default "ntt sign_44": a kernel and an end-to-end target;
#              "all" builds every target, as ClusterFuzzLite does)
#   --seconds  how long the first target fuzzes its seed corpus (default 5)
#   --keep     keep the SRC/OUT/WORK directories (printed) instead of deleting them
#   --diff-bin an mldsa-diff built from this checkout, for the seed corpora (build.sh's
#              MLDSA_DIFF_BIN), instead of build.sh building one (.ci/run passes its own)
# Needs clang, libc++ (Debian: clang libc++-dev libc++abi-dev), zip, unzip, a nightly Rust
# (FUZZ_TOOLCHAIN, default nightly) and cargo-fuzz; as root it installs the Debian packages.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "cflite-build-test.sh: option $1 needs a value" >&2
        exit 2
    fi
}
targets="ntt sign_44"
seconds=5
keep=0
diff_bin=
while [ $# -gt 0 ]; do
    case "$1" in
        --targets) need "$@"; targets=$2; shift 2 ;;
        --seconds) need "$@"; case "$2" in *[!0-9]*) echo "cflite-build-test.sh: --seconds: not a number: $2" >&2; exit 2 ;; esac; seconds=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --diff-bin) need "$@"; diff_bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "cflite-build-test.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ "$targets" = all ] && targets=""

missing=()
command -v clang >/dev/null || missing+=(clang)
[ -e /usr/include/c++/v1 ] || ls /usr/lib/llvm-*/include/c++/v1 >/dev/null 2>&1 || missing+=(libc++-dev libc++abi-dev)
command -v zip >/dev/null || missing+=(zip)
command -v unzip >/dev/null || missing+=(unzip)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "missing: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
        exit 1
    fi
fi
toolchain=${FUZZ_TOOLCHAIN:-nightly}
if ! fuzz_version=$(cargo "+$toolchain" fuzz --version 2>&1); then
    echo "$fuzz_version" >&2
    echo "cargo-fuzz or the $toolchain toolchain is missing: cargo install cargo-fuzz --locked; rustup toolchain install $toolchain" >&2
    exit 1
fi

base=$(mktemp -d)
if [ "$keep" = 0 ]; then trap 'rm -rf "$base"' EXIT; else echo "keeping $base"; fi
mkdir -p "$base/src" "$base/out" "$base/work"
ln -s "$root" "$base/src/mldsa"

# As the base-builder image (infra/base-images/base-clang, base-builder's compile) sets them
# for FUZZING_ENGINE=libfuzzer, SANITIZER=address, FUZZING_LANGUAGE=rust.
san="-fsanitize=address -fsanitize-address-use-after-scope"
cov="-fsanitize=fuzzer-no-link"
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $san $cov"
# The fuzz build writes fuzz/target in the checkout (as in the image); the host tool goes to WORK.
env SRC="$base/src" OUT="$base/out" WORK="$base/work" \
    CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags -stdlib=libc++" \
    LIB_FUZZING_ENGINE="-fsanitize=fuzzer" SANITIZER=address FUZZING_ENGINE=libfuzzer \
    FUZZING_LANGUAGE=rust ARCHITECTURE=x86_64 \
    RUSTFLAGS="--cfg fuzzing -Cdebuginfo=1 -Cforce-frame-pointers" \
    RUSTUP_TOOLCHAIN="$toolchain" MLDSA_FUZZ_TARGETS="$targets" MLDSA_DIFF_BIN="$diff_bin" \
    bash "$root/.clusterfuzzlite/build.sh"

# Every target build.sh builds (one per check, each with its seed corpus), from the host tool
# build.sh left in WORK.
diff_bin=${diff_bin:-$base/work/host-target/release/mldsa-diff}
built=()
if [ -n "$targets" ]; then
    read -r -a built <<<"$targets"
else
    mapfile -t built < <("$diff_bin" list --names)
fi
bad=0
for t in "${built[@]}"; do
    [ -x "$base/out/$t" ] || { echo "missing binary \$OUT/$t" >&2; bad=1; }
    [ -s "$base/out/${t}_seed_corpus.zip" ] || { echo "missing \$OUT/${t}_seed_corpus.zip" >&2; bad=1; }
done
[ "$bad" = 0 ] || exit 1
t=${built[0]}
mkdir -p "$base/work/corpus-$t"
if [ -f "$base/out/${t}_seed_corpus.zip" ]; then
    unzip -q -o "$base/out/${t}_seed_corpus.zip" -d "$base/work/corpus-$t"
fi
echo "== $t: $(find "$base/work/corpus-$t" -type f | wc -l) seeds; fuzzing for ${seconds}s"
(cd "$base/work" && "$base/out/$t" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$base/work/" "$base/work/corpus-$t" 2>&1 | tail -15)
echo "cflite-build-test: ${#built[@]} passed, 0 failed"
