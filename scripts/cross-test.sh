#!/usr/bin/env bash
# Runs the workspace tests and `mldsa-diff check` for another architecture under emulation:
#     scripts/cross-test.sh aarch64-unknown-linux-gnu [--cases N] [--e2e-cases N]
# With a container engine (docker/podman) and `cross` installed, it uses cross (Cross.toml
# configures it). Otherwise it uses cargo with Debian's cross gcc as linker and C compiler
# and qemu-user as the runner, installing them with apt-get when it runs as root.
# On aarch64 the harness compares the portable backend with PQClean's clean and aarch64 C code.
set -euo pipefail

usage() { echo "usage: scripts/cross-test.sh TARGET [--cases N] [--e2e-cases N]"; sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    "" | -*) echo "cross-test.sh: missing TARGET (got '${1:-}')" >&2; usage >&2; exit 2 ;;
esac
target=$1
shift
cases=2000
e2e=50
while [ $# -gt 0 ]; do
    case "$1" in
        --cases | --e2e-cases)
            if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
                echo "cross-test.sh: option $1 needs a value" >&2
                exit 2
            fi
            if [ "$1" = --cases ]; then cases=$2; else e2e=$2; fi
            shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export MLDSA_VECTORS=${MLDSA_VECTORS:-$(cd "$root/.." && pwd)/shared/vectors}

case "$target" in
    aarch64-unknown-linux-gnu) gnu="aarch64-linux-gnu"; qemu="qemu-aarch64" ;;
    *) echo "unsupported target $target (supported: aarch64-unknown-linux-gnu)" >&2; exit 2 ;;
esac

engine=""
for e in docker podman; do
    if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then engine=$e; break; fi
done

if [ -n "$engine" ] && command -v cross >/dev/null; then
    echo "== cross ($engine) for $target"
    runner=(cross)
else
    echo "== cargo + $gnu-gcc + $qemu for $target"
    need=()
    command -v "$gnu-gcc" >/dev/null || need+=("gcc-$gnu" "libc6-dev-arm64-cross")
    command -v "$qemu" >/dev/null || need+=(qemu-user)
    if [ ${#need[@]} -gt 0 ]; then
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
        else
            echo "missing: ${need[*]} (install them, e.g. sudo apt-get install ${need[*]})" >&2
            exit 1
        fi
    fi
    rustup target list --installed | grep -qx "$target" || rustup target add "$target"
    triple_env=$(echo "$target" | tr 'a-z-' 'A-Z_')
    export "CARGO_TARGET_${triple_env}_LINKER=$gnu-gcc"
    export "CARGO_TARGET_${triple_env}_RUNNER=$qemu -L /usr/$gnu"
    export "CC_${target//-/_}=$gnu-gcc"
    export "AR_${target//-/_}=$gnu-ar"
    runner=(cargo)
fi

echo "== workspace tests on $target"
"${runner[@]}" test --workspace --target "$target"
echo "== mldsa-diff check on $target"
"${runner[@]}" run --release --target "$target" -p mldsa-diff -- check --cases "$cases" --e2e-cases "$e2e" --no-progress \
    --report-dir "$root/target/mldsa-diff-reports-$target"
