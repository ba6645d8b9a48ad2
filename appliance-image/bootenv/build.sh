#!/usr/bin/env bash
# Builds the boot environment machines run while Bulwark enlists, commissions, deploys and erases them:
# the kernel of Debian's linux-image-amd64 and a BusyBox initramfs with the NIC and disk drivers from the
# same package and Bulwark's scripts (rootfs/). Everything comes from Debian packages, fetched with
# apt-get download at build time and kept in a cache; nothing is downloaded when a machine boots.
#
#   build.sh OUT_DIR     writes OUT_DIR/vmlinuz, OUT_DIR/initrd.img and OUT_DIR/SHA256SUMS
set -euo pipefail

out=${1:?usage: build.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cache=${BULWARK_BOOTENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bulwark-bootenv}
mkdir -p "$cache" "$out"

download() { # package -> path of its .deb in the cache
  local pkg=$1 deb
  deb=$(ls "$cache"/"${pkg}"_*.deb 2>/dev/null | head -1 || true)
  if [ -z "$deb" ]; then
    (cd "$cache" && { apt-get download "$pkg" >/dev/null 2>&1 || { apt-get update -qq && apt-get download "$pkg" >/dev/null; }; })
    deb=$(ls "$cache"/"${pkg}"_*.deb | head -1)
  fi
  echo "$deb"
}

kernel_pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$kernel_pkg" ]; then
  apt-get update -qq
  kernel_pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
kernel_deb=$(download "$kernel_pkg")
busybox_deb=$(download busybox-static)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$kernel_deb" "$work/kernel"
dpkg-deb -x "$busybox_deb" "$work/busybox"
version=$(ls "$work/kernel/lib/modules")
modules="$work/kernel/lib/modules/$version"

# The drivers a server boots with: NICs (QEMU's e1000/virtio, Intel, Broadcom, Mellanox) and disks
# (AHCI, NVMe, virtio, SCSI disks), with what they depend on, in load order; ext4 (and the crc32c it checks
# metadata with) to write the deployed image's cloud-init configuration.
wanted="e1000 e1000e igb ixgbe i40e ice tg3 bnxt_en mlx5_core virtio_net virtio_pci virtio_blk virtio_scsi ahci ata_piix sd_mod nvme crc32c_generic ext4"
root="$work/root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,run,etc,lib/modules}
order=()
seen=" "
add() { # module name, dependencies first
  local name=$1 file deps d
  case "$seen" in *" $name "*) return;; esac
  seen="$seen$name "
  file=$(find "$modules/kernel" -name "$name.ko" -o -name "${name//_/-}.ko" | head -1)
  [ -n "$file" ] || { echo "build.sh: module $name is not in $kernel_pkg" >&2; exit 1; }
  deps=$(grep -a -o 'depends=[^[:cntrl:]]*' "$file" | head -1 | cut -d= -f2 | tr ',' ' ')
  for d in $deps; do add "$d"; done
  cp "$file" "$root/lib/modules/"
  order+=("$(basename "$file")")
}
for m in $wanted; do add "$m"; done
printf '%s\n' "${order[@]}" > "$root/lib/modules/load.order"

cp "$work/busybox/bin/busybox" "$root/bin/busybox"
cp -a "$here/rootfs/." "$root/"
chmod 0755 "$root/init" "$root"/usr/lib/bulwark/*.sh "$root"/usr/lib/bulwark/tests/*.sh
echo "$kernel_pkg" > "$root/etc/bulwark-kernel"

cp "$work/kernel/boot/vmlinuz-$version" "$out/vmlinuz"
# Fixed times and owners, so the same packages and scripts give the same image.
(cd "$root" && find . -exec touch -h -d @0 {} + && find . | LC_ALL=C sort | "$work/busybox/bin/busybox" cpio -o -H newc -R 0:0 2>/dev/null) | gzip -9 -n > "$out/initrd.img"
(cd "$out" && sha256sum vmlinuz initrd.img > SHA256SUMS)
echo "build.sh: boot environment of $kernel_pkg with ${#order[@]} modules in $out ($(du -h "$out/initrd.img" | cut -f1) initramfs)"
