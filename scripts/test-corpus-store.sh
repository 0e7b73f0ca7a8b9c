#!/usr/bin/env bash
# Tests scripts/corpus-store.sh against local repositories (no network): an empty store, a
# first push, a pull, a push that ClusterFuzzLite's prune raced (pruned inputs stay out, the
# new ones go in), a push that another push raced (retried from the new head), nothing new,
# and the usage errors. Prints each step; exit 1 on the first failure.
#   scripts/test-corpus-store.sh
set -euo pipefail
case "${1:-}" in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "test-corpus-store.sh: no arguments (see --help)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
store_sh="$root/scripts/corpus-store.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/corpus-store-test.XXXXXX")
trap 'rm -rf "$t"' EXIT
cd "$t"
ok() { echo "   ok: $*"; }
no() { echo "FAILED: $*" >&2; exit 1; }
files() { (cd "$1" && find . -type f -not -path './.git/*' | sed 's|^\./||' | sort | tr '\n' ' '); }

git init -q --bare store.git
[ "$(bash "$store_sh" head --repo store.git)" = none ] || no "an empty store's head is none"
ok "an empty store's head is none"
bash "$store_sh" pull --repo store.git --corpus a >/dev/null
ok "pulling an empty store is no error"

mkdir -p a/ntt a/sign_44
echo 1 >a/ntt/x1; echo 2 >a/ntt/x2; echo 3 >a/sign_44/y1
bash "$store_sh" push --repo store.git --since none --corpus a >/dev/null
s1=$(bash "$store_sh" head --repo store.git)
[ "$s1" != none ] || no "the first push makes the branch"
git clone -q -b main store.git view
[ "$(files view)" = "corpus/ntt/x1 corpus/ntt/x2 corpus/sign_44/y1 " ] || no "the store holds corpus/<target>/<file>: $(files view)"
ok "the first push lays the corpus out as corpus/<target>/<file>"

bash "$store_sh" pull --repo store.git --at "$s1" --corpus b ntt >/dev/null
[ "$(files b)" = "ntt/x1 ntt/x2 " ] || no "pull of one target: $(files b)"
bash "$store_sh" pull --repo store.git --at "$s1" --corpus b >/dev/null
[ "$(files b)" = "ntt/x1 ntt/x2 sign_44/y1 " ] || no "pull of every target: $(files b)"
ok "pull copies one target or all of them"

# ClusterFuzzLite prunes ntt (x1 goes) while the nightly runs from s1 and finds x3.
(cd view && git rm -q corpus/ntt/x1 && git -c user.name=t -c user.email=t@invalid commit -qm prune && git push -q origin HEAD)
echo 4 >b/ntt/x3
bash "$store_sh" push --repo store.git --since "$s1" --corpus b >/dev/null
(cd view && git pull -q)
[ "$(files view)" = "corpus/ntt/x2 corpus/ntt/x3 corpus/sign_44/y1 " ] || no "after a prune: $(files view)"
ok "a push adds only the new inputs: a pruned one stays out"

# The same push again: its one new input (x3) is in the store already, so no commit.
before=$(bash "$store_sh" head --repo store.git)
bash "$store_sh" push --repo store.git --since "$s1" --corpus b >/dev/null
[ "$(bash "$store_sh" head --repo store.git)" = "$before" ] || no "nothing new made a commit"
ok "nothing new: no commit"

# A push that loses a race (another push landed first): a pre-receive hook on the store
# rejects the first attempt, as a non-fast-forward would be.
cat >store.git/hooks/pre-receive <<'HOOK'
#!/bin/sh
if [ ! -f "$GIT_DIR/raced" ]; then touch "$GIT_DIR/raced"; exit 1; fi
HOOK
chmod +x store.git/hooks/pre-receive
echo 5 >b/sign_44/y2
out=$(bash "$store_sh" push --repo store.git --since "$s1" --corpus b 2>&1)
grep -q "push 1/5" <<<"$out" || no "the raced push was not retried: $out"
(cd view && git pull -q)
[ "$(files view)" = "corpus/ntt/x2 corpus/ntt/x3 corpus/sign_44/y1 corpus/sign_44/y2 " ] || no "after a race: $(files view)"
ok "a rejected push (a lost race) is retried from a fresh fetch of the head"

rc=0; bash "$store_sh" push --repo store.git --corpus b >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || no "push without --since: exit $rc, not 2"
rc=0; bash "$store_sh" pull --repo >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || no "--repo without a value: exit $rc, not 2"
rc=0; bash "$store_sh" pull --repo "$t/nowhere.git" --corpus c >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || no "a missing store: exit $rc, not 1"
ok "usage errors exit 2, a missing store exits 1"
echo "corpus-store.sh: every test passed"
