#!/usr/bin/env bash
# Compares transcript files written by `mldsa-diff transcript --write FILE` on several
# platforms and backends with the committed diff/transcript.expected: every one must give the
# committed total digest. Prints one line per file; for a file that differs, the first check
# whose digest moved and the command that compares every implementation on those inputs.
#   scripts/compare-transcripts.sh [--expect NAME,NAME...] FILE...
#   --expect  names (file names without .txt) that must be present: a platform whose job did
#             not produce its transcript is a failure, not a silent pass.
# Exit 1 on any difference or missing transcript, 2 on a usage error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
expect=
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --expect)
            if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
                echo "compare-transcripts.sh: option --expect needs a value (NAME,NAME...)" >&2
                exit 2
            fi
            expect=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) echo "compare-transcripts.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
expected="$root/diff/transcript.expected"
want=$(awk '$1 == "total" { print $2 }' "$expected")
[ -n "$want" ] || { echo "no total line in $expected" >&2; exit 2; }
echo "committed digest: $want"
bad=0
declare -A seen=()
for f in "${files[@]}"; do
    name=$(basename "$f" .txt)
    seen[$name]=1
    got=$(awk '$1 == "total" { print $2 }' "$f" 2>/dev/null || true)
    if [ "$got" = "$want" ]; then
        printf '  %-40s %s  ok\n' "$name" "$got"
        continue
    fi
    bad=1
    printf '  %-40s %s  DIFFERS\n' "$name" "${got:-<no total line>}"
    moved=$(awk 'NR == FNR { if ($1 != "total" && $1 !~ /^#/) d[$1] = $3; next }
                 $1 != "total" && $1 !~ /^#/ && d[$1] != $3 { print $1; exit }' "$expected" "$f" || true)
    if [ -n "$moved" ]; then
        echo "    first check whose outputs moved: $moved"
        echo "    compare every implementation on these inputs: mldsa-diff transcript --backend <B>, then mldsa-diff check --seed $(sed -n 's/^# mldsa-diff transcript: seed \([0-9]*\),.*/\1/p' "$expected") --only $moved"
    fi
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
        echo "- transcript \`$name\`: digest ${got:-missing} differs from the committed $want${moved:+ (first moved check: \`$moved\`)}" >>"$GITHUB_STEP_SUMMARY"
    fi
done
if [ -n "$expect" ]; then
    IFS=, read -r -a names <<<"$expect"
    for n in "${names[@]}"; do
        if [ -z "${seen[$n]:-}" ]; then
            printf '  %-40s MISSING (its job produced no transcript)\n' "$n"
            bad=1
        fi
    done
fi
total=$(( ${#files[@]} ))
if [ "$bad" = 0 ]; then
    echo "transcripts: $total passed, 0 failed"
else
    echo "transcripts: differ or missing (see above)"
fi
exit "$bad"
