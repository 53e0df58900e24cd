#!/usr/bin/env bash
# Duelhall beside its peers, back to back on the same machine (docs/performance.md):
#   - Duelhall: 1,000 Jedi Duel matches, duelhall-loadgen as fast as possible;
#   - Colyseus 0.16 on Node (bench/peers/colyseus: the same two-player turn pattern as a room with
#     a per-viewer hidden hand, and its own colyseus.js load generator), 1,000 rooms;
#   - a bare Boost.Beast WebSocket echo carrying Duelhall's frame sizes (bench/peers/echo_bench.cpp:
#     one frame in, one frame of the measured update size out to each of a pair), 1,000 pairs;
# each first as fast as possible (saturation), then at the same open load: half of the
# saturation Duelhall just measured, spread over the 1,000 matches; then at the light load of 5
# actions per match per second. Prints, for each, actions/s,
# CPU per action (server and load generator apart), p50/p99 at that open load and memory per live
# match, then the medians and the ratios against Duelhall with the goals in brackets.
# Usage: [MATCHES=N] scripts/bench-peers.sh [runs (default 3)]; MATCHES (default 1,000) for all
# three. BUILD_DIR: a configured build tree with the
# benchmarks (default build/bench-peers). Needs Node 20 and npm (the Colyseus packages are
# installed from bench/peers/colyseus/package-lock.json into that folder on the first run).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
build=${BUILD_DIR:-build/bench-peers}
colyseus=bench/peers/colyseus
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target duelhall duelhall-loadgen duelhall-echo-bench --parallel 2 >/dev/null
if [ ! -d "$colyseus/node_modules/@colyseus/core" ]; then
  (cd "$colyseus" && npm ci --no-audit --no-fund >/dev/null)
fi
server_bin=$build/server/app/duelhall
loadgen_bin=$build/clients/loadgen/duelhall-loadgen
echo_bin=$build/bench/duelhall-echo-bench
ulimit -n "$(ulimit -Hn | awk '{ print ($1 == "unlimited" || $1 > 20000) ? 20000 : $1 }')"
echo "$(nproc) cores; node $(node --version); $(uptime | sed 's/.*load/load/')"

work=$(mktemp -d)
pid=
# An if, not `[ -n "$pid" ] && ...`: with no server running that list returns 1, and under set -e
# the EXIT trap then ended the script with 1 (after its medians) before removing $work.
stop() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=
  fi
}
trap 'stop; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
value() { grep -o " $2=[^ ]*" "$1" | cut -d= -f2 | sort -g |
  awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2];
                             else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
last() { tail -1 "$work/$1.results" | grep -o " $2=[^ ]*" | cut -d= -f2; }
start_duelhall() {
  rm -rf "$work/data"
  port=$(free_port)
  "$server_bin" --bind 127.0.0.1 --port "$port" --data "$work/data" --log-level warn \
    --max-connections 20000 --max-connections-per-ip 20000 >"$work/server.log" 2>&1 &
  pid=$!
  sleep 1
}
start_colyseus() {
  port=$(free_port)
  node "$colyseus/server.js" "$port" >"$work/colyseus.log" 2>&1 &
  pid=$!
  sleep 1.5
}
start_echo() {
  port=$(free_port)
  "$echo_bin" serve "$port" --threads 2 &
  pid=$!
  sleep 0.5
}
matches=${MATCHES:-1000}
window=(--warmup 2 --duration 10)

for f in duelhall colyseus echo; do
  for load in "" -open -light; do : >"$work/$f$load.results"; done
done
# The light load: 5 actions per match per second (5,000 actions/s with 1,000 matches), where a
# server spends most hours and each action pays its own wake-ups.
light=5
for run in $(seq "$runs"); do
  start_duelhall
  "$loadgen_bin" --port "$port" --server-pid "$pid" --matches $matches "${window[@]}" \
    | grep '^RESULT' >>"$work/duelhall.results" || true
  stop
  saturation=$(last duelhall actions_per_s)
  rate=$(awk -v s="${saturation:-0}" -v m=$matches 'BEGIN { printf "%.3f", (s > 0 ? s : 2000) / 2 / m }')
  update=$(last duelhall update_bytes)
  update=${update%.*}
  start_duelhall
  "$loadgen_bin" --port "$port" --server-pid "$pid" --matches $matches --rate "$rate" "${window[@]}" \
    | grep '^RESULT' >>"$work/duelhall-open.results" || true
  stop
  start_duelhall
  "$loadgen_bin" --port "$port" --server-pid "$pid" --matches $matches --rate $light "${window[@]}" \
    | grep '^RESULT' >>"$work/duelhall-light.results" || true
  stop

  start_colyseus
  node "$colyseus/loadgen.js" --port "$port" --server-pid "$pid" --matches $matches "${window[@]}" \
    >>"$work/colyseus.results" || true
  stop
  start_colyseus
  node "$colyseus/loadgen.js" --port "$port" --server-pid "$pid" --matches $matches --rate "$rate" \
    "${window[@]}" >>"$work/colyseus-open.results" || true
  stop
  start_colyseus
  node "$colyseus/loadgen.js" --port "$port" --server-pid "$pid" --matches $matches --rate $light \
    "${window[@]}" >>"$work/colyseus-light.results" || true
  stop

  start_echo
  "$echo_bin" drive "$port" --pairs $matches --action 20 --update "${update:-64}" --seconds 10 \
    --server-pid "$pid" >>"$work/echo.results" || true
  stop
  start_echo
  "$echo_bin" drive "$port" --pairs $matches --action 20 --update "${update:-64}" --seconds 10 \
    --rate "$rate" --server-pid "$pid" >>"$work/echo-open.results" || true
  stop
  start_echo
  "$echo_bin" drive "$port" --pairs $matches --action 20 --update "${update:-64}" --seconds 10 \
    --rate $light --server-pid "$pid" >>"$work/echo-light.results" || true
  stop
  for peer in duelhall colyseus echo; do
    echo "run $run: $peer: $(last $peer actions_per_s) actions/s, server $(last $peer server_cpu_us_per_action) us" \
      "+ load generator $(last $peer loadgen_cpu_us_per_action) us per action," \
      "$(last $peer rss_per_match_kib) KiB per match; open load $rate per match per second:" \
      "$(last $peer-open actions_per_s) actions/s, p50 $(last $peer-open p50_ms) ms, p99 $(last $peer-open p99_ms) ms;" \
      "light load: $(last $peer-light actions_per_s) actions/s, server $(last $peer-light server_cpu_us_per_action) us per action"
  done
done

echo
echo "== medians of $runs runs, $matches matches each (load average at the end $(uptime | sed 's/.*average: //'))"
for peer in duelhall colyseus echo; do
  f="$work/$peer.results"
  o="$work/$peer-open.results"
  echo "$peer: $(value "$f" actions_per_s) actions/s at saturation; CPU per action server" \
    "$(value "$f" server_cpu_us_per_action) us, load generator $(value "$f" loadgen_cpu_us_per_action) us;" \
    "memory $(value "$f" rss_per_match_kib) KiB per live match; open load $(value "$o" actions_per_s)" \
    "actions/s: p50 $(value "$o" p50_ms) ms, p99 $(value "$o" p99_ms) ms, p99.9 $(value "$o" p999_ms) ms" \
    "(server $(value "$o" server_cpu_us_per_action) us per action); light load" \
    "$(value "$work/$peer-light.results" actions_per_s) actions/s: server" \
    "$(value "$work/$peer-light.results" server_cpu_us_per_action) us per action, update" \
    "$(value "$f" update_bytes) bytes"
done
dh_cpu=$(value "$work/duelhall.results" server_cpu_us_per_action)
cs_cpu=$(value "$work/colyseus.results" server_cpu_us_per_action)
ec_cpu=$(value "$work/echo.results" server_cpu_us_per_action)
dh_light=$(value "$work/duelhall-light.results" server_cpu_us_per_action)
cs_light=$(value "$work/colyseus-light.results" server_cpu_us_per_action)
ec_light=$(value "$work/echo-light.results" server_cpu_us_per_action)
dh_update=$(value "$work/duelhall.results" update_bytes)
cs_update=$(value "$work/colyseus.results" update_bytes)
dh_mem=$(value "$work/duelhall.results" rss_per_match_kib)
cs_mem=$(value "$work/colyseus.results" rss_per_match_kib)
awk -v d="$dh_cpu" -v c="$cs_cpu" -v e="$ec_cpu" -v dm="$dh_mem" -v cm="$cs_mem" \
  -v dl="$dh_light" -v cl="$cs_light" -v el="$ec_light" -v du="$dh_update" -v cu="$cs_update" 'BEGIN {
  if (d > 0 && c > 0) printf "actions per server CPU-second, Duelhall / Colyseus: %.2f [>= 4]\n", c / d
  if (dm > 0 && cm > 0) printf "memory per live match, Duelhall / Colyseus: %.2f [<= 0.25]\n", dm / cm
  if (e > 0) printf "server CPU per action, Duelhall / echo: %.2f [<= 2]\n", d / e
  if (dl > 0 && cl > 0) printf "server CPU per action at the light load, Duelhall / Colyseus: %.2f\n", dl / cl
  if (dl > 0 && el > 0) printf "server CPU per action at the light load, Duelhall / echo: %.2f\n", dl / el
  if (du > 0 && cu > 0) printf "bytes per update, Duelhall / Colyseus: %.2f\n", du / cu
}'
