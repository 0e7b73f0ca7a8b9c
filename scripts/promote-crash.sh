#!/usr/bin/env bash
# Turns a minimised failing fuzz input into a regression file under fuzz/regressions/<check>/.
# A plain `cargo test` then replays every file there through mldsa-diff on every
# architecture; adding a regression needs no new code.
#   scripts/promote-crash.sh ARTIFACT [CHECK]   (CHECK defaults to the directory name)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
artifact=${1:?usage: scripts/promote-crash.sh ARTIFACT [CHECK]}
artifact=$(cd "$(dirname "$artifact")" && pwd)/$(basename "$artifact")
cd "$root"
args=("$artifact" --dir fuzz/regressions)
[ $# -ge 2 ] && args+=(--check "$2")
cargo run -q --release -p mldsa-diff -- promote "${args[@]}"
