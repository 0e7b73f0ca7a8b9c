#!/usr/bin/env bash
# The constant-time test (scripts/ct-valgrind.sh) over a matrix of builds: a compiler may turn
# constant-time source into a branch or a table lookup at one optimisation level and not at
# another, so each cell is its own release build (in target/ct-matrix/<cell>) run under
# valgrind on every backend. A cell fails if valgrind reports anything; the branchy decompose
# (which must be reported) runs once per matrix run, on its first cell. Prints a table of the
# cells (pass/FAIL and seconds) and writes it to target/ct-matrix/table.md. On aarch64 (and with
# --target) each cell also runs scripts/ct-trace.sh, the Neon SHA3 Keccak path (which valgrind
# cannot run) by trace equivalence under qemu-user, with the cell's settings (step sha3-trace).
#   scripts/ct-matrix.sh [--cells quick|ci|full] [--toolchain L] [--opt L] [--lto L] [--cu L]
#                        [--cpu L] [--backend B]... [--keys N] [--sigs N] [--shard I/N]
#                        [--target aarch64-unknown-linux-gnu [--qemu-cpu C]] [--clean] [--list]
#   --cells       a preset (default quick):
#                   ci     two cells, for .ci/run (after its ct-valgrind.sh of the release
#                          profile): stable-Oz-lto1-cu1-v3, msrv-O1-lto0-cu16-base
#                   quick  the pre-merge set: the release profile (stable-O3-lto0-cu16-base),
#                          ci's two and nightly-Os-lto1-cu1-v3
#                   full   every combination of the lists below (the nightly job)
#                 Off x86_64 (and with --target) the presets' v3 cells are base cells.
#   --toolchain   comma-separated: msrv (rust-version of Cargo.toml), stable (rust-toolchain.toml),
#                 nightly ($FUZZ_TOOLCHAIN, else the one .github/workflows/nightly.yml pins), or a
#                 rustup toolchain name (default: msrv,stable,nightly)
#   --opt         opt-levels, comma-separated, of 1 2 3 s z (default: all five)
#   --lto         on (fat) and/or off (default: off,on)
#   --cu          codegen-units (default: 1,16)
#   --cpu         base (no -C target-cpu), v3 (-C target-cpu=x86-64-v3, x86_64 only) or another
#                 target-cpu name (default: base,v3 on x86_64, base elsewhere)
#                 Any of these five lists makes the cells their product (--cells full with
#                 these lists replacing its defaults).
#   --cell C      one cell by name (repeatable; instead of a preset), e.g. msrv-Os-lto1-cu1-v3:
#                 <toolchain>-O<opt>-lto<0|1>-cu<n>-<cpu>
#   --backend     passed to ct-valgrind.sh (default: every backend of this machine)
#   --target      passed to ct-valgrind.sh: each cell cross-built for aarch64 and run in an
#                 emulated arm64 machine (portable and Neon; Neon on its plain Keccak path, the
#                 one valgrind can run); the cells' builds and table go to
#                 target/ct-matrix-<target>. --cpu then names aarch64 CPUs (default base).
#   --qemu-cpu    with --target: the emulated CPU (ct-valgrind.sh's default, max)
#   --keys/--sigs passed to ct-valgrind.sh (defaults 4 and 8)
#   --shard I/N   only the cells whose 1-based index is I modulo N (for a CI job matrix)
#   --clean       remove each cell's build after its run (the logs stay)
#   --list        print the chosen cells and exit
# Settings reach cargo as CARGO_PROFILE_RELEASE_{OPT_LEVEL,LTO,CODEGEN_UNITS}, RUSTFLAGS
# (appended to any given) and RUSTUP_TOOLCHAIN; a missing toolchain is installed with rustup
# (a cell whose toolchain cannot be installed fails). A v3 cell on a CPU without AVX2, BMI2,
# FMA and MOVBE is skipped (SKIP in the table), never run. CARGO_BUILD_JOBS is honoured.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "ct-matrix.sh: $*" >&2; exit 2; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        die "option $1 needs a value"
    fi
}
arch=$(uname -m)
target=
qemu_cpu=0
preset=
tcs=
opts=
ltos=
cus=
cpus=
pass=()
named=()
shard=
clean=0
list=0
while [ $# -gt 0 ]; do
    case "$1" in
        --cells) need "$@"; preset=$2; shift 2 ;;
        --toolchain) need "$@"; tcs=$2; shift 2 ;;
        --opt) need "$@"; opts=$2; shift 2 ;;
        --lto) need "$@"; ltos=$2; shift 2 ;;
        --cu) need "$@"; cus=$2; shift 2 ;;
        --cpu) need "$@"; cpus=$2; shift 2 ;;
        --cell) need "$@"; named+=("$2"); shift 2 ;;
        --backend | --keys | --sigs) need "$@"; pass+=("$1" "$2"); shift 2 ;;
        --qemu-cpu) need "$@"; qemu_cpu=1; pass+=("$1" "$2"); shift 2 ;;
        --target) need "$@"; target=$2; pass+=("$1" "$2"); shift 2 ;;
        --shard) need "$@"; shard=$2; shift 2 ;;
        --clean) clean=1; shift ;;
        --list) list=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done

case "$target" in
    "") [ "$qemu_cpu" = 0 ] || die "--qemu-cpu needs --target" ;;
    aarch64-unknown-linux-gnu) arch=aarch64 ;;
    *) die "--target: only aarch64-unknown-linux-gnu (ct-valgrind.sh's), not $target" ;;
esac
explicit=$([ -n "$tcs$opts$ltos$cus$cpus" ] && echo 1 || echo 0)
if [ ${#named[@]} -gt 0 ]; then
    { [ -z "$preset" ] && [ "$explicit" = 0 ]; } || die "--cell names its cells: no --cells or lists with it"
    for c in "${named[@]}"; do
        [[ $c =~ ^[A-Za-z0-9_.-]+-O[123sz]-lto[01]-cu[1-9][0-9]*-[A-Za-z0-9_.-]+$ ]] ||
            die "--cell: <toolchain>-O<1|2|3|s|z>-lto<0|1>-cu<n>-<cpu>, not $c"
    done
    preset=named
fi
[ -z "$preset" ] && { [ "$explicit" = 1 ] && preset=full || preset=quick; }
case "$preset" in
    ci) cells=(stable-Oz-lto1-cu1-v3 msrv-O1-lto0-cu16-base) ;;
    quick) cells=(stable-O3-lto0-cu16-base stable-Oz-lto1-cu1-v3 msrv-O1-lto0-cu16-base
        nightly-Os-lto1-cu1-v3) ;;
    full) cells=() ;;
    named) cells=("${named[@]}") ;;
    *) die "--cells: quick, ci or full, not $preset" ;;
esac
if [ "$arch" != x86_64 ] && [ "$preset" != named ]; then
    cells=("${cells[@]/%-v3/-base}")
fi
if [ "$explicit" = 1 ] && [ "$preset" != full ]; then
    die "--cells $preset is a fixed list: give the lists without it (or with --cells full)"
fi
if [ "$preset" = full ]; then
    IFS=, read -r -a tc_l <<<"${tcs:-msrv,stable,nightly}"
    IFS=, read -r -a opt_l <<<"${opts:-1,2,3,s,z}"
    IFS=, read -r -a lto_l <<<"${ltos:-off,on}"
    IFS=, read -r -a cu_l <<<"${cus:-1,16}"
    [ "$arch" = x86_64 ] && default_cpus=base,v3 || default_cpus=base
    IFS=, read -r -a cpu_l <<<"${cpus:-$default_cpus}"
    for o in "${opt_l[@]}"; do
        case "$o" in 1 | 2 | 3 | s | z) ;; *) die "--opt: 1, 2, 3, s or z, not '$o'" ;; esac
    done
    for l in "${lto_l[@]}"; do
        case "$l" in on | off) ;; *) die "--lto: on or off, not '$l'" ;; esac
    done
    for c in "${cu_l[@]}"; do
        case "$c" in '' | *[!0-9]* | 0) die "--cu: a positive number, not '$c'" ;; esac
    done
    for c in "${cpu_l[@]}"; do
        case "$c" in '' | *[!A-Za-z0-9_.-]*) die "--cpu: a target-cpu name, not '$c'" ;; esac
        [ "$c" = v3 ] && [ "$arch" != x86_64 ] && die "--cpu v3 is x86_64 only"
    done
    for t in "${tc_l[@]}"; do
        case "$t" in '' | *[!A-Za-z0-9_.-]*) die "--toolchain: a toolchain name, not '$t'" ;; esac
        for o in "${opt_l[@]}"; do for l in "${lto_l[@]}"; do for c in "${cu_l[@]}"; do
            for p in "${cpu_l[@]}"; do
                cells+=("$t-O$o-lto$([ "$l" = on ] && echo 1 || echo 0)-cu$c-$p")
            done
        done; done; done
    done
fi
if [ -n "$shard" ]; then
    [[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] || die "--shard: I/N, not $shard"
    si=${BASH_REMATCH[1]} sn=${BASH_REMATCH[2]}
    { [ "$sn" -ge 1 ] && [ "$si" -ge 1 ] && [ "$si" -le "$sn" ]; } || die "--shard: 1 <= I <= N, not $shard"
    mine=()
    for i in "${!cells[@]}"; do
        [ $((i % sn + 1)) = "$si" ] && mine+=("${cells[$i]}")
    done
    cells=("${mine[@]}")
fi
if [ "$arch" != x86_64 ]; then
    for c in "${cells[@]}"; do
        [ "${c%-v3}" = "$c" ] || die "cell $c: v3 (x86-64-v3) is x86_64 only"
    done
fi
if [ "$list" = 1 ]; then
    printf '%s\n' "${cells[@]}"
    exit 0
fi
[ ${#cells[@]} -gt 0 ] || die "no cells chosen"

msrv=$(sed -n 's/^rust-version *= *"\(.*\)"/\1/p' Cargo.toml | head -n1)
stable=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
nightly=${FUZZ_TOOLCHAIN:-$(sed -n 's/^ *FUZZ_TOOLCHAIN: *//p' .github/workflows/nightly.yml | head -n1)}
resolve() {
    case "$1" in
        msrv) echo "$msrv" ;;
        stable) echo "$stable" ;;
        nightly) echo "$nightly" ;;
        *) echo "$1" ;;
    esac
}
v3_ok=1
for f in avx2 bmi2 fma movbe; do grep -qw "$f" /proc/cpuinfo || v3_ok=0; done

out=target/ct-matrix${target:+-$target}
mkdir -p "$out"
rows=()
failed=()
branchy=1
base_rustflags=${RUSTFLAGS:-}
for cell in "${cells[@]}"; do
    [[ $cell =~ ^(.+)-O([123sz])-lto([01])-cu([0-9]+)-(.+)$ ]] || die "bad cell name $cell"
    tc_name=$(resolve "${BASH_REMATCH[1]}")
    opt=${BASH_REMATCH[2]}
    lto=$([ "${BASH_REMATCH[3]}" = 1 ] && echo fat || echo false)
    cu=${BASH_REMATCH[4]}
    cpu=${BASH_REMATCH[5]}
    echo
    echo "=== cell $cell: toolchain $tc_name, opt-level $opt, lto $lto, codegen-units $cu, cpu $cpu"
    if [ "$cpu" = v3 ] && [ "$v3_ok" = 0 ]; then
        echo "   SKIP: this CPU cannot run x86-64-v3 code"
        rows+=("$cell|$tc_name|-|SKIP (no x86-64-v3 CPU)|0")
        continue
    fi
    if ! rustup run "$tc_name" rustc --version >/dev/null 2>&1; then
        echo "== rustup toolchain install $tc_name"
        if ! rustup toolchain install "$tc_name" --profile minimal; then
            echo "   FAILED: toolchain $tc_name cannot be installed"
            rows+=("$cell|$tc_name|-|FAIL (toolchain not installable)|0")
            failed+=("$cell")
            continue
        fi
    fi
    flags=$base_rustflags
    case "$cpu" in
        base) ;;
        v3) flags="$flags -C target-cpu=x86-64-v3" ;;
        *) flags="$flags -C target-cpu=$cpu" ;;
    esac
    dir=$out/$cell
    args=(--target-dir "$dir" "${pass[@]}")
    [ "$branchy" = 1 ] || args+=(--no-branchy)
    t0=$SECONDS
    rc=0
    RUSTUP_TOOLCHAIN=$tc_name RUSTFLAGS=$flags CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt \
        CARGO_PROFILE_RELEASE_LTO=$lto CARGO_PROFILE_RELEASE_CODEGEN_UNITS=$cu \
        bash scripts/ct-valgrind.sh "${args[@]}" || rc=$?
    if [ "$arch" = aarch64 ] || [ -n "$target" ]; then
        # Neon's SHA3 Keccak path, which valgrind cannot run, by trace equivalence on the same
        # build settings (scripts/ct-trace.sh, qemu-user on this machine).
        t1=$SECONDS
        trc=0
        RUSTUP_TOOLCHAIN=$tc_name RUSTFLAGS=$flags CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt \
            CARGO_PROFILE_RELEASE_LTO=$lto CARGO_PROFILE_RELEASE_CODEGEN_UNITS=$cu \
            bash scripts/ct-trace.sh --target-dir "$dir/trace" >"$dir/trace.log" 2>&1 || trc=$?
        printf 'sha3-trace\t%s\t%s\n' "$([ "$trc" = 0 ] && echo pass || echo FAIL)" "$((SECONDS - t1))" >>"$dir/summary.tsv"
        tail -n 1 "$dir/trace.log"
        if [ "$trc" != 0 ]; then
            echo "   FAILED: scripts/ct-trace.sh (exit $trc); its log ($dir/trace.log):"
            grep -E "DIFFERS|FAILED|deterministic|error" "$dir/trace.log" | head -n 20
            rc=1
        fi
        [ "$clean" = 0 ] || rm -rf "$dir/trace/profile/build"
    fi
    steps=$(awk -F'\t' '{ printf "%s%s %s %ss", (NR > 1 ? ", " : ""), $1, $2, $3 }' "$dir/summary.tsv" 2>/dev/null || true)
    if [ "$rc" = 0 ]; then
        rows+=("$cell|$tc_name|pass|${steps}|$((SECONDS - t0))")
    else
        rows+=("$cell|$tc_name|FAIL|${steps:-exit $rc}|$((SECONDS - t0))")
        failed+=("$cell")
    fi
    branchy=0
    if [ "$clean" = 1 ]; then
        rm -rf "$dir/release" "$dir/debug"
    fi
done

table=$out/table.md
{
    echo "| cell | toolchain | result | steps (seconds) | total s |"
    echo "|---|---|---|---|---|"
    for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
} >"$table"
echo
if [ -n "$target" ]; then
    where="$target in an emulated arm64 machine (the guest's valgrind)"
else
    where="$arch, valgrind $(valgrind --version 2>/dev/null | sed 's/valgrind-//')"
fi
echo "== ct-matrix: $where, ${#cells[@]} cells (table: $table)"
cat "$table"
if [ ${#failed[@]} -gt 0 ]; then
    echo "ct-matrix: FAILED: ${failed[*]}"
    exit 1
fi
echo "ct-matrix: no valgrind report in any cell run; the branchy kernel was caught"
