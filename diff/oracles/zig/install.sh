#!/usr/bin/env bash
# Installs the mldsa-diff oracle adapter for Zig's std.crypto.sign.mldsa into DEST:
# DEST/bin/zig is the compiled adapter (it speaks ../PROTOCOL.md on stdin and stdout).
set -euo pipefail

usage() {
    cat <<'EOF'
usage: install.sh DEST

Builds the oracle adapter main.zig with Zig 0.17.0 (the PyPI package ziglang, pinned by
hash in requirements.txt) and installs it as DEST/bin/zig.

DEST/venv must be a Python virtual environment (scripts/install-oracles.sh creates it);
its python is $PYTHON, by default DEST/venv/bin/python. The Zig caches go to
DEST/zig-cache. ZIG_JOBS (default 1) limits the compiler's concurrent jobs.
A build takes about a minute with an empty cache.
EOF
}

case "${1:-}" in
    -h | --help)
        usage
        exit 0
        ;;
    "")
        usage >&2
        echo "install.sh: error: DEST is missing" >&2
        exit 2
        ;;
esac
if [[ $# -ne 1 ]]; then
    usage >&2
    echo "install.sh: error: expected one argument, DEST" >&2
    exit 2
fi

if [[ ! -d $1 ]]; then
    echo "install.sh: error: DEST '$1' is not a directory (the caller creates it, and DEST/venv)" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=$(cd "$1" && pwd)
mkdir -p "$dest/bin"
python=${PYTHON:-$dest/venv/bin/python}
if [[ ! -x $python ]]; then
    echo "install.sh: error: no Python at '$python' (set PYTHON, or create $dest/venv)" >&2
    exit 2
fi

"$python" -m pip install --disable-pip-version-check --only-binary=:all: \
    --require-hashes -r "$here/requirements.txt"

version=$("$python" -m ziglang version)
if [[ $version != 0.17.0 ]]; then
    echo "install.sh: error: expected Zig 0.17.0, found $version" >&2
    exit 1
fi

# The caches go under DEST, not $HOME/.cache/zig or the source folder.
export ZIG_GLOBAL_CACHE_DIR="$dest/zig-cache/global"
export ZIG_LOCAL_CACHE_DIR="$dest/zig-cache/local"

# ReleaseSafe keeps the safety checks on: the library's signing loop ends in `unreachable`,
# which must panic rather than be undefined behaviour (see main.zig).
"$python" -m ziglang build-exe -OReleaseSafe -j"${ZIG_JOBS:-1}" \
    --cache-dir "$ZIG_LOCAL_CACHE_DIR" --global-cache-dir "$ZIG_GLOBAL_CACHE_DIR" \
    "$here/main.zig" -femit-bin="$dest/bin/zig"

echo "installed $dest/bin/zig (Zig $version std.crypto.sign.mldsa, ReleaseSafe)"
