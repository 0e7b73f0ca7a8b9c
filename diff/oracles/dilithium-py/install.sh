#!/usr/bin/env bash
# Installs the dilithium-py oracle adapter so that DEST/bin/dilithium-py starts it.
# Usage: install.sh DEST
#   The caller has made a virtual environment at DEST/venv and exports PYTHON, the path of
#   that environment's python. This script installs dilithium-py into it from
#   requirements.txt (pinned by hash) and writes DEST/bin/dilithium-py, a small sh script
#   that runs oracle.py (from this folder, by absolute path) with $PYTHON.
# Exit status: 0 when installed; 2 for bad arguments or a missing PYTHON; pip's otherwise.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }  # for sh

case "${1-}" in
    -h | --help) usage; exit 0 ;;
    "") echo "install.sh: missing argument DEST (where to install)" >&2; usage >&2; exit 2 ;;
    -*) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
esac
if [ $# -ne 1 ]; then
    echo "install.sh: expected one argument DEST, got $#" >&2
    exit 2
fi
if [ -z "${PYTHON-}" ] || [ ! -x "$PYTHON" ]; then
    echo "install.sh: PYTHON must name the python of DEST/venv (got '${PYTHON-}')" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1/bin"
dest=$(cd "$1" && pwd)
python=$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON")

"$python" -m pip install --quiet --disable-pip-version-check --require-hashes \
    -r "$here/requirements.txt"

launcher="$dest/bin/dilithium-py"
cat >"$launcher" <<LAUNCHER
#!/bin/sh
# The dilithium-py oracle for mldsa-diff (written by $here/install.sh).
exec $(quote "$python") $(quote "$here/oracle.py") "\$@"
LAUNCHER
chmod +x "$launcher"
echo "installed $launcher"
