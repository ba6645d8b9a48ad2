# name: memory
# tags: commissioning,memory
# destructive: false
# timeout: 300
# parallel: false
# Writes a pattern through a quarter of the free memory (a tmpfs) and reads it back.
free_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
mb=$((free_kb / 4096))
[ "$mb" -gt 2048 ] && mb=2048
mkdir -p /run/memtest && mount -t tmpfs -o size=$((mb + 8))m tmpfs /run/memtest || exit 2
dd if=/dev/urandom of=/run/memtest/seed bs=1M count=1 2>/dev/null
i=0; : > /run/memtest/fill
while [ $i -lt "$mb" ]; do cat /run/memtest/seed; i=$((i + 1)); done > /run/memtest/fill
want=$(sha256sum < /run/memtest/seed | cut -d' ' -f1)
bad=0; i=0
while [ $i -lt "$mb" ]; do
  got=$(dd if=/run/memtest/fill bs=1M skip=$i count=1 2>/dev/null | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ] || bad=$((bad + 1))
  i=$((i + 1))
done
umount /run/memtest
echo "memory: $mb MiB written and read back, $bad MiB differed"
[ "$bad" -eq 0 ]
