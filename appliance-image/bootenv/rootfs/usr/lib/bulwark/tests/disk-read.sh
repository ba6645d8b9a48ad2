# name: disk-read
# tags: commissioning,disk
# destructive: false
# timeout: 600
# parallel: true
# Reads the first 64 MiB of every disk and reports the speed; a disk that cannot be read fails.
status=0
for b in /sys/block/*; do
  name=${b##*/}
  case "$name" in loop*|ram*|zram*|sr*|fd*) continue ;; esac
  start=$(date +%s)
  if dd if=/dev/$name of=/dev/null bs=1M count=64 2>/tmp/dd.err; then
    took=$(($(date +%s) - start)); [ $took -eq 0 ] && took=1
    echo "$name: 64 MiB read in $took s (about $((64 / took)) MiB/s)"
  else
    echo "$name: read failed: $(cat /tmp/dd.err)"
    status=1
  fi
done
echo "SMART: smartctl is not in the boot environment; SMART health is read from the BMC where it reports it"
exit $status
