#!/usr/bin/env bash
# Static cycle estimates (llvm-mca, not measurements) for the aarch64 Neon kernels against the
# portable kernels compiled for aarch64: NTT, inverse NTT, the 4-way Keccak (plain Neon and
# SHA3 paths), rej_uniform and rej_eta. Prints a Markdown table (BENCHMARKS.md has one).
#
#   scripts/neon-mca.sh [--models LIST] [--llvm-mca PATH] [--keep DIR]
#
# --models LIST    llvm-mca CPU models, comma-separated; `+feature` adds -mattr (default
#                  neoverse-n1,cortex-a76,neoverse-v1,neoverse-n2+sha3). The SHA3 Keccak
#                  path is estimated only on models that have the instructions.
# --llvm-mca PATH  the llvm-mca to use (default: llvm-mca-19, else llvm-mca). LLVM 14
#                  (Debian's `llvm`) models Neoverse-N1 and Cortex-A76 as a Cortex-A57 and
#                  has no SHA3 model; LLVM 19 (Debian's `llvm-19`) has N1, V1 and N2 models.
#                  Installed with apt-get when missing and run as root.
# --keep DIR       keep each traced kernel call as DIR/<wrapper>.<n>.s (llvm-mca's input).
#
# Method: scripts/neon-mca/ is a small driver crate that calls each kernel through mldsa's
# public API from its own #[no_mangle] #[inline(never)] wrapper (the library is built as in
# any release build). It is built for aarch64-unknown-linux-gnu (release) and run once under
# `qemu-aarch64 -cpu max -singlestep -d exec,nochain`, which logs every executed instruction's
# address (QEMU's timing is not used, only which instructions ran). The instructions from a
# wrapper's entry until control is back in main (callees included) are that call's dynamic
# trace; it is disassembled back to assembly and llvm-mca simulates it once
# (-iterations=1): loops appear unrolled with their real trip counts, branches are free
# (perfectly predicted), loads hit L1, loads and stores are assumed not to alias.
# The rejection samplers run on 16 pseudo-random buffers and the estimate is the mean, a
# Monte Carlo estimate of the expected cost at the acceptance rates (rej_uniform
# q/2^23 ~ 0.999; rej_eta 15/16 at eta = 2, 9/16 at eta = 4).
set -euo pipefail

usage() { sed -n 2,29p "$0"; }
need_value() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#--}" != "$2" ]; then
        echo "neon-mca.sh: $1 needs a value" >&2
        exit 2
    fi
}

models=neoverse-n1,cortex-a76,neoverse-v1,neoverse-n2+sha3
mca=""
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --models) need_value "$@"; models=$2; shift 2 ;;
        --llvm-mca) need_value "$@"; mca=$2; shift 2 ;;
        --keep) need_value "$@"; keep=$2; shift 2 ;;
        *) echo "neon-mca.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
target=aarch64-unknown-linux-gnu
gnu=aarch64-linux-gnu

# Tools: llvm-mca/objdump/nm (LLVM 19 preferred), the cross linker, qemu-user.
need_apt=()
if [ -z "$mca" ]; then
    if command -v llvm-mca-19 >/dev/null; then
        mca=llvm-mca-19
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        need_apt+=(llvm-19)
        mca=llvm-mca-19
    elif command -v llvm-mca >/dev/null; then
        mca=llvm-mca
    else
        echo "neon-mca.sh: no llvm-mca (apt-get install llvm-19)" >&2
        exit 1
    fi
fi
command -v "$gnu-gcc" >/dev/null || need_apt+=("gcc-$gnu")
command -v qemu-aarch64 >/dev/null || need_apt+=(qemu-user)
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "neon-mca.sh: missing ${need_apt[*]} (apt-get install them)" >&2
        exit 1
    fi
    apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
bindir=$(dirname "$(readlink -f "$(command -v "$mca")")")
objdump=$bindir/llvm-objdump
nm=$bindir/llvm-nm
[ -x "$objdump" ] || objdump=llvm-objdump
[ -x "$nm" ] || nm=llvm-nm
grep -qx "$target" <<<"$(rustup target list --installed 2>/dev/null)" || rustup target add "$target"

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$gnu-gcc
export CC_aarch64_unknown_linux_gnu=$gnu-gcc

# The driver is built from a copy beside the workspace's own target dir, with the
# workspace's Cargo.lock (same dependency versions; --offline after the workspace's build).
work=$root/target/neon-mca
rm -rf "$work/driver"
mkdir -p "$work/driver"
cp -r "$root/scripts/neon-mca/Cargo.toml" "$root/scripts/neon-mca/src" "$work/driver/"
sed -i "s#path = \"../../mldsa\"#path = \"$root/mldsa\"#" "$work/driver/Cargo.toml"
cp "$root/Cargo.lock" "$work/driver/"
echo "neon-mca.sh: building the driver for $target (release)" >&2
(cd "$work/driver" && CARGO_TARGET_DIR=$work/target cargo build --release --target "$target" --quiet)
bin=$work/target/$target/release/neon-mca-driver

echo "neon-mca.sh: tracing under qemu-aarch64 -cpu max" >&2
trace=$work/trace.log
rm -f "$trace"
qemu-aarch64 -L "/usr/$gnu" -cpu max -singlestep -d exec,nochain -D "$trace" "$bin" >/dev/null

echo "neon-mca.sh: llvm-mca ($("$mca" --version | grep -o 'LLVM version [0-9.]*')) on $models" >&2
args=(--bin "$bin" --trace "$trace" --objdump "$objdump" --nm "$nm" --mca "$mca" --models "$models")
[ -z "$keep" ] || args+=(--keep "$keep")
python3 "$root/scripts/neon-mca.py" "${args[@]}"
rm -f "$trace"
