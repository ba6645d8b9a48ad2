#!/usr/bin/env bash
# Fleet-scale ingest benchmark: Bulwark (scrape, parse, ingest, detectors) and Prometheus (scrape,
# ingest) against the same simulated dcgm-exporter targets, one after the other, with the same
# scrape interval. Prints samples/s, CPU-seconds per million samples, the ratio, and Bulwark's
# heap per series. See README.md next to this script.
#
# Usage: bench/ingest/run.sh [NODES] [MEASURE_S] [WARMUP_S]
#   NODES      simulated nodes of 8 GPUs (default 256)
#   MEASURE_S  measured interval per contender, seconds (default 60)
#   WARMUP_S   warm-up before measuring, seconds (default 30)
# Environment: GPUS (8), NODES_PER_ADDRESS (nodes behind one loopback address, 8), SCENARIO (demo|none),
#   BULWARK_XMX (Bulwark's -Xmx, default 8g), PROMETHEUS (/usr/bin/prometheus),
#   BULWARK_JAVA_OPTS (extra JVM options, e.g. a flight recording), PROM_PORT (19090), SKIP_BUILD=1 to use the jars already built, ONLY=bulwark|prometheus,
#   STARVE=N to starve the machine: N busy-looping processes pinned to the last core run through each contender's
#   warm-up and measurement (a backup, an update's verification or a noisy co-tenant taking one of the cores),
#   FIELDS (counters: the 34 fields of Bulwark's counters file, the default; all: the 52 the simulator models),
#   INJECT_AFTER_S (10: three faults, an XID, a thermal throttle and a 10% straggler, are put on healthy nodes this
#   long into Bulwark's measurement and their detection times printed; 0 injects none).
set -euo pipefail

NODES=${1:-256}
MEASURE_S=${2:-60}
WARMUP_S=${3:-30}
GPUS=${GPUS:-8}
NODES_PER_ADDRESS=${NODES_PER_ADDRESS:-8}
SCENARIO=${SCENARIO:-demo}
BULWARK_XMX=${BULWARK_XMX:-8g}
PROMETHEUS=${PROMETHEUS:-/usr/bin/prometheus}
PROM_PORT=${PROM_PORT:-19090}
ONLY=${ONLY:-}
STARVE=${STARVE:-0}
FIELDS=${FIELDS:-counters}
INJECT_AFTER_S=${INJECT_AFTER_S:-10}
STARVE_CPU=$(( $(nproc) - 1 ))
HOG_PIDS=()

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  echo "Building bench/ingest (against the bundles installed in ~/.m2)..."
  mvn -q -pl bench/ingest package -DskipTests
fi
CP="$HERE/target/classes:$HERE/target/lib/*"
[[ -d "$HERE/target/lib" ]] || { echo "bench/ingest is not built: run without SKIP_BUILD" >&2; exit 2; }
if [[ "$ONLY" != bulwark && ! -x "$PROMETHEUS" ]]; then
  echo "$PROMETHEUS is missing: apt-get install -y prometheus (and stop its service), or ONLY=bulwark" >&2
  exit 2
fi

WORK="$HERE/target/run-$NODES-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$WORK"
TICKS=$(getconf CLK_TCK)
SIM_PID=""
BULWARK_PID=""
PROM_PID=""

stop_pid() { # pid: TERM, wait up to 10 s, then KILL
  local pid=$1
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
starve_begin() { # the hogs: pinned to the last core, at normal priority, as another service would run
  (( STARVE > 0 )) || return 0
  for _ in $(seq 1 "$STARVE"); do
    taskset -c "$STARVE_CPU" sh -c 'while :; do :; done' &
    HOG_PIDS+=($!)
  done
}
starve_end() {
  local p
  for p in "${HOG_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  HOG_PIDS=()
}
cleanup() {
  starve_end
  stop_pid "$PROM_PID"
  stop_pid "$BULWARK_PID"
  stop_pid "$SIM_PID"
  rm -rf "$WORK/prometheus-data" "$WORK/bulwark-store"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }     # utime + stime of one process
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
idle_ticks() { awk '/^cpu / {print $5 + $6; exit}' /proc/stat; }  # idle + iowait, all cores
all_ticks() { awk '/^cpu / {s = 0; for (i = 2; i <= 9; i++) s += $i; print s; exit}' /proc/stat; }
wait_for() { # seconds, description, command...: poll the command until it succeeds
  local limit=$1 what=$2; shift 2
  for _ in $(seq 1 $((limit * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "Timed out after ${limit}s waiting for $what" >&2
  exit 1
}

echo "Starting the simulator: $NODES nodes x $GPUS GPUs $NODES_PER_ADDRESS per loopback address, scenario $SCENARIO, fields $FIELDS"
java -Xmx1g -Djava.util.logging.config.file="$HERE/logging.properties" -cp "$CP" \
  io.bulwark.bench.ingest.SimulatorMain --nodes "$NODES" --gpus "$GPUS" \
  --nodes-per-address "$NODES_PER_ADDRESS" --scenario "$SCENARIO" --fields "$FIELDS" --out "$WORK/sim" \
  >"$WORK/simulator.log" 2>&1 &
SIM_PID=$!
wait_for 60 "the simulator" grep -q '^READY' "$WORK/simulator.log"
TARGETS_FILE="$WORK/sim/targets.json"
FIRST_URL=$(python3 -c "import json,sys; e=json.load(open(sys.argv[1]))[0]; print('http://'+e['targets'][0]+e['labels']['__metrics_path__'])" "$TARGETS_FILE")
PAGE_SAMPLES=$(curl -s --max-time 5 "$FIRST_URL" | grep -cv '^#')
TARGETS=$(sed -n 's/^READY targets=\([0-9]*\).*/\1/p' "$WORK/simulator.log")
NOMINAL=$(( TARGETS * PAGE_SAMPLES ))  # samples in one round of scrapes of every target
echo "Simulator ready: $(grep '^READY' "$WORK/simulator.log"); one page holds $PAGE_SAMPLES samples"

# One measured phase: sets C_TICKS, C_WALL, C_SIM_TICKS, C_IDLE, C_ALL (deltas over the interval).
measure_begin() { M_T0=$(date +%s.%N); M_C0=$(cpu_ticks "$1"); M_S0=$(cpu_ticks "$SIM_PID"); M_I0=$(idle_ticks); M_A0=$(all_ticks); }
measure_end() {
  C_WALL=$(awk -v a="$M_T0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
  C_TICKS=$(( $(cpu_ticks "$1") - M_C0 ))
  C_SIM_TICKS=$(( $(cpu_ticks "$SIM_PID") - M_S0 ))
  C_IDLE=$(( $(idle_ticks) - M_I0 ))
  C_ALL=$(( $(all_ticks) - M_A0 ))
}
last_tally() { grep '^TALLY' "$WORK/bulwark.log" | tail -1; }

# Fault injection into the last group of nodes (healthy, far from the demo scenario's first group): an XID on
# GPU 2 of its first node, a thermal throttle on GPU 5 of its second, a sustained 10% straggler on GPU 1 of its
# third, through the simulator's control API. Sets INJECTED_MS and FAULT_IDS.
INJECT_NODES=()
inject_faults() {
  local address
  read -r address INJECT_NODES[0] INJECT_NODES[1] INJECT_NODES[2] < <(python3 - "$TARGETS_FILE" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
last = entries[-1]
prefix = last["labels"]["__metrics_path__"].split("/")[2].rsplit("-", 1)[0] + "-"
group = [e for e in entries if e["labels"]["__metrics_path__"].split("/")[2].startswith(prefix)]
nodes = [e["labels"]["__metrics_path__"].split("/")[2] for e in group][:3]
print(group[0]["targets"][0], *nodes)
PY
)
  INJECTED_MS=$(date +%s%3N)
  FAULT_IDS=()
  local body id
  for body in "{\"node\":\"${INJECT_NODES[0]}\",\"gpu\":2,\"kind\":\"xid\",\"xid\":79}" \
              "{\"node\":\"${INJECT_NODES[1]}\",\"gpu\":5,\"kind\":\"thermal-throttle\"}" \
              "{\"node\":\"${INJECT_NODES[2]}\",\"gpu\":1,\"kind\":\"straggler\",\"slowdownPercent\":10}"; do
    id=$(curl -s --max-time 5 -H 'Content-Type: application/json' -d "$body" "http://$address/sim/faults" |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    FAULT_IDS+=("$address/sim/faults/$id")
  done
}
clear_faults() {
  local f
  for f in "${FAULT_IDS[@]}"; do curl -s --max-time 5 -X DELETE "http://$f" >/dev/null || true; done
  FAULT_IDS=()
}
# Prints, for each injected fault, the seconds from injection to its finding (or "not found").
detection_times() {
  local kinds=(xid thermal-throttle straggler) i line t
  for i in 0 1 2; do
    line=$(grep "^FINDING .* kind=${kinds[$i]} node=${INJECT_NODES[$i]} " "$WORK/bulwark.log" | head -1)
    if [[ -n "$line" ]]; then
      t=$(field "$line" t_ms)
      printf '%s %s ' "${kinds[$i]}" "$(awk -v a="$INJECTED_MS" -v b="$t" 'BEGIN {printf "%.1f", (b - a) / 1000}')"
    else
      printf '%s %s ' "${kinds[$i]}" "none"
    fi
  done
}
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }

B_ROW="" P_ROW=""
if [[ "$ONLY" != prometheus ]]; then
  echo "Bulwark: warming up ${WARMUP_S}s, then measuring ${MEASURE_S}s"
  # shellcheck disable=SC2086
  java -Xmx"$BULWARK_XMX" ${BULWARK_JAVA_OPTS:-} -Djava.util.logging.config.file="$HERE/logging.properties" -cp "$CP" \
    io.bulwark.bench.ingest.BulwarkMain --file-sd "$TARGETS_FILE" --data "$WORK/bulwark-store" \
    --heap-trigger "$WORK/heap-now" >"$WORK/bulwark.log" 2>&1 &
  BULWARK_PID=$!
  wait_for 60 "Bulwark to start" grep -q '^TALLY' "$WORK/bulwark.log"
  starve_begin
  sleep "$WARMUP_S"
  T0=$(last_tally); measure_begin "$BULWARK_PID"
  if (( INJECT_AFTER_S > 0 && INJECT_AFTER_S < MEASURE_S )); then
    sleep "$INJECT_AFTER_S"
    inject_faults
    sleep $(( MEASURE_S - INJECT_AFTER_S ))
  else
    sleep "$MEASURE_S"
  fi
  T1=$(last_tally); measure_end "$BULWARK_PID"
  DETECTION=""
  if (( ${#FAULT_IDS[@]} > 0 )); then
    DETECTION=$(detection_times)
    clear_faults
  fi
  starve_end
  B_RSS=$(rss_kib "$BULWARK_PID")
  touch "$WORK/heap-now"
  wait_for 60 "Bulwark's heap reading" grep -q '^HEAP' "$WORK/bulwark.log"
  HEAP=$(grep '^HEAP' "$WORK/bulwark.log")
  stop_pid "$BULWARK_PID"; BULWARK_PID=""
  B_SAMPLES=$(( $(field "$T1" samples) - $(field "$T0" samples) ))
  B_SCRAPES=$(( $(field "$T1" scrapes) - $(field "$T0" scrapes) ))
  B_FAILS=$(( $(field "$T1" failures) - $(field "$T0" failures) ))
  B_EVALS=$(( $(field "$T1" evaluations) - $(field "$T0" evaluations) ))
  B_SECONDS=$(awk -v a="$(field "$T0" t_ms)" -v b="$(field "$T1" t_ms)" 'BEGIN {print (b - a) / 1000}')
  B_ROW="$B_SAMPLES $B_SECONDS $C_TICKS $C_WALL $B_SCRAPES $NOMINAL $B_FAILS $C_SIM_TICKS $C_IDLE $C_ALL $B_RSS"
  echo "  $T1"
  echo "  $HEAP; evaluations in the interval: $B_EVALS; $(grep '^DETECTORS' "$WORK/bulwark.log" | cut -c1-60)..."
  B_INTERVAL=$(field "$T1" interval_ms)
  B_ROLES=""
  for role in engine parse loops other; do
    B_ROLES+=$(awk -v a="$(field "$T0" ${role}_cpu_ms)" -v b="$(field "$T1" ${role}_cpu_ms)" -v s="$B_SAMPLES" -v r="$role" \
      'BEGIN {printf "%s %.2f  ", r, (b - a) / 1000 / (s / 1e6)}')
  done
fi

prom_metric() { # name: sum of every series of that metric on Prometheus' own /metrics
  curl -s --max-time 10 "http://127.0.0.1:$PROM_PORT/metrics" |
    awk -v m="$1" '$1 == m || index($1, m "{") == 1 {s += $NF} END {printf "%.0f\n", s}'
}
prom_query() { # PromQL: the value of its one result, or 0
  curl -s --max-time 10 -G "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'
}
if [[ "$ONLY" != bulwark ]]; then
  echo "Prometheus $("$PROMETHEUS" --version 2>&1 | head -1 | awk '{print $3}'): warming up ${WARMUP_S}s, then measuring ${MEASURE_S}s"
  "$PROMETHEUS" --config.file="$WORK/sim/prometheus.yml" --storage.tsdb.path="$WORK/prometheus-data" \
    --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
  PROM_PID=$!
  wait_for 60 "Prometheus to be ready" curl -sf --max-time 2 "http://127.0.0.1:$PROM_PORT/-/ready"
  starve_begin
  sleep "$WARMUP_S"
  A0=$(prom_metric prometheus_tsdb_head_samples_appended_total)
  S0=$(prom_metric prometheus_target_interval_length_seconds_count)
  measure_begin "$PROM_PID"
  sleep "$MEASURE_S"
  measure_end "$PROM_PID"
  starve_end
  A1=$(prom_metric prometheus_tsdb_head_samples_appended_total)
  S1=$(prom_metric prometheus_target_interval_length_seconds_count)
  P_RSS=$(rss_kib "$PROM_PID")
  P_SERIES=$(prom_metric prometheus_tsdb_head_series)
  P_UP=$(prom_query 'count(up==1)')
  P_FAILS=$(prom_query "sum(count_over_time(up[${MEASURE_S}s])) - sum(sum_over_time(up[${MEASURE_S}s]))")
  stop_pid "$PROM_PID"; PROM_PID=""
  P_SCRAPES=$(( S1 - S0 ))
  # Each scrape also appends 5 synthetic series (up, scrape_*): not exporter samples.
  P_SAMPLES=$(( A1 - A0 - 5 * P_SCRAPES ))
  P_ROW="$P_SAMPLES $C_WALL $C_TICKS $C_WALL $P_SCRAPES $NOMINAL ${P_FAILS%.*} $C_SIM_TICKS $C_IDLE $C_ALL $P_RSS"
  echo "  appended $(( A1 - A0 )) samples ($P_SAMPLES from the exporters) in $P_SCRAPES scrapes; head series $P_SERIES; up $P_UP"
fi

echo
echo "Fleet: $NODES nodes x $GPUS GPUs, $PAGE_SAMPLES samples per page, scrape interval 1 s; measured ${MEASURE_S}s after ${WARMUP_S}s warm-up"
(( STARVE > 0 )) && echo "Starved: $STARVE busy-looping process(es) pinned to CPU $STARVE_CPU of $(nproc) through each contender's warm-up and measurement"
printf '%-11s %12s %10s %12s %14s %10s %8s %9s %14s\n' contender samples/s 'held 1s' 'CPU cores' 'CPU-s/Msample' 'sim cores' 'idle %' 'RSS MiB' 'failed scrapes'
# held 1s: samples ingested per second / (targets x samples of one page): 100% = every target every second.
row() { # name samples seconds ticks wall scrapes per_round failures sim_ticks idle all rss
  awk -v n="$1" -v s="$2" -v secs="$3" -v t="$4" -v w="$5" -v sc="$6" -v pr="$7" -v f="$8" \
    -v st="$9" -v idle="${10}" -v all="${11}" -v rss="${12}" -v hz="$TICKS" 'BEGIN {
      rate = s / secs; cpu = t / hz; held = (pr > 0) ? rate / pr : 0
      printf "%-11s %12.0f %9.1f%% %12.2f %14.2f %10.2f %8.1f %9.0f %14d\n", n, rate, 100 * held, cpu / w, 1e6 * cpu / s, st / hz / w, 100 * idle / all, rss / 1024, f
    }'
}
# shellcheck disable=SC2086
[[ -n "$B_ROW" ]] && row bulwark $B_ROW
# shellcheck disable=SC2086
[[ -n "$P_ROW" ]] && row prometheus $P_ROW
if [[ -n "$B_ROW" && -n "$P_ROW" ]]; then
  read -r bs bsec bt _ <<<"$B_ROW"
  read -r ps psec pt _ <<<"$P_ROW"
  awk -v bs="$bs" -v bt="$bt" -v ps="$ps" -v pt="$pt" 'BEGIN {
    b = bt / bs; p = pt / ps
    printf "CPU per sample, Bulwark / Prometheus: %.2f (Bulwark %s)\n", b / p, (b < p ? "uses less" : "uses more")
  }'
fi
if [[ -n "$B_ROW" ]]; then
  awk -v h="$HEAP" 'BEGIN {
    split(h, kv, " "); for (i in kv) { split(kv[i], p, "="); v[p[1]] = p[2] }
    printf "Bulwark heap after full GC: %.0f MiB for %d series (%.0f MiB before the first scrape): %d bytes per series\n", v["used_after_gc"] / 1048576, v["series"], v["baseline"] / 1048576, v["bytes_per_series"]
  }'
  echo "Bulwark health evaluations in the measured interval: $B_EVALS (every 2 s, the production cadence, would be $(( MEASURE_S / 2 )))"
  echo "Bulwark CPU-s per M samples by thread role (JVM thread CPU time; GC and JIT threads in other): $B_ROLES"
  echo "Bulwark detectors' last evaluation (ms): $(grep '^DETECTOR_MS' "$WORK/bulwark.log" | cut -d' ' -f2-)"
  echo "Bulwark scrape interval at the end: ${B_INTERVAL:-?} ms (1000 configured; longer while it sheds load)"
  [[ -n "${DETECTION:-}" ]] && echo "Bulwark detection after injection (s): $DETECTION"
fi
echo "Logs: $WORK"
