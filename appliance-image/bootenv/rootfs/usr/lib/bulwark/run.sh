#!/bin/sh
# Runs the boot's mode and reports to the appliance; then powers the machine off (the appliance
# decides the next boot), or on failure reports the failure with the last lines of the log.
. /usr/lib/bulwark/lib.sh

log "bringing up the network"
if ! network_up; then
  halt_here "no DHCP lease on any interface: check the provisioning network and the appliance's DHCP service"
fi

case "$BW_MODE" in
  enlist)
    inventory > /tmp/inventory.json
    report enlist /tmp/inventory.json || halt_here "the appliance did not take the enlistment report"
    ;;
  commission|test)
    inventory > /tmp/inventory.json
    run_tests "$BW_MODE" > /tmp/results.json
    { printf '{"inventory":'; cat /tmp/inventory.json; printf ',"results":'; cat /tmp/results.json; printf '}'; } > /tmp/report.json
    report "$BW_MODE" /tmp/report.json || halt_here "the appliance did not take the $BW_MODE report"
    ;;
  deploy)
    deploy > /tmp/report.json || { report deploy /tmp/report.json; halt_here "deployment failed"; }
    report deploy /tmp/report.json || halt_here "the appliance did not take the deployment report"
    log "deployed; restarting to boot from the disk"
    sync
    reboot -f
    ;;
  erase)
    erase > /tmp/report.json
    report erase /tmp/report.json || halt_here "the appliance did not take the erasure report"
    ;;
  rescue)
    printf '{"console":"%s"}' "$(cat /sys/class/tty/console/active 2> /dev/null)" > /tmp/rescue.json
    report rescue /tmp/rescue.json || halt_here "the appliance did not take the rescue report"
    log "rescue mode: a root shell on the console; the appliance ends rescue mode"
    exec setsid cttyhack sh
    ;;
  *)
    halt_here "unknown mode '$BW_MODE' on the kernel command line"
    ;;
esac
log "done; powering off"
sync
poweroff -f
