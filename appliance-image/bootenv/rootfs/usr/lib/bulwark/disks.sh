#!/bin/sh
# Deployment and erasure of the machine's disks.

disks() {
  for b in /sys/block/*; do
    name=${b##*/}
    case "$name" in loop*|ram*|zram*|sr*|fd*) continue ;; esac
    echo "$name"
  done
}

# Writes the image BW_IMAGE (under the appliance's /boot/) to the first disk, checking the bytes
# received against BW_SHA256 and then the bytes read back from the disk. On a mismatch the disk's
# first MiB is zeroed, so that a half-written image never boots.
deploy() {
  disk=$(disks | head -1)
  if [ -z "$disk" ]; then
    log "no disk to deploy to"
    printf '{"error":"no disk"}'
    return 1
  fi
  log "writing $BW_IMAGE ($BW_SIZE bytes) to /dev/$disk"
  rm -f /tmp/image.fifo
  mkfifo /tmp/image.fifo
  sha256sum < /tmp/image.fifo > /tmp/image.received &
  hasher=$!
  wget -q -O - "$BW_URL/boot/$BW_IMAGE" | tee /tmp/image.fifo | dd of="/dev/$disk" bs=1M conv=fsync 2> /tmp/dd.err
  wait $hasher
  received=$(cut -d' ' -f1 /tmp/image.received)
  sync
  echo 3 > /proc/sys/vm/drop_caches
  ondisk=$(head -c "$BW_SIZE" "/dev/$disk" | sha256sum | cut -d' ' -f1)
  if [ "$received" != "$BW_SHA256" ] || [ "$ondisk" != "$BW_SHA256" ]; then
    printf '{"disk":"%s","bytes":%s,"sha256Received":"%s","sha256OnDisk":"%s"}' "$disk" "$BW_SIZE" "$received" "$ondisk"
    log "the image does not check out (received $received, on disk $ondisk, expected $BW_SHA256): wiping its first MiB"
    dd if=/dev/zero of="/dev/$disk" bs=1M count=1 conv=fsync 2> /dev/null
    return 1
  fi
  log "image written and read back: $ondisk" > /dev/null
  SEEDED=""
  seed_cloud_init "$disk" > /dev/null
  printf '{"disk":"%s","bytes":%s,"sha256Received":"%s","sha256OnDisk":"%s","cloudInitSeeded":"%s"}' \
    "$disk" "$BW_SIZE" "$received" "$ondisk" "$SEEDED"
}

# Points the deployed image's cloud-init at this deployment's seed on the appliance (NoCloud,
# seedfrom), in the first ext4 partition that has /etc/cloud; prints the partition, or nothing if
# the image has none (its user data then stays on the appliance).
seed_cloud_init() {
  [ -n "$BW_SEED" ] || return 0
  blockdev --rereadpt "/dev/$1" 2> /dev/null
  sleep 1
  mkdir -p /mnt/image
  for part in /sys/block/$1/$1*; do
    [ -e "$part" ] || continue
    name=${part##*/}
    if mount -t ext4 "/dev/$name" /mnt/image 2> /dev/null; then
      if [ -d /mnt/image/etc/cloud ]; then
        mkdir -p /mnt/image/etc/cloud/cloud.cfg.d
        cat > /mnt/image/etc/cloud/cloud.cfg.d/99-bulwark-datasource.cfg <<CFG
# Written by Bulwark's boot environment when it deployed this machine: cloud-init reads the user
# data of this deployment from the appliance's provisioning plane.
datasource_list: [ NoCloud, None ]
datasource:
  NoCloud:
    seedfrom: $BW_URL/metadata/$BW_SEED/
CFG
        sync
        umount /mnt/image
        log "cloud-init of /dev/$name reads its seed from $BW_URL/metadata/"
        SEEDED=$name
        return 0
      fi
      umount /mnt/image
    fi
  done
  log "no ext4 partition with /etc/cloud in the image: its cloud-init is left as it is"
}

# Erases every disk: quick zeroes the first and last 16 MiB (partition tables, RAID and file system
# signatures); secure zeroes every byte. Each disk is then checked for zeroes where it was written.
erase() {
  printf '{"mode":"%s","disks":[' "${BW_ERASE:-quick}"
  sep=""
  for disk in $(disks); do
    sectors=$(cat "/sys/block/$disk/size")
    mib=$((sectors / 2048))
    if [ "${BW_ERASE:-quick}" = secure ]; then
      log "erasing all $mib MiB of /dev/$disk"
      dd if=/dev/zero of="/dev/$disk" bs=1M count="$mib" conv=fsync 2> /dev/null
      checked=$mib
    else
      n=16
      [ "$mib" -lt 32 ] && n=$((mib / 2))
      log "erasing the first and last $n MiB of /dev/$disk"
      dd if=/dev/zero of="/dev/$disk" bs=1M count="$n" conv=fsync 2> /dev/null
      dd if=/dev/zero of="/dev/$disk" bs=1M seek=$((mib - n)) count="$n" conv=fsync 2> /dev/null
      checked=$n
    fi
    sync
    echo 3 > /proc/sys/vm/drop_caches
    nonzero=$(head -c $((checked * 1048576)) "/dev/$disk" | tr -d '\000' | wc -c)
    printf '%s{"name":"%s","bytes":%s,"erasedMiB":%s,"nonZeroBytes":%s}' "$sep" "$disk" "$((sectors * 512))" "$checked" "$nonzero"
    sep=","
  done
  printf ']}'
}
