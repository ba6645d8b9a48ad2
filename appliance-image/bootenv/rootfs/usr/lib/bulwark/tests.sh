#!/bin/sh
# Runs the hardware tests in /usr/lib/bulwark/tests that the boot is for (commissioning runs those
# tagged "commissioning"; testing those named, or tagged with a word, in bulwark.tests, else those of
# commissioning), each under its timeout, and prints their results as JSON.
# A test declares itself in comment lines at its top:
#   # name: disk-read
#   # tags: commissioning,disk
#   # destructive: false
#   # timeout: 300
#   # parallel: true
meta() {
  sed -n "s/^# $2: *//p" "$1" | head -1
}

run_tests() {
  chosen=commissioning
  [ "$1" = test ] && chosen=${BW_TESTS:-commissioning}
  printf '['
  sep=""
  for t in /usr/lib/bulwark/tests/*.sh; do
    name=$(meta "$t" name)
    tags=$(meta "$t" tags)
    wanted=""
    for word in $(echo "$chosen" | tr ',' ' '); do
      case ",$name,$tags," in *",$word,"*) wanted=yes ;; esac
    done
    [ -n "$wanted" ] || continue
    limit=$(meta "$t" timeout)
    log "test $name (timeout ${limit:-600} s)"
    start=$(date +%s)
    timeout -s KILL "${limit:-600}" sh "$t" > "/tmp/test-$name.out" 2>&1
    status=$?
    took=$(($(date +%s) - start))
    log "test $name: exit $status after $took s"
    printf '%s{"name":%s,"tags":%s,"destructive":%s,"parallel":%s,"timeoutSeconds":%s,"exitStatus":%s,"seconds":%s,"output":%s}' \
      "$sep" "$(js "$name")" "$(js "$tags")" "$(meta "$t" destructive)" "$(meta "$t" parallel)" \
      "${limit:-600}" "$status" "$took" "$(js "$(tail -c 4000 "/tmp/test-$name.out" | tr '\n' '\036' | sed 's/\x1e/\\n/g')")"
    sep=","
  done
  printf ']'
}
