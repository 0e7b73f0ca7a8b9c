#!/usr/bin/env bash
# The machine-code divide check: no integer divide or remainder instruction (their latency
# depends on the operands) in the code that handles secrets. For each target it builds
# mldsa/examples/ct_divides.rs (keygen, key import, signing on every backend the target has;
# no verification)
# in release, disassembles it with objdump and fails if a function in scope holds a divide.
#   scripts/ct-divides.sh [--target T]... [--opt-level L]... [--no-install]
#   --target      a Rust target triple (repeatable; default: x86_64-unknown-linux-gnu,
#                 aarch64-unknown-linux-gnu, s390x-unknown-linux-gnu); a target other than
#                 the host links with Debian's cross gcc (<triple without -unknown>-gcc)
#   --opt-level   the release build's opt-level: 0, 1, 2, 3, s or z (repeatable, or a comma
#                 list; default: the release profile's own, 3). Each level builds in
#                 target/ct-divides-O<L>; every target is checked at every level given
#   --no-install  never install: say which package or target is missing and fail
# In scope: every function whose demangled name (v0 mangling, so generic instances carry
# their backend) contains `mldsa::` (inlining moves kernels into their callers, so all of
# them, and every instance of another crate's generic code on this crate's types) or starts
# with `keccak::` (the keccak crate's permutation, which the portable backend calls).
# A divide: x86_64 div/idiv (not divps/divpd/divss/divsd), aarch64 udiv/sdiv (and SVE's
# udivr/sdivr), s390x d/dr/dl/dlr/dlg/dlgr/dsg/dsgr/dsgf/dsgfr, dp, and the vector
# vd/vdl/vr/vrl; or a call of a divide helper (__udivti3, __divdi3, ..., u128_div_rem).
# Needs objdump for each target (Debian: binutils, binutils-<triple>), the cross gcc
# (gcc-<triple>, libc6-dev-<arch>-cross) and the rustup target; installs them when missing
# (apt-get as root, rustup target add), or names the missing package and fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "ct-divides.sh: option $1 needs a value" >&2
        exit 2
    fi
}
targets=()
levels=()
install=1
while [ $# -gt 0 ]; do
    case "$1" in
        --target) need "$@"; targets+=("$2"); shift 2 ;;
        --opt-level)
            need "$@"
            IFS=, read -r -a given <<<"$2"
            for l in "${given[@]}"; do
                case "$l" in
                    0 | 1 | 2 | 3 | s | z) levels+=("$l") ;;
                    *) echo "ct-divides.sh: --opt-level: $l is not 0, 1, 2, 3, s or z" >&2; exit 2 ;;
                esac
            done
            shift 2
            ;;
        --no-install) install=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "ct-divides.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] ||
    targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu s390x-unknown-linux-gnu)

# Functions allowed a divide, each with the public value it divides: one line each,
# "<extended regex over the demangled name><TAB><reason>". The code that handles secrets has
# no divide on any target at any opt-level (ExpandA's and MatrixRows' entry index divided by
# l, skDecode's and sigEncode's lengths by a run-time polynomial size were rewritten without
# one; so were, for opt-level z, which keeps a division by a constant that is not a power of
# two as a divide, the chunk counts of bit packing and of rej_uniform, the whole-block check
# of the wide SHAKE and the AVX2 Keccak's column indices mod 5). Verification (UseHint's
# mod m) is not linked into the harness.
exceptions=(
    "^<mldsa::prehash::PreHash>::digest\$"$'\t'"HashML-DSA's pre-hash of the message (public): the hash crates divide its length by their block size (opt-level z)"
)

[ ${#levels[@]} -gt 0 ] || levels=(profile)
host=$(rustc -vV | sed -n 's/^host: //p')
for t in "${targets[@]}"; do
    case "$t" in
        x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu | s390x-unknown-linux-gnu) ;;
        *) echo "ct-divides.sh: unsupported target $t (x86_64, aarch64 or s390x -unknown-linux-gnu)" >&2; exit 2 ;;
    esac
done

# What each target needs: its objdump and, off the host, the cross gcc and the rustup target.
gnu() { echo "${1/-unknown-/-}"; }
objdump_for() { if [ "$1" = "$host" ]; then echo objdump; else echo "$(gnu "$1")-objdump"; fi; }
missing_pkgs=()
missing_targets=()
installed_targets=$(rustup target list --installed 2>/dev/null || true)
for t in "${targets[@]}"; do
    g=$(gnu "$t")
    if [ "$t" = "$host" ]; then
        command -v objdump >/dev/null || missing_pkgs+=(binutils)
    else
        command -v "$g-objdump" >/dev/null || missing_pkgs+=("binutils-${g//_/-}")
        # The C library too: the cross gcc only recommends it.
        case "$t" in aarch64-*) debarch=arm64 ;; x86_64-*) debarch=amd64 ;; *) debarch=${t%%-*} ;; esac
        command -v "$g-gcc" >/dev/null || missing_pkgs+=("gcc-${g//_/-}" "libc6-dev-$debarch-cross")
        grep -qx "$t" <<<"$installed_targets" || missing_targets+=("$t")
    fi
done
if [ ${#missing_pkgs[@]} -gt 0 ]; then
    if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== apt-get install ${missing_pkgs[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_pkgs[@]}" >/dev/null
    else
        echo "ct-divides.sh: missing: ${missing_pkgs[*]} (Debian packages: sudo apt-get install ${missing_pkgs[*]})" >&2
        exit 1
    fi
fi
if [ ${#missing_targets[@]} -gt 0 ]; then
    if [ "$install" = 1 ]; then
        echo "== rustup target add ${missing_targets[*]}"
        rustup target add "${missing_targets[@]}"
    else
        echo "ct-divides.sh: missing Rust targets: rustup target add ${missing_targets[*]}" >&2
        exit 1
    fi
fi

# v0 mangling: demangled names keep their generic arguments (which backend an instance is).
export RUSTFLAGS="${RUSTFLAGS:-} -C symbol-mangling-version=v0"
failed=()
summary=()
for level in "${levels[@]}"; do
for t in "${targets[@]}"; do
    t0=$SECONDS
    g=$(gnu "$t")
    if [ "$level" = profile ]; then
        target_dir=$root/target/ct-divides
        name=$t
        echo "== $t: build (release) mldsa/examples/ct_divides.rs"
    else
        target_dir=$root/target/ct-divides-O$level
        name="$t opt-level $level"
        echo "== $t: build (release, opt-level $level) mldsa/examples/ct_divides.rs"
    fi
    linker_var="CARGO_TARGET_$(echo "$t" | tr 'a-z-' 'A-Z_')_LINKER"
    if [ "$t" != "$host" ] && [ -z "${!linker_var:-}" ]; then
        export "$linker_var=$g-gcc"
    fi
    if [ "$level" = profile ]; then
        cargo build --release --locked -p mldsa --example ct_divides --target "$t" \
            --target-dir "$target_dir"
    else
        CARGO_PROFILE_RELEASE_OPT_LEVEL=$level cargo build --release --locked \
            -p mldsa --example ct_divides --target "$t" --target-dir "$target_dir"
    fi
    bin=$target_dir/$t/release/examples/ct_divides
    case "$t" in
        x86_64-*) divides='^i?div[bwlq]?$' ;;
        aarch64-*) divides='^[su]divr?$' ;;
        s390x-*) divides='^(d|dr|dl|dlr|dlg|dlgr|dsg|dsgr|dsgf|dsgfr|dp|vdl?[bhfgq]?|vrl?[bhfgq]?)$' ;;
    esac
    report=$target_dir/$t/divides.txt
    # One line per function in scope ("F<TAB>name"), one per divide ("D<TAB>name<TAB>insn").
    "$(objdump_for "$t")" -d -C --no-show-raw-insn "$bin" | awk -v divides="$divides" '
        /^[0-9a-f]+ <.*>:$/ {
            fn = substr($0, index($0, "<") + 1); sub(/>:$/, "", fn)
            scope = (fn ~ /mldsa::/ || fn ~ /^<?keccak::/)
            if (scope) print "F\t" fn
            next
        }
        scope && /^ *[0-9a-f]+:\t/ {
            insn = $0; sub(/^ *[0-9a-f]+:\t/, "", insn)
            m = insn; sub(/[ \t].*/, "", m)
            helper = (m ~ /^(call|callq|jmp|jmpq|bl|b|bras|brasl|jg)$/ &&
                insn ~ /<(__u?(div|mod)[sdt]i3|__u?divmod[sdt]i4|[^>+]*specialized_div_rem[^>+]*)>/)
            if (m ~ divides || helper)
                print "D\t" fn "\t" $0
        }' >"$report"
    functions=$(grep -c '^F' "$report" || true)
    found=0
    excepted=0
    while IFS=$'\t' read -r _ fn insn; do
        reason=
        for e in "${exceptions[@]}"; do
            if [[ $fn =~ ${e%%$'\t'*} ]]; then reason=${e#*$'\t'}; break; fi
        done
        if [ -n "$reason" ]; then
            excepted=$((excepted + 1))
            echo "   excepted ($reason): $fn: $insn"
        else
            found=$((found + 1))
            echo "   DIVIDE in $fn: $insn"
        fi
    done < <(grep '^D' "$report" || true)
    # A vacuous scan (symbols stripped, the harness not linking the signer) must not pass.
    if [ "$functions" -lt 50 ] || ! grep -q '^F.*mldsa::scheme::sign' "$report"; then
        echo "   FAILED: only $functions functions in scope, or no mldsa::scheme::sign*: is the binary stripped?"
        failed+=("$name")
    elif [ "$found" -gt 0 ]; then
        failed+=("$name")
    fi
    line="$name: $functions functions scanned, $found divides, $excepted excepted (${#exceptions[@]} exceptions listed), $((SECONDS - t0))s"
    echo "   $line"
    summary+=("$line")
done
done

echo "== summary"
printf '   %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    printf 'ct-divides: FAILED: %s\n' "${failed[@]}"
    exit 1
fi
levels_said=${levels[*]}
echo "ct-divides: no divide instruction in the code that handles secrets on ${targets[*]} (opt-level: ${levels_said/profile/that of the release profile})"
