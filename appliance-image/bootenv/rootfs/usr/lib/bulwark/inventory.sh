#!/bin/sh
# The machine's hardware as JSON, read from /proc and /sys: system identity, CPUs, memory, disks,
# NICs and PCI devices, NVIDIA GPUs among them.
inventory() {
  cpus=$(grep -c '^processor' /proc/cpuinfo)
  model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
  printf '{"mac":%s,"interface":%s,' "$(js "$BW_MAC")" "$(js "$BW_IF")"
  printf '"system":{"vendor":%s,"product":%s,"serial":%s,"uuid":%s},' \
    "$(js "$(sysval /sys/class/dmi/id/sys_vendor)")" "$(js "$(sysval /sys/class/dmi/id/product_name)")" \
    "$(js "$(sysval /sys/class/dmi/id/product_serial)")" "$(js "$(sysval /sys/class/dmi/id/product_uuid)")"
  printf '"cpu":{"count":%s,"model":%s},' "$cpus" "$(js "$model")"
  printf '"memoryBytes":%s,' "$((mem_kb * 1024))"
  printf '"disks":['
  sep=""
  for b in /sys/block/*; do
    name=${b##*/}
    case "$name" in loop*|ram*|zram*|sr*|fd*) continue ;; esac
    sectors=$(sysval "$b/size")
    printf '%s{"name":%s,"bytes":%s,"model":%s,"rotational":%s}' "$sep" "$(js "$name")" \
      "$((sectors * 512))" "$(js "$(sysval "$b/device/model" | sed 's/ *$//')")" \
      "$([ "$(sysval "$b/queue/rotational")" = 1 ] && echo true || echo false)"
    sep=","
  done
  printf '],"nics":['
  sep=""
  for n in /sys/class/net/*; do
    name=${n##*/}
    [ "$name" = lo ] && continue
    speed=$(sysval "$n/speed")
    case "$speed" in ''|-*) speed=null ;; esac
    driver=$(basename "$(readlink "$n/device/driver" 2>/dev/null)" 2>/dev/null)
    printf '%s{"name":%s,"mac":%s,"speedMbps":%s,"driver":%s}' "$sep" "$(js "$name")" \
      "$(js "$(sysval "$n/address")")" "$speed" "$(js "$driver")"
    sep=","
  done
  printf '],"pci":['
  sep=""
  gpus=0
  for d in /sys/bus/pci/devices/*; do
    vendor=$(sysval "$d/vendor")
    class=$(sysval "$d/class")
    case "$vendor:$class" in 0x10de:0x0300*|0x10de:0x0302*) gpus=$((gpus + 1)) ;; esac
    printf '%s{"address":%s,"vendor":%s,"device":%s,"class":%s}' "$sep" "$(js "${d##*/}")" \
      "$(js "$vendor")" "$(js "$(sysval "$d/device")")" "$(js "$class")"
    sep=","
  done
  printf '],"nvidiaGpus":%s}' "$gpus"
}
