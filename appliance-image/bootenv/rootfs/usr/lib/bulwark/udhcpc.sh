#!/bin/sh
# udhcpc's hook: sets the address, route and resolver it was given.
case "$1" in
  deconfig)
    ip -4 addr flush dev "$interface"
    ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip -4 addr add "$ip/${mask:-24}" broadcast "${broadcast:-+}" dev "$interface"
    if [ -n "$router" ]; then
      ip route replace default via "${router%% *}" dev "$interface"
    fi
    : > /etc/resolv.conf
    for d in $dns; do echo "nameserver $d" >> /etc/resolv.conf; done
    ;;
esac
exit 0
