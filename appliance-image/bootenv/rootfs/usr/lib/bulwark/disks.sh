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
  printf '{"disk":"%s","bytes":%s,"sha256Received":"%s","sha256OnDisk":"%s"}' "$disk" "$BW_SIZE" "$received" "$ondisk"
  if [ "$received" != "$BW_SHA256" ] || [ "$ondisk" != "$BW_SHA256" ]; then
    log "the image does not check out (received $received, on disk $ondisk, expected $BW_SHA256): wiping its first MiB"
    dd if=/dev/zero of="/dev/$disk" bs=1M count=1 conv=fsync 2> /dev/null
    return 1
  fi
  log "image written and read back: $ondisk"
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
