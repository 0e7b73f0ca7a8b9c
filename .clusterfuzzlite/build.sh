#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: builds the cargo-fuzz targets (fuzz/: one per
# mldsa-diff check, the public-API checks api_verify_* and api_sign_* included) with the
# builder's sanitizer flags, and copies each into $OUT with its seed corpus as
# $OUT/<target>_seed_corpus.zip (written by `mldsa-diff corpus`).
#
# Environment, as the oss-fuzz base-builder sets it: SRC, OUT, WORK, CC, CXX, CFLAGS, CXXFLAGS,
# RUSTFLAGS, LIB_FUZZING_ENGINE, SANITIZER. Also:
#   MLDSA_FUZZ_TARGETS  space-separated targets to build (default: every target); used by
#                       scripts/cflite-build-test.sh to keep its local test short.
#   MLDSA_SRC           the project checkout (default: $SRC/mldsa)
#   MLDSA_DIFF_BIN      an mldsa-diff built from this checkout, used for the seed corpora
#                       instead of building one
# Run outside a container by scripts/cflite-build-test.sh, which sets the variables above.
set -o pipefail
project=${MLDSA_SRC:-$SRC/mldsa}
cd "$project"

# cargo fuzz needs a nightly: the builder's default toolchain (base-builder-rust's nightly)
# rather than the stable one rust-toolchain.toml pins for the rest of the project.
if [ -z "${RUSTUP_TOOLCHAIN:-}" ]; then
    RUSTUP_TOOLCHAIN=$(rustup default | cut -d' ' -f1)
    export RUSTUP_TOOLCHAIN
fi
echo "build.sh: toolchain $RUSTUP_TOOLCHAIN ($(rustc --version))"

# Every locked package of both workspaces (fuzz/ is its own) first: diff/build.rs looks for
# mldsa-native's C source in Cargo's registry, and that package is never compiled, so no build
# downloads it (build.rs's `cargo metadata` fallback is then never needed here).
cargo fetch --locked
(cd fuzz && cargo fetch --locked)

# A RUSTFLAGS variable replaces .cargo/config.toml's flags: keep the getrandom custom backend
# (the harness's scripted randomness for exact comparisons with the C code) in it.
export RUSTFLAGS="${RUSTFLAGS:-} --cfg getrandom_backend=\"custom\""
# libfuzzer-sys builds libFuzzer with $CXX/$CXXFLAGS; the builder's CXXFLAGS use libc++.
case "${CXXFLAGS:-}" in
    *-stdlib=libc++*) export CUSTOM_LIBFUZZER_STD_CXX=${CUSTOM_LIBFUZZER_STD_CXX:-c++} ;;
esac

# The seed corpora come from mldsa-diff, a plain host tool: build it without the sanitizer and
# coverage flags (the builder's CFLAGS would instrument the PQClean C code it links).
# MLDSA_DIFF_BIN: an mldsa-diff already built from this checkout (scripts/cflite-build-test.sh
# passes the one .ci/run's main job built) instead of a second build.
if [ -n "${MLDSA_DIFF_BIN:-}" ]; then
    [ -x "$MLDSA_DIFF_BIN" ] || { echo "build.sh: MLDSA_DIFF_BIN=$MLDSA_DIFF_BIN is not an executable" >&2; exit 1; }
    mldsa_diff=$MLDSA_DIFF_BIN
else
    host_target="$WORK/host-target"
    env -u CFLAGS -u CXXFLAGS RUSTFLAGS='--cfg getrandom_backend="custom"' \
        cargo build --release -p mldsa-diff --target-dir "$host_target"
    mldsa_diff="$host_target/release/mldsa-diff"
fi

if [ -n "${MLDSA_FUZZ_TARGETS:-}" ]; then
    read -r -a targets <<<"$MLDSA_FUZZ_TARGETS"
else
    mapfile -t targets < <("$mldsa_diff" list --names)
fi
[ "${#targets[@]}" -gt 0 ] || { echo "build.sh: no fuzz targets" >&2; exit 1; }

# -O with debug assertions: every kernel's debug_assert!ed contract is checked while fuzzing.
# No comparison tracing, as scripts/fuzz.sh builds them: twice the executions for the same
# coverage (BENCHMARKS.md, "Fuzzing: comparison tracing").
# Every target in one build when all are wanted; else only those listed, one by one (a
# `cargo fuzz build` without a target builds all of them: 76 binaries, not 2).
cd fuzz
if [ -z "${MLDSA_FUZZ_TARGETS:-}" ]; then
    cargo fuzz build -O --debug-assertions --no-trace-compares
else
    for t in "${targets[@]}"; do
        cargo fuzz build -O --debug-assertions --no-trace-compares "$t"
    done
fi
cd ..

bin_dir=fuzz/target/x86_64-unknown-linux-gnu/release
[ -d "$bin_dir" ] || bin_dir=fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release
corpora="$WORK/seed-corpora"
rm -rf "$corpora"
for t in "${targets[@]}"; do
    cp "$bin_dir/$t" "$OUT/"
    rm -f "$OUT/${t}_seed_corpus.zip"
    "$mldsa_diff" corpus --out "$corpora" --only "$t" --count 300 >/dev/null
    (cd "$corpora/$t" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
    # Hand-checked regressions (fuzz/regressions/<t>/) are seeds too.
    if [ -d "fuzz/regressions/$t" ]; then
        zip -q -j "$OUT/${t}_seed_corpus.zip" "fuzz/regressions/$t"/*
    fi
done
echo "built ${#targets[@]} targets into $OUT"
