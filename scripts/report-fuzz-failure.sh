#!/usr/bin/env bash
# Files what scripts/fuzz.sh found as GitHub issues: for each fuzz/artifacts/<target>/FAILED.md
# under DIR (the minimised input in hex, the mismatch report, the replay commands), one open
# issue titled "nightly fuzz: <target> fails": commented on if it is already open, else
# opened. Without --post it only prints what it would file (so it can be tried anywhere).
#   scripts/report-fuzz-failure.sh [--post] [--repo OWNER/NAME] [--run-url URL] [DIR]
#   DIR        where the artifacts are (default fuzz/artifacts); searched recursively, so
#              several downloaded shards' artifacts can sit side by side
#   --post     file the issues with the gh CLI (needs GH_TOKEN with issues: write)
#   --repo     the repository (default: GITHUB_REPOSITORY)
#   --run-url  a link to the run, with its artifacts, put in each issue
# Exit 0 also when there is nothing to file.
set -euo pipefail
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "report-fuzz-failure.sh: option $1 needs a value" >&2
        exit 2
    fi
}
post=0
repo=${GITHUB_REPOSITORY:-}
run_url=
dir=
while [ $# -gt 0 ]; do
    case "$1" in
        --post) post=1; shift ;;
        --repo) need "$@"; repo=$2; shift 2 ;;
        --run-url) need "$@"; run_url=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) echo "report-fuzz-failure.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$dir" ] || { echo "report-fuzz-failure.sh: one DIR only" >&2; exit 2; }; dir=$1; shift ;;
    esac
done
dir=${dir:-fuzz/artifacts}
[ -d "$dir" ] || { echo "no artifacts directory $dir: nothing to file"; exit 0; }
if [ "$post" = 1 ]; then
    command -v gh >/dev/null || { echo "report-fuzz-failure.sh: --post needs the gh CLI" >&2; exit 2; }
    [ -n "$repo" ] || { echo "report-fuzz-failure.sh: --post needs --repo or GITHUB_REPOSITORY" >&2; exit 2; }
fi
mapfile -t reports < <(find "$dir" -name FAILED.md | sort)
if [ ${#reports[@]} -eq 0 ]; then
    echo "no FAILED.md under $dir: nothing to file"
    exit 0
fi
body=$(mktemp)
trap 'rm -f "$body"' EXIT
for r in "${reports[@]}"; do
    target=$(basename "$(dirname "$r")")
    title="nightly fuzz: $target fails"
    {
        cat "$r"
        echo
        [ -n "$run_url" ] && echo "Run and artifacts (input, report, log): $run_url"
        echo
        echo "_Filed by scripts/report-fuzz-failure.sh._"
    } >"$body"
    if [ "$post" = 0 ]; then
        echo "=== would file: $title"
        cat "$body"
        continue
    fi
    number=$(gh issue list --repo "$repo" --state open --search "\"$title\" in:title" \
        --json number,title --jq ".[] | select(.title == \"$title\") | .number" | head -1)
    if [ -n "$number" ]; then
        gh issue comment "$number" --repo "$repo" --body-file "$body"
        echo "commented on #$number: $title"
    else
        gh issue create --repo "$repo" --title "$title" --body-file "$body"
        echo "opened: $title"
    fi
done
