#!/usr/bin/env bash
# The constant-time test of the Neon SHA3 Keccak path, which valgrind cannot run (it decodes
# none of EOR3, RAX1, XAR, BCAX): trace equivalence under qemu-user. The harness
# (mldsa/examples/ct_trace.rs, aarch64, static) runs the 4-way Keccak on one state;
# qemu-aarch64 -cpu max logs, before every instruction inside the Neon Keccak functions,
# the program counter, X0-X30, SP and the flags.
# Runs on different states (all zero, all ones, pseudo-random ones) must give identical logs,
# so no branch, no address and no general-purpose register in the kernel depends on the state
# (Keccak's state lives in vector registers, which are not compared). The reference state
# runs twice first: a harness whose trace changes between two runs of one input is an error,
# not a finding. Both paths run: SHA3 (and its disassembly must hold the four instructions)
# and plain (the path valgrind covers; must pass too). Then the test must fail: two kernels
# of the harness that branch on a state word and index a table with one must be reported.
# The results of the two paths must be equal on every state.
#   scripts/ct-trace.sh [--states N] [--opt-level L]... [--target-dir DIR] [--no-controls]
#   --states N     states per kernel, the reference included (default 8, at least 3)
#   --opt-level L  the release build's opt-level (repeatable or comma-separated, of 1 2 3 s z);
#                  each its own build and run (default: the release profile as configured)
#   --target-dir   where to build and log (default target/ct-trace)
#   --no-controls  skip the two runs that must be reported
# Builds with the settings of the environment (CARGO_PROFILE_RELEASE_*, RUSTUP_TOOLCHAIN;
# RUSTFLAGS gets -C target-feature=+crt-static appended). Needs qemu-aarch64 (Debian:
# qemu-user), and on an x86_64 host aarch64's cross gcc and binutils (gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross, binutils-aarch64-linux-gnu); installed with apt-get when run as root.
# Exit 1 when a trace differs or a control is not reported, 2 on bad usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "ct-trace.sh: $*" >&2; exit 2; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        die "option $1 needs a value"
    fi
}
states=8
opts=()
target_dir=target/ct-trace
controls=1
while [ $# -gt 0 ]; do
    case "$1" in
        --states)
            need "$@"
            case "$2" in *[!0-9]*) die "--states: not a number: $2" ;; esac
            [ "$2" -ge 3 ] || die "--states: at least 3 (the reference twice and one other), not $2"
            states=$2; shift 2 ;;
        --opt-level)
            need "$@"
            IFS=, read -ra list <<<"$2"
            for o in "${list[@]}"; do
                case "$o" in 1 | 2 | 3 | s | z) opts+=("$o") ;; *) die "--opt-level: not 1, 2, 3, s or z: $o" ;; esac
            done
            shift 2 ;;
        --target-dir) need "$@"; target_dir=$2; shift 2 ;;
        --no-controls) controls=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
[ ${#opts[@]} -gt 0 ] || opts=(profile)

target=aarch64-unknown-linux-gnu
apt_install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== apt-get install $*"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
    else
        echo "ct-trace.sh: missing: sudo apt-get install $*" >&2
        exit 1
    fi
}
case "$(uname -m)" in
    aarch64 | arm64) objdump="objdump" ;;
    x86_64)
        objdump=aarch64-linux-gnu-objdump
        if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v "$objdump" >/dev/null; then
            apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu
        fi
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
        export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
        ;;
    *) echo "ct-trace.sh: an x86_64 or aarch64 Linux host is needed, not $(uname -m)" >&2; exit 1 ;;
esac
command -v qemu-aarch64 >/dev/null || apt_install qemu-user
command -v python3 >/dev/null || { echo "ct-trace.sh: python3 is missing" >&2; exit 1; }
rustup target list --installed 2>/dev/null | grep -qx "$target" || rustup target add "$target"
qemu-aarch64 --version | head -n 1
# One instruction per translation block, so that every instruction is logged: -singlestep
# until QEMU 8.1 renamed it.
if grep -q -- -one-insn-per-tb <<<"$(qemu-aarch64 -h)"; then step=-one-insn-per-tb; else step=-singlestep; fi

mkdir -p "$target_dir"
# The states: all zero, all ones, then pseudo-random ones (SHAKE256 of their index: the same
# on every run, so a failure reproduces).
python3 - "$target_dir" "$states" <<'EOF'
import hashlib, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    s = bytes(800) if i == 0 else b"\xff" * 800 if i == 1 else hashlib.shake_256(b"ct-trace %d" % i).digest(800)
    open(f"{d}/state-{i}.bin", "wb").write(s)
EOF

failed=()
# Traces kernel $2 of binary $1 over the functions whose demangled names match $3 and those
# they call (python3 scripts/ct-trace.py --ranges), on every state; compares the logs
# (python3 scripts/ct-trace.py); returns its status.
trace() {
    local bin=$1 kernel=$2 re=$3 dir=$4 ranges logs=() i rc=0
    ranges=$("$objdump" -d --no-show-raw-insn -C "$bin" | python3 scripts/ct-trace.py --ranges "$re") || return 2
    echo "   traced: the functions matching $re and what they call ($(tr ',' '\n' <<<"$ranges" | wc -l) ranges)"
    # The reference state twice, then the others: the first comparison is the harness's
    # determinism, every later one the kernel's.
    for i in 0 0 $(seq 1 $((states - 1))); do
        local log=$dir/$kernel-${#logs[@]}.log
        env -i qemu-aarch64 -cpu max -seed 1 "$step" -d exec,cpu,nochain -dfilter "$ranges" -D "$log" \
            "$bin" "$kernel" <"$target_dir/state-$i.bin" >"$dir/out-$kernel-$i.bin" || return 2
        logs+=("$log")
    done
    if ! python3 scripts/ct-trace.py --min-steps 100 "${logs[0]}" "${logs[1]}" >"$dir/$kernel-determinism.txt"; then
        cat "$dir/$kernel-determinism.txt"
        echo "   the harness is not deterministic: one state, two different traces" >&2
        return 2
    fi
    python3 scripts/ct-trace.py --min-steps 100 "${logs[0]}" "${logs[@]:2}" || rc=$?
    return "$rc"
}

summary=()
for o in "${opts[@]}"; do
    dir=$target_dir/$o
    mkdir -p "$dir"
    label=$([ "$o" = profile ] && echo "the release profile" || echo "opt-level $o")
    echo "== build ($label, $target, static): $(cargo --version)"
    env_o=()
    [ "$o" = profile ] || env_o=(CARGO_PROFILE_RELEASE_OPT_LEVEL="$o")
    if ! env "${env_o[@]}" RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static" \
        cargo build --release --locked -p mldsa --example ct_trace --target "$target" \
        --target-dir "$dir/build"; then
        failed+=("$o: build")
        continue
    fi
    bin=$dir/build/$target/release/examples/ct_trace
    # The SHA3 path must be what runs: its functions hold the four SHA3 instructions.
    missing=()
    dis=$("$objdump" -d --no-show-raw-insn -C "$bin" | awk '/^[0-9a-f]+ <mldsa::backend::neon::keccak::.*sha3.*>:$/,/^$/')
    for insn in eor3 rax1 xar bcax; do grep -qw "$insn" <<<"$dis" || missing+=("$insn"); done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "   FAILED: the SHA3 Keccak functions hold no ${missing[*]}"
        failed+=("$o: sha3 instructions")
    fi
    for kernel in sha3 plain; do
        echo "== $label: $kernel Keccak path, $states states (the first twice)"
        rc=0
        trace "$bin" "$kernel" 'mldsa::backend::neon::.*keccak' "$dir" || rc=$?
        if [ "$rc" = 0 ]; then
            summary+=("$o/$kernel: identical")
        else
            failed+=("$o: $kernel (exit $rc)")
        fi
    done
    for i in $(seq 0 $((states - 1))); do
        if ! cmp -s "$dir/out-sha3-$i.bin" "$dir/out-plain-$i.bin"; then
            echo "   FAILED: the SHA3 and plain paths differ on state $i"
            failed+=("$o: sha3 != plain on state $i")
        fi
    done
    if [ "$controls" = 1 ]; then
        for kernel in control-branch control-index; do
            echo "== $label: the test can fail: $kernel must be reported"
            rc=0
            trace "$bin" "$kernel" 'ct_trace::control_' "$dir" || rc=$?
            if [ "$rc" = 1 ]; then
                summary+=("$o/$kernel: caught")
            else
                echo "   FAILED: $kernel was not reported (exit $rc, want 1)"
                failed+=("$o: $kernel not caught")
            fi
        done
    fi
done

echo "== ${summary[*]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "ct-trace: FAILED: ${failed[*]}"
    exit 1
fi
echo "ct-trace: the Neon Keccak paths (SHA3 and plain) trace identically on every state; both controls caught"
