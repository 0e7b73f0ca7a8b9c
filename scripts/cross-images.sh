#!/usr/bin/env bash
# Builds the container images `cross` runs this project's targets in (Cross.toml names them),
# from Debian's packages, with no container registry:
#   1. a Debian bookworm base: `debootstrap --variant=minbase` into a folder, imported with
#      `docker import` as mldsa-cross-base:bookworm (with --base IMAGE, that image instead:
#      the GitHub workflows give the public debian:bookworm);
#   2. per target, scripts/cross-image/Dockerfile FROM that base: the host gcc and libc (build
#      scripts), every supported target's gcc and libc (one shared layer), qemu-user, make,
#      pkg-config, git, ca-certificates, python3 (the oracle protocol's faulty test adapter),
#      tagged as Cross.toml's `image` for the target (mldsa-cross/TARGET:local), or as
#      CROSS_TARGET_<TARGET>_IMAGE when set (the variable cross itself reads).
# The packages are installed by apt-get inside `docker build`; if that cannot reach the
# mirror, they are installed into a copy of the debootstrap folder from the host (chroot
# apt-get) and the same Dockerfile builds FROM that, with nothing left to install.
# An image that exists is kept (unless --rebuild, or it was built from another recipe).
#
#   scripts/cross-images.sh [TARGET...] [--base IMAGE] [--mirror URL] [--workdir DIR]
#                           [--engine docker|podman] [--host-install] [--rebuild]
#
# TARGET           aarch64-unknown-linux-gnu, s390x-unknown-linux-gnu (default: both).
# --base IMAGE     a Debian bookworm image to build FROM instead of debootstrap (pulled if
#                  absent; default $MLDSA_CROSS_BASE, which scripts/cross-test.sh passes on).
# --mirror URL     the Debian archive (default http://deb.debian.org/debian; the security
#                  suite is URL-security, Debian's layout).
# --workdir DIR    where the debootstrap folders go (default ${TMPDIR:-/var/tmp}/mldsa-cross-images).
# --engine         docker or podman (default: the first that answers).
# --host-install   skip apt-get inside the build: install from the host straight away.
# --rebuild        rebuild the base and the images even if they exist (no build cache).
# Needs root for debootstrap and chroot (installs debootstrap with apt-get if missing).
set -euo pipefail

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; }
need_value() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#--}" != "$2" ]; then
        echo "cross-images.sh: $1 needs a value" >&2
        exit 2
    fi
}

targets=()
base_image=${MLDSA_CROSS_BASE:-}
mirror=http://deb.debian.org/debian
workdir="${TMPDIR:-/var/tmp}/mldsa-cross-images"
engine=""
host_install=0
rebuild=0
while [ $# -gt 0 ]; do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --base) need_value "$@"; base_image=$2; shift 2 ;;
        --mirror) need_value "$@"; mirror=${2%/}; shift 2 ;;
        --workdir) need_value "$@"; workdir=$2; shift 2 ;;
        --engine) need_value "$@"; engine=$2; shift 2 ;;
        --host-install) host_install=1; shift ;;
        --rebuild) rebuild=1; shift ;;
        -*) echo "cross-images.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(aarch64-unknown-linux-gnu s390x-unknown-linux-gnu)  # every supported target

root=$(cd "$(dirname "$0")/.." && pwd)
context="$root/scripts/cross-image"
suite=bookworm
default_base="mldsa-cross-base:$suite"

# Every target's names: the GNU triple (gcc's prefix, /usr/<triple> is its sysroot), Debian's
# architecture (the libc6-dev-<arch>-cross package) and QEMU's user-mode emulator.
target_names() {
    case "$1" in
        aarch64-unknown-linux-gnu) gnu="aarch64-linux-gnu"; deb_arch=arm64; qemu="qemu-aarch64" ;;
        s390x-unknown-linux-gnu) gnu="s390x-linux-gnu"; deb_arch=s390x; qemu="qemu-s390x" ;;
        *) echo "cross-images.sh: unsupported target $1 (aarch64-unknown-linux-gnu, s390x-unknown-linux-gnu)" >&2; exit 2 ;;
    esac
}
for t in "${targets[@]}"; do target_names "$t"; done

# What the build needs inside the container besides Rust (cross mounts the host's toolchain):
# the host C compiler and libc for build scripts and proc macros, the targets' C compilers and
# libcs (PQClean, mldsa-native), QEMU to run the tests, git for the build's commit record,
# python3 for diff/tests/oracles/faulty.py (the protocol's faulty adapter, a test of the harness).
# Every image gets every supported target's packages: the install is then one layer that the
# engine builds once and every target's image shares (only the environment differs per
# target), which halves the time to build both images on a fresh machine.
all_targets=(aarch64-unknown-linux-gnu s390x-unknown-linux-gnu)
packages_for() {
    local list="gcc libc6-dev make pkg-config ca-certificates git qemu-user python3" t
    for t in "${all_targets[@]}"; do
        target_names "$t"
        list="$list gcc-$gnu libc6-dev-$deb_arch-cross"
    done
    target_names "$1"
    echo "$list"
}

# The tag: CROSS_TARGET_<TARGET>_IMAGE, else Cross.toml's `image` for the target.
image_for() {
    local var value
    var="CROSS_TARGET_$(echo "$1" | tr 'a-z-' 'A-Z_')_IMAGE"
    value=${!var:-}
    if [ -z "$value" ]; then
        value=$(awk -v sec="[target.$1]" '
            $0 == sec { in_sec = 1; next }
            /^\[/ { in_sec = 0 }
            in_sec && $1 == "image" { sub(/^[^"]*"/, ""); sub(/".*$/, ""); print; exit }
        ' "$root/Cross.toml")
    fi
    echo "${value:-mldsa-cross/$1:local}"
}

if [ -z "$engine" ]; then
    for e in docker podman; do
        if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then engine=$e; break; fi
    done
fi
case "$engine" in
    docker | podman) command -v "$engine" >/dev/null || { echo "cross-images.sh: $engine is not installed" >&2; exit 1; } ;;
    "") echo "cross-images.sh: no container engine answers (docker or podman)" >&2; exit 1 ;;
    *) echo "cross-images.sh: --engine is docker or podman" >&2; exit 2 ;;
esac

have_image() { "$engine" image inspect "$1" >/dev/null 2>&1; }
image_label() { "$engine" image inspect --format "{{ index .Config.Labels \"$2\" }}" "$1" 2>/dev/null || true; }

need_root() {
    if [ "$(id -u)" != 0 ]; then
        echo "cross-images.sh: $1 needs root (or give --base IMAGE, an existing Debian $suite image)" >&2
        exit 1
    fi
}

# A Debian rootfs in a folder, configured as Debian's own images are (the same sources:
# the suite, its updates and its security suite), without the host's names or caches.
debootstrap_folder() {
    local dir=$1 done_mark="$1.done"
    if [ -f "$done_mark" ] && [ "$rebuild" = 0 ]; then
        echo "== $dir: debootstrap folder exists"
        return
    fi
    need_root "debootstrap"
    if ! command -v debootstrap >/dev/null; then
        echo "== apt-get install debootstrap"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap debian-archive-keyring >/dev/null
    fi
    rm -rf "$dir" "$done_mark"
    mkdir -p "$(dirname "$dir")"
    echo "== debootstrap --variant=minbase $suite $dir $mirror"
    local keyring=()
    [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] && keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
    if ! debootstrap --variant=minbase --components=main "${keyring[@]}" "$suite" "$dir" "$mirror" >"$dir.log" 2>&1; then
        tail -20 "$dir.log" >&2
        echo "cross-images.sh: debootstrap failed (log: $dir.log)" >&2
        exit 1
    fi
    rm -f "$dir/etc/apt/sources.list"
    cat >"$dir/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $mirror-security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    clean_folder "$dir"
    touch "$done_mark"
}

clean_folder() {
    : >"$1/etc/resolv.conf"
    echo localhost >"$1/etc/hostname"
    rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/cache/apt/*.bin "$1"/var/lib/apt/lists/* "$1"/tmp/* "$1"/var/tmp/*
}

import_folder() {
    local dir=$1 tag=$2
    echo "== $engine import $dir as $tag"
    tar -C "$dir" --numeric-owner -cf - . |
        "$engine" import \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["bash"]' - "$tag" >/dev/null
}

base_ready=""
host_base_done=""
ensure_base() {
    [ -z "$base_ready" ] || return 0
    if [ -n "$base_image" ]; then
        if ! have_image "$base_image"; then
            echo "== $engine pull $base_image"
            "$engine" pull "$base_image" || { echo "cross-images.sh: no base image $base_image (no registry? leave --base out to debootstrap one)" >&2; exit 1; }
        fi
        base_ready=$base_image
        return
    fi
    if have_image "$default_base" && [ "$rebuild" = 0 ]; then
        echo "== $default_base exists"
    else
        debootstrap_folder "$workdir/rootfs-$suite"
        import_folder "$workdir/rootfs-$suite" "$default_base"
    fi
    base_ready=$default_base
}

# The fallback: the target's packages installed into a copy of the debootstrap folder from
# the host, imported as mldsa-cross-base:bookworm-tools (one for every target: the same package list).
host_installed_base() {
    local target=$1 pkgs=$2 dir="$workdir/rootfs-$suite-tools" tag="$default_base-tools"
    # Every target's packages are the same list: one folder serves every image of this run.
    if [ -n "$host_base_done" ]; then host_base=$host_base_done; return; fi
    if [ -n "$base_image" ]; then
        echo "cross-images.sh: installing from the host needs the debootstrap base (no --base)" >&2
        exit 1
    fi
    need_root "installing into the debootstrap folder"
    debootstrap_folder "$workdir/rootfs-$suite"
    echo "== $dir: chroot apt-get install $pkgs"
    rm -rf "$dir"
    cp -a "$workdir/rootfs-$suite" "$dir"
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    mount -t proc proc "$dir/proc"
    local rc=0
    # shellcheck disable=SC2086 # the package list is words
    chroot "$dir" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null && apt-get clean" || rc=$?
    umount "$dir/proc"
    if [ "$rc" != 0 ]; then
        echo "cross-images.sh: apt-get in the chroot failed for $target" >&2
        exit 1
    fi
    clean_folder "$dir"
    import_folder "$dir" "$tag"
    rm -rf "$dir"
    host_base=$tag
    host_base_done=$tag
}

build_image() {
    local target=$1 tag=$2 from=$3 pkgs=$4
    local target_env target_cc
    target_env=$(echo "$target" | tr 'a-z-' 'A-Z_')
    target_cc=${target//-/_}
    target_names "$target"
    local no_cache=()
    [ "$rebuild" = 0 ] || no_cache=(--no-cache)
    "$engine" build "${no_cache[@]}" \
        --label "io.mldsa.cross.recipe=$recipe" --label "io.mldsa.cross.base=$from" \
        --build-arg "BASE=$from" --build-arg "PACKAGES=$pkgs" \
        --build-arg "RUST_TARGET=$target" --build-arg "GNU=$gnu" --build-arg "QEMU=$qemu" \
        --build-arg "TARGET_ENV=$target_env" --build-arg "TARGET_CC=$target_cc" \
        -t "$tag" -f "$context/Dockerfile" "$context"
}

# The image works: the target's gcc builds a C program and its runner (from the image's
# environment, as cargo would use it) runs it under QEMU.
smoke_test() {
    local target=$1 tag=$2 runner_var cc_var
    runner_var="CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_RUNNER"
    cc_var="CC_${target//-/_}"
    target_names "$target"
    echo "== $tag: smoke test"
    "$engine" run --rm -i --network none "$tag" sh -s <<EOF
set -e
cat >/tmp/t.c <<'C'
#include <stdio.h>
int main(void) { puts("   $target: a C program built by the image's gcc runs under its QEMU"); return 0; }
C
\$$cc_var -O2 -o /tmp/t /tmp/t.c
\$$runner_var /tmp/t
echo "   \$(cc --version | head -1); \$(\$$cc_var --version | head -1); \$($qemu --version | head -1)"
EOF
}

for target in "${targets[@]}"; do
    tag=$(image_for "$target")
    pkgs=$(packages_for "$target")
    # The recipe: the Dockerfile, the entry point and the packages (not the base: the same
    # recipe on a debootstrap base or on debian:bookworm). An image of another recipe is rebuilt.
    recipe=$( (cat "$context/Dockerfile" "$context/entrypoint.sh"; echo "$pkgs") | sha256sum | cut -c1-16)
    if have_image "$tag" && [ "$rebuild" = 0 ]; then
        if [ "$(image_label "$tag" io.mldsa.cross.recipe)" = "$recipe" ]; then
            echo "== $tag exists (recipe $recipe)"
            continue
        fi
        echo "== $tag exists but from another recipe: rebuilding"
    fi
    echo "== $tag: $pkgs"
    built=0
    if [ "$host_install" = 0 ]; then
        ensure_base
        if build_image "$target" "$tag" "$base_ready" "$pkgs"; then
            built=1
        else
            echo "== apt-get inside the build failed (no mirror from the container?): installing from the host"
        fi
    fi
    if [ "$built" = 0 ]; then
        host_base=""
        host_installed_base "$target" "$pkgs"
        build_image "$target" "$tag" "$host_base" "$pkgs"
    fi
    smoke_test "$target" "$tag"
done
