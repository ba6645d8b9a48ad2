#!/bin/sh
# Runs the boot's mode and reports to the appliance; then powers the machine off (the appliance
# decides the next boot), or on failure reports the failure with the last lines of the log.
. /usr/lib/bulwark/lib.sh

log "bringing up the network"
if ! network_up; then
  log "no DHCP lease on any interface: check the provisioning network and the appliance's DHCP service"
  halt_here
fi

case "$BW_MODE" in
  enlist)
    inventory > /tmp/inventory.json
    report enlist /tmp/inventory.json || halt_here
    ;;
  commission|test)
    inventory > /tmp/inventory.json
    run_tests "$BW_MODE" > /tmp/results.json
    { printf '{"inventory":'; cat /tmp/inventory.json; printf ',"results":'; cat /tmp/results.json; printf '}'; } > /tmp/report.json
    report "$BW_MODE" /tmp/report.json || halt_here
    ;;
  deploy)
    deploy > /tmp/report.json || { report deploy /tmp/report.json; halt_here; }
    report deploy /tmp/report.json || halt_here
    log "deployed; restarting to boot from the disk"
    sync
    reboot -f
    ;;
  erase)
    erase > /tmp/report.json
    report erase /tmp/report.json || halt_here
    ;;
  rescue)
    log "rescue mode: a root shell on the console; the appliance ends rescue mode"
    exec setsid cttyhack sh
    ;;
  *)
    log "unknown mode '$BW_MODE' on the kernel command line"
    halt_here
    ;;
esac
log "done; powering off"
sync
poweroff -f
