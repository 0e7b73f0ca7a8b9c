#!/usr/bin/env bash
# Lists the mismatch reports `mldsa-diff check` wrote (DIR/*.json) with the command that
# replays each on any machine, on stdout and, in GitHub Actions, in the job summary
# ($GITHUB_STEP_SUMMARY). The reports themselves are uploaded as an artifact by the workflow.
#   scripts/summarize-reports.sh [DIR]   (default mldsa-diff-reports)
set -euo pipefail
case "${1:-}" in
    -h | --help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "summarize-reports.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "summarize-reports.sh: one DIR only (see --help)" >&2; exit 2; }
dir=${1:-mldsa-diff-reports}
mapfile -t reports < <(find "$dir" -name '*.json' 2>/dev/null | sort)
out() { echo "$1"; if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then echo "$1" >>"$GITHUB_STEP_SUMMARY"; fi; }
if [ ${#reports[@]} -eq 0 ]; then
    out "No mismatch reports in \`$dir\` (the failure is elsewhere: see the log)."
    exit 0
fi
out "### ${#reports[@]} mismatch report(s) in \`$dir\` (uploaded as an artifact)"
out ""
out "Download the artifact into \`$dir/\`, then replay each on any machine (debug assertions on):"
out ""
out '```sh'
for r in "${reports[@]}"; do
    out "cargo run -p mldsa-diff --profile test -- replay $r"
done
out '```'
