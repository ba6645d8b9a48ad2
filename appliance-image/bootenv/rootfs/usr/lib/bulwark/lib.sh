#!/bin/sh
# Shared by the boot environment's scripts.
LOG=/tmp/bulwark.log

log() {
  echo "bulwark: $*" | tee -a "$LOG" > /dev/console
  send_log
}

# Sends the lines logged since the last send to the appliance (once the network is up), so an
# operator sees the boot's progress and, if it stops, its last lines. Best effort: a line that
# cannot be sent is sent with the next.
send_log() {
  [ -f /tmp/bulwark.online ] || return 0
  sent=$(cat /tmp/bulwark.sent 2>/dev/null || echo 0)
  total=$(wc -l < "$LOG")
  [ "$total" -gt "$sent" ] || return 0
  tail -n "$((total - sent))" "$LOG" > /tmp/bulwark.send
  if timeout 10 wget -q -O /dev/null --header "Content-Type: text/plain" \
      --post-file /tmp/bulwark.send "$BW_URL/log?token=$BW_TOKEN&mac=$BW_MAC" 2> /dev/null; then
    echo "$total" > /tmp/bulwark.sent
  fi
}

# Raises the interface with the MAC the appliance booted (bulwark.mac), else each in turn, until one
# gets a lease.
network_up() {
  ip link set lo up
  for dev in /sys/class/net/*; do
    name=${dev##*/}
    [ "$name" = lo ] && continue
    ip link set "$name" up
  done
  sleep 1
  for pass in first rest; do
    for dev in /sys/class/net/*; do
      name=${dev##*/}
      [ "$name" = lo ] && continue
      mac=$(cat "$dev/address")
      if [ "$pass" = first ] && [ "$mac" != "$BW_MAC" ]; then continue; fi
      if [ "$pass" = rest ] && [ "$mac" = "$BW_MAC" ]; then continue; fi
      if udhcpc -i "$name" -n -q -t 5 -T 2 -s /usr/lib/bulwark/udhcpc.sh > /dev/null 2>&1; then
        BW_IF=$name
        touch /tmp/bulwark.online
        log "$name ($mac) is up: $(ip -4 -o addr show dev "$name" | awk '{print $4}')"
        return 0
      fi
    done
  done
  return 1
}

# JSON string escaping for values read from the machine.
js() {
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr -d '\000-\037')"
}

sysval() {
  [ -r "$1" ] && cat "$1" 2>/dev/null | head -1
}

# Posts a report; the appliance answers 200 with a line of text, or refuses with the reason.
report() {
  kind=$1
  file=$2
  i=0
  while [ $i -lt 5 ]; do
    if wget -q -O /tmp/answer --header "Content-Type: application/json" --post-file "$file" \
        "$BW_URL/report/$kind?token=$BW_TOKEN&mac=$BW_MAC"; then
      touch /tmp/bulwark.reported
      log "the appliance took the $kind report: $(cat /tmp/answer)"
      return 0
    fi
    i=$((i + 1))
    sleep 3
  done
  log "the appliance did not take the $kind report after 5 tries"
  return 1
}

# Stops the boot: the appliance is told why (unless it already took this boot's report), so the
# operation fails now with the reason and the last lines logged; without a network it fails at its
# timeout. The console keeps the last lines.
halt_here() {
  reason=${1:-the boot environment stopped}
  log "stopped: $reason"
  if [ -f /tmp/bulwark.online ] && [ ! -f /tmp/bulwark.reported ]; then
    printf '{"failed":true,"reason":%s}' "$(js "$reason")" > /tmp/failed.json
    report "$BW_MODE" /tmp/failed.json || true
  fi
  tail -n 20 "$LOG" > /dev/console
  while true; do sleep 3600; done
}

. /usr/lib/bulwark/inventory.sh
. /usr/lib/bulwark/tests.sh
. /usr/lib/bulwark/disks.sh
