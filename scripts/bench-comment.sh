#!/usr/bin/env bash
# The pull-request comment of the instruction-count tables (scripts/bench-compare.sh, one per
# platform): one comment per pull request, edited in place on every new push (found by its
# marker line), with each platform's table (benchmark, base, head, head/base, ALERT above the
# threshold) under a heading naming the platform.
#   scripts/bench-comment.sh --pr N [--repo OWNER/NAME] [--dry-run] PLATFORM=TABLE.md...
#   --pr N       the pull request's number
#   --repo R     the repository (default $GITHUB_REPOSITORY)
#   --dry-run    print the comment's body and what would be done; change nothing
# PLATFORM=TABLE.md: a platform's name (e.g. ubuntu-24.04) and the table bench-compare.sh
# wrote (target/bench-compare/table.md); a missing table is said in the comment and makes the
# exit status 1 after posting. Posting needs `gh` with GH_TOKEN allowed to write pull-request
# comments.
set -euo pipefail
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "bench-comment.sh: $*" >&2; echo "(scripts/bench-comment.sh --help for usage)" >&2; exit 2; }
need() { if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then die "option $1 needs a value"; fi; }

pr=""
repo=${GITHUB_REPOSITORY:-}
dry=0
tables=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --pr) need "$@"; pr=$2; shift 2 ;;
        --repo) need "$@"; repo=$2; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -*) die "unknown option $1" ;;
        *=*) tables+=("$1"); shift ;;
        *) die "not PLATFORM=TABLE.md: $1" ;;
    esac
done
case "$pr" in '' | *[!0-9]*) die "--pr N is required (a pull request number)" ;; esac
[ ${#tables[@]} -gt 0 ] || die "give at least one PLATFORM=TABLE.md"
[ -n "$repo" ] || die "--repo OWNER/NAME is required (GITHUB_REPOSITORY is not set)"

marker="<!-- mldsa bench-comment -->"
missing=0
body=$(mktemp)
trap 'rm -f "$body"' EXIT
{
    echo "$marker"
    echo "## Instruction counts against the base (callgrind, \`scripts/bench-compare.sh\`)"
    echo
    echo "Counts, not times: they hold on a shared runner. ALERT marks a ratio above the threshold."
    for t in "${tables[@]}"; do
        platform=${t%%=*}
        file=${t#*=}
        echo
        echo "### $platform"
        echo
        if [ -f "$file" ]; then
            # bench-compare.sh's own heading line is replaced by the platform's.
            grep -v '^### ' "$file"
        else
            # A platform's bench job that failed leaves no table: said, not skipped.
            echo "No table: this platform's bench job did not finish (see its log)."
            missing=$((missing + 1))
        fi
    done
} >"$body"

if [ "$dry" = 1 ]; then
    cat "$body"
    echo "bench-comment.sh: --dry-run: would post or edit the comment marked '$marker' on $repo#$pr"
    [ "$missing" = 0 ] || exit 1
    exit 0
fi
command -v gh >/dev/null || { echo "bench-comment.sh: gh is not installed" >&2; exit 1; }
# The comment this script wrote before, if any: by the workflow's bot, starting with the marker.
id=$(gh api --paginate "repos/$repo/issues/$pr/comments" \
    --jq ".[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"$marker\"))) | .id" | tail -n 1)
if [ -n "$id" ]; then
    gh api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$body" >/dev/null
    echo "bench-comment.sh: edited comment $id on $repo#$pr"
else
    gh api --method POST "repos/$repo/issues/$pr/comments" -F "body=@$body" >/dev/null
    echo "bench-comment.sh: posted a comment on $repo#$pr"
fi
[ "$missing" = 0 ] || { echo "bench-comment.sh: $missing platform(s) had no table" >&2; exit 1; }
