#!/usr/bin/env bash
# The fuzz corpus shared by the nightly (scripts/fuzz.sh) and ClusterFuzzLite: a git
# repository laid out as ClusterFuzzLite's git filestore lays it out (its `storage-repo`
# input): plain files in corpus/<target>/ on one branch. ClusterFuzzLite reads it before
# fuzzing, adds what it finds and prunes it (cflite_cron.yml, mode: prune); the nightly reads it
# with `pull` and adds what its shards found with `push`.
#
#   scripts/corpus-store.sh head --repo URL [--branch B]
#   scripts/corpus-store.sh pull --repo URL [--branch B] [--at COMMIT] [--corpus DIR] [TARGET...]
#   scripts/corpus-store.sh push --repo URL [--branch B] --since COMMIT|none [--corpus DIR]
#                                [--message TEXT] [--retries N]
#
# head   prints the branch's commit, or `none` when the repository has no such branch yet.
# pull   copies corpus/<target>/ of COMMIT (default: the branch's head) into DIR/<target>/
#        (default fuzz/corpus), every target or those named; files already there are kept.
# push   adds to the branch every file of DIR/<target>/ that the snapshot COMMIT (what the run
#        started from; `none` for an empty store) did not have: only the new inputs, so an
#        input ClusterFuzzLite pruned meanwhile is not put back. It fetches the branch's head,
#        copies the new files onto it, commits and pushes; a push that lost a race is retried
#        from the new head (default 5 times). Nothing new: no commit.
# --repo URL      the storage repository (any git URL; file:// and paths work, for tests).
# --branch B      default main (ClusterFuzzLite's storage-repo-branch default).
# Environment: MLDSA_CORPUS_TOKEN, if set, is sent as HTTP basic authentication
# (x-access-token), so the token never appears in a URL, a log or .git/config.
# Exit status: 0 done, 1 a git failure (named), 2 a usage error.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "corpus-store.sh: $*" >&2; echo "(scripts/corpus-store.sh --help for usage)" >&2; exit 2; }
fail() { echo "corpus-store.sh: $*" >&2; exit 1; }
need() { if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then die "option $1 needs a value"; fi; }

[ $# -gt 0 ] || die "give a command: head, pull or push"
case "$1" in
    -h | --help) usage; exit 0 ;;
    head | pull | push) cmd=$1; shift ;;
    *) die "unknown command $1 (head, pull or push)" ;;
esac

repo=""
branch=main
at=""
since=""
corpus=fuzz/corpus
message="corpus: new inputs"
retries=5
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --repo) need "$@"; repo=$2; shift 2 ;;
        --branch) need "$@"; branch=$2; shift 2 ;;
        --at) need "$@"; at=$2; shift 2 ;;
        --since) need "$@"; since=$2; shift 2 ;;
        --corpus) need "$@"; corpus=$2; shift 2 ;;
        --message) need "$@"; message=$2; shift 2 ;;
        --retries)
            need "$@"
            case "$2" in '' | *[!0-9]*) die "--retries: not a number: $2" ;; esac
            retries=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown option $1" ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ -n "$repo" ] || die "--repo URL is required"
[ "$cmd" != push ] || [ -n "$since" ] || die "push needs --since COMMIT (the snapshot the run started from) or --since none"
[ "$cmd" = pull ] || [ -z "$at" ] || die "--at is for pull"
[ "$cmd" = push ] || [ -z "$since" ] || die "--since is for push"
[ "$cmd" = pull ] || [ ${#targets[@]} -eq 0 ] || die "targets are for pull"
for t in "${targets[@]}"; do
    case "$t" in */* | . | ..) die "not a target name: $t" ;; esac
done
# A local path (tests): absolute, since git runs inside a scratch repository.
if [ -d "$repo" ]; then repo=$(cd "$repo" && pwd); fi

git_() {
    if [ -n "${MLDSA_CORPUS_TOKEN:-}" ]; then
        local auth
        auth=$(printf 'x-access-token:%s' "$MLDSA_CORPUS_TOKEN" | base64 | tr -d '\n')
        git -c "http.extraHeader=Authorization: basic $auth" "$@"
    else
        git "$@"
    fi
}

# The branch's head commit, or "none".
remote_head() {
    local out
    out=$(git_ ls-remote "$repo" "refs/heads/$branch") || fail "cannot read $repo (git ls-remote)"
    if [ -z "$out" ]; then echo none; else echo "${out%%[[:space:]]*}"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/corpus-store.XXXXXX")
trap 'rm -rf "$work"' EXIT
store="$work/store"
git init -q "$store"
git -C "$store" config user.name "mldsa corpus store"
git -C "$store" config user.email "corpus-store@invalid"

# fetch_commit COMMIT: the commit's tree into the store's object database (shallow).
fetch_commit() {
    git_ -C "$store" fetch -q --depth 1 "$repo" "$1" 2>"$work/fetch.err" \
        || { cat "$work/fetch.err" >&2; fail "cannot fetch $1 from $repo"; }
}

case "$cmd" in
    head)
        remote_head
        ;;
    pull)
        [ -n "$at" ] || at=$(remote_head)
        if [ "$at" = none ]; then
            echo "== $repo has no branch $branch yet: nothing to pull"
            exit 0
        fi
        fetch_commit "$at"
        git -C "$store" -c advice.detachedHead=false checkout -q FETCH_HEAD
        mkdir -p "$corpus"
        added=0
        if [ -d "$store/corpus" ]; then
            for d in "$store"/corpus/*/; do
                [ -d "$d" ] || continue
                t=$(basename "$d")
                if [ ${#targets[@]} -gt 0 ] && ! printf '%s\n' "${targets[@]}" | grep -qxF -- "$t"; then continue; fi
                mkdir -p "$corpus/$t"
                # File by file: an input already here is kept (cp -n's exit status differs
                # between coreutils releases), and a failing copy stops the script.
                for f in "$d"*; do
                    [ -f "$f" ] || continue
                    dst="$corpus/$t/$(basename "$f")"
                    [ -e "$dst" ] && continue
                    cp "$f" "$dst"
                    added=$((added + 1))
                done
            done
        fi
        echo "== pulled $at: $added inputs added to $corpus"
        ;;
    push)
        [ -d "$corpus" ] || die "--corpus $corpus is not a directory"
        # What the snapshot had, as corpus/<target>/<file> paths.
        : >"$work/known"
        if [ "$since" != none ]; then
            fetch_commit "$since"
            git -C "$store" ls-tree -r --name-only FETCH_HEAD -- corpus/ | sort >"$work/known"
        fi
        (cd "$corpus" && find . -mindepth 2 -maxdepth 2 -type f | sed 's|^\./|corpus/|' | sort) >"$work/have"
        comm -23 "$work/have" "$work/known" >"$work/new"
        n=$(wc -l <"$work/new")
        if [ "$n" = 0 ]; then
            echo "== nothing new since $since: no commit"
            exit 0
        fi
        for attempt in $(seq 1 "$retries"); do
            head=$(remote_head)
            if [ "$head" = none ]; then
                # An empty store: the first commit, on a branch of its own (a retry starts over).
                git -C "$store" checkout -q --orphan "fresh-$attempt"
                git -C "$store" rm -rq --cached . 2>/dev/null || true
                git -C "$store" clean -fdxq
            else
                fetch_commit "$head"
                git -C "$store" checkout -q -f -B work FETCH_HEAD
                git -C "$store" clean -fdxq
            fi
            while read -r f; do
                mkdir -p "$store/$(dirname "$f")"
                cp "$corpus/${f#corpus/}" "$store/$f"
            done <"$work/new"
            git -C "$store" add -A corpus
            if git -C "$store" diff --cached --quiet; then
                echo "== the store already has the $n new inputs: no commit"
                exit 0
            fi
            git -C "$store" commit -q -m "$message ($n inputs)"
            if git_ -C "$store" push -q "$repo" "HEAD:refs/heads/$branch" 2>"$work/push.err"; then
                echo "== pushed $n new inputs onto $repo $branch ($(git -C "$store" rev-parse HEAD))"
                exit 0
            fi
            echo "== push $attempt/$retries lost a race or failed: $(tr '\n' ' ' <"$work/push.err")" >&2
            sleep $((attempt * 3))
        done
        fail "could not push to $repo after $retries attempts"
        ;;
esac
