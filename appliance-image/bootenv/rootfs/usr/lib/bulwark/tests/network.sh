# name: network
# tags: commissioning,network
# destructive: false
# timeout: 120
# parallel: false
# Fetches the boot environment's kernel from the appliance and reports the throughput.
start=$(date +%s)
wget -q -O /dev/null "$BW_URL/boot/env/vmlinuz" || { echo "cannot fetch $BW_URL/boot/env/vmlinuz"; exit 1; }
took=$(($(date +%s) - start)); [ $took -eq 0 ] && took=1
size=$(wget -q -S --spider "$BW_URL/boot/env/vmlinuz" 2>&1 | awk 'tolower($1) == "content-length:" {print $2}' | tr -d '\r')
echo "network: $BW_IF fetched ${size:-?} bytes in $took s; link speed $(cat /sys/class/net/$BW_IF/speed 2>/dev/null || echo unknown) Mb/s"
