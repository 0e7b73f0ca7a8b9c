#!/usr/bin/env bash
# Runs one command inside an emulated arm64 Linux machine (qemu-system-aarch64, TCG): for what
# qemu-user cannot run, valgrind above all (scripts/ct-valgrind.sh --target
# aarch64-unknown-linux-gnu runs the Neon constant-time test through this).
#   scripts/qemu-guest.sh [--cpu CPU] [--memory MIB] [--timeout SECONDS] [--suite S]
#                         -- COMMAND [ARG]...
#   --cpu      QEMU's CPU model (default max: Neon and the SHA3 instructions; cortex-a72 has
#              Neon without SHA3)
#   --memory   the guest's memory in MiB (default 2048)
#   --timeout  seconds before the guest is stopped and the run fails (default 3600)
#   --suite    the Debian release the guest's packages come from (default bookworm)
# The guest: Debian's arm64 kernel and, in an initramfs, busybox, the C library (with
# its debug symbols, which valgrind wants) and valgrind, all from Debian's arm64 packages
# (debootstrap --download-only, once, kept in target/qemu-guest/; nothing is executed on the
# host but dpkg-deb). This checkout is shared into the guest over virtio-9p at the same path,
# and COMMAND runs in the current directory with the MLDSA_* variables of this environment;
# the guest's console is this script's output, and its exit status is COMMAND's.
# Needs, on the host: qemu-system-aarch64, debootstrap, cpio (installed with apt-get when run as
# root). Emulated: expect seconds of boot and a CPU tens of times slower than the host.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "qemu-guest.sh: $*" >&2; exit 2; }
need() {
    if [ "$#" -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        die "option $1 needs a value"
    fi
}
number() {
    case "$2" in
        '' | *[!0-9]* | 0) die "$1: not a positive number: $2" ;;
    esac
}
cpu=max
memory=2048
timeout=3600
suite=bookworm
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu) need "$@"; cpu=$2; shift 2 ;;
        --memory) need "$@"; number "$1" "$2"; memory=$2; shift 2 ;;
        --timeout) need "$@"; number "$1" "$2"; timeout=$2; shift 2 ;;
        --suite) need "$@"; suite=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown argument $1 (see --help; the command follows --)" ;;
    esac
done
[ $# -gt 0 ] || die "no command (see --help)"
case "$PWD/" in
    "$root"/*) ;;
    *) die "run from inside the checkout ($root): only it is shared into the guest" ;;
esac

missing=()
command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
command -v debootstrap >/dev/null || missing+=(debootstrap debian-archive-keyring)
command -v cpio >/dev/null || missing+=(cpio)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "== apt-get install ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "qemu-guest.sh: missing: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
        exit 1
    fi
fi

# The guest's files, made once: the kernel and a compressed initramfs of everything but the
# per-run /init.
dir=$root/target/qemu-guest/$suite
packages="valgrind libc6 libc6-dbg libgcc-s1 busybox-static linux-image-arm64"
stamp="$suite arm64: $packages"
if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "== the guest: Debian $suite arm64 packages ($packages)"
    rm -rf "$dir"
    mkdir -p "$dir"
    debootstrap --download-only --arch=arm64 --variant=minbase \
        --include="${packages// /,}" "$suite" "$dir/dl" http://deb.debian.org/debian \
        >"$dir/debootstrap.log" 2>&1 || { tail -n 20 "$dir/debootstrap.log"; die "debootstrap failed"; }
    debs=$dir/dl/var/cache/apt/archives
    fs=$dir/rootfs
    mkdir -p "$fs"
    for p in valgrind libc6 libc6-dbg libgcc-s1 busybox-static; do
        deb=$(find "$debs" -name "${p}_*_arm64.deb" | head -n 1)
        [ -n "$deb" ] || die "debootstrap did not fetch $p"
        dpkg-deb -x "$deb" "$fs"
    done
    kdeb=$(find "$debs" -name 'linux-image-[0-9]*-arm64_*_arm64.deb' | head -n 1)
    [ -n "$kdeb" ] || die "debootstrap did not fetch the kernel"
    dpkg-deb -x "$kdeb" "$dir/kernel"
    cp "$dir"/kernel/boot/vmlinuz-* "$dir/vmlinuz"
    # The modules virtio-9p needs (the kernel has them as modules), in load order.
    mods=$(find "$dir/kernel" -path '*/modules/*' -mindepth 3 -maxdepth 4 -type d -name '[0-9]*' | head -n 1)
    [ -n "$mods" ] || die "no modules in the kernel package"
    mkdir -p "$fs/modules"
    order=""
    for m in virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
        ko=$(find "$mods" -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)
        # A module built into this kernel has no file: nothing to load.
        [ -n "$ko" ] || continue
        case "$ko" in
            *.xz) xz -dc "$ko" >"$fs/modules/$m.ko" ;;
            *) cp "$ko" "$fs/modules/" ;;
        esac
        order="$order $m"
    done
    echo "$order" >"$fs/modules/order"
    # A merged-/usr release (trixie on) ships its files under /usr only: link /bin, /sbin and
    # /lib there, as its base-files would.
    for d in bin sbin lib; do
        if [ ! -e "$fs/$d" ]; then
            mkdir -p "$fs/usr/$d"
            ln -s "usr/$d" "$fs/$d"
        fi
    done
    mkdir -p "$fs"/{proc,sys,dev,tmp,run}
    (cd "$fs" && find . | cpio -o -H newc --quiet | gzip -1 >"$dir/base.cpio.gz")
    echo "$stamp" >"$dir/stamp"
fi

# The run: /init mounts what the command needs, the checkout over 9p at its own path, and
# prints the command's exit status for this script to read.
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
# Single-quoted lines are the guest's shell code, expanded there.
# shellcheck disable=SC2016
{
    echo '#!/bin/busybox sh'
    echo '/bin/busybox --install -s'
    echo 'export PATH=/usr/bin:/usr/sbin:/bin:/sbin HOME=/tmp'
    echo 'mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp'
    echo 'for m in $(cat /modules/order); do insmod /modules/$m.ko || echo "qemu-guest: insmod $m failed"; done'
    printf 'mkdir -p %q\n' "$root"
    # No command runs without the checkout: the run fails (status 125) instead.
    echo 'fail() { echo "qemu-guest: $1"; echo "qemu-guest: exit 125"; poweroff -f; }'
    printf 'mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none checkout %q || fail "the checkout could not be mounted"\n' "$root"
    printf 'cd %q || fail "no such directory in the guest"\n' "$PWD"
    while IFS= read -r kv; do printf 'export %q\n' "$kv"; done < <(env | grep -E '^MLDSA_[A-Z0-9_]*=' || true)
    printf '%q ' "$@"
    echo
    echo 'echo "qemu-guest: exit $?"'
    echo 'sync; poweroff -f'
} >"$run/init"
chmod +x "$run/init"
(cd "$run" && echo init | cpio -o -H newc --quiet | gzip -1 >"$run/run.cpio.gz")
cat "$dir/base.cpio.gz" "$run/run.cpio.gz" >"$run/initrd.gz"

echo "== qemu-system-aarch64 -cpu $cpu: $*"
log=$run/console.log
rc=0
timeout "$timeout" qemu-system-aarch64 -M virt -cpu "$cpu" -m "$memory" -smp 1 \
    -kernel "$dir/vmlinuz" -initrd "$run/initrd.gz" \
    -append "console=ttyAMA0 rdinit=/init panic=-1 quiet" \
    -virtfs "local,path=$root,mount_tag=checkout,security_model=none,id=checkout" \
    -nic none -display none -serial stdio -monitor none -no-reboot </dev/null | tee "$log" || rc=$?
[ "$rc" = 0 ] || { echo "qemu-guest.sh: qemu-system-aarch64 failed or timed out (exit $rc)" >&2; exit 1; }
status=$(sed -n 's/^qemu-guest: exit \([0-9]*\).*/\1/p' "$log" | tail -n 1)
[ -n "$status" ] || { echo "qemu-guest.sh: the guest did not report the command's exit status" >&2; exit 1; }
exit "$status"
