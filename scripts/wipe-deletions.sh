#!/usr/bin/env bash
# Deletes each wipe in mldsa/src in turn and shows that the secret tests catch it: every
# `zeroize` call, `Zeroizing` wrapper, `wipe_below` frame wipe and `.wipe()` call (found by
# pattern, so a new wipe is in the run without being listed here), deleted alone in a copy
# of the workspace, then mldsa's secret_wipes and secret_residue tests (the release profile,
# the build users ship; .ci/run runs both) must fail. A wipe no test
# can reach is listed below with its reason (EXEMPT); a wrapper a signature promises
# (COMPILE_GUARDED) is caught when its deletion fails to build. An exempt wipe that *is*
# caught, any other deletion that does not compile and a wipe that survives all fail the run.
#
#   scripts/wipe-deletions.sh [--target aarch64-unknown-linux-gnu [--qemu-cpu max|cortex-a72]]
#                             [--profile release|test] [--only SUBSTRING]...
#
# --target aarch64-unknown-linux-gnu: build for aarch64 and run under qemu-user (Debian's
#   qemu-user and aarch64 cross gcc, as .ci/run installs; QEMU_CPU=max: Neon with SHA3), for
#   the Neon backend's wipes (natively on an aarch64 machine, without --target). Wipes of a
#   backend the run's CPU lacks are skipped, named.
# --qemu-cpu cortex-a72: the emulated CPU without SHA3 (the plain Keccak path, whose frames
#   the max CPU's neon-plain runs do not reproduce; .ci/run's Cortex-A72 step).
# --profile test: the workspace's test profile (opt-level 3, debug assertions, overflow
#   checks; the cargo test --workspace and cross legs' build) instead of release, and
#   secret_residue alone (secret_wipes does not pass in that profile: README "Secrets and
#   stack"). Some frame wipes matter only there (the Neon 2-way permutation's).
# --only SUBSTRING: only the sites whose file path contains it (repeatable).
# Prints a table (site, the line deleted, verdict) and exits 1 unless every non-exempt
# deletion fails a test. About 40 s per site natively (an incremental release build of the
# library and the two tests).
set -euo pipefail
cd "$(dirname "$0")/.."

target=""
profile=release
qemu_cpu=max
only=()
need() { [ $# -ge 2 ] || { echo "wipe-deletions.sh: $1 needs a value (see --help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --target) need "$@"; target=$2; shift 2 ;;
    --profile) need "$@"; profile=$2; shift 2 ;;
    --qemu-cpu) need "$@"; qemu_cpu=$2; shift 2 ;;
    --only) need "$@"; only+=("$2"); shift 2 ;;
    *) echo "wipe-deletions.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$profile" in
release | test) ;;
*) echo "wipe-deletions.sh: --profile must be release or test" >&2; exit 2 ;;
esac
case "$qemu_cpu" in
max) sha3=1 ;;
cortex-a72) sha3=0 ;;
*) echo "wipe-deletions.sh: --qemu-cpu must be max or cortex-a72" >&2; exit 2 ;;
esac
case "$target" in
"" | aarch64-unknown-linux-gnu) ;;
*) echo "wipe-deletions.sh: --target must be aarch64-unknown-linux-gnu (or absent for this machine)" >&2; exit 2 ;;
esac
# Natively on aarch64 the CPU itself says whether the Neon backend takes its SHA3 path.
if [ -z "$target" ] && [ "$(uname -m)" = aarch64 ]; then
    if grep -qw sha3 /proc/cpuinfo; then sha3=1; else sha3=0; fi
fi

# file:substring -> why no test can see the deletion. The substring is looked for in the
# site's line, trimmed, after the line above it, trimmed, and a space. Keep each reason true.
# shellcheck disable=SC2034 # read through reason_in's nameref
declare -A EXEMPT=()

# Wipes the compiler keeps: deleting one does not compile, because a signature promises the
# wiping type (to_expanded_bytes returns the caller's copy of the key as Zeroizing). Counted
# as caught when the deletion fails to build; one that builds is an error.
# shellcheck disable=SC2034 # read through reason_in's nameref
declare -A COMPILE_GUARDED=(
    ["mldsa/src/api.rs:Zeroizing::new(self.expanded)"]="to_expanded_bytes' signature returns Zeroizing<P::SigningKeyBytes>"
)

# The same, for the release profile only: wipes whose frames only the test profile's code
# leaves secrets in (`--profile test` shows each caught there).
# shellcheck disable=SC2034 # read through reason_in's nameref
declare -A EXEMPT_RELEASE=(
    ["mldsa/src/backend/neon/keccak.rs:keccak2_sha3(s, 1); crate::backend::frame::wipe_below"]="in release the SHA3 2-way permutation leaves no lane in its frame; in the test profile it does, and --profile test (max CPU) catches this wipe's deletion"
)

# The same, for the release profile on a CPU with SHA3 only: there the plain path runs only
# as neon-plain (forced), whose release frames leave no lane; on a Cortex-A72
# (--qemu-cpu cortex-a72, release) the backend itself takes that path and this is caught.
# shellcheck disable=SC2034 # read through reason_in's nameref
declare -A EXEMPT_RELEASE_SHA3=(
    ["mldsa/src/backend/neon/keccak.rs:keccak2_neon(s, 1); crate::backend::frame::wipe_below"]="on a CPU with SHA3 the plain 2-way permutation runs only as neon-plain, which in release leaves no lane in its frame; --qemu-cpu cortex-a72 catches this wipe's deletion, in release and with --profile test"
)

mapfile -t sites < <(grep -rnE 'zeroize\(|Zeroizing::new\(|wipe_below::<|\.wipe\(\)' mldsa/src \
    | grep -vE '^[^:]+:[0-9]+:\s*//' \
    | grep -vE 'fn (zeroize|wipe|wipe_below)\b|^[^:]+:[0-9]+:\s*use ' \
    | cut -d: -f1,2)
selected=()
for s in "${sites[@]}"; do
    keep=1
    if [ ${#only[@]} -gt 0 ]; then
        keep=0
        for o in "${only[@]}"; do [[ "${s%%:*}" == *"$o"* ]] && keep=1; done
    fi
    [ "$keep" = 1 ] && selected+=("$s")
done
[ ${#selected[@]} -gt 0 ] || { echo "wipe-deletions.sh: no wipe site selected" >&2; exit 2; }

work=target/wipe-deletions
mkdir -p "$work"
rm -rf "$work/src"
mkdir -p "$work/src"
# The workspace (its manifest, lockfile and profiles; every member, which cargo loads), of
# which only mldsa and its dev-dependencies are built.
cp -r Cargo.toml Cargo.lock mldsa diff kat "$work/src/"
rm -rf "$work/src/mldsa/target" "$work/src/diff/target" "$work/src/kat/target"

cargo_args=(--locked --manifest-path "$work/src/Cargo.toml" -p mldsa --target-dir "$work/target")
if [ "$profile" = release ]; then
    cargo_args+=(--release --test secret_wipes --test secret_residue)
else
    # The workspace's [profile.test] (Cargo.toml).
    cargo_args+=(--test secret_residue)
    export CARGO_INCREMENTAL=0
fi
env_run=()
if [ -n "$target" ]; then
    cargo_args+=(--target "$target")
    env_run=(env CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
        QEMU_CPU="$qemu_cpu" MLDSA_NEON_EXPECT_SHA3="$sha3")
fi

# Which backends the run's CPU has: a site in another backend's folder is skipped, named.
# AVX2: its features (mldsa/src/backend/avx2/mod.rs, REQUIRED).
has_avx2=0
if [ -z "$target" ]; then
    has_avx2=1
    for f in avx2 popcnt bmi1 bmi2; do grep -qw "$f" /proc/cpuinfo || has_avx2=0; done
fi
# AVX-512: its subsets (mldsa/src/backend/avx512/mod.rs, REQUIRED) and AVX2's features.
has_avx512=$has_avx2
for f in avx512f avx512vl avx512bw avx512dq avx512vbmi; do grep -qw "$f" /proc/cpuinfo || has_avx512=0; done
# Neon: under QEMU (--target), or natively on an aarch64 machine (the nightly's arm64 runner).
has_neon=0
if [ -n "$target" ] || [ "$(uname -m)" = aarch64 ]; then has_neon=1; fi

echo "== the unmodified copy must pass"
"${env_run[@]}" cargo test "${cargo_args[@]}" >"$work/baseline.log" 2>&1 || {
    cat "$work/baseline.log"; echo "wipe-deletions.sh: the unmodified tests fail" >&2; exit 1; }

# reason_in MAP: the reason the array MAP gives for this site ($file, $context), if any.
reason_in() {
    local -n map=$1
    local k
    for k in "${!map[@]}"; do
        if [ "${k%%:*}" = "$file" ] && [[ "$context" == *"${k#*:}"* ]]; then echo "${map[$k]}"; fi
    done
}
# not_caught VERDICT COUNTER: a deletion no test failed on (it did not compile, or every test
# passed): exempt if the site has a reason, else VERDICT, counted in COUNTER.
not_caught() {
    local -n counter=$2
    if [ -n "$reason" ]; then
        verdict="exempt: $reason"
        exempt=$((exempt + 1))
    else
        verdict=$1
        counter=$((counter + 1))
    fi
}

caught=0 survived=0 exempt=0 skipped=0 bad=0
table=()
for site in "${selected[@]}"; do
    file=${site%%:*} line=${site##*:}
    text=$(sed -n "${line}p" "$file" | sed 's/^ *//')
    context="$(sed -n "$((line - 1))p" "$file" | sed 's/^ *//') $text"
    reason=$(reason_in EXEMPT)
    if [ -z "$reason" ] && [ "$profile" = release ]; then reason=$(reason_in EXEMPT_RELEASE); fi
    if [ -z "$reason" ] && [ "$profile" = release ] && [ "$sha3" = 1 ]; then reason=$(reason_in EXEMPT_RELEASE_SHA3); fi
    guard=$(reason_in COMPILE_GUARDED)
    if { [[ "$file" == */avx2/* ]] && [ "$has_avx2" = 0 ]; } || { [[ "$file" == */avx512/* ]] && [ "$has_avx512" = 0 ]; } \
        || { [[ "$file" == */neon/* ]] && [ "$has_neon" = 0 ]; }; then
        table+=("$site | \`$text\` | skipped: not this CPU's backend")
        skipped=$((skipped + 1))
        continue
    fi
    copy="$work/src/$file"
    cp "$file" "$copy"
    if [[ "$text" == *"Zeroizing::new("* ]]; then
        # The wrapper without its wipe: ManuallyDrop derefs the same way and never drops.
        sed -i "${line}s/Zeroizing::new(/core::mem::ManuallyDrop::new(/" "$copy"
    else
        sed -i "${line}s/.*//" "$copy"
    fi
    log="$work/$(echo "$site" | tr '/:' '__').log"
    if ! "${env_run[@]}" cargo test --no-run "${cargo_args[@]}" >"$log" 2>&1; then
        if [ -n "$guard" ] && grep -q '^error\[E0308\]: mismatched types' "$log"; then
            verdict="caught by the compiler: $guard"
            caught=$((caught + 1))
        else
            not_caught "ERROR: the deletion does not compile ($log)" bad
        fi
    elif [ -n "$guard" ]; then
        verdict="ERROR: listed as kept by the compiler, yet the deletion builds ($log)"
        bad=$((bad + 1))
    elif "${env_run[@]}" cargo test "${cargo_args[@]}" >>"$log" 2>&1; then
        not_caught "SURVIVED: no test failed ($log)" survived
    else
        what=$(grep -hE '^(portable|avx2|avx512|neon|neon-plain|API|ML-DSA).*: [0-9]+ x' "$log" | head -n 3 | tr '\n' ';' || true)
        if [ -n "$reason" ]; then
            verdict="ERROR: exempt, yet caught: $what (drop it from EXEMPT)"
            bad=$((bad + 1))
        else
            verdict="caught: ${what:-a test failed ($log)}"
            caught=$((caught + 1))
        fi
    fi
    cp "$file" "$copy"
    table+=("$site | \`$text\` | $verdict")
    echo "$site: $verdict"
done

echo
echo "| site | deleted | verdict |"
echo "|---|---|---|"
printf '%s\n' "${table[@]}" | sed 's/^/| /; s/$/ |/'
echo
echo "wipe-deletions.sh${target:+ ($target)} ($profile profile): ${#selected[@]} sites: $caught caught, $survived survived, $exempt exempt, $skipped skipped, $bad errors"
[ "$survived" = 0 ] && [ "$bad" = 0 ]
