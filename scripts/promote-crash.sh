#!/usr/bin/env bash
# Turns a minimised failing fuzz input into a regression file under fuzz/regressions/<check>/.
# A plain `cargo test` then replays every file there through mldsa-diff on every
# architecture; adding a regression needs no new code.
#   scripts/promote-crash.sh ARTIFACT [CHECK]   (CHECK defaults to the directory name)
set -euo pipefail
usage() { echo "usage: scripts/promote-crash.sh ARTIFACT [CHECK]"; echo "  ARTIFACT  a (minimised) failing fuzz input, e.g. fuzz/artifacts/ntt/minimized-from-..."; echo "  CHECK     its mldsa-diff check (default: the name of the directory it is in)"; }
case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    "") echo "promote-crash.sh: missing ARTIFACT" >&2; usage >&2; exit 2 ;;
    -*) echo "promote-crash.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
esac
[ $# -le 2 ] || { echo "promote-crash.sh: too many arguments" >&2; usage >&2; exit 2; }
[ -f "$1" ] || { echo "promote-crash.sh: no such file: $1" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
artifact=$1
artifact=$(cd "$(dirname "$artifact")" && pwd)/$(basename "$artifact")
cd "$root"
args=("$artifact" --dir fuzz/regressions)
[ $# -ge 2 ] && args+=(--check "$2")
cargo run -q --release -p mldsa-diff -- promote "${args[@]}"
