#!/usr/bin/env bash
# The cluster benchmark (docs/cluster.md): one node alone, then three nodes at once, each holding
# N live two-player matches on this machine, with a throw-away Redis and a throw-away PostgreSQL
# (initdb in a temporary folder, run as the postgres user when run as root; fsync off, as in the
# tests) that the nodes share. Each node is loaded by its own duelhall-loadgen processes, each
# under its own open-file limit (a process may have 20,000: 9,900 matches are 19,800
# connections). Prints actions/s, p99 (action to the opponent's update) and server memory per
# live match, for the one node and for the three, and the machine's load average.
#
# Usage: scripts/bench-cluster.sh [matches per node (default 9900)] [nodes (default 3)]
# Environment: BUILD_DIR (default build/bench-server; relative to the repository or absolute; its
# binaries are built only when missing, or with REBUILD=1), LOADGENS (per node; default one per 4,950
# matches), RATE (actions per match per second, default 0.1: one action every 10 s, so that 9,900
# matches offer a node about 990 actions/s), WARMUP and DURATION (seconds, default the larger of
# 5 and 1/RATE, and the larger of 15 and 3/RATE), MAX_OPENING (matches being set up at once per
# loadgen, default 100), OPEN_TIMEOUT (seconds allowed for opening, default 900).
# Every loadgen opens its matches, then waits (--start-file) until every loadgen of the phase has
# opened its own: all of them warm up and measure the same window, with no opening under way.
set -euo pipefail
cd "$(dirname "$0")/.."
per_node=${1:-9900}
nodes=${2:-3}
loadgens=${LOADGENS:-$(((per_node + 4949) / 4950))}
rate=${RATE:-0.1}
warmup=${WARMUP:-$(awk -v r="$rate" 'BEGIN { w = 1 / r; print (w > 5) ? w : 5 }')}
duration=${DURATION:-$(awk -v r="$rate" 'BEGIN { d = 3 / r; print (d > 15) ? d : 15 }')}
max_opening=${MAX_OPENING:-100}
open_timeout=${OPEN_TIMEOUT:-900}
# BUILD_DIR: relative to the repository or absolute. Its binaries are used as they are; they are
# built (configured first if need be) only when one is missing, or when REBUILD=1.
build=${BUILD_DIR:-build/bench-server}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
server_bin=$build/server/app/duelhall
loadgen_bin=$build/clients/loadgen/duelhall-loadgen
if [ "${REBUILD:-0}" = 1 ] || [ ! -x "$server_bin" ] || [ ! -x "$loadgen_bin" ]; then
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
      -DDUELHALL_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$build" --target duelhall duelhall-loadgen --parallel 2 >/dev/null
fi

files=$(ulimit -Hn | awk '{ print ($1 == "unlimited" || $1 > 20000) ? 20000 : $1 }')
if [ $((2 * per_node / loadgens + 100)) -gt "$files" ]; then
  echo "$((per_node / loadgens)) matches per loadgen need more than $files open files: raise LOADGENS"
  exit 2
fi
# Every load-generator connection to a node comes from 127.0.0.1 to the node's port: one local
# port each, out of the ephemeral range (a port may serve connections to different nodes at once).
read -r port_low port_high </proc/sys/net/ipv4/ip_local_port_range
if [ $((2 * per_node)) -gt $((port_high - port_low + 1)) ]; then
  echo "$((2 * per_node)) connections to one node need more than the $((port_high - port_low + 1))" \
    "local ports of net.ipv4.ip_local_port_range ($port_low to $port_high)"
  exit 2
fi
echo "$nodes nodes x $per_node matches, $loadgens loadgen(s) per node, $rate action(s) per match" \
  "per second (warm-up $warmup s, measured $duration s); open files per process: $files;" \
  "$(nproc) cores; $(awk '$1 == "MemTotal:" { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo);" \
  "$(uptime | sed 's/.*load/load/')"

work=$(mktemp -d /tmp/duelhall-bench-cluster-XXXXXX)
chmod 755 "$work"
pids=()
pg_dir=
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg_dir" ]; then as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop \
    >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The throw-away Redis: nothing saved.
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
  --loglevel warning >"$work/redis.log" 2>&1 &
redis_pid=$!
pids+=("$redis_pid")
# The throw-away PostgreSQL: Debian's highest version.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg_dir=$work/pg
mkdir -p "$pg_dir"
[ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -U duelhall -A trust -E UTF8 --no-sync \
  --no-instructions >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; exit 1; }
pg_port=$(free_port)
as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -o "-p $pg_port -k $pg_dir \
  -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null
psql_admin() { "$pg_bin/psql" -q -h 127.0.0.1 -p "$pg_port" -U duelhall -d postgres -c "$1"; }

# start_node PHASE NAME: a node on a free port in the phase's database; sets node_pid, node_port.
start_node() {
  local phase=$1 name=$2 log=$work/$1-$2.log
  node_port=$(free_port)
  (
    ulimit -n "$files"
    exec nice -n 10 "$server_bin" --bind 127.0.0.1 --port "$node_port" --data "$work/$phase-$name" \
      --cluster "redis://127.0.0.1:$redis_port" --node-name "$name" --placement local \
      --cluster-secret "the bench cluster's shared secret" \
      --database "postgresql://duelhall@127.0.0.1:$pg_port/$phase" --log-level warn \
      --max-connections 20000 --max-connections-per-ip 20000 --drain-seconds 1
  ) >"$log" 2>&1 &
  node_pid=$!
  pids+=("$node_pid")
  for _ in $(seq 300); do
    if curl -sf "http://127.0.0.1:$node_port/readyz" >/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "node $name did not become ready:"
  cat "$log"
  exit 1
}

# cpu_ticks PID...: their CPU time (user + system) in clock ticks; busy_idle: the machine's busy
# and idle ticks (/proc/stat), for the CPU shares over the measured window.
cpu_ticks() {
  local pid
  for pid in "$@"; do awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true; done |
    awk '{ s += $1 } END { print s + 0 }'
}
busy_idle() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
pg_pids() {
  local postmaster
  postmaster=$(head -1 "$pg_dir/data/postmaster.pid")
  echo "$postmaster" $(pgrep -P "$postmaster")
}
# cores TICKS_BEFORE TICKS_AFTER SECONDS: the cores they kept busy on average.
cores() { awk -v a="$1" -v b="$2" -v s="$3" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / t / s }'; }

# val KEY LINE: the value of KEY in a RESULT line.
val() { echo "$2" | grep -o " $1=[^ ]*" | cut -d= -f2; }
kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

# run_phase PHASE COUNT: COUNT nodes, each held at $per_node matches by $loadgens loadgens at once.
run_phase() {
  local phase=$1 count=$2 node_pids=() node_ports=() idle=() lg=()
  psql_admin "CREATE DATABASE $phase"
  for n in $(seq "$count"); do
    start_node "$phase" "node-$n"
    node_pids+=("$node_pid")
    node_ports+=("$node_port")
  done
  sleep 2 # every node has seen every other's heartbeat
  for n in $(seq "$count"); do idle+=("$(kib "${node_pids[$((n - 1))]}" VmRSS)"); done
  local load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  local pace=(--rate "$rate")
  [ "$rate" = 1 ] && pace=(--paced)
  local go=$work/$phase-go opened_at=$SECONDS
  for n in $(seq "$count"); do
    for g in $(seq "$loadgens"); do
      local share=$((per_node / loadgens + (g <= per_node % loadgens ? 1 : 0)))
      (
        ulimit -n "$files"
        exec nice -n 10 "$loadgen_bin" --port "${node_ports[$((n - 1))]}" --matches "$share" \
          "${pace[@]}" --warmup "$warmup" --duration "$duration" --max-opening "$max_opening" \
          --open-timeout "$open_timeout" --start-file "$go" --seed "$n$g"
      ) >"$work/$phase-load-$n-$g.txt" 2>&1 &
      lg+=($!)
    done
  done
  # The window starts once every loadgen has opened its matches (or given up).
  local i waiting=1
  while [ "$waiting" = 1 ]; do
    waiting=0
    i=0
    for n in $(seq "$count"); do
      for g in $(seq "$loadgens"); do
        if ! grep -q '^opened ' "$work/$phase-load-$n-$g.txt" && kill -0 "${lg[$i]}" 2>/dev/null; then
          waiting=1
        fi
        i=$((i + 1))
      done
    done
    if [ "$waiting" = 1 ]; then sleep 1; fi
  done
  local open_seconds=$((SECONDS - opened_at)) load_opened
  load_opened=$(cut -d' ' -f1-3 /proc/loadavg)
  touch "$go"
  # CPU over the measured window (it starts once the loadgens have warmed up): each node, Redis,
  # PostgreSQL, and the whole machine (busy and idle ticks of both cores, whoever ran).
  sleep "$warmup"
  local pg_now node_cpu0=() redis_cpu0 pg_cpu0 machine0 window_start=$SECONDS
  pg_now=$(pg_pids)
  for pid in "${node_pids[@]}"; do node_cpu0+=("$(cpu_ticks "$pid")"); done
  redis_cpu0=$(cpu_ticks "$redis_pid")
  pg_cpu0=$(cpu_ticks $pg_now)
  machine0=$(busy_idle)
  sleep "$duration"
  local window_seconds=$((SECONDS - window_start)) node_cores="" nodes_cores=0 machine1
  for n in $(seq "$count"); do
    local c
    c=$(cores "${node_cpu0[$((n - 1))]}" "$(cpu_ticks "${node_pids[$((n - 1))]}")" "$window_seconds")
    node_cores="$node_cores $c"
    nodes_cores=$(awk -v a="$nodes_cores" -v b="$c" 'BEGIN { print a + b }')
  done
  local redis_cores pg_cores
  redis_cores=$(cores "$redis_cpu0" "$(cpu_ticks "$redis_pid")" "$window_seconds")
  pg_cores=$(cores "$pg_cpu0" "$(cpu_ticks $(pg_pids))" "$window_seconds")
  machine1=$(busy_idle)
  local machine
  machine=$(awk -v a="$machine0" -v b="$machine1" 'BEGIN { split(a, x, " "); split(b, y, " ");
    busy = y[1] - x[1]; idle = y[2] - x[2]; printf "%.0f", 100 * busy / (busy + idle) }')
  for pid in "${lg[@]}"; do wait "$pid" || true; done
  local load_after
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  echo
  echo "== $phase: $count node(s) x $per_node matches"
  local total_rate=0 worst_p99=0 opened_all=0 live_all=0 failed_all=0 loadgen_cores=0
  for n in $(seq "$count"); do
    local opened=0 live=0 failed=0 node_rate=0 p99s=""
    for g in $(seq "$loadgens"); do
      local line
      line=$(grep '^RESULT' "$work/$phase-load-$n-$g.txt" || true)
      if [ -z "$line" ]; then
        echo "  node-$n loadgen $g gave no result:"
        tail -5 "$work/$phase-load-$n-$g.txt" | sed 's/^/    /'
        continue
      fi
      opened=$((opened + $(val opened "$line")))
      live=$((live + $(val live_end "$line")))
      failed=$((failed + $(val failed "$line")))
      node_rate=$(awk -v a="$node_rate" -v b="$(val actions_per_s "$line")" 'BEGIN { print a + b }')
      p99s="$p99s $(val p99_ms "$line")"
      loadgen_cores=$(awk -v a="$loadgen_cores" -v r="$(val actions_per_s "$line")" \
        -v u="$(val loadgen_cpu_us_per_action "$line")" 'BEGIN { print a + r * u / 1e6 }')
      worst_p99=$(awk -v a="$worst_p99" -v b="$(val p99_ms "$line")" 'BEGIN { print (b > a) ? b : a }')
    done
    local pid=${node_pids[$((n - 1))]} peak
    peak=$(kib "$pid" VmHWM)
    local per_match
    per_match=$(awk -v p="$peak" -v i="${idle[$((n - 1))]}" -v m="$opened" \
      'BEGIN { if (m > 0) printf "%.1f", (p - i) / m; else print "n/a" }')
    echo "  node-$n: opened $opened, live at the end $live, failed $failed; $node_rate actions/s;" \
      "p99 per loadgen:$p99s ms; memory $((idle[$((n - 1))] / 1024)) MiB idle, $((peak / 1024))" \
      "MiB peak: $per_match KiB per live match"
    echo "RESULT phase=$phase node=node-$n opened=$opened live_end=$live failed=$failed" \
      "actions_per_s=$node_rate kib_per_match=$per_match" >>"$work/results"
    total_rate=$(awk -v a="$total_rate" -v b="$node_rate" 'BEGIN { print a + b }')
    opened_all=$((opened_all + opened))
    live_all=$((live_all + live))
    failed_all=$((failed_all + failed))
  done
  echo "  all: $live_all of $((count * per_node)) matches live at the end (opened $opened_all," \
    "failed $failed_all, in $open_seconds s); $total_rate actions/s; worst p99 $worst_p99 ms;" \
    "load average $load_before before, $load_opened once opened, $load_after after"
  printf '  CPU over the %s s window, in cores: nodes %.2f (%s), loadgens %.2f, Redis %s,' \
    "$window_seconds" "$nodes_cores" "${node_cores# }" "$loadgen_cores" "$redis_cores"
  printf ' PostgreSQL %s; the machine %s %% busy (%s cores, everyone'"'"'s)\n' "$pg_cores" "$machine" \
    "$(nproc)"
  echo "SUMMARY phase=$phase nodes=$count live=$live_all actions_per_s=$total_rate" \
    "p99_ms=$worst_p99 load_after=${load_after%% *}" >>"$work/results"
  for pid in "${node_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${node_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # The next phase starts from an empty cluster: no leases or listings of these nodes' matches.
  redis-cli -p "$redis_port" FLUSHALL >/dev/null
}

run_phase one 1
run_phase cluster "$nodes"

echo
echo "== one node against $nodes nodes (each node holding $per_node matches)"
summary() { grep "^SUMMARY phase=$1 " "$work/results" | grep -o " $2=[^ ]*" | cut -d= -f2; }
memory() {
  grep "^RESULT phase=$1 " "$work/results" | grep -o ' kib_per_match=[^ ]*' | cut -d= -f2 |
    awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n; else print "n/a" }'
}
for phase in one cluster; do
  printf '  %-8s %6s matches live, %8s actions/s, worst p99 %7s ms, %6s KiB per match, load %s\n' \
    "$phase" "$(summary $phase live)" "$(summary $phase actions_per_s)" "$(summary $phase p99_ms)" \
    "$(memory $phase)" "$(summary $phase load_after)"
done
